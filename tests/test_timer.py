"""The async timer service, driven by a fake clock (nothing here sleeps for real)."""

from __future__ import annotations

import pytest

from cellwars_tui.timer import EXPIRED, IDLE, PAUSED, RUNNING, FakeClock, Timer, format_clock


def make(duration=10.0, interval=0.1, **kw):
    clock = FakeClock(**kw)
    return clock, Timer(duration, interval=interval, clock=clock)


async def test_start_counts_down_remaining_time():
    clock, timer = make(10)
    assert timer.state == IDLE and timer.remaining() == 10
    timer.start()
    assert timer.state == RUNNING
    await clock.advance(3.25)
    assert timer.remaining() == pytest.approx(6.75)
    assert timer.elapsed() == pytest.approx(3.25)
    timer.close()


async def test_ticks_reach_subscribers_at_the_interval():
    clock, timer = make(10, interval=0.5)
    ticks = []
    timer.subscribe(ticks.append)
    timer.start()
    await clock.advance(2.0)
    assert [t.index for t in ticks] == [0, 1, 2, 3, 4]
    assert [t.remaining for t in ticks] == pytest.approx([10, 9.5, 9, 8.5, 8])
    timer.close()


async def test_unsubscribe_stops_ticks():
    clock, timer = make(10, interval=1)
    ticks = []
    stop = timer.subscribe(ticks.append)
    timer.start()
    await clock.advance(2)
    stop()
    await clock.advance(3)
    assert len(ticks) == 3
    timer.close()


async def test_expiry_fires_callbacks_and_sets_the_event():
    clock, timer = make(5, interval=1)
    fired = []
    timer.on_expire(lambda: fired.append(clock.now()))
    timer.start()
    await clock.advance(4.9)
    assert not fired and not timer.expired.is_set()
    await clock.advance(0.2)
    assert fired == [pytest.approx(5.0)]
    assert timer.expired.is_set() and timer.state == EXPIRED and timer.remaining() == 0
    await clock.advance(10)
    assert len(fired) == 1  # once only
    timer.close()


async def test_pause_freezes_remaining_time_and_ticks():
    clock, timer = make(10, interval=1)
    ticks = []
    timer.subscribe(ticks.append)
    timer.start()
    await clock.advance(3)
    timer.pause()
    assert timer.state == PAUSED
    n = len(ticks)
    await clock.advance(100)
    assert timer.remaining() == pytest.approx(7) and len(ticks) == n
    assert not timer.expired.is_set()
    timer.close()


async def test_resume_continues_from_where_it_paused():
    clock, timer = make(10, interval=1)
    fired = []
    timer.on_expire(lambda: fired.append(clock.now()))
    timer.start()
    await clock.advance(3)
    timer.pause()
    await clock.advance(50)
    timer.resume()
    await clock.advance(6.5)
    assert timer.remaining() == pytest.approx(0.5) and not fired
    await clock.advance(1)
    assert fired == [pytest.approx(60.0)]
    timer.close()


async def test_restart_begins_a_new_period():
    clock, timer = make(5, interval=1)
    count = []
    timer.on_expire(lambda: count.append(1))
    timer.start()
    await clock.advance(6)
    timer.start(8)
    assert timer.state == RUNNING and timer.remaining() == 8 and not timer.expired.is_set()
    await clock.advance(8.5)
    assert len(count) == 2
    timer.close()


async def test_ticks_do_not_drift_over_a_three_minute_round_with_late_wakeups():
    # every wake-up comes 30 ms late: adding up sleeps would drift by minutes, we stay within 50 ms
    clock, timer = make(180, interval=0.1, lateness=0.03)
    ticks = []
    timer.subscribe(ticks.append)
    timer.start()
    await clock.advance(181)
    assert timer.state == EXPIRED
    start = 0.0
    for tick in ticks[:-1]:
        assert tick.late <= 0.05
        # each tick's remaining time matches the monotonic clock, not a count of sleeps
        assert tick.remaining == pytest.approx(180 - (start + tick.index * 0.1 + tick.late), abs=1e-6)
    assert ticks[-1].remaining == 0 and ticks[-1].late <= 0.05
    assert timer.max_late <= 0.05
    assert len(ticks) >= 1700  # about one per interval


