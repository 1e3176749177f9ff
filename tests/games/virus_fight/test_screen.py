"""Pilot tests of the Virus Fight screen: a whole game against the bot by keys, a turn by mouse,
undo/redo, quit and resume, hot-seat privacy, the 6x6 board of three and four players, the board
as text at 80x24, the read-only replay (what each view shows while building, line-by-line board
repaints) and one repaint per action."""

from __future__ import annotations

import random

import pytest
from rich.text import Text
from textual.worker import WorkerCancelled

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.virus_fight import engine as E
from cellwars_tui.games.virus_fight import rules as R
from cellwars_tui.games.virus_fight.board_view import PITCHES, X0, Y0, BoardView, board_extent
from cellwars_tui.games.virus_fight.picks import erase_nothing_squares, turn_picks
from cellwars_tui.games.virus_fight.screen import VirusFightScreen
from cellwars_tui.record.format import read_record_file
from cellwars_tui.record.writer import flush
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.dialogs import HandOff
from cellwars_tui.ui.screens import screen_class


async def settle(pilot, rounds: int = 400) -> None:
    """Let bots finish thinking and the screens repaint."""
    app = pilot.app
    for _ in range(rounds):
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:  # a bot's worker replaced by the next one
            pass
        await pilot.pause()
        table = getattr(app.screen, "table", None)
        if table is None or table.is_over() or table.bot_to_move() is None:
            if all(w.is_finished for w in app.workers):
                return
    raise AssertionError("bots never settled")


BOT_PROGRAMS = ("W2 E1 M3 J2", "E3 M1 W3", "J1 W1 E2 M2")


def _match(players: int = 2, humans: int = 1, bot: str = "random", seed: int = 5,
           round_limit: int = 50, prebuilt: bool = True) -> Match:
    """A match; the bots' programs are written beforehand unless ``prebuilt`` is False."""
    names = ["Ann", "Bob", "Cy", "Di"]
    seats = [Seat(name=names[i]) if i < humans else
             Seat(name=names[i], kind="bot", bot=bot, think=0.05) for i in range(players)]
    options = R.VirusFightOptions(players=players, round_limit=round_limit)
    match = Match(R.GAME, options, seats, seed)
    if prebuilt:
        for seat in range(humans, players):
            for name in BOT_PROGRAMS[seat - humans].split():
                match.play(seat, R.Add(E.code("MWJE".index(name[0]), int(name[1]))))
            match.play(seat, R.Mark(1))
            match.play(seat, R.Ready())
    return match


def _text(widget) -> str:
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


def log_text(screen) -> str:
    """The log as one line of words (the screen wraps each step's line itself)."""
    return " ".join(_text(screen.query_one("#gs-log")).split())


def screen_text(app) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


def square_offset(board: BoardView, size: int, sq: int) -> tuple[int, int]:
    """Where square ``sq`` is drawn inside #vf-board (after its left padding, at its scale)."""
    f, r = sq & 7, sq >> 3
    px, py = PITCHES[board.scale]
    return board.styles.padding.left + X0 + px * f + 1, Y0 + py * (size - 1 - r)


async def click_square(pilot, sq: int, size: int = 5) -> None:
    board = pilot.app.screen.query_one(BoardView)
    await pilot.click("#vf-board", offset=square_offset(board, size, sq))


async def build_by_keys(pilot, program: list[str], mark: int) -> None:
    """Arrows + Enter on the palette (rows M W J E, columns pips 1-3), a digit, then y."""
    screen = pilot.app.screen
    for name in program:
        want = "MWJE".index(name[0]) * 3 + int(name[1]) - 1
        while screen.palette // 3 < want // 3:
            await pilot.press("down")
        while screen.palette // 3 > want // 3:
            await pilot.press("up")
        while screen.palette % 3 < want % 3:
            await pilot.press("right")
        while screen.palette % 3 > want % 3:
            await pilot.press("left")
        await pilot.press("enter")
        await pilot.pause()
    await pilot.press(str(mark + 1), "y")
    await pilot.pause()


