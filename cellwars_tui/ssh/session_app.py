"""What a session of ``cellwars serve`` runs in its child process: ``python -m cellwars_tui.ssh.session_app``.

The server starts this on the session's PTY with the player's identity and hub token in the
environment (see :mod:`.server`). The session gets the whole app (:class:`OnlineApp`): the
launcher and every local game, plus the online tables (``o``, or the command palette). A player
who comes back to a game in progress is taken straight to its table. A terminal smaller than the
app can lay out gets the app's "terminal too small" notice (``ui.size_guard``) until it grows.
"""

from __future__ import annotations

import sys
from pathlib import Path

from textual.binding import Binding
from textual.screen import Screen

from ..ui import app as ui_app
from ..ui.app import CellwarsApp
from . import protocol as p
from .client import in_ssh_session
from .lobby import HubLink, LobbyScreen, TableScreen


class OnlineApp(CellwarsApp):
    """The whole app, plus the server's lobby and tables."""

    CSS_PATH = str(Path(ui_app.__file__).with_name("app.tcss"))  # relative paths follow the subclass
    BINDINGS = [
        *CellwarsApp.BINDINGS,
        Binding("o", "online", "Online"),
    ]

    def __init__(self, *, online: bool | None = None, **kw) -> None:
        super().__init__(**kw)
        self.online = in_ssh_session() if online is None else online

    def on_mount(self) -> None:  # Textual also calls every base class's on_mount
        if self.online:
            link = HubLink.of(self)
            link.start()  # the footer shows "o Online"

    # -- online ------------------------------------------------------------------------------
    def action_online(self) -> None:
        """Show the lobby (or bring it to the top if it is open)."""
        if not self.online:
            self.notify("Online tables are only on a `cellwars serve` server.", severity="warning")
            return
        online = (LobbyScreen, TableScreen)
        if any(isinstance(s, online) for s in self.screen_stack):
            # back to the lobby, or to the table this player is at (leaving it is its own key)
            while not isinstance(self.screen, online) and len(self.screen_stack) > 1:
                self.pop_screen()
            return
        self.push_screen(LobbyScreen())

    def hub_message(self, msg: p.Msg) -> None:
        """The hub took this player back to a game in progress: show that table at once."""
        if not isinstance(msg, p.TableState) or msg.info.status != "playing":
            return
        if any(isinstance(s, (LobbyScreen, TableScreen)) for s in self.screen_stack):
            return  # the lobby's screens follow the table themselves
        self.push_screen(LobbyScreen())
        self.push_screen(TableScreen(msg.info.code))

    def play_again(self, screen: Screen) -> None:
        from .remote import RemoteTable

        if isinstance(getattr(screen, "table", None), RemoteTable):
            self.notify("Online, a new game is a new table: create one in the lobby (o).")
            screen.dismiss_game()  # type: ignore[attr-defined]
            return
        super().play_again(screen)  # type: ignore[arg-type]


def main() -> int:
    OnlineApp().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
