"""A lesson's refusal ("X is legal, but not the lesson's move: what to do") is read whole at 80x24
in every game: the status line says it when it fits its one line, else points at the lesson
panel, which shows it first, wrapped, in view (issue 29: the line was cut just before what to
do)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.text import Text

from cellwars_tui.learn.lesson import DO, READ
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.widgets.lesson_panel import REFUSAL_POINTER, LessonPanel

from .test_pilot import SIZE, clock, open_lesson  # noqa: F401 (the fixture: Infection's clock)

GAMES = ["cell-management", "cell-wars", "cellulis-bellum", "infection", "virus-fight"]


def _plain(widget) -> str:
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


def _first_wrong_move(table):
    """Follow the lesson (Enter, the lesson's own moves) to the first step of the player's where
    another legal move exists; that move."""
    seat = table.lesson.you
    while table.active:
        step = table.run.step
        if step.kind == READ:
            table.go_on()
            continue
        assert step.kind == DO, (step.number, step.kind)
        others = [a for a in table.legal(seat) if a != step.action]
        if others:
            return seat, others[-1]
        table.submit(seat, step.action)
    raise AssertionError("the lesson never offers another move")


@pytest.mark.parametrize("game_id", GAMES)
async def test_a_refusal_is_read_whole_at_80x24(game_id, clock):  # noqa: F811
    app = CellwarsApp(learn=game_id)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lesson(pilot, app)
        table = screen.lesson
        seat, wrong = _first_wrong_move(table)
        await pilot.pause()
        assert screen.play(wrong) is False
        await pilot.pause()
        why = table.panel().feedback
        assert "not the lesson's move" in why or "rules" in why, why
        status = _plain(screen.query_one("#gs-status"))
        assert status in (f"✗ {why}", REFUSAL_POINTER)
        assert cell_len(status) <= SIZE[0] - 2  # the whole line shows
        panel = screen.query_one(LessonPanel)
        assert " ".join(why.split()) in " ".join(panel.plain.split())  # whole in the panel
        text = panel.query_one("#lesson-text")
        lines = Text(_plain(text)).wrap(app.console, text.content_region.width)
        upto = next(i for i, line in enumerate(lines) if why.split()[-1] in line.plain)
        box = panel.query_one("VerticalScroll")
        assert box.scroll_y == 0 and upto < box.content_region.height  # in view, unscrolled
