"""The crowd bench (bench/ssh_crowd.py) at its smallest: two bare Textual apps arrive at the
server and are started by its zygote as sessions are (zygote.ENV_APP), and the figures come
back. The crowd itself (250 at 10/s) is ``cellwars bench --only crowd``, never a test."""

from cellwars_tui.bench import ssh_crowd


def test_two_bare_apps_arrive_as_sessions_and_the_bench_reports_them():
    figures = ssh_crowd._run(2, ssh_crowd.BARE_APP)
    assert figures["failures"] == 0
    assert 0 < figures["median"] <= figures["slowest"] < 120
    assert figures["children_cpu"] > 0 and figures["pss_mib"] > 0
    assert "2 arriving at 10/s" in ssh_crowd._note(figures, 2)
