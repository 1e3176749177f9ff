"""The round session, headless, on a fake clock (nothing waits for real time): bots' action times
for a seed, the same at any tick rate; pause for several reasons; the dice-landing wait; time-up;
a resumed round's time; clock steps."""

from __future__ import annotations

import random

import pytest

from cellwars_tui.core.errors import IllegalAction
from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.infection import clarifications as C
from cellwars_tui.games.infection import rules as R
from cellwars_tui.table import HIDDEN, PLAYER, LocalTable, RoundSession
from cellwars_tui.timer import FakeClock

BOT = Seat(name="bot", kind="bot", bot="mcts")


def _table(players: int = 2, humans: tuple[int, ...] = (), seed: int = 7,
           **options) -> LocalTable:
    seats = [Seat(name=f"P{i + 1}") if i in humans else BOT for i in range(players)]
    match = Match(R.GAME, R.InfectionOptions(players=players, **options), seats, seed)
    return LocalTable(match, autosave=False)


def _session(table: LocalTable) -> RoundSession:
    session = table.round_clock()
    assert isinstance(session, RoundSession) and table.owns_time
    return session


def _moves(table: LocalTable) -> list[tuple[int, float, str]]:
    """(seat, play time, action) of every player's step."""
    return [(s.seat, s.t, R.GAME.action_to_str(s.action)) for s in table.match.steps
            if s.seat >= 0]


async def _play_bots(seed: int, tick: float, seconds: float = 40.0,
                     paces: str = "fast,easy") -> LocalTable:
    table = _table(seed=seed, paces=paces, round_seconds=60)
    clock = FakeClock()
    _session(table).start(clock=clock, tick=tick)
    await clock.advance(seconds)
    _session(table).stop()
    return table


async def test_a_seed_gives_the_bots_the_same_action_times_at_any_tick_rate():
    """Bots act on the clock's play time, drawn from an RNG seeded by the match: the same seed
    gives the same moves at the same times whether the screen repaints 2 or 40 times a second
    (and the SSH hub, driving the same session, can be held to these times)."""
    slow = await _play_bots(seed=11, tick=0.5)
    fast = await _play_bots(seed=11, tick=0.025)
    moves = _moves(slow)
    assert len(moves) > 20 and moves == _moves(fast)
    assert _moves(await _play_bots(seed=12, tick=0.5)) != moves
    # each bot waits its pace (less the jitter) between two actions, and a roll's landing
    for seat, pace in ((0, "hard"), (1, "easy")):
        mine = [(t, a) for s, t, a in moves if s == seat]
        first_wait = C.PACES[pace] * (1 - C.PACE_JITTER)
        assert mine[0][0] >= first_wait - 1e-3
        for (t0, a0), (t1, _) in zip(mine, mine[1:]):
            wait = first_wait + (C.TUMBLE_SECONDS if a0.split()[0] in ("white", "roll",
                                                                        "rewhite") else 0)
            assert t1 - t0 >= wait - 1e-3, (seat, t0, a0, t1)
    print("seed 11 bot actions (seat, play time, action):", moves[:8])


async def test_the_first_round_ends_on_its_time_up_with_the_time_recorded():
    table = _table(seed=3, round_seconds=30, paces="easy")
    clock = FakeClock()
    session = _session(table)
    session.start(clock=clock, tick=1.0)
    assert session.remaining() == 30  # (the opening shuffles are timed at the start)
    await clock.advance(29.9)
    assert table.match.state.round == 1
    await clock.advance(0.2)
    if not table.match.state.result:
        time_up = [s for s in table.match.steps if isinstance(s.action, R.TimeUp)]
        assert len(time_up) == 1 and time_up[0].t == pytest.approx(30, abs=0.01)
        assert table.match.state.round == 2 and session.remaining() == pytest.approx(29.9, abs=0.2)
    session.stop()


