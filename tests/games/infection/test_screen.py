"""Pilot tests of the Infection screen on a fake clock (no test waits for real time): a solo round
played by keys to its time-up, the countdown's look, pause, the mouse, bot teammates at their pace,
a bots-only game to the end, and a replay of the recorded times."""

from __future__ import annotations

import pytest
from rich.text import Text

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.infection import clarifications as C
from cellwars_tui.games.infection import rules as R
from cellwars_tui.games.infection.bot import choose
from cellwars_tui.games.infection.screen import (COLUMN_KEYS, FPS, POWER_KEYS, SCREEN,
                                                   InfectionScreen)
from cellwars_tui.timer import FakeClock, format_clock
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.dialogs import MovesPicker
from cellwars_tui.ui.screens import screen_class
from tests.ui.helpers import assert_too_small_below_80x24, until

ROLL_WAIT = C.TUMBLE_SECONDS + 0.05


@pytest.fixture
def clock():
    """A fake clock, and 2 screen updates a second instead of 30 (fewer wake-ups to simulate)."""
    fake = FakeClock()
    InfectionScreen.clock = fake
    InfectionScreen.fps = 2
    InfectionScreen.wait_until_ready = False  # (the ready moment has tests of its own)
    yield fake
    InfectionScreen.clock = None
    InfectionScreen.fps = FPS
    InfectionScreen.wait_until_ready = True


def _app(players=1, bots=(), seed=1, **options) -> CellwarsApp:
    seats = [Seat(name=f"bot {i + 1}", kind="bot", bot="mcts") if i in bots
             else Seat(name="Me" if i == 0 else f"P{i + 1}") for i in range(players)]
    match = Match(R.GAME, R.InfectionOptions(players=players, **options), seats, seed)
    return CellwarsApp(match=match)


def _text(screen, selector: str) -> str:
    rendered = screen.query_one(selector).render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


def card_lines(screen, col: int) -> list[str]:
    """Column ``col``'s card lines (code, proteins, VP, power), however many lines a card
    takes at this window's size (``card_pitch``; framed cards from 4 lines on)."""
    lines = _text(screen, f"#inf-col-{col}").splitlines()
    pitch = screen.card_pitch
    if pitch >= 4:
        return [line[1:-1] for line in lines[1::pitch]]
    return lines[::pitch]


def _clock(screen) -> str:
    return screen.query_one("#inf-clock").value


def key_for(screen, action) -> str:
    """The key a player presses for ``action`` (what the rules page says)."""
    if isinstance(action, (R.RollWhite, R.Roll)):
        return "space"
    if isinstance(action, R.Claim):
        return "enter"
    if isinstance(action, R.Hold):
        return str(action.die + 1)
    if isinstance(action, R.Target) and action.card < 0:
        return COLUMN_KEYS[action.column]
    if isinstance(action, R.Rest):
        return "full_stop"
    return POWER_KEYS[screen.my_powers().index(action.card)]


def test_the_game_has_its_own_screen():
    assert screen_class(R.GAME) is InfectionScreen is SCREEN


