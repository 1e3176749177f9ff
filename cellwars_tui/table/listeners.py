"""What every table (local, replay, online) shares: listeners called after each change.

A table bumps ``revision`` and calls its listeners in order on every change; screens subscribe to
repaint. Subscribing the same listener twice is one subscription (a screen whose on_mount chain
runs GameScreen.on_mount twice repaints once); unsubscribing one that is not there is harmless.
"""

from __future__ import annotations

from collections.abc import Callable


class ChangeListeners:
    """Mixin for the tables: ``subscribe``, ``unsubscribe`` and ``_tell_listeners``. A table's
    ``__init__`` sets ``revision = 0`` and ``_listeners = []``."""

    revision: int = 0
    _listeners: list[Callable[[], None]]

    def subscribe(self, fn: Callable[[], None]) -> None:
        """Call ``fn`` after every change."""
        if fn not in self._listeners:
            self._listeners.append(fn)

    def unsubscribe(self, fn: Callable[[], None]) -> None:
        try:
            self._listeners.remove(fn)
        except ValueError:
            pass

    def _tell_listeners(self) -> None:
        """A change: bump ``revision``, then call every listener (one may unsubscribe itself)."""
        self.revision += 1
        for fn in list(self._listeners):
            fn()