def build_direct(screen, program: list[str], mark: int) -> None:
    """Write a program through the screen's play() (set-up for tests about something else)."""
    for name in program:
        assert screen.play(R.Add(E.code("MWJE".index(name[0]), int(name[1]))))
    assert screen.play(R.Mark(mark))
    assert screen.play(R.Ready())


async def go_to(pilot, sq: int) -> None:
    screen = pilot.app.screen
    f, r = sq & 7, sq >> 3
    while screen.cursor[0] < f:
        await pilot.press("right")
    while screen.cursor[0] > f:
        await pilot.press("left")
    while screen.cursor[1] < r:
        await pilot.press("up")
    while screen.cursor[1] > r:
        await pilot.press("down")
    assert screen.cursor == (f, r)


async def turn_by_keys(pilot, action) -> None:
    """Play ``action`` (a Place or a play turn) with arrows, ] and Enter only."""
    screen = pilot.app.screen
    table = screen.table
    start = table.step()
    if action == R.Decline():
        await pilot.press("d")
        await pilot.pause()
        assert table.step() != start
        return
    picks = turn_picks(action)
    for _ in range(12):
        if table.step() != start:
            return
        if screen.pending is not None:
            assert screen.pending == action
            await pilot.press("enter")
            await pilot.pause()
            continue
        k = len(screen.picks)
        assert tuple(screen.picks) == picks[:k]
        stage, value = picks[k]
        if stage == "piece":
            while screen.turn.spare_choice() != value:
                await pilot.press("right_square_bracket")
            stage, value = picks[k + 1]
        if stage == "erase" and value < 0:
            value = min(erase_nothing_squares(screen.view_state, screen.seat))
        assert value in screen.target_squares()
        await go_to(pilot, value)
        await pilot.press("enter")
        await pilot.pause()
    assert table.step() != start, f"{action} was not played"


def _human_choice(rng: random.Random, legal: list):
    """A random turn that keeps the marker running if possible (never a stalemate offer; an
    offer from the bot is declined)."""
    if R.Decline() in legal:
        return R.Decline()
    turns = [a for a in legal if turn_picks(a)]
    alive = [a for a in turns if getattr(a, "step", getattr(a, "to", 0)) >= 0]
    return rng.choice(alive or turns)


def test_the_game_has_its_own_screen():
    assert screen_class(R.GAME) is VirusFightScreen


@pytest.mark.slow
async def test_a_whole_two_player_game_against_the_bot_by_keys():
    app = CellwarsApp(match=_match(round_limit=5, seed=11, prebuilt=False))
    rng = random.Random(3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VirusFightScreen)
        table = screen.table
        await build_by_keys(pilot, ["W1", "M2", "E3", "J1"], 1)
        await settle(pilot)
        state = table.state()
        assert state.phase != R.BUILD
        # Ann's program as she wrote it, revealed in the log in plain words
        assert "Programs revealed (marker in brackets): Ann: W1 [M2] E3 J1" in log_text(screen)
        for _ in range(200):
            await settle(pilot)
            if table.is_over():
                break
            assert table.humans_to_act() == (0,)
            await turn_by_keys(pilot, _human_choice(rng, screen.legal))
        assert table.is_over()
        assert screen.query_one("#gs-banner").has_class("over")
        assert table.outcome_text()
        # the footer offers no Moves and no "Esc Cancel" once the game is over
        await pilot.pause()
        keys = screen.active_bindings
        assert "m" not in keys and keys["escape"].binding.action == "back"
        assert "Moves" not in palette(app)
        assert flush(60)  # the save thread wrote it (60 s: a guard, not a pace)
        saved = read_record_file(table.match.path)
        assert saved.header.result is not None and len(saved.steps) == table.match.cursor


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
async def test_a_turn_by_mouse_from_building_to_the_marker_step(size):
    app = CellwarsApp(match=_match(seed=2))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.table
        for name in ("M2", "W1", "E1"):
            await pilot.click(f"#vf-add-{name}")
        await pilot.click("#vf-slot-1")
        await pilot.pause()
        assert table.state().programs[0] == (E.code(0, 2), E.code(1, 1), E.code(3, 1))
        assert "M2" in _text(screen.query_one("#vf-slot-1"))
        await pilot.click("#vf-ready")
        await settle(pilot)
        state = table.state()
        if state.phase == R.PLACE:
            start = screen.legal[0].sq
            await click_square(pilot, start)
            await settle(pilot)
        state = table.state()
        assert state.phase == R.PLAY and table.humans_to_act() == (0,)
        # Ann runs MOVE (the marker on M2): click what moves, where to, and the marker's step
        action = next(a for a in screen.legal if isinstance(a, R.Move) and a.src >= 0
                      and a.step >= 0 and a.step != a.dst)
        before = table.step()
        for stage, value in turn_picks(action):
            if tuple(screen.picks) and len(screen.picks) > turn_picks(action).index(
                    (stage, value)):
                continue  # forced pick taken by the screen
            assert value in screen.target_squares()
            await click_square(pilot, value)
            await pilot.pause()
        await settle(pilot)
        assert table.match.steps[before].action == action
        board = screen.query_one(BoardView)
        if size == (160, 50):  # issue 19: the board stayed 30x12 with 100 columns empty
            assert board.scale >= 3 and board.region.width > 60
            width, height = board_extent(5, board.scale)
            assert board.size.height >= height and board.content_region.width >= width
        else:
            assert board.scale == 1