@pytest.mark.slow
async def test_a_solo_round_played_by_keys_to_its_time_up(clock):
    app = _app(round_seconds=60)  # a one-minute round: the same play, a third of the presses
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InfectionScreen)
        table = screen.table
        assert _clock(screen) == "1:00"
        pressed = 0
        while table.view(None).round == 1:
            s = table.view(None)
            action = choose(s, 0)
            if isinstance(action, R.Rest):
                break
            await pilot.press(key_for(screen, action))
            if isinstance(app.screen, MovesPicker):  # a power with a choice: pick it in the list
                await pilot.press(*["down"] * app.screen.legal.index(action), "enter")
                await pilot.pause()
            assert app.screen is screen
            pressed += 1
            assert table.match.steps[-1].seat in (0, -1)
            await clock.advance(ROLL_WAIT if isinstance(action, (R.Roll, R.RollWhite, R.Rewhite))
                                else 0.3)
            if table.view(None).result:
                break
        s = table.view(None)
        assert pressed > 20
        cards_taken = len(s.seats[0].cards)
        assert cards_taken >= 2  # the keys played real cures
        steps = table.match.steps
        player_steps = [st for st in steps if st.seat == 0]
        assert player_steps and all(a.t <= b.t for a, b in zip(steps, steps[1:]))
        if not s.result:  # the round ended on its timer: time-up 1 at 60 s of play
            time_up = [st for st in steps if isinstance(st.action, R.TimeUp)]
            assert [st.action.round for st in time_up] == [1]
            assert time_up[0].t == pytest.approx(60, abs=0.1)
            assert s.round == 2 and s.seats[0].stage == R.WHITE
            # a fresh round's countdown; the last advance may overshoot the round's start by up
            # to one roll wait, which the screen's ticks show as a second gone
            assert _clock(screen) in ("1:00", "0:59")


async def test_the_countdown_changes_its_look_in_the_last_20_seconds(clock):
    app = _app(round_seconds=60)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        digits = screen.query_one("#inf-clock")
        await clock.advance(30)
        await pilot.pause()
        assert _clock(screen) == "0:30"
        assert not digits.has_class("hurry")
        await clock.advance(15)
        await pilot.pause()
        assert digits.has_class("hurry")
        assert "Hurry" in _text(screen, "#inf-round")
        flashes = set()
        for _ in range(8):
            await clock.advance(0.25)
            await pilot.pause()
            flashes.add(digits.has_class("flash"))
        assert flashes == {True, False}  # it flashes
        await clock.advance(13.05)  # 60.05 s: the round is over, the next one just began
        await pilot.pause()
        assert screen.table.view(None).round == 2
        assert not digits.has_class("hurry") and _clock(screen) == "1:00"


async def test_pause_stops_the_timer_and_every_player(clock):
    app = _app(players=2, bots={1}, paces="fast")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        await clock.advance(5)
        await pilot.pause()
        assert table.match.cursor > 4  # the bot plays on its own
        await pilot.press("p")
        await pilot.pause()
        steps, left = table.match.cursor, screen.table.time_left()
        await clock.advance(60)
        await pilot.pause()
        assert table.match.cursor == steps and screen.table.time_left() == left
        assert "PAUSED" in _text(screen, "#inf-round")
        assert screen.query_one("#inf-clock").has_class("paused")
        await pilot.press("space")  # the human cannot play either
        await pilot.pause()
        assert table.match.cursor == steps
        await pilot.press("p")
        await clock.advance(5)
        await pilot.pause()
        assert table.match.cursor > steps
        # the record keeps play time: the minute of pause is not in it
        assert table.match.steps[-1].t < 15


async def test_rolls_tumble_before_the_next_action(clock):
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        await pilot.press("space")
        await pilot.pause()
        assert table.view(None).seats[0].stage == R.SEARCH
        # QA: no result is told while the dice tumble (your line, the log, the held marks)
        assert "rolling" in _text(screen, "#inf-mine") and "microscope" not in _text(screen,
                                                                                   "#inf-mine")
        assert "white die" not in _text(screen, "#gs-log")
        n = table.match.cursor
        await pilot.press("space")  # too soon: the white die is still rolling
        await pilot.pause()
        assert table.match.cursor == n and "rolling" in _text(screen, "#gs-status")
        await clock.advance(ROLL_WAIT + 0.5)
        await pilot.pause()
        assert "microscope(s)" in _text(screen, "#inf-mine")
        assert "on the white die" in _text(screen, "#gs-log")
        await pilot.press("space")
        await pilot.pause()
        assert table.match.cursor > n
        shown = {"M": "🔬", "X": "-", "": "-"}  # (the log draws faces as the table does)
        faces = " ".join(shown.get(f, f) for f in table.view(None).seats[0].dice)
        assert "rolling" in _text(screen, "#inf-mine")
        assert f"rolls {faces}." not in _text(screen, "#gs-log")
        assert not any(screen.query_one(f"#inf-die-{i}").has_class("held") for i in range(3))
        await clock.advance(ROLL_WAIT + 0.5)  # the next screen update (2 a second here) shows it
        await pilot.pause()
        assert "rolling" not in _text(screen, "#inf-mine")
        assert f"rolls {faces}." in _text(screen, "#gs-log")


