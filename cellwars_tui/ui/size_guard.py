"""A clear "terminal too small" notice instead of a broken layout (local app and SSH sessions).

Mix :class:`SizeGuard` into a Textual ``App`` (before ``App`` in the bases)::

    class SessionApp(SizeGuard, App): ...

When the terminal is smaller than the minimum, the current screen is covered by a
:class:`TooSmall` notice naming the size it has and the size it needs, and keys do nothing except
Ctrl+Q / Ctrl+C (so no move is made blind). When the terminal grows again the notice goes and the
screen is as it was. The covered screen is told both ways by a :class:`TooSmall.Covered` message
(a real-time game's clock stands still while its table cannot be seen). The minimum is the app's
``SizeGuard.MIN_SIZE`` or the largest ``MIN_SIZE`` a screen on the stack declares, whichever is
larger (a game whose board needs more room sets ``MIN_SIZE = (w, h)`` on its screen: the hook is
declared, with its default None, on ``ui.host.CommandScreen``).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import MountError, Widget

from .css import default_css
from .host import CommandScreen

DEFAULT_MIN_SIZE = (64, 20)
ALWAYS_ALLOWED_KEYS = frozenset({"ctrl+q", "ctrl+c"})


def too_small_text(have: tuple[int, int], need: tuple[int, int]) -> Text:
    text = Text(justify="center")
    text.append("Terminal too small\n\n", style="bold")
    text.append(f"This window is {have[0]} × {have[1]}; Cellwars needs at least "
                f"{need[0]} × {need[1]}.\n")
    text.append("Enlarge the window or make the font smaller.\n\n")
    text.append("Ctrl+Q quits (games are saved after every move).", style="dim")
    return text


class TooSmall(Widget):
    """Covers a whole screen while the terminal is below the minimum size."""

    DEFAULT_CSS = default_css(__file__, "size_guard.tcss")

    class Covered(Message):
        """Sent to a screen when the notice covers it (``covered``) and when it goes."""

        def __init__(self, covered: bool) -> None:
            super().__init__()
            self.covered = covered

    def __init__(self, have: tuple[int, int], need: tuple[int, int]) -> None:
        super().__init__(id="too-small")
        self.have = have
        self.need = need

    def set_sizes(self, have: tuple[int, int], need: tuple[int, int]) -> None:
        if (have, need) != (self.have, self.need):
            self.have, self.need = have, need
            self.refresh()

    def render(self) -> Text:
        return too_small_text(self.have, self.need)


class SizeGuard:
    """App mixin: show :class:`TooSmall` over the screen while the terminal is too small."""

    MIN_SIZE: tuple[int, int] = DEFAULT_MIN_SIZE
    _size_guard_timer: Any = None  # the look again while too small (a Timer), None when off

    def minimum_size(self) -> tuple[int, int]:
        """The size the app needs now: its own MIN_SIZE and every stacked screen's (declared on
        CommandScreen; any other screen needs no more than the app), whichever larger."""
        width, height = self.MIN_SIZE
        for screen in self.screen_stack:  # type: ignore[attr-defined]
            size = screen.MIN_SIZE if isinstance(screen, CommandScreen) else None
            if size is not None:
                width, height = max(width, size[0]), max(height, size[1])
        return width, height

    @property
    def too_small(self) -> bool:
        size = self.size  # type: ignore[attr-defined]
        need = self.minimum_size()
        return size.width < need[0] or size.height < need[1]

    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, self._size_guard_screen)  # type: ignore[attr-defined]
        self.call_after_refresh(self.check_size)  # type: ignore[attr-defined]

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self.check_size)  # type: ignore[attr-defined]

    def _size_guard_screen(self, _screen: Any) -> None:
        self.call_after_refresh(self.check_size)  # type: ignore[attr-defined]

    def check_size(self) -> None:
        """Cover the current screen if the terminal is too small; uncover every screen if not."""
        app: Any = self
        try:
            current = app.screen
        except Exception:  # noqa: BLE001 - no screen yet, or shutting down
            return
        small = self.too_small
        for screen in app.screen_stack:
            if screen is not current or not small:
                if screen.has_class("-too-small"):
                    screen.remove_class("-too-small")
                    screen.styles.clear_rule("overflow_x")
                    screen.styles.clear_rule("overflow_y")
                    screen.post_message(TooSmall.Covered(False))
                for notice in list(screen.query(TooSmall)):
                    notice.remove()
        if not small:
            return
        # while too small, look again now and then: a screen pushed or mounted in between
        # (start-up, a bot's hand-off cover) gets its notice too
        if self._size_guard_timer is None:
            def again() -> None:
                self._size_guard_timer = None
                self.check_size()

            self._size_guard_timer = app.set_timer(0.5, again)
        have = (app.size.width, app.size.height)
        need = self.minimum_size()
        if not current.has_class("-too-small"):
            current.add_class("-too-small")
            current.styles.overflow_x = "hidden"  # no scrollbars around the notice
            current.styles.overflow_y = "hidden"
            current.post_message(TooSmall.Covered(True))
        found = list(current.query(TooSmall))
        if found:
            found[0].set_sizes(have, need)
            return
        try:
            current.mount(TooSmall(have, need))
        except MountError:  # the screen is not mounted yet: the timer above tries again
            pass

    async def on_event(self, event: events.Event) -> None:
        if (
            isinstance(event, events.Key)
            and not event.is_forwarded
            and event.key not in ALWAYS_ALLOWED_KEYS
            and self.too_small
        ):
            event.stop()
            return
        await super().on_event(event)  # type: ignore[misc]
