"""What a screen may ask the app it runs in: the shell's hooks, declared with their defaults.

The shell (``app.py``'s :class:`~.app.CellwarsApp`, and over it the SSH session's ``OnlineApp``)
is a :class:`Host`. A screen or widget asks ``isinstance(self.app, Host)`` and then calls a hook
or reads a setting; under any other Textual app (a test of one screen) it does without. Each
default here is what a host that does not offer the hook does: nothing, or what any Textual app
can do. Nothing is probed with ``getattr``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from . import textual_fixes  # noqa: F401 - applied before any app renders

if TYPE_CHECKING:
    from ..core.match import Match
    from .game_screen import GameScreen


class MoreKeysPage(Message):
    """Asks a key footer for its next page of keys (F2, the "more keys" key)."""


class Host(App):
    """An app that hosts our screens (see the module's docstring)."""

    # The key footer's "more keys" key: its next page of keys when they do not fit in one line
    # (ui.footer_layout; the footer draws the key itself, at the end of each page).
    BINDINGS = [Binding("f2", "more_keys", "More keys", show=False)]

    # The key footer as one widget drawing every key (ui.footer.Footer) instead of Textual's
    # widget per key: much cheaper to build; SSH sessions use it (ssh.session_app.OnlineApp).
    one_widget_footer: bool = False
    # The app wants its first frame out before any footer's keys are built (an SSH session,
    # where many may start at once); it repaints the footers itself once the frame is out.
    footer_after_first_frame: bool = False
    # The game last opened (new, resumed, from a replay): the launcher comes back on it.
    last_game: str | None = None

    def action_more_keys(self) -> None:
        # Each key footer turns its page on this message (ui.footer imports this module, so this
        # module names no footer class: the footers carry the class "keys-footer").
        for footer in self.screen.query(".keys-footer"):
            footer.post_message(MoreKeysPage())

    def call_after_frame(self, callback: Any) -> None:
        """Run ``callback`` once the next frame is out (default: after the next refresh)."""
        self.call_after_refresh(callback)

    def play_again(self, screen: GameScreen) -> None:
        """A fresh game like the one on ``screen`` (default: none)."""

    def new_game_dialog(self, game: Any) -> None:
        """The New-game dialog for ``game`` (default: none)."""

    def open_replay(self, path: Path | None = None, seat: int | None = -1) -> bool:
        """The Replays page, or the replay viewer for ``path`` (through ``seat``'s eyes when
        given); False if it cannot be opened (default: replays are not offered)."""
        return False

    def game_screen(self, match: Match, *, read_only: bool = False) -> GameScreen | None:
        """``match``'s game screen over a table played here (default: not offered, None)."""
        return None

    def start_match(self, match: Match) -> GameScreen | None:
        """Play ``match`` on its game's screen (default: not offered, None)."""
        return None

    def remember_theme(self, name: str) -> None:
        """Keep ``name`` as the theme for the next start (default: not kept)."""


class CommandScreen(Screen):
    """A screen with actions of its own for the command palette (Ctrl+P): the app lists
    :meth:`palette_commands` first, then every binding with a description. It may also ask for
    more room than the app's minimum (:attr:`MIN_SIZE`, read by ``ui.size_guard``)."""

    # The terminal size (columns, lines) this screen needs, when it needs more than the app's
    # MIN_SIZE (a game whose board is wide); None: the app's is enough.
    MIN_SIZE: ClassVar[tuple[int, int] | None] = None

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        """(title, help, callback) for each of the screen's own actions (default: none)."""
        return []