async def test_mouse_holds_dice_and_targets_cards(clock):
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        await pilot.press("space")
        await clock.advance(ROLL_WAIT)
        while R.microscopes(table.view(None).seats[0]) < 1:
            await pilot.press("space")
            await pilot.pause()
            await clock.advance(ROLL_WAIT)
        s = table.view(None)
        rolled = [i for i in range(3) if s.seats[0].dice[i]]
        if rolled:
            await pilot.click(f"#inf-die-{rolled[0]}")
            await pilot.pause()
            assert table.view(None).seats[0].held[rolled[0]]
            assert screen.query_one(f"#inf-die-{rolled[0]}").has_class("held")
        await pilot.click("#inf-col-0", offset=(3, 0))
        await pilot.pause()
        s = table.view(None)
        assert s.seats[0].stage == R.CURE and s.seats[0].target == s.columns[0][0]


async def test_rest_ends_a_solo_round_at_once(clock):
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        await clock.advance(10)
        await pilot.press("full_stop")
        await pilot.pause()
        s = screen.table.view(None)
        assert s.round == 2 and len(s.columns[0]) == 4
        assert _clock(screen) == "3:00"  # a fresh timer for round 2


async def test_a_bots_only_game_plays_to_the_end_on_the_timer(clock):
    InfectionScreen.fps = 0.5  # bots act on timer callbacks, not on screen updates: fewer repaints
    app = _app(players=2, bots={0, 1}, round_seconds=30, paces="fast")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        for _ in range(30):
            await clock.advance(5.0)
            if table.is_over():
                break
        await pilot.pause()
        assert table.is_over()
        assert screen.query_one("#gs-banner").has_class("over")
        times = [st.t for st in table.match.steps]
        assert times == sorted(times) and times[-1] <= 3 * 30 + 0.5


async def test_undo_is_not_offered_in_real_time(clock):
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("space")
        await pilot.pause()
        n = screen.table.match.cursor
        await pilot.press("u")
        await pilot.pause()
        assert screen.table.match.cursor == n


async def test_a_replay_shows_the_countdown_from_the_recorded_times():
    from textual.app import App

    from cellwars_tui.core.match import Step
    from cellwars_tui.games.infection.simulate import simulate
    from cellwars_tui.replay.model import Replay
    from cellwars_tui.ui.replay import ReplayScreen

    final, steps = simulate(2, 1.0, seed=4, round_seconds=60, keep_steps=True)
    seats = [Seat(name="A", kind="bot", bot="mcts"), Seat(name="B", kind="bot", bot="mcts")]
    replay = Replay(R.GAME, R.InfectionOptions(players=2, round_seconds=60), seats, 0,
                    [Step(seat, a, round(t, 3)) for t, seat, a in steps])
    assert replay.problem is None and replay.state == final

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(ReplayScreen(replay))

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, InfectionScreen) and screen.read_only
        first_up = next(i for i, (_, _, a) in enumerate(steps) if isinstance(a, R.TimeUp))
        mid = first_up // 2
        screen.replay_table.seek(mid)
        await pilot.pause()
        t = steps[mid - 1][0]
        assert _clock(screen) == f"0:{int(-(-(60 - t) // 1)):02d}"
        screen.replay_table.seek(first_up + 1)  # just after time-up 1: a full round again
        await pilot.pause()
        assert _clock(screen) == "1:00" and "Round 2/3" in _text(screen, "#inf-round")
        assert not screen.query("#inf-you").first().display  # nobody plays in a replay


