"""Real-time tables: one shared round timer in the hub, paused while a seated player is away."""

from __future__ import annotations

import msgspec
import pytest

from cellwars_tui.core import CHANCE, Action, Event, Game, GameType, Options, Outcome, register
from cellwars_tui.core.api import parse_error
from cellwars_tui.core.errors import IllegalAction
from cellwars_tui.core.registry import get_game
from cellwars_tui.online import protocol as p
from cellwars_tui.online.hub import round_seconds
from cellwars_tui.online.remote import RemoteTable

from .test_hub import hub, join, table_where, watch_then_sit  # noqa: F401


# -- a tiny real-time game declaring the round hooks: round_seconds, round_of, time_up
class Tap(Action, frozen=True, tag="tap"):
    pass


class TimeUp(Action, frozen=True, tag="time-up"):
    round: int


class Tapped(Event, frozen=True, tag="tapped"):
    seat: int


class RoundsOptions(Options, frozen=True, kw_only=True):
    players: int = 2
    round_seconds: float = 0.4


class RoundsState(msgspec.Struct, frozen=True):
    players: int
    round: int = 0
    taps: tuple[int, ...] = ()


class Rounds(Game[RoundsState, Tap]):
    meta = GameType(
        id="live-rounds",
        title="Live rounds",
        blurb="test only",
        min_players=2,
        max_players=2,
        real_time=True,
    )
    options_type = RoundsOptions
    state_type = RoundsState
    action_type = Tap | TimeUp
    event_type = Tapped

    def check_options(self, options):
        super().check_options(options)

    def initial_state(self, options: Options) -> RoundsState:
        return RoundsState(options.players, 0, (0,) * options.players)

    def to_act(self, s):
        return () if s.round >= 2 else tuple(range(s.players))

    def legal_actions(self, s, seat):
        return [Tap()] if seat in self.to_act(s) else []

    def is_legal(self, s, seat, a):
        if isinstance(a, TimeUp):
            return seat == CHANCE and s.round < 2 and a.round == s.round
        return seat in self.to_act(s) and isinstance(a, Tap)

    def _apply(self, s, seat, a):
        if isinstance(a, TimeUp):
            return msgspec.structs.replace(s, round=s.round + 1), ()
        taps = list(s.taps)
        taps[seat] += 1
        return msgspec.structs.replace(s, taps=tuple(taps)), (Tapped(seat),)

    def describe_event(self, e, names):
        return f"{names[e.seat]} taps"

    def round_seconds(self, options):
        return float(options.round_seconds)

    def round_of(self, s):
        return s.round

    def time_up(self, s):
        action = TimeUp(s.round)
        return action if self.is_legal(s, CHANCE, action) else None

    def outcome(self, s):
        if s.round < 2:
            return None
        return Outcome(tuple(range(s.players)), "time", tuple(float(t) for t in s.taps))

    def action_to_str(self, a):
        return f"time-up {a.round}" if isinstance(a, TimeUp) else "tap"

    def action_from_str(self, text):
        if text == "tap":
            return Tap()
        head, _, n = text.partition(" ")
        if head == "time-up" and n.isdigit():
            return TimeUp(int(n))
        raise parse_error(self, text, "expected tap or time-up N")


register(Rounds())


async def seated_pair(hub, game: str, players: int = 2, **options):  # noqa: F811
    ann = await join(hub, "key:ann", "ann")
    ben = await join(hub, "key:ben", "ben")
    ann.send(p.CreateTable(game=game, players=players, options=options))
    code = (await table_where(ann, lambda t: t.you == 0)).info.code
    await watch_then_sit(ben, code, 1)
    await table_where(ben, lambda t: t.you == 1)
    return ann, ben


def test_the_round_clock_contract():
    game = get_game("live-rounds")
    assert round_seconds(game, game.options_type(players=2, round_seconds=3)) == 3.0
    assert game.time_up(game.initial_state(game.options_type())) == TimeUp(0)
    infection = get_game("infection")
    opts = infection.options_from_dict({"players": 2})
    assert round_seconds(infection, opts) == float(opts.round_seconds)
    assert round_seconds(get_game("toy-race"), Options()) is None  # (not a real-time game)