async def test_play_time_callbacks_wait_while_paused():
    clock, timer = make(100, interval=1)
    calls = []
    timer.start()
    timer.after(2.0, lambda: calls.append(clock.now()))
    await clock.advance(1)
    timer.pause()
    await clock.advance(30)
    assert calls == []
    timer.resume()
    await clock.advance(1.5)
    assert calls == [pytest.approx(32.0)]
    timer.close()


async def test_play_time_callbacks_can_be_cancelled_and_chain():
    clock, timer = make(100, interval=1)
    calls = []
    timer.start()
    handle = timer.after(1.0, lambda: calls.append("no"))
    handle.cancel()

    def again():
        calls.append(round(clock.now(), 3))
        if len(calls) < 3:
            timer.after(0.5, again)

    timer.after(0.5, again)
    await clock.advance(5)
    assert calls == [0.5, 1.0, 1.5]
    timer.close()


async def test_play_time_excludes_pauses_and_stops_at_expiry():
    clock, timer = make(10, interval=1)
    await clock.advance(5)  # before start: no play time
    assert timer.play_time() == 0
    timer.start()
    await clock.advance(4)
    timer.pause()
    await clock.advance(20)
    timer.resume()
    await clock.advance(10)
    assert timer.play_time() == pytest.approx(10)


def test_format_clock_rounds_up():
    assert format_clock(180) == "3:00"
    assert format_clock(59.2) == "1:00"
    assert format_clock(0.01) == "0:01"
    assert format_clock(0) == "0:00"


def test_bad_durations_are_refused():
    with pytest.raises(ValueError):
        Timer(0)
    with pytest.raises(ValueError):
        Timer(5, interval=0)


async def test_ticks_do_not_drift_on_the_real_clock_briefly():
    # the one test that really waits (0.6 s): ticks follow time.monotonic, not a sum of sleeps
    import time

    from cellwars_tui.timer import MonotonicClock

    timer = Timer(0.6, interval=0.05, clock=MonotonicClock())
    seen = []
    timer.subscribe(lambda tick: seen.append((time.monotonic(), tick)))
    t0 = time.monotonic()
    timer.start()
    await timer.expired.wait()
    took = time.monotonic() - t0
    # (bounds are loose: a loaded CI machine may wake the loop late; what must hold is that
    # each tick reports its own lateness against the monotonic schedule, so none accumulates)
    assert 0.6 <= took <= 0.6 + max(0.05, timer.max_late) + 0.5
    for at, tick in seen[:-1]:
        assert abs((at - t0) - (tick.index * 0.05 + tick.late)) <= 0.03
    assert len(seen) >= 10
    timer.close()


async def test_pause_and_resume_repeatedly_keep_the_total_play_time_exact():
    clock, timer = make(180, interval=0.1)
    fired = []
    timer.on_expire(lambda: fired.append(clock.now()))
    timer.start()
    for _ in range(8):  # eight 20-second stretches of play, each followed by a 7-second pause
        await clock.advance(20)
        timer.pause()
        await clock.advance(7)
        timer.resume()
    assert timer.remaining() == pytest.approx(20) and not fired
    await clock.advance(21)
    assert fired == [pytest.approx(180 + 8 * 7)]
    assert timer.play_time() == pytest.approx(180)
    timer.close()


async def test_pause_and_resume_outside_a_running_period_do_nothing():
    clock, timer = make(10, interval=1)
    timer.pause()
    assert timer.state == IDLE
    timer.resume()
    assert timer.state == IDLE
    timer.start()
    timer.resume()
    assert timer.state == RUNNING
    timer.close()


async def test_cut_leaves_at_most_so_many_seconds_running_or_paused_and_keeps_play_time():
    clock, timer = make(60, interval=1)
    fired = []
    timer.on_expire(lambda: fired.append(clock.now()))
    timer.start()
    await clock.advance(10)
    timer.cut(5)  # a lesson winds the sand on
    assert timer.remaining() == pytest.approx(5)
    timer.cut(30)  # never gives time back
    assert timer.remaining() == pytest.approx(5)
    assert timer.play_time() == pytest.approx(10)
    timer.pause()
    timer.cut(2)
    assert timer.remaining() == pytest.approx(2)
    timer.resume()
    await clock.advance(2.1)
    assert fired == [pytest.approx(12.0)] and timer.play_time() == pytest.approx(12, abs=0.2)
    timer.close()