async def test_a_resumed_game_goes_on_with_the_time_its_round_had_left(clock):
    from cellwars_tui.core.match import Step
    from cellwars_tui.games.infection.simulate import simulate

    _, steps = simulate(1, 1.0, seed=2, keep_steps=True)
    early = [(t, seat, a) for t, seat, a in steps if t <= 100.0]
    match = Match(R.GAME, R.InfectionOptions(players=1), [Seat(name="Me")], 0,
                  auto_chance=False)
    match.replay_steps([Step(seat, a, round(t, 3)) for t, seat, a in early])
    match.auto_chance = True
    last = early[-1][0]
    app = CellwarsApp(match=match)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.table.time_left() == pytest.approx(180 - last, abs=0.01)
        await pilot.press("full_stop")  # resting ends the round: the next action is timed on
        await pilot.pause()
        assert match.steps[-1].t == pytest.approx(last, abs=0.01)


async def test_a_power_is_used_by_its_key_and_then_flipped(clock):
    from cellwars_tui.core.match import Step
    from cellwars_tui.games.infection import cards as K
    from cellwars_tui.games.infection.simulate import simulate

    # a solo game where the player, looking for microscopes, owns "re-roll the white die"
    _, steps = simulate(1, 1.0, seed=2, keep_steps=True)
    s = R.GAME.initial_state(R.InfectionOptions(players=1))
    upto = 0
    for upto, (_, seat, a) in enumerate(steps, 1):
        s, _ = R.GAME.apply(s, seat, a)
        p = s.seats[0]
        if p.stage == R.SEARCH and R.owned_powers(p, (K.REWHITE,)) and R.GAME.to_act(s) == (0,):
            break
    card = R.owned_powers(s.seats[0], (K.REWHITE,))[0]
    match = Match(R.GAME, R.InfectionOptions(players=1), [Seat(name="Me")], 0, auto_chance=False)
    match.replay_steps([Step(seat, a, round(t, 3)) for t, seat, a in steps[:upto]])
    match.auto_chance = True
    app = CellwarsApp(match=match)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert card in screen.my_powers()
        key = POWER_KEYS[screen.my_powers().index(card)]
        assert "re-roll the white die" in _text(screen, "#inf-powers")
        await pilot.press(key)
        await pilot.pause()
        p = screen.table.view(None).seats[0]
        assert card in p.spent and card not in screen.my_powers()
        assert isinstance(match.steps[-2].action, R.Rewhite)
        assert isinstance(match.steps[-1].action, R.WhiteFace)  # the re-roll, a chance step


async def test_leaving_and_resuming_keeps_the_time_spent_at_the_table(clock):
    """QA F13: q + Resume must not give back the time since the last action (the sand ran on)."""
    from cellwars_tui.record.format import decode_record, encode_record, match_to_record, \
        record_to_match

    app = _app(round_seconds=60)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        match = screen.table.match
        for _ in range(3):  # the white die, then two rolls
            await pilot.press("space")
            await clock.advance(ROLL_WAIT)
        acted = max(st.t for st in match.steps if st.seat == 0)
        await clock.advance(20)  # idle at the table: the sand runs
        await pilot.pause()
        played = screen.round_clock.play_time()
        assert played == pytest.approx(acted + ROLL_WAIT + 20, abs=0.6)
        # a crash now would lose at most CLOCK_SECONDS: "clock 1" steps record the time reached
        clocks = [st for st in match.steps if isinstance(st.action, R.Clock)]
        assert clocks and all(st.action.round == 1 for st in clocks)
        assert played - match.steps[-1].t <= C.CLOCK_SECONDS + 0.5
        assert _clock(screen) == "0:" + f"{int(60 - played + 0.999):02d}"
        await pilot.press("q")  # leaving records the exact time reached
        await pilot.pause()
    assert isinstance(match.steps[-1].action, R.Clock)
    assert match.steps[-1].t == pytest.approx(played, abs=0.01)
    # resume from the saved record: the round goes on with what it really had left
    again = record_to_match(decode_record(encode_record(match_to_record(match))))
    assert again.state == match.state
    app = CellwarsApp(match=again)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.table.time_left() == pytest.approx(60 - played, abs=0.01)
        await clock.advance(5)
        await pilot.pause()
        assert screen.table.time_left() == pytest.approx(55 - played, abs=0.6)


