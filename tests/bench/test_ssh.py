"""The smaller load test that goes with ``cellwars bench --only ssh`` (issue 9): real sessions on
a real server with the zygote, measured as the bench measures them, without timing assertions
(the bench reports the times; a loaded CI machine must not fail the suite on them)."""

from __future__ import annotations

import asyncio

import pytest

from cellwars_tui.bench import ssh as bench


@pytest.mark.slow
def test_ten_sessions_at_once_all_get_their_first_frame_and_each_child_stays_under_30_mib():
    times, failures, pss_kib, _spent, _per_session = asyncio.run(bench._concurrent(10, 0.0))
    assert failures == 0 and len(times) == 10
    assert 0 < pss_kib < 30 * 1024


@pytest.mark.slow
def test_twenty_connect_disconnect_cycles_leave_no_orphan_and_no_open_file():
    churn = asyncio.run(bench._churn(20))
    assert churn["orphans"] == 0
    assert churn["fd_growth"] <= 0
