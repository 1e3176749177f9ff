"""`cellwars bench` refuses a filter that matches nothing instead of printing an empty table."""

from __future__ import annotations

from cellwars_tui.bench import run_bench


def test_bench_only_matching_nothing_is_an_error(capsys):
    assert run_bench(only=["no-such-benchmark-zzz"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "cellwars bench: no benchmark matches 'no-such-benchmark-zzz'"


def test_bench_only_takes_a_games_id_as_written_on_the_command_line():
    from cellwars_tui.bench import collect

    names = {f"{f.__module__}.{f.__name__}" for f in collect(["virus-fight"])}
    assert names and all(".virus_fight." in n for n in names)
    assert names == {f"{f.__module__}.{f.__name__}" for f in collect(["virus_fight"])}
