"""Shared helpers for the pilot tests."""

from __future__ import annotations

from cellwars_tui.core.api import Options
from cellwars_tui.core.match import Match, Seat
from tests.toy_game import TOY


def toy_match(seed: int = 7, bot: str = "random") -> Match:
    seats = [Seat(name="Ann"), Seat(name="Bot", kind="bot", bot=bot, think=0.05)]
    return Match(TOY, Options(players=2), seats, seed)


async def settle(pilot, rounds: int = 200) -> None:
    """Let bots finish thinking and the screens repaint."""
    app = pilot.app
    from textual.worker import WorkerCancelled

    for _ in range(rounds):
        try:
            await app.workers.wait_for_complete()
        except WorkerCancelled:  # a bot replaced by a newer one (its result is dropped anyway)
            pass
        await pilot.pause()
        screen = app.screen
        table = getattr(screen, "table", None)
        if table is None or table.is_over() or table.bot_to_move() is None:
            if not app.workers._workers or all(w.is_finished for w in app.workers):
                return
    raise AssertionError("bots never settled")


async def assert_too_small_below_80x24(pilot, screen) -> None:
    """A screen that needs 80x24: one column or row less (and 64x20) shows the "too small" notice
    asking for 80 × 24; back at 80x24 the notice is gone."""
    from cellwars_tui.ui.size_guard import TooSmall

    for size in ((79, 24), (80, 23), (64, 20)):
        await pilot.resize_terminal(*size)
        await pilot.pause()
        await pilot.pause()
        notices = list(screen.query(TooSmall))
        assert notices, size
        assert "80 × 24" in str(notices[0].render())
    await pilot.resize_terminal(80, 24)
    await pilot.pause()
    await pilot.pause()
    assert not screen.query(TooSmall)