async def test_undo_returns_to_the_humans_decision_and_redo_restores():
    app = CellwarsApp(match=_match(seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.table
        match = table.match
        build_direct(screen, ["M1", "J2", "E2"], 0)
        await settle(pilot)
        rng = random.Random(1)
        while match.state.phase != R.PLAY or not any(s.seat == 1 for s in match.history[-2:]):
            assert screen.play(_human_choice(rng, screen.legal))
            await settle(pilot)
        before = match.cursor
        last_human = max(i for i, s in enumerate(match.history) if s.seat == 0)
        await pilot.press("u")
        await settle(pilot)
        assert match.cursor == last_human and table.humans_to_act() == (0,)
        assert screen.legal and screen.stage() is not None or screen.pending is not None
        await pilot.press("r")
        await settle(pilot)
        assert match.cursor == before
        # a pick half made is taken back by Escape, not played
        if screen.stage() is not None and screen.legal:
            value = min(screen.target_squares())
            picks = len(screen.picks)
            await click_square(pilot, value)
            await pilot.pause()
            if match.cursor == before and len(screen.picks) > picks:
                await pilot.press("escape")
                await pilot.pause()
                assert len(screen.picks) == picks and match.cursor == before


async def test_quit_and_resume_from_the_autosave():
    match = _match(seed=6)
    app = CellwarsApp(match=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        build_direct(app.screen, ["E1", "M3"], 1)
        await settle(pilot)
        path = app.screen.table.match.path
        state = app.screen.table.state()
        await pilot.press("q")
        await pilot.pause()
        assert type(app.screen).__name__ == "LauncherScreen"
    app = CellwarsApp(resume=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VirusFightScreen)
        assert screen.table.state() == state
        assert "Ann: E1 [M3]" in log_text(screen)
        assert screen.legal  # Ann may go on


async def test_hot_seat_keeps_each_program_secret_until_the_reveal():
    app = CellwarsApp(match=_match(humans=2, seed=8))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandOff) and app.screen.seat_name == "Ann"
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, VirusFightScreen)
        await build_by_keys(pilot, ["J3", "E2"], 1)
        await pilot.pause()
        # Bob's turn to write: the cover is up and nothing of Ann's program shows
        assert isinstance(app.screen, HandOff) and app.screen.seat_name == "Bob"
        assert "J3" not in _text(screen.query_one("#vf-slot-1"))
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen.seat == 1
        assert screen.view_state.programs[0] == ()
        for i in range(1, 6):
            assert _text(screen.query_one(f"#vf-slot-{i}")).strip() == ""
        text = screen_text(app)
        assert "J3 E2" not in text and "J3 [E2]" not in text
        assert "Ann: ready ✓" in _text(screen.query_one("#vf-others"))
        build_direct(screen, ["M1"], 0)
        await pilot.pause()
        # both ready: the reveal is public, and Bob (one instruction) goes first
        log = log_text(screen)
        assert "Ann: J3 [E2]; Bob: [M1]" in log and "Bob goes first" in log


@pytest.mark.parametrize("players", [3, 4])
async def test_three_and_four_players_play_on_a_six_by_six_board(players):
    app = CellwarsApp(match=_match(players=players, seed=players))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.table
        build_direct(screen, ["M1", "W2", "J3"], 0)
        await settle(pilot)
        while table.state().phase == R.PLACE:
            assert table.humans_to_act() == (0,)
            assert screen.play(screen.legal[-1])
            await settle(pilot)
        state = table.state()
        assert state.phase == R.PLAY and state.size == 6
        board = screen.board_text(state).plain.splitlines()
        assert board[0].split() == list("abcdef")
        assert [line.split()[0] for line in board[1::2]] == ["6", "5", "4", "3", "2", "1"]
        markers = "".join(board)
        for glyph in "①②③④"[:players]:
            assert glyph in markers
        seats = _text(screen.query_one("#gs-seats"))
        assert ("West" in seats) and (("East" in seats) == (players == 4))
        assert "Round 1/50" in _text(screen.query_one("#vf-round"))


async def test_the_board_at_80x24_as_text():
    match = _match(humans=2, seed=1)
    g = R.GAME
    for seat, prog, mark in ((0, "M2 W1 E3", 1), (1, "J1 E2", 0)):
        for name in prog.split():
            match.play(seat, R.Add(E.code("MWJE".index(name[0]), int(name[1]))))
        match.play(seat, R.Mark(mark))
        match.play(seat, R.Ready())
    assert match.state.first == 1  # the shorter program
    match.play(1, g.action_from_str("place c5"))
    match.play(0, g.action_from_str("place a1"))
    app = CellwarsApp(match=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, VirusFightScreen)  # no cover: nothing is secret now
        text = screen_text(app)
        expected = [
            "     a    b    c    d    e",
            "  5  ·   »E2──②J1   ·    ·  5",
            "  4  ·    ·    ·    ·    ·  4",
            "  1  M2──①W1── E3   ·    ·  1",
        ]
        lines = text.splitlines()
        assert len(lines) == 24
        for want in expected:
            assert any(want in line for line in lines), text
        assert "Round 1/50 · first: ② Bob · to play: ② ①" in text
        assert "② Bob North (you)" in text
        assert "J1@c5  10 spares 21p" in text and "W1@b1  9 spares 18p" in text
        # Bob's only move (» marks it without colour) waits for Enter
        assert "You run JUMP (J1 on c5). Your only move is jump" in text
        screen = app.screen
        assert screen.pending == R.Jump(E.square(1, 4))
        await pilot.press("enter")
        await pilot.pause()
        assert match.steps[-1].action == R.Jump(E.square(1, 4))


async def test_a_stalemate_offered_by_key_and_agreed_in_hot_seat():
    match = _match(humans=2, seed=1)
    for seat, prog, mark in ((0, "M2 W1 E3", 1), (1, "J1 E2", 0)):
        for name in prog.split():
            match.play(seat, R.Add(E.code("MWJE".index(name[0]), int(name[1]))))
        match.play(seat, R.Mark(mark))
        match.play(seat, R.Ready())
    match.play(1, R.GAME.action_from_str("place c5"))
    match.play(0, R.GAME.action_from_str("place a1"))
    app = CellwarsApp(match=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("o")  # Bob offers
        await pilot.pause()
        # Ann answers (after the reveal hot-seat players pass without a cover)
        assert app.screen is screen and screen.seat == 0
        prompt = _text(screen.query_one("#vf-prompt"))
        assert "Bob offers a stalemate" in prompt and "Bob would win" in prompt
        assert screen.query_one("#vf-answer").display
        await pilot.press("d")
        await pilot.pause()
        assert screen.seat == 1
        assert "Stalemate declined" in _text(screen.query_one("#vf-prompt"))
        await pilot.press("o")  # no second offer before the turn is played
        await pilot.pause()
        assert screen.view_state.offer == -1
        await pilot.press("enter")  # Bob's only move: jump b5
        await pilot.pause()
        assert screen.seat == 0
        await pilot.press("o")  # Ann offers, Bob agrees by a click
        await pilot.pause()
        assert screen.seat == 1
        await pilot.click("#vf-agree")
        await pilot.pause()
        table = screen.table
        assert table.is_over() and table.outcome().termination == "agreed stalemate"
        assert "Bob wins (agreed stalemate)" in table.outcome_text()
        assert "Bob agrees to the stalemate." in log_text(screen)


async def test_erase_offers_real_targets_and_empty_squares_beside_erase_by_mouse():
    match = _match(humans=2, seed=1)
    for seat, prog, mark in ((0, "M2 W1 E3", 1), (1, "E1 J1", 0)):
        for name in prog.split():
            match.play(seat, R.Add(E.code("MWJE".index(name[0]), int(name[1]))))
        match.play(seat, R.Mark(mark))
        match.play(seat, R.Ready())
    match.play(1, R.GAME.action_from_str("place c5"))  # E1 on c5 (marked), J1 on b5
    match.play(0, R.GAME.action_from_str("place a1"))
    app = CellwarsApp(match=match)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.stage() == "erase"
        c4, d5, b5 = E.square(2, 3), E.square(3, 4), E.square(1, 4)
        assert screen.target_squares() == {b5, c4, d5}
        board = screen.board_text(screen.view_state).plain
        assert "›J1──②E1   +" in board  # J1 may be erased; + marks the empty squares
        # an empty square beside ERASE erases nothing; the marker's only step is then taken
        await click_square(pilot, c4)
        await pilot.pause()
        assert match.steps[-1].action == R.Erase(-1, b5)


async def test_a_finished_game_replays_read_only_on_the_same_screen(tmp_path):
    from cellwars_tui.ui.replay import ReplayScreen

    match = _match(humans=0, seed=9, round_limit=5)
    rng = random.Random(0)
    while not match.is_over():
        seat = next(s for s in match.to_act() if s >= 0)
        match.play(seat, rng.choice(match.legal_actions(seat)))
    from cellwars_tui.record.store import autosave

    autosave(match)
    app = CellwarsApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = ReplayScreen(match.path)
        app.push_screen(screen)
        await pilot.pause()
        assert isinstance(screen, VirusFightScreen) and screen.read_only
        await pilot.press("end")
        await pilot.pause()
        assert screen.view_state.phase == R.OVER
        board = screen.board_text(screen.view_state).plain
        assert "①" in board or "②" in board
        cursor = screen.cursor
        await pilot.press("up", "enter", "y", "1")
        await pilot.pause()
        assert screen.cursor == cursor and not screen.legal
        await pilot.press("home", "a")  # the replay's own keys still work: reveal every program
        await pilot.pause()
        assert screen.seat is None


async def test_the_replay_shows_while_building_what_the_viewed_seat_may_see():
    from cellwars_tui.record.store import autosave
    from cellwars_tui.ui.replay import ReplayScreen

    match = _match(humans=0, prebuilt=False, seed=3)
    match.play(0, R.Add(E.code(0, 2)))  # Ann: M2 W1, marker on W1, not ready
    match.play(0, R.Add(E.code(1, 1)))
    match.play(1, R.Add(E.code(2, 3)))  # Bob: J3
    match.play(0, R.Mark(1))
    autosave(match)
    app = CellwarsApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = ReplayScreen(match.path)
        app.push_screen(screen)
        await pilot.pause()
        assert isinstance(screen, VirusFightScreen) and screen.view_state.phase == R.BUILD

        def slots() -> list[str]:
            return [_text(screen.query_one(f"#vf-slot-{i}")) for i in range(1, 6)]

        screen.set_view(0)  # Ann's own program being written, Bob's kept secret
        await pilot.pause()
        assert screen.query_one("#vf-program").display and slots()[:3] == ["M2", "▼W1", ""]
        assert "Ann's secret program (2/5)" in _text(screen.query_one("#vf-build-title"))
        assert "J3" not in _text(screen.query_one("#vf-others"))
        assert not screen.query_one("#vf-palette").display  # nothing to play in a replay
        screen.set_view(1)
        await pilot.pause()
        assert slots()[:2] == ["J3", ""]
        others = _text(screen.query_one("#vf-others"))
        assert "Ann: writing…" in others and "M2" not in others and "W1" not in others
        screen.set_view(None)  # reveal all: every program
        await pilot.pause()
        assert not screen.query_one("#vf-program").display
        assert "revealed" in _text(screen.query_one("#vf-build-title"))
        others = _text(screen.query_one("#vf-others"))
        assert "Ann: writing…  M2 [W1]" in others and "Bob: writing…  J3" in others


async def test_one_repaint_per_action_in_play():
    app = CellwarsApp(match=_match())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VirusFightScreen) and screen.legal
        table = screen.table
        assert table._listeners.count(screen._table_changed) == 1
        repaints = []
        own = screen.refresh_table
        screen.refresh_table = lambda: (repaints.append(1), own())[1]
        try:
            assert screen.play(screen.legal[0])
            assert len(repaints) == 1
        finally:
            del screen.refresh_table


async def test_a_replay_step_repaints_only_the_board_lines_that_changed(tmp_path):
    from cellwars_tui.record.store import autosave
    from cellwars_tui.ui.replay import ReplayScreen

    match = _match(humans=0, seed=9, round_limit=5)
    rng = random.Random(1)
    while not match.is_over():
        seat = next(s for s in match.to_act() if s >= 0)
        match.play(seat, rng.choice(match.legal_actions(seat)))
    autosave(match)
    app = CellwarsApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = ReplayScreen(match.path)
        app.push_screen(screen)
        await pilot.pause()
        n = next(i for i, s in enumerate(match.states) if s.phase == R.PLAY) + 2
        screen.seek(n)
        await pilot.pause()
        board = screen.query_one(BoardView)
        shown = screen_text(app)
        for line in screen.board_text(screen.view_state).plain.splitlines():
            assert line.rstrip() in shown
        before = list(board._strips)
        assert all(s is not None for s in before)  # every line was drawn
        lines = screen.board_lines(screen.view_state)
        assert screen.board_lines(screen.view_state) is lines  # built once per state
        screen.seek(n + 1)
        after = screen.board_lines(screen.view_state)
        changed = {y for y, (a, b) in enumerate(zip(lines, after)) if a != b}
        assert changed and len(changed) < len(lines)
        assert {y for y, s in enumerate(board._strips) if s is None} == changed
        await pilot.pause()
        assert all(s is not None for s in board._strips)
        assert [board._strips[y] is before[y] for y in range(len(lines))] == [
            y not in changed for y in range(len(lines))]


def test_the_spares_label_shortens_then_the_chips_wrap():
    from cellwars_tui.games.virus_fight.widgets import hand_layout

    chips = "M1 M2 M3 W1 W2 W3 J1 J2 J3 E2 E3".split()
    assert hand_layout("Red", chips, 60) == ("Red's spares (11):", 11)
    assert hand_layout("Red", chips, 50) == ("Spares (11):", 11)  # 80 columns
    title, first = hand_layout("Red", chips, 34)  # 64 columns: a second line
    assert title == "Spares (11):" and first == 7
    assert hand_layout("Red", [], 10) == ("Red: no spares", 0)


async def test_the_spares_line_shows_every_spare_at_80x24_and_wraps_at_64x20():
    match = Match(R.GAME, R.VirusFightOptions(players=2, round_limit=50),
                  [Seat(name="Red"), Seat(name="Bob")], 1)
    for seat, prog in ((0, "E1"), (1, "J1 E2")):
        for name in prog.split():
            match.play(seat, R.Add(E.code("MWJE".index(name[0]), int(name[1]))))
        match.play(seat, R.Mark(0))
        match.play(seat, R.Ready())
    while match.state.phase == R.PLACE:
        seat = match.to_act()[0]
        match.play(seat, match.legal_actions(seat)[0])
    app = CellwarsApp(match=match)
    spares = "M1 M2 M3 W1 W2 W3 J1 J2 J3 E2 E3"
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, VirusFightScreen)
        assert f"Spares (11): {spares}" in screen_text(app)  # E3 included
        hand = screen.query_one("#vf-hand")

        def shown_chips():
            return [c for c in hand.query(".vf-spare") if c.display and c.parent.display]

        assert len(shown_chips()) == 11
        for chip in shown_chips():
            assert hand.content_region.contains_region(chip.region), chip.id
        await pilot.resize_terminal(64, 20)
        for _ in range(3):
            await pilot.pause()
        text = screen_text(app)
        assert "Spares (11): M1 M2 M3 W1 W2 W3 J1" in text and "\n J2 J3 E2 E3 " in text
        assert len(shown_chips()) == 11
        for chip in shown_chips():
            assert hand.content_region.contains_region(chip.region), chip.id
        await pilot.resize_terminal(100, 30)
        for _ in range(3):
            await pilot.pause()
        assert f"Red's spares (11): {spares}" in screen_text(app)
        assert not screen.query_one("#vf-hand-row-1").display


