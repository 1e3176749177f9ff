"""The key footer every Cellwars screen shows: Textual's Footer, rebuilt at most once per refresh.

Textual's Footer recomposes (removes and mounts all its key widgets) on every bindings change,
even when the keys are the same as before; at start-up and on each screen push focus moves
several times in a row, so the same keys were built three times before the first frame. This
one coalesces the requests, and skips a rebuild when the keys it would show are unchanged.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    """Textual's Footer with bindings changes coalesced into one recompose per refresh."""

    _recompose_pending = False
    _built: tuple[Any, ...] | None = None  # what the keys were last built from

    def _signature(self) -> tuple[Any, ...]:
        """Everything the keys are built from: no rebuild when none of it changed."""
        app = self.app
        keys = tuple(
            (binding.key, binding.action, binding.description, app.get_key_display(binding),
             binding.tooltip, binding.group, enabled, tooltip)
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show
        )
        return (keys, self.show_command_palette, self.combine_groups)

    def compose(self) -> Any:
        self._built = self._signature() if self._bindings_ready else None
        yield from super().compose()

    async def recompose(self) -> None:
        if self._built is not None and self.is_attached and self._signature() == self._built:
            return  # the same keys: a rebuild would remount them all for nothing
        await super().recompose()

    def bindings_changed(self, screen: Any) -> None:
        if self._recompose_pending:
            self._bindings_ready = True
            return
        app = screen.app
        if getattr(app, "footer_after_first_frame", False) and hasattr(app, "call_after_frame"):
            # The app wants its first frame out before any keys are built (an SSH session,
            # where many may start at once: ssh.session_app.OnlineApp).
            self._bindings_ready = True
            self._recompose_pending = True
            app.call_after_frame(lambda: self.call_later(self._recompose_once))  # our own pump
            return
        if not screen.app.app_focus or not (self.is_attached and screen is self.screen):
            super().bindings_changed(screen)
            return
        self._bindings_ready = True
        self._recompose_pending = True
        self.call_after_refresh(self._recompose_once)

    async def _recompose_once(self) -> None:
        self._recompose_pending = False
        await self.recompose()
