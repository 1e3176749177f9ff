"""The key footer every Cellwars screen shows: Textual's Footer, rebuilt at most once per refresh.

Textual's Footer recomposes (removes and mounts all its key widgets) on every bindings change;
at start-up and on each screen push focus moves several times in a row, so the same keys were
built three times before the first frame. This one coalesces the requests.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    """Textual's Footer with bindings changes coalesced into one recompose per refresh."""

    _recompose_pending = False

    def bindings_changed(self, screen: Any) -> None:
        if self._recompose_pending:
            self._bindings_ready = True
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