async def test_idle_time_is_kept_by_one_clock_step_between_actions_and_replays_exactly(clock):
    """Sitting idle records the time reached every CLOCK_SECONDS by moving one trailing "clock N"
    step on, not by adding one each time (a minute's thinking was 30 steps of a record)."""
    from cellwars_tui.record.format import decode_record, encode_record, match_to_record, \
        record_to_match

    app = _app(round_seconds=180)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        match = screen.table.match
        for _ in range(2):  # idle, act (the white die, then a roll), idle again
            await clock.advance(50)
            await pilot.pause()
            assert isinstance(match.steps[-1].action, R.Clock)
            assert screen.round_clock.play_time() - match.steps[-1].t <= C.CLOCK_SECONDS + 0.5
            await pilot.press("space")
            await clock.advance(ROLL_WAIT)
        await clock.advance(50)
        await pilot.pause()
        played = screen.round_clock.play_time()
        assert match.state.round == 1 and played > 150
        clocks = [i for i, st in enumerate(match.steps) if isinstance(st.action, R.Clock)]
        assert len(clocks) == 3 and clocks[-1] == len(match.steps) - 1
        assert all(not isinstance(match.steps[i + 1].action, R.Clock) for i in clocks[:-1])
        assert played - match.steps[-1].t <= C.CLOCK_SECONDS + 0.5
    again = record_to_match(decode_record(encode_record(match_to_record(match))))
    assert again.states == match.states and again.steps == match.steps


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 50)])
async def test_cards_show_whole_and_the_side_panel_fits_the_terminal(clock, size):
    """QA F19: at 80 columns every card's proteins, VP and power show (compact lines) and the
    column titles keep their microscopes; at 160 the side panel grows so log lines show whole."""
    from rich.cells import cell_len

    from cellwars_tui.games.infection import cards as K
    from cellwars_tui.games.infection.texts import power_short

    app = _app(players=4, bots=(1, 2, 3), round_seconds=30)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        s = screen.table.view(None)
        side = screen.query_one("#gs-side").size.width
        if size[0] == 80:
            assert side <= 24
        elif size[0] >= 160:
            assert side >= 60
        for col in range(3):
            box = screen.query_one(f"#inf-colbox-{col}")
            assert "🔬" * (col + 1) in box.border_title
            assert cell_len(box.border_title) + 4 <= box.size.width
            lines = card_lines(screen, col)
            assert len(lines) == len(s.columns[col]) > 0
            width, height = screen.query_one(f"#inf-col-{col}").content_size
            # every card of a 4-player deal, even at 24 lines
            assert height >= len(lines) * screen.card_pitch
            for line, card in zip(lines, s.columns[col]):
                assert cell_len(line.rstrip()) <= width, line
                assert "".join(K.CARD_PROTEINS[card]) in line and power_short(card) in line
                assert f" {K.CARD_VP[card]}" in line


async def test_the_table_needs_80x24_and_a_smaller_window_shows_the_notice(clock):
    """QA F23: at the old shared minimum (64x20) cards lost their proteins; the screen now asks
    for 80x24, where the test above shows every card whole."""
    from cellwars_tui.ui.size_guard import TooSmall

    assert SCREEN.MIN_SIZE == (80, 24)
    app = _app(players=4, bots=(1, 2, 3), round_seconds=30)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert not screen.query(TooSmall)
        await assert_too_small_below_80x24(pilot, screen)