async def test_the_hub_ends_each_round_when_the_shared_timer_runs_out(hub):  # noqa: F811
    # rounds of 2 s: a loaded machine still taps in the first (at 0.4 s it sometimes could not)
    ann, ben = await seated_pair(hub, "live-rounds", round_seconds=2.0)
    ann.send(p.Start())
    a = await table_where(ann, lambda t: bool(t.view))
    b = await table_where(ben, lambda t: bool(t.view))
    assert a.clock_running and b.clock_running and 0 < a.clock <= 2 and abs(a.clock - b.clock) < 0.5
    ann.send(p.Play(step=a.step, action="tap"))
    over = await table_where(ben, lambda t: t.outcome is not None, timeout=60)
    assert over.outcome.scores == (1.0, 0.0) and not over.clock_running
    steps = hub.tables[over.info.code].match.steps
    assert [s.seat for s in steps].count(CHANCE) == 2  # two time-up steps, played by the hub
    assert all(s.t >= 0 for s in steps)
    await ann.close()
    await ben.close()


async def test_the_timer_stops_while_a_seated_player_is_away_and_runs_on_after(hub):  # noqa: F811
    # rounds of 2 s: a loaded machine sees ben leave before the round runs out
    ann, ben = await seated_pair(hub, "live-rounds", round_seconds=2.0)
    ann.send(p.Start())
    await table_where(ann, lambda t: t.clock_running)
    await ben.close()
    paused = await table_where(ann, lambda t: bool(t.paused))
    assert not paused.clock_running and paused.clock > 0 and paused.legal == ()
    table = hub.tables[paused.info.code]
    import asyncio

    await asyncio.sleep(2.2)  # longer than the round: the paused timer does not run out
    assert table.match.state.round == 0 and table.timer.remaining() == pytest.approx(paused.clock, abs=0.02)
    ben = await join(hub, "key:ben", "ben")
    back = await table_where(ann, lambda t: not t.paused and t.clock_running)
    assert back.legal == ("tap",)
    await table_where(ann, lambda t: t.outcome is not None, timeout=60)
    await ann.close()
    await ben.close()


@pytest.mark.slow
async def test_infection_plays_on_one_shared_timer_with_a_paced_bot(hub):  # noqa: F811
    ann = await join(hub, "key:ann", "ann")
    ann.send(p.CreateTable(game="infection", players=2))
    await table_where(ann, lambda t: t.you == 0)
    ann.send(p.SetBot(seat=1, bot="mcts"))
    await table_where(ann, lambda t: t.info.seats[1].kind == "bot")
    ann.send(p.Start())
    first = await table_where(ann, lambda t: bool(t.view))
    secs = float(get_game("infection").options_from_dict({"players": 2}).round_seconds)
    assert first.clock_running and secs - 1 < first.clock <= secs
    remote = RemoteTable(first, ann.send)
    assert remote.has_timer() and remote.timer_running() and remote.time_left() <= secs
    # the bot teammate acts on its own at a human pace while the timer runs
    moved = await table_where(ann, lambda t: t.step > first.step, timeout=60)  # ann did nothing
    assert moved.clock_running and moved.clock < first.clock
    # ann drops: the game pauses and the timer stops for everyone
    code = first.info.code
    await ann.close()
    table = hub.tables[code]
    for _ in range(6000):  # until the hub has seen ann leave (60 s: a guard, not a pace)
        if table.paused():
            break
        await asyncio_sleep(0.01)
    assert table.paused() and table.timer.state == "paused"
    step = table.match.cursor
    left = table.timer.remaining()
    await asyncio_sleep(2.5)  # the bot waits too
    assert table.match.cursor == step and table.timer.remaining() == left
    ann = await join(hub, "key:ann", "ann")
    back = await table_where(ann, lambda t: t.you == 0 and t.clock_running and not t.paused)
    assert back.clock == pytest.approx(left, abs=0.1) and back.legal
    await ann.close()


async def asyncio_sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


