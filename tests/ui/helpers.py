"""Shared helpers for the pilot tests."""

from __future__ import annotations

from cellwars_tui.core.api import Options
from cellwars_tui.core.match import Match, Seat
from tests.toy_game import TOY


def toy_match(seed: int = 7, bot: str = "random") -> Match:
    seats = [Seat(name="Ann"), Seat(name="Bot", kind="bot", bot=bot, think=0.05)]
    return Match(TOY, Options(players=2), seats, seed)


async def settle(pilot, timeout: float = 60.0) -> None:
    """Let the table's bots finish thinking and the screen repaint (the timeout only guards
    against a hang: a bot thinks in a thread, and a loaded machine takes longer)."""
    import time

    app = pilot.app
    deadline = time.monotonic() + timeout
    while True:
        await pilot.pause()
        table = getattr(app.screen, "table", None)
        if table is None or table.is_over() or table.bot_to_move() is None:
            await pilot.pause()
            return
        if time.monotonic() > deadline:
            raise AssertionError("bots never settled")
        await pilot.pause(0.01)


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


async def until(pilot, condition, what: str = "the condition", timeout: float = 60.0) -> None:
    """Let the app run until ``condition()`` holds. The timeout only guards against a hang: a
    loaded machine takes longer, never fails for it."""
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.02)


async def run_from_palette(pilot, title: str) -> None:
    """Open the command palette, type ``title``, wait until its search has finished with that
    command highlighted, and run it with Enter (the search runs in a worker and its results come
    in batches: a fixed pause picked whatever had come in by then)."""
    from textual.command import Command, CommandInput, CommandList, CommandPalette

    app = pilot.app
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
    palette = app.screen
    await pilot.press(*title)

    def found() -> bool:
        if palette.query_one(CommandInput).value != title:
            return False
        if any(w.group == CommandPalette._GATHER_COMMANDS_GROUP and not w.is_finished
               for w in app.workers):
            return False  # more hits may still come in and reorder the list
        hits = palette.query_one(CommandList)
        if hits.highlighted is None:
            return False
        option = hits.get_option_at_index(hits.highlighted)
        return isinstance(option, Command) and str(option.hit.text) == title

    await until(pilot, found, f"{title!r} highlighted in the palette")
    await pilot.press("enter")
    await until(pilot, lambda: app.screen is not palette, "the palette to close")


async def until_async(pilot, condition, what: str = "the condition", timeout: float = 60.0) -> None:
    """:func:`until` for a condition that acts too (an awaitable returning a bool)."""
    import time

    deadline = time.monotonic() + timeout
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await pilot.pause(0.05)


def footer_text(app) -> str:
    """The bottom line of the screen as painted (the footer)."""
    strips = app.screen._compositor.render_strips()
    return "".join(seg.text for seg in strips[-1])


def shown_keys(screen) -> dict[str, str]:
    """action -> description of every key the footer means to show."""
    return {a.binding.action.split("(", 1)[0]: a.binding.description
            for a in screen.active_bindings.values() if a.binding.show}


async def until_footer_whole(pilot) -> dict[str, str]:
    """The keys the footer means to show, once it shows every one whole. The footer is repainted
    a frame after the bindings change: a test that compares whole screens waits for this first,
    never for the machine's speed."""
    app = pilot.app

    def whole() -> bool:
        footer = footer_text(app)
        return all(d in footer for d in shown_keys(app.screen).values())

    await until(pilot, whole, f"the footer to show {sorted(shown_keys(app.screen).values())}")
    return shown_keys(app.screen)


def footer_item_text(item) -> str:
    """A footer key as drawn (ui.footer_layout.FooterItem)."""
    if item.palette:
        return f"{item.key_display} {item.description}"
    return f" {item.key_display} {item.description} " if item.description else item.key_display


async def footer_pages(pilot) -> list[tuple]:
    """The footer's pages of keys as painted, turned with F2 from the first to the last and
    back to the first; each page's keys are drawn whole in the bottom line before it is read."""
    from cellwars_tui.ui.footer import Footer

    app = pilot.app
    screen = app.screen
    await until(pilot, lambda: screen.is_mounted and screen.query(Footer), f"{screen}'s footer")
    footer = screen.query_one(Footer)

    def drawn() -> bool:
        region = footer.region  # (a dialog's footer is inside its frame)
        strips = app.screen._compositor.render_strips()
        if not region.height or region.y >= len(strips):
            return False
        line = "".join(seg.text for seg in strips[region.y])[region.x:region.right]
        return all(footer_item_text(item) in line for item in footer.page_items())

    await until(pilot, drawn, f"the footer's keys drawn whole on {app.screen}")
    count = len(footer.key_pages())
    read = [footer.page_items()]
    for n in range(1, count + 1):
        await pilot.press("f2")
        await until(pilot, lambda: footer.page_items() is footer.key_pages()[n % count] and drawn(),
                    f"page {n % count + 1} of the footer")
        if n < count:
            read.append(footer.page_items())
    return read


async def assert_every_footer_key_reachable(pilot) -> int:
    """Every key the screen's footer means to show is on one of its pages (read as painted by
    :func:`footer_pages`), each of several pages with its "More" key; returns the pages read."""
    screen = pilot.app.screen
    read = await footer_pages(pilot)
    shown = {item.description for page in read for item in page}
    wanted = {a.binding.description for a in screen.active_bindings.values()
              if a.binding.show and a.binding.description}
    assert wanted <= shown, f"{screen}: {sorted(wanted - shown)} on no page of the footer"
    if len(read) > 1:
        assert all(any(item.more for item in page) for page in read), (screen, read)
    return len(read)


def repaints_while_playing(screen, action) -> int:
    """How many times ``screen`` repaints its table while it plays ``action`` (which must be
    played)."""
    repaints: list[int] = []
    own = screen.refresh_table
    screen.refresh_table = lambda: (repaints.append(1), own())[1]
    try:
        assert screen.play(action)
    finally:
        del screen.refresh_table
    return len(repaints)