async def test_every_meeple_and_every_players_dice_show_live(clock):
    """Four players: each row shows that player's dice as they lie (once they have landed) and
    every meeple is drawn on its card, updated as the bots play."""
    from cellwars_tui.games.infection.texts import face_text
    from cellwars_tui.ui.game_screen import SEAT_GLYPHS

    app = _app(players=4, bots=(1, 2, 3), paces="fast")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        meeples_seen, dice_seen = set(), set()
        for _ in range(40):
            await clock.advance(0.5)
            await pilot.pause()
            s = table.view(None)
            rows = _text(screen, "#inf-players").splitlines()
            assert len(rows) == 4
            for seat, p in enumerate(s.seats):
                assert rows[seat].startswith(SEAT_GLYPHS[seat])
                assert table.seat_name(seat)[:10] in rows[seat]
                if screen.rolling_drawn[seat] is None:  # landed: the faces rolled, as they lie
                    assert "".join(f"[{face_text(f)}]" for f in p.dice) in rows[seat]
                    if any(p.dice):
                        dice_seen.add(seat)
                if p.target >= 0:
                    col, pos = R.find_card(s, p.target)
                    line = card_lines(screen, col)[pos]
                    assert line.startswith(SEAT_GLYPHS[seat])
                    meeples_seen.add(seat)
            taken = {p.target for p in s.seats}
            for col in range(3):  # no meeple drawn where there is none
                for pos, line in enumerate(card_lines(screen, col)):
                    if s.columns[col][pos] not in taken:
                        assert line[0] in " ▸"
        assert meeples_seen == dice_seen == {1, 2, 3}  # each bot rolled and placed its meeple


async def test_each_bot_keeps_the_pace_chosen_for_it(clock):
    """paces=fast,easy: the fast bot acts more often; every bot waits at least its pace (less the
    jitter) between two of its actions, and the tumbling time after a roll."""
    app = _app(players=2, bots=(0, 1), paces="fast,easy")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        for _ in range(12):
            await clock.advance(5)
        await pilot.pause()
        steps = screen.table.match.steps
        assert screen.table.view(None).round == 1
        side = _text(screen, "#gs-seats")
        assert "bot, hard" in side and "bot, easy" in side
    counts = {}
    for seat, pace in ((0, "hard"), (1, "easy")):
        mine = [st for st in steps if st.seat == seat]
        counts[seat] = len(mine)
        for a, b in zip(mine, mine[1:]):
            wait = C.PACES[pace] * (1 - C.PACE_JITTER)
            if isinstance(a.action, (R.Roll, R.RollWhite, R.Rewhite)):
                wait += C.TUMBLE_SECONDS
            assert b.t - a.t >= wait - 1e-3, (pace, a, b)
    assert counts[0] > counts[1] > 5