async def test_a_seated_player_pauses_a_real_time_game_for_everyone_and_any_player_plays_on(hub):  # noqa: F811
    ann, ben = await seated_pair(hub, "live-rounds", round_seconds=30)
    ann.send(p.Start())
    running = await table_where(ben, lambda t: t.clock_running)
    table = hub.tables[running.info.code]
    ann.send(p.Pause(on=True))
    paused = await table_where(ben, lambda t: t.paused == "paused by ann")
    assert not paused.clock_running and paused.legal == () and table.timer.state == "paused"
    assert any(line.text == "ann pauses the game." for line in paused.log)
    ben.send(p.Play(step=paused.step, action="tap"))  # nobody plays while it is paused
    assert "paused by ann" in (await ben.next(p.Error)).message
    remote = RemoteTable(paused, ben.send)
    remote.request_pause(False)  # ben turns the sand timer again
    back = await table_where(ann, lambda t: any(line.text == "ben plays on." for line in t.log))
    assert not back.paused and back.clock_running and back.legal == ("tap",)
    assert table.timer.state == "running"
    await ann.close()
    await ben.close()


async def test_a_pause_for_a_player_who_is_away_lasts_until_they_are_back(hub):  # noqa: F811
    ann, ben = await seated_pair(hub, "live-rounds", round_seconds=30)
    ann.send(p.Start())
    await table_where(ann, lambda t: t.clock_running)
    await ben.close()
    state = await table_where(ann, lambda t: "waiting for ben" in t.paused)
    ann.send(p.Pause(on=False))  # playing on cannot leave ben behind
    assert "waiting for ben" in (await ann.next(p.Error)).message
    assert hub.tables[state.info.code].timer.state == "paused"
    await ann.close()


async def test_only_the_players_of_a_real_time_game_pause_it(hub):  # noqa: F811
    ann, ben = await seated_pair(hub, "live-rounds", round_seconds=30)
    ann.send(p.Pause(on=True))
    assert "no game is being played" in (await ann.next(p.Error)).message  # not started yet
    ann.send(p.Start())
    state = await table_where(ann, lambda t: t.clock_running)
    eve = await join(hub, "key:eve", "eve")
    eve.send(p.Join(code=state.info.code))
    watching = await table_where(eve, lambda t: t.you is None)
    eve.send(p.Pause(on=True))
    assert "only its players pause it" in (await eve.next(p.Error)).message
    with pytest.raises(IllegalAction):
        RemoteTable(watching, eve.send).request_pause(True)
    for c in (ann, ben, eve):
        await c.close()
    # a turn-based game waits for each move instead
    ann = await join(hub, "key:ann", "ann")
    ann.send(p.CreateTable(game="toy-race", players=2))
    await table_where(ann, lambda t: t.you == 0)
    ann.send(p.SetBot(seat=1, bot="random"))
    await table_where(ann, lambda t: t.info.seats[1].kind == "bot")
    ann.send(p.Start())
    await table_where(ann, lambda t: bool(t.view))
    ann.send(p.Pause(on=True))
    assert "only a real-time game pauses" in (await ann.next(p.Error)).message
    await ann.close()


class InProcessBots:
    """The bots' pool answering in this process, at once: on a fake clock nothing waits for a
    worker process."""

    async def choose(self, game, view, seat, bot, seed, budget):
        import random

        from cellwars_tui.ai.levels import make_bot

        return make_bot(bot).choose(game, view, seat, random.Random(seed), budget), 0

    async def close(self) -> None:
        pass


