"""Pilot tests of the Virus Fight screen: a whole game against the bot by keys, a turn by mouse,
undo/redo, quit and resume, hot-seat privacy, the 6x6 board of three and four players, the board
as text at 80x24, a stalemate offer, erase targets, the spares line, the palette and the rules
page (the replay and repaints: test_screen_replay.py)."""

from __future__ import annotations

import random

import pytest

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.virus_fight import engine as E
from cellwars_tui.games.virus_fight import rules as R
from cellwars_tui.games.virus_fight.board_view import BoardView, board_extent
from cellwars_tui.games.virus_fight.picks import turn_picks
from cellwars_tui.games.virus_fight.screen import VirusFightScreen
from cellwars_tui.record.format import read_record_file
from cellwars_tui.record.writer import flush
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.dialogs import HandOff
from cellwars_tui.ui.screens import screen_class

from .screen_helpers import (build_by_keys, build_direct, click_square, human_choice, log_text,
                             screen_text, settle, turn_by_keys, vf_match, widget_text)


def test_the_game_has_its_own_screen():
    assert screen_class(R.GAME) is VirusFightScreen


@pytest.mark.slow
async def test_a_whole_two_player_game_against_the_bot_by_keys():
    app = CellwarsApp(match=vf_match(round_limit=5, seed=11, prebuilt=False))
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
            await turn_by_keys(pilot, human_choice(rng, screen.legal))
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
    app = CellwarsApp(match=vf_match(seed=2))
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.table
        for name in ("M2", "W1", "E1"):
            await pilot.click(f"#vf-add-{name}")
        await pilot.click("#vf-slot-1")
        await pilot.pause()
        assert table.state().programs[0] == (E.code(0, 2), E.code(1, 1), E.code(3, 1))
        assert "M2" in widget_text(screen.query_one("#vf-slot-1"))
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
    app = CellwarsApp(match=vf_match(seed=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        table = screen.table
        match = table.match
        build_direct(screen, ["M1", "J2", "E2"], 0)
        await settle(pilot)
        rng = random.Random(1)
        while match.state.phase != R.PLAY or not any(s.seat == 1 for s in match.history[-2:]):
            assert screen.play(human_choice(rng, screen.legal))
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
    match = vf_match(seed=6)
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
    app = CellwarsApp(match=vf_match(humans=2, seed=8))
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
        assert "J3" not in widget_text(screen.query_one("#vf-slot-1"))
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen and screen.seat == 1
        assert screen.view_state.programs[0] == ()
        for i in range(1, 6):
            assert widget_text(screen.query_one(f"#vf-slot-{i}")).strip() == ""
        text = screen_text(app)
        assert "J3 E2" not in text and "J3 [E2]" not in text
        assert "Ann: ready ✓" in widget_text(screen.query_one("#vf-others"))
        build_direct(screen, ["M1"], 0)
        await pilot.pause()
        # both ready: the reveal is public, and Bob (one instruction) goes first
        log = log_text(screen)
        assert "Ann: J3 [E2]; Bob: [M1]" in log and "Bob goes first" in log


@pytest.mark.parametrize("players", [3, 4])
async def test_three_and_four_players_play_on_a_six_by_six_board(players):
    app = CellwarsApp(match=vf_match(players=players, seed=players))
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
        seats = widget_text(screen.query_one("#gs-seats"))
        assert ("West" in seats) and (("East" in seats) == (players == 4))
        assert "Round 1/50" in widget_text(screen.query_one("#vf-round"))


async def test_the_board_at_80x24_as_text():
    match = vf_match(humans=2, seed=1)
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
    match = vf_match(humans=2, seed=1)
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
        prompt = widget_text(screen.query_one("#vf-prompt"))
        assert "Bob offers a stalemate" in prompt and "Bob would win" in prompt
        assert screen.query_one("#vf-answer").display
        await pilot.press("d")
        await pilot.pause()
        assert screen.seat == 1
        assert "Stalemate declined" in widget_text(screen.query_one("#vf-prompt"))
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
        assert table.is_over()
        assert table.outcome().termination.startswith("agreed stalemate: ")
        assert "Bob wins (agreed stalemate: most spares" in table.outcome_text()
        assert "Bob agrees to the stalemate." in log_text(screen)


async def test_erase_offers_real_targets_and_empty_squares_beside_erase_by_mouse():
    match = vf_match(humans=2, seed=1)
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
    app = CellwarsApp(match=vf_match(seed=5))
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
    app = CellwarsApp(match=vf_match(seed=5))
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
    app = CellwarsApp(match=vf_match(seed=5))  # Bob (a bot) wrote his four instructions
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        title = screen.query_one("#gs-title")
        assert "Bob has a program ready" in log_text(screen)
        assert not any(ch.isdigit() for ch in log_text(screen))
        assert "step" not in widget_text(title) and "Ann to act" in widget_text(title)
        assert screen.play(R.Add(E.code(0, 1)))
        await pilot.press("u")
        await settle(pilot)
        assert "Undone." in screen_text(app) and "step" not in widget_text(title)
        build_direct(screen, ["M1"], 0)
        await settle(pilot)
        # the reveal: programs are public, and so are the step numbers
        assert "step" in widget_text(title)
        assert "6 Bob has a program ready. 9 Ann has a program ready" in log_text(screen)


async def test_the_program_slots_show_the_digit_that_puts_the_marker_there():
    app = CellwarsApp(match=vf_match(seed=5))
    async with app.run_test(size=(64, 20)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        for i in range(1, 6):
            assert f"─ {i} ─" in text, text


async def test_question_mark_and_f1_open_the_virus_fight_rules_over_the_table():
    from cellwars_tui.ui.dialogs import RulesScreen

    app = CellwarsApp(match=vf_match(seed=5))
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
    match = vf_match(humans=1, seed=9, round_limit=5)
    rng = random.Random(0)
    while not match.is_over():
        seat = next(s for s in match.to_act() if s >= 0)
        match.play(seat, rng.choice(match.legal_actions(seat)))
    app = CellwarsApp(match=match)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, VirusFightScreen) and screen.view_state.phase == R.OVER
        seats = widget_text(screen.query_one("#gs-seats")).splitlines()
        assert "(you)" in next(line for line in seats if "Ann" in line)
        assert not any("(you)" in line for line in seats if "Bob" in line)