@pytest.mark.slow
async def test_a_replay_runs_the_round_in_real_time_or_step_by_step():
    """Autoplay at x1 waits each recorded gap between two actions (long idle stretches cut to
    MAX_REAL_PAUSE) and the countdown follows the recorded times; the arrow keys step one action."""
    from textual.app import App

    from cellwars_tui.core.match import Step
    from cellwars_tui.games.infection.simulate import simulate
    from cellwars_tui.replay.model import MAX_REAL_PAUSE, Replay
    from cellwars_tui.timer import format_clock
    from cellwars_tui.ui.replay import ReplayScreen

    _, steps = simulate(2, 1.0, seed=4, round_seconds=60, keep_steps=True)
    seats = [Seat(name="A", kind="bot", bot="mcts"), Seat(name="B", kind="bot", bot="mcts")]
    replay = Replay(R.GAME, R.InfectionOptions(players=2, round_seconds=60), seats, 0,
                    [Step(seat, a, round(t, 3)) for t, seat, a in steps])
    times = [0.0] + [st.t for st in replay.steps]

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(ReplayScreen(replay))

    class Pending:  # a timer that never fires by itself: the test moves autoplay on
        def stop(self) -> None:
            pass

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        delays = []
        screen.set_timer = lambda delay, callback, **kw: delays.append(delay) or Pending()
        screen.seek(0)
        await pilot.press("space")  # autoplay, x1
        assert screen.playing
        first_up = next(i for i, st in enumerate(replay.steps) if isinstance(st.action, R.TimeUp))
        for n in range(first_up):
            want = min(max(times[n + 1] - times[n], 0.0), MAX_REAL_PAUSE)
            assert delays[-1] == pytest.approx(max(want, 0.001))
            screen._tick()  # the wait is over: the next action shows
            await pilot.pause()
            assert replay.cursor == n + 1
            assert _clock(screen) == format_clock(60 - times[n + 1])
        # real time: round 1 lasts its recorded minute (plus 1 ms for each same-moment step)
        assert sum(delays[:first_up]) == pytest.approx(times[first_up], abs=0.001 * first_up)
        await pilot.press("space")  # stop; then step by step with the arrow keys
        assert not screen.playing
        at = replay.cursor
        await pilot.press("right")
        await pilot.pause()
        assert replay.cursor == at + 1 and "Round 2/3" in _text(screen, "#inf-round")
        await pilot.press("left", "left")
        await pilot.pause()
        assert replay.cursor == at - 1
        assert _clock(screen) == format_clock(60 - times[at - 1])


async def test_dice_in_the_air_when_the_last_timer_runs_out_land_on_the_game_over_table(clock):
    """QA (found playing in tmux): a roll made in the last second of round 3 tumbled for ever
    on the game-over table ("rolling…"), the timer being stopped."""
    app = _app(round_seconds=30)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        for _ in range(2):  # rest through rounds 1 and 2
            await pilot.press("full_stop")
            await pilot.pause()
        assert screen.table.view(None).round == 3
        await clock.advance(29.5)
        await pilot.press("space")  # the white die, in the air when the sand runs out
        await pilot.pause()
        assert "rolling" in _text(screen, "#inf-players")
        await clock.advance(1.0)
        await pilot.pause()
        assert screen.table.view(None).result == R.OVERRUN
        await clock.advance(2.0)
        await pilot.pause()
        row = _text(screen, "#inf-players")
        assert "rolling" not in row and "[··][··][··]" in row
        assert "to roll" not in row and "0 molecules destroyed" in row  # nobody rolls any more
        assert "on the white die" in _text(screen, "#gs-log")  # its result is told, too


async def test_the_mouse_alone_rolls_targets_and_takes_a_card(clock):
    """A click on your line (beside the dice) does what space does: the white die, a roll of the
    free dice, taking the completed card; a click on a card places the meeple."""
    app = _app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        table = screen.table
        for _ in range(80):
            p = table.view(None).seats[0]
            if p.cards:
                break
            if p.stage == R.SEARCH and R.microscopes(p) >= 1:
                s = table.view(None)
                await pilot.click("#inf-col-0", offset=(3, R.top_free(s, 0)))
            else:
                await pilot.click("#inf-mine")
            await pilot.pause()
            await clock.advance(ROLL_WAIT)
        p = table.view(None).seats[0]
        assert len(p.cards) == 1 and p.stage == R.WHITE
        kinds = {type(st.action) for st in table.match.steps if st.seat == 0}
        assert {R.RollWhite, R.Roll, R.Target, R.Claim} <= kinds