def palette(app) -> dict[str, object]:
    commands = list(app.get_system_commands(app.screen))
    titles = [c.title for c in commands]
    assert len(titles) == len(set(titles)), "no action is listed twice"
    return {c.title: c for c in commands}


async def test_the_palette_lists_every_action_open_now_once():
    app = CellwarsApp(match=_match(seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.table
        for name in ("M1", "J2", "E2"):
            assert screen.play(R.Add(E.code("MWJE".index(name[0]), int(name[1]))))
        await pilot.pause()
        commands = palette(app)
        for want in ("Pick", "Ready", "Drop last instruction", "Marker on instruction 1",
                     "Marker on instruction 3", "Undo", "Redo", "Moves", "Rules",
                     "Back to launcher", "New game (same seats)", "Theme", "Quit"):
            assert want in commands, want
        assert "Drop" not in commands and "Marker on instruction 4" not in commands
        commands["Marker on instruction 1"].callback()
        commands["Ready"].callback()
        await settle(pilot)
        while table.state().phase == R.PLACE:
            assert screen.play(screen.legal[0])
            await settle(pilot)
        assert table.state().phase == R.PLAY and table.humans_to_act() == (0,)
        commands = palette(app)
        for want in ("Pick", "Next target", "Previous target", "Offer a stalemate", "Moves"):
            assert want in commands, want
        for gone in ("Ready", "Drop last instruction", "Next", "Cancel pick", "Agree"):
            assert gone not in commands, gone
        # Ann runs MOVE: once she picks what moves, the palette can take the pick back
        assert screen.stage() == "src"
        screen.choose(min(v for v in screen.options() if v >= 0))
        assert screen.user_picks
        commands = palette(app)
        commands["Cancel pick"].callback()
        assert not screen.user_picks and screen.stage() == "src"


async def test_esc_takes_back_a_pick_and_with_none_leaves_the_table():
    app = CellwarsApp(match=_match(seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        build_direct(screen, ["M1", "J2", "E2"], 0)
        await settle(pilot)
        while screen.table.state().phase == R.PLACE:
            assert screen.play(screen.legal[0])
            await settle(pilot)
        esc = screen.active_bindings["escape"].binding
        assert esc.action == "back" and not esc.show  # the footer's Back is q
        screen.choose(min(v for v in screen.options() if v >= 0))
        await pilot.pause()
        esc = screen.active_bindings["escape"].binding
        assert esc.action == "cancel" and esc.description == "Cancel" and esc.show
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and not screen.user_picks
        assert screen.active_bindings["escape"].binding.action == "back"
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "LauncherScreen"


async def test_while_programs_are_secret_no_step_number_counts_a_rivals_instructions():
    app = CellwarsApp(match=_match(seed=5))  # Bob (a bot) wrote his four instructions
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        title = screen.query_one("#gs-title")
        assert "Bob has a program ready" in log_text(screen)
        assert not any(ch.isdigit() for ch in log_text(screen))
        assert "step" not in _text(title) and "Ann to act" in _text(title)
        assert screen.play(R.Add(E.code(0, 1)))
        await pilot.press("u")
        await settle(pilot)
        assert "Undone." in screen_text(app) and "step" not in _text(title)
        build_direct(screen, ["M1"], 0)
        await settle(pilot)
        # the reveal: programs are public, and so are the step numbers
        assert "step" in _text(title)
        assert "6 Bob has a program ready. 9 Ann has a program ready" in log_text(screen)


async def test_the_program_slots_show_the_digit_that_puts_the_marker_there():
    app = CellwarsApp(match=_match(seed=5))
    async with app.run_test(size=(64, 20)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        for i in range(1, 6):
            assert f"─ {i} ─" in text, text


async def test_question_mark_and_f1_open_the_virus_fight_rules_over_the_table():
    from cellwars_tui.ui.dialogs import RulesScreen

    app = CellwarsApp(match=_match(seed=5))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        for key in ("question_mark", "f1"):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen) and app.screen.game is R.GAME
            assert "self-modifying programs" in screen_text(app)  # the page opens at the top
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen


async def test_the_spares_line_fits_when_it_first_appears_after_the_placing():
    """The spares row is hidden while programs are placed: when the last placement shows it, it
    is laid out for the width it gets (not as one long row, its last spares cut off)."""
    match = Match(R.GAME, R.VirusFightOptions(players=2, round_limit=50),
                  [Seat(name="Red"), Seat(name="Bob")], 1)
    for seat, prog in ((0, "E1"), (1, "J1 E2")):
        for name in prog.split():
            match.play(seat, R.Add(E.code("MWJE".index(name[0]), int(name[1]))))
        match.play(seat, R.Mark(0))
        match.play(seat, R.Ready())
    app = CellwarsApp(match=match)
    async with app.run_test(size=(64, 20)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, VirusFightScreen)
        while screen.table.state().phase == R.PLACE:
            if isinstance(app.screen, HandOff):  # (hot seat: the cover screen between turns)
                await pilot.press("enter")
                await pilot.pause()
                continue
            seat = screen.table.to_act()[0]
            screen.table.submit(seat, screen.table.match.legal_actions(seat)[0])
            for _ in range(3):
                await pilot.pause()
        while isinstance(app.screen, HandOff):
            await pilot.press("enter")
            await pilot.pause()
        for _ in range(3):
            await pilot.pause()
        hand = screen.query_one("#vf-hand")
        chips = [c for c in hand.query(".vf-spare") if c.display and c.parent.display]
        assert len(chips) == 11
        for chip in chips:
            assert hand.content_region.contains_region(chip.region), chip.id


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_a_finished_game_still_marks_your_seat_you(size):
    """Once the game is over every program is shown (no viewer any more): the side panel still
    says which seat is yours, "Ann North (you)", as it did during the game."""
    match = _match(humans=1, seed=9, round_limit=5)
    rng = random.Random(0)
    while not match.is_over():
        seat = next(s for s in match.to_act() if s >= 0)
        match.play(seat, rng.choice(match.legal_actions(seat)))
    app = CellwarsApp(match=match)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VirusFightScreen) and screen.view_state.phase == R.OVER
        seats = _text(screen.query_one("#gs-seats")).splitlines()
        assert "(you)" in next(line for line in seats if "Ann" in line)
        assert not any("(you)" in line for line in seats if "Bob" in line)
