"""Helpers for the Virus Fight screen tests: a match to open, the screen as text, clicks on
squares, programs built by keys, turns played by keys."""

from __future__ import annotations

import random

from rich.text import Text

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.virus_fight import engine as E
from cellwars_tui.games.virus_fight import rules as R
from cellwars_tui.games.virus_fight.board_view import PITCHES, X0, Y0, BoardView
from cellwars_tui.games.virus_fight.picks import erase_nothing_squares, turn_picks


async def settle(pilot) -> None:
    """Let the table's bots finish thinking and the screens repaint."""
    from tests.ui.helpers import settle as settle_bots

    await settle_bots(pilot)


BOT_PROGRAMS = ("W2 E1 M3 J2", "E3 M1 W3", "J1 W1 E2 M2")


def vf_match(players: int = 2, humans: int = 1, bot: str = "random", seed: int = 5,
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


def widget_text(widget) -> str:
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


def log_text(screen) -> str:
    """The log as one line of words (the screen wraps each step's line itself)."""
    return " ".join(widget_text(screen.query_one("#gs-log")).split())


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


def human_choice(rng: random.Random, legal: list):
    """A random turn that keeps the marker running if possible (never a stalemate offer; an
    offer from the bot is declined)."""
    if R.Decline() in legal:
        return R.Decline()
    turns = [a for a in legal if turn_picks(a)]
    alive = [a for a in turns if getattr(a, "step", getattr(a, "to", 0)) >= 0]
    return rng.choice(alive or turns)
