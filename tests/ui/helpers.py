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