async def test_a_tense_team_game_runs_its_rounds_on_the_shorter_timer(clock):
    """Two players, tense team game: the countdown starts at 2:15 and round 2 starts when it runs
    out (nobody acts, so only the timer ends the round)."""
    app = _app(players=2, tense_team_game=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert _clock(screen) == format_clock(C.TENSE_ROUND_SECONDS[2]) == "2:15"
        assert "Round 1/3 (tense)" in _text(screen, "#inf-round")
        await clock.advance(C.TENSE_ROUND_SECONDS[2] - 0.5)
        await pilot.pause()
        assert screen.table.view(None).round == 1
        await clock.advance(0.55)
        await pilot.pause()
        assert screen.table.view(None).round == 2
        time_up = [st for st in screen.table.match.steps if isinstance(st.action, R.TimeUp)]
        assert [st.t for st in time_up] == [pytest.approx(135, abs=0.1)]


async def _until(pilot, condition) -> None:
    """Let the app run until ``condition()`` holds (a count of pauses would depend on how fast
    the machine repaints; the shared helper's 60 s only guards against a hang)."""
    await until(pilot, condition)


async def test_the_clock_stands_still_while_the_terminal_is_too_small(clock):
    """Issue 18: behind the "terminal too small" notice nobody sees the table, yet the round's
    time ran on and the bots played. The table's clock now stands still until it can be seen."""
    app = _app(players=2, bots={1}, paces="fast")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = app.screen.table
        await clock.advance(3)
        await pilot.pause()
        assert table.match.cursor > 4  # the bot plays
        await pilot.resize_terminal(70, 20)
        await _until(pilot, lambda: bool(table.paused))
        steps, left = table.match.cursor, table.time_left()
        await clock.advance(30)
        await pilot.pause()
        assert table.match.cursor == steps and table.time_left() == left
        await pilot.resize_terminal(100, 30)
        await _until(pilot, lambda: not table.paused)
        await clock.advance(3)
        await pilot.pause()
        assert table.match.cursor > steps and table.time_left() < left
        # the record keeps play time: the half minute behind the notice is not in it
        assert table.match.steps[-1].t < 10


async def test_a_spectator_sees_the_hubs_countdown_run(clock):
    """Online, a spectator's screen ticks with the hub's clock (between the hub's states too)."""
    from textual.app import App

    from tests.table.fake_hub import FakeHub

    match = Match(R.GAME, R.InfectionOptions(players=2), [Seat(name="Ann"), Seat(name="Bob")], 4)
    hub = FakeHub(match, you=None, now=clock.now)
    hub.clock = {"clock": 100.0, "clock_running": True}
    hub.table.update(hub.state())

    class Host(App):
        def on_mount(self) -> None:
            self.push_screen(InfectionScreen(hub.table))

    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.read_only and screen.spectator and _clock(screen) == "1:40"
        await clock.advance(10.2)
        await pilot.pause()
        assert _clock(screen) == "1:30"


@pytest.mark.parametrize("size, pitch", [((80, 24), 2), ((100, 30), 3), ((160, 50), 5)])
async def test_the_columns_grow_with_the_window(clock, size, pitch):
    """Issue 19: at 160x50 the cards took a line each and left most of the columns empty. The
    cards now take the room there is (their power in words from 2 lines a card, framed from 4)
    while two more cards still fit; a click on any line of a card targets it. (One player:
    the 4-player deal's larger columns keep a line a card at 80x24.)"""
    app = _app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        s = screen.table.view(None)
        assert screen.card_pitch == pitch
        most = max(len(c) for c in s.columns)
        height = screen.query_one("#inf-col-0").content_size.height
        assert (most + 2) * pitch <= height
        assert height - most * pitch < most + 2 + 2 * pitch or pitch == 5  # (room for 2 more)
        lines = _text(screen, "#inf-col-0").splitlines()
        if pitch >= 4:
            assert lines[0].startswith("╭") and lines[3].startswith("╰")
        for _ in range(40):
            p = screen.table.view(None).seats[0]
            if p.stage == R.SEARCH and R.microscopes(p) >= 1:
                break
            await pilot.press("space")
            await clock.advance(ROLL_WAIT)
            await pilot.pause()
        s = screen.table.view(None)
        free = R.top_free(s, 0)
        await pilot.click("#inf-col-0", offset=(3, free * pitch + pitch - 1))  # its last line
        await pilot.pause()
        assert screen.table.view(None).seats[0].target == s.columns[0][free]