async def test_online_bots_play_at_their_chosen_pace_at_the_local_tables_times(tmp_path):
    """Issue 18: online, the bots ignored the pace chosen for them and the dice-landing wait.
    The hub now runs the same round session as a local table: for a seed, its bot acts at the
    very play times a local table's bot does."""
    from cellwars_tui.core.match import Match, Seat
    from cellwars_tui.online.hub import Hub
    from cellwars_tui.table import LocalTable
    from cellwars_tui.timer import FakeClock

    options = {"paces": "normal,fast", "round_seconds": 60}
    infection = get_game("infection")
    local = LocalTable(Match(infection, infection.options_from_dict({"players": 2, **options}),
                             [Seat(name="ann"), Seat(name="bot", kind="bot", bot="mcts")], 11),
                       autosave=False)
    local_clock = FakeClock()
    local.round_clock().start(clock=local_clock, tick=1.0)
    await local_clock.advance(25)
    local.round_clock().stop()

    clock = FakeClock()
    hub = Hub(tmp_path / "tables", sweep_interval=3600, bots=InProcessBots())
    hub.realtime_clock = clock
    hub.play.new_seed = lambda: 11  # (the game's seed: its dice, and its bots' pace)
    await hub.start()
    try:
        ann = await join(hub, "key:ann", "ann")
        ann.send(p.CreateTable(game="infection", players=2, options=options))
        await table_where(ann, lambda t: t.you == 0)
        ann.send(p.SetBot(seat=1, bot="mcts"))
        await table_where(ann, lambda t: t.info.seats[1].kind == "bot")
        ann.send(p.Start())
        await table_where(ann, lambda t: bool(t.view))
        table = next(iter(hub.tables.values()))
        await clock.advance(25)
        online = [(s.seat, s.t, infection.action_to_str(s.action)) for s in table.match.steps
                  if s.seat == 1 and s.t <= 25]
        at_home = [(s.seat, s.t, infection.action_to_str(s.action)) for s in local.match.steps
                   if s.seat == 1 and s.t <= 25]
        assert len(online) > 8 and online == at_home
        # the fast pace, and a roll's landing, between two of the bot's actions
        from cellwars_tui.games.infection import clarifications as C

        for (_, t0, a0), (_, t1, _) in zip(online, online[1:]):
            wait = C.PACES["hard"] * (1 - C.PACE_JITTER)
            if a0.split()[0] in ("white", "roll", "rewhite"):
                wait += C.TUMBLE_SECONDS
            assert t1 - t0 >= wait - 1e-3
        await ann.close()
    finally:
        await hub.close()


async def test_a_move_made_before_a_clock_step_still_stands(tmp_path):
    """Idle time is recorded as clock steps (they change nothing but the time): a move sent on
    the state seen before one is played, not refused as late."""
    from cellwars_tui.online.hub import Hub
    from cellwars_tui.timer import FakeClock

    clock = FakeClock()
    hub = Hub(tmp_path / "tables", sweep_interval=3600, bots=InProcessBots())
    hub.realtime_clock = clock
    await hub.start()
    try:
        ann, ben = await seated_pair(hub, "infection")
        ann.send(p.Start())
        seen = await table_where(ann, lambda t: bool(t.legal))
        table = hub.tables[seen.info.code]
        await clock.advance(5)  # nobody acts: the time reached is recorded
        assert table.match.cursor > seen.step
        assert type(table.match.steps[-1].action).__name__ == "Clock"
        ann.send(p.Play(step=seen.step, action="white", seq=1))
        await table_where(ann, lambda t: t.played == 1)  # (an Error would fail here)
        assert [s.action for s in table.match.steps if s.seat == 0] == [
            get_game("infection").action_from_str("white")]
        await ann.close()
        await ben.close()
    finally:
        await hub.close()


async def test_a_raw_client_that_moves_while_its_own_dice_land_is_refused_by_the_hub(tmp_path):
    """The hub holds every seat to the dice-landing wait, not only the sessions that keep it
    themselves: a raw protocol client that sends its next move while its roll still tumbles is
    refused (issue 30), and the same move goes through once the dice have landed."""
    from cellwars_tui.games.infection import clarifications as C
    from cellwars_tui.online.hub import Hub
    from cellwars_tui.timer import FakeClock

    clock = FakeClock()
    hub = Hub(tmp_path / "tables", sweep_interval=3600, bots=InProcessBots())
    hub.realtime_clock = clock
    await hub.start()
    try:
        ann, ben = await seated_pair(hub, "infection")
        ann.send(p.Start())
        seen = await table_where(ann, lambda t: "white" in t.legal)
        ann.send(p.Play(step=seen.step, action="white", seq=1))  # a roll: the dice tumble
        rolled = await table_where(ann, lambda t: t.played == 1 and bool(t.legal))
        move = rolled.legal[0]
        ann.send(p.Play(step=rolled.step, action=move, seq=2))  # at once, as no session would
        refused = await ann.next(p.Error)
        assert refused.seq == 2 and "still landing" in refused.message
        await clock.advance(C.TUMBLE_SECONDS + 0.1)  # (nothing else moved: the same state)
        ann.send(p.Play(step=rolled.step, action=move, seq=3))
        assert (await table_where(ann, lambda t: t.played == 3)).played == 3
        await ann.close()
        await ben.close()
    finally:
        await hub.close()