async def test_pause_holds_while_any_reason_holds():
    table = _table(seed=5, paces="fast")
    clock = FakeClock()
    session = _session(table)
    session.start(clock=clock, tick=0.5)
    await clock.advance(3)
    steps, left = table.match.cursor, session.remaining()
    session.set_paused(PLAYER, True)
    session.set_hidden(True)
    assert table.paused  # the screen's line says why
    await clock.advance(20)
    assert table.match.cursor == steps and session.remaining() == left  # bots wait too
    session.set_paused(PLAYER, False)  # the table still cannot be seen
    await clock.advance(20)
    assert table.match.cursor == steps and session.remaining() == left
    assert table.paused == "paused: the table cannot be seen"
    session.set_hidden(False)
    assert table.paused == ""
    await clock.advance(3)
    assert table.match.cursor > steps and session.remaining() < left
    # play time left the pauses out: every step is within the 6 s played
    assert max(s.t for s in table.match.steps) <= 6 + 1e-6
    session.stop()


async def test_a_player_cannot_act_while_paused_or_while_the_dice_are_in_the_air():
    table = _table(players=1, humans=(0,), seed=2)
    clock = FakeClock()
    session = _session(table)
    session.start(clock=clock, tick=0.5)
    table.request_pause(True)
    with pytest.raises(IllegalAction, match="paused"):
        table.submit(0, R.RollWhite())
    table.request_pause(False)
    table.submit(0, R.RollWhite())
    landing = session.landing(0)
    assert landing is not None and landing.until == pytest.approx(C.TUMBLE_SECONDS)
    action = R.GAME.legal_actions(table.match.state, 0)[0]
    with pytest.raises(IllegalAction, match="landing"):
        table.submit(0, action)
    landed: list[tuple[int, ...]] = []
    session.subscribe(landed.append)
    await clock.advance(C.TUMBLE_SECONDS + 0.5)
    assert session.landing(0) is None and (0,) in landed
    table.submit(0, action)  # landed: it plays
    session.stop()


async def test_a_resumed_round_goes_on_with_the_time_it_had_left_and_idle_time_is_kept():
    from cellwars_tui.record.format import decode_record, encode_record, match_to_record, \
        record_to_match

    table = _table(players=1, humans=(0,), seed=2, round_seconds=60)
    clock = FakeClock()
    session = _session(table)
    session.start(clock=clock, tick=0.5)
    table.submit(0, R.RollWhite())
    await clock.advance(20)  # idle: clock steps keep the time reached (one, moved on)
    clocks = [s for s in table.match.steps if isinstance(s.action, R.Clock)]
    assert len(clocks) == 1 and 20 - clocks[0].t <= R.GAME.clock_step_seconds + 0.5
    session.stop()  # leaving records the exact time reached
    assert isinstance(table.match.steps[-1].action, R.Clock)
    assert table.match.steps[-1].t == pytest.approx(20, abs=0.01)
    again = record_to_match(decode_record(encode_record(match_to_record(table.match))))
    resumed = LocalTable(again, autosave=False)
    session = _session(resumed)
    session.start(clock=FakeClock(), tick=0.5)
    assert session.remaining() == pytest.approx(40, abs=0.01)
    session.stop()


def test_only_a_real_time_game_being_played_here_has_a_session():
    from tests.ui.helpers import toy_match

    assert LocalTable(toy_match(), autosave=False).round_clock() is None
    match = _table().match
    assert LocalTable(match, read_only=True, autosave=False).round_clock() is None
    assert HIDDEN != PLAYER


async def test_an_online_seat_follows_the_hubs_clock_and_lands_its_own_dice():
    """At a table of the hub the screen's clock ticks while the hub's round runs, stands still
    while the hub pauses the game, and the seat's own roll lands before its next action."""
    import msgspec

    from cellwars_tui.table import FollowingClock
    from tests.table.fake_hub import FakeHub

    match = Match(R.GAME, R.InfectionOptions(players=2), [Seat(name="Ann"), BOT], 4)
    clock = FakeClock()
    hub = FakeHub(match, you=0, now=clock.now)  # (its countdown between two hub states)

    def state(**changes):
        hub.clock = {k: v for k, v in changes.items() if k.startswith("clock")}
        return msgspec.structs.replace(hub.state(), **changes)

    remote = hub.table
    remote.update(state(clock=30.0, clock_running=True))
    follow = remote.round_clock()
    assert isinstance(follow, FollowingClock) and not follow.owns_time
    ticks: list[tuple[int, ...]] = []
    follow.subscribe(ticks.append)
    follow.start(clock=clock, tick=0.5)
    await clock.advance(2)
    assert len(ticks) >= 3 and follow.remaining() == pytest.approx(28, abs=0.01)
    remote.update(state(clock=28.0, clock_running=False, paused="paused: waiting for Bob"))
    seen = len(ticks)
    await clock.advance(5)
    assert len(ticks) == seen and follow.remaining() == 28.0  # nothing moves while paused
    remote.update(state(clock=28.0, clock_running=True))
    remote.submit(0, R.RollWhite())
    assert follow.landing(0) is not None
    hub.answer()
    with pytest.raises(IllegalAction, match="landing"):
        remote.submit(0, R.GAME.legal_actions(match.state, 0)[0])
    await clock.advance(C.TUMBLE_SECONDS + 0.5)
    assert follow.landing(0) is None and len(ticks) > seen
    follow.stop()


async def test_a_hub_drives_the_same_session_with_bots_thinking_elsewhere():
    """What the online hub's table authority does: own the match, play through its own
    function (check, play, acted, follow, as the local table does), let bots think in an awaited call (its worker
    pool), pause while a player is away. For a seed, its bots act as the local table's do."""
    import asyncio

    from cellwars_tui.ai.levels import make_bot
    from cellwars_tui.core.api import CHANCE
    from cellwars_tui.table import AWAY
    from cellwars_tui.table.local import REALTIME_BOT_BUDGET

    local = await _play_bots(seed=11, tick=0.5, seconds=20)
    match = Match(R.GAME, R.InfectionOptions(players=2, paces="fast,easy", round_seconds=60),
                  [BOT, BOT], 11)

    def play(seat: int, action, replace_clock: bool = False) -> None:
        session.check(seat)
        before = match.state
        last = match.steps[-1] if match.steps else None
        if replace_clock and last is not None and last.seat == CHANCE \
                and type(last.action) is type(action):
            match.seek(match.cursor - 1)  # (as the table authority does)
        match.play(seat, action)
        if seat != CHANCE:
            session.acted(seat, action, R.GAME.view(before, None))
        session.follow()

    async def think(seat: int, view):
        await asyncio.sleep(0)  # (a worker process answers later)
        rng = random.Random(f"cellwars-bot/{match.seed}/{match.cursor}/{seat}")
        return make_bot("mcts").choose(R.GAME, view, seat, rng, REALTIME_BOT_BUDGET)

    session = RoundSession(R.GAME, match, play=play, think=think, bots=(0, 1))
    clock = FakeClock()
    session.start(clock=clock, tick=1.0)
    await clock.advance(20)
    hub_moves = [(s.seat, s.t, R.GAME.action_to_str(s.action)) for s in match.steps
                 if s.seat >= 0]
    local_moves = [m for m in _moves(local) if m[1] <= 20]
    assert len(hub_moves) > 10 and hub_moves == local_moves
    # a player away: nobody acts, the time stands still, until they are back
    session.set_paused(AWAY, True)
    steps, left = match.cursor, session.remaining()
    await clock.advance(30)
    assert match.cursor == steps and session.remaining() == left
    session.set_paused(AWAY, False)
    session.set_bots((0,))  # seat 2 taken over by a person
    await clock.advance(10)
    later = [s.seat for s in match.steps[steps:] if s.seat >= 0]
    assert later and set(later) == {0}
    session.stop()


async def test_a_session_winds_its_round_on_and_the_time_up_comes_then():
    table = _table(humans=(0, 1), round_seconds=60)
    session = _session(table)
    clock = FakeClock()
    session.wind_to(5)  # not started: nothing to wind
    session.start(clock=clock, tick=0.5)
    await clock.advance(10)
    session.wind_to(3)
    assert session.remaining() == pytest.approx(3)
    await clock.advance(3.5)
    assert table.match.state.round == 2
    ups = [s for s in table.match.steps if isinstance(s.action, R.TimeUp)]
    assert len(ups) == 1 and ups[0].t == pytest.approx(13, abs=0.1)
    session.stop()
