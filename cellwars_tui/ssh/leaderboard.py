"""The leaderboard of one rated game (top players, your place), in the online lobby (``l``).

It asks the hub for a game's board (:class:`~cellwars_tui.online.protocol.AskLeaderboard`) and
draws the answer: established ratings first, then provisional ones (shown with ``?``, see
:mod:`cellwars_tui.online.ratings`), and under the table the reader's own place. ``←``/``→``
change the game; Enter on a row opens that player's profile (:mod:`.profile`).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static, Tab, Tabs

from ..core.registry import all_games
from ..online import protocol as p
from ..online.league import Leaderboard
from ..online.ratings import PROVISIONAL_SIGMA, is_rated_game
from ..ui.footer import Footer
from .hub_listener import HubListener
from .profile import ProfileScreen, place_words


def rated_games() -> list[tuple[str, str]]:
    """(id, title) of every rated game, in the launcher's order."""
    return [(g.id, g.title) for g in all_games() if is_rated_game(g)]


def your_line(board: Leaderboard, keyed: bool) -> str:
    """The line under the board about the reader."""
    if not keyed:
        return "Guests play unrated: come back with an SSH key to be rated."
    if board.you is None:
        return "You have no rating in this game yet: play at a rated table (r when you make one)."
    row = board.you
    status = (f" (provisional until its uncertainty falls under {PROVISIONAL_SIGMA:g}: "
              "a few more rated games)" if row.rating.provisional else "")
    return (f"You: {place_words(row.place)} of {board.players} · {row.rating.text()} after "
            f"{row.rating.games} rated game{'' if row.rating.games == 1 else 's'}{status}")


class LeaderboardScreen(HubListener, Screen):
    """Top players of a rated game and your place (see the module's docstring)."""

    CSS_PATH = "leaderboard.tcss"
    BINDINGS = [
        Binding("left,h", "game(-1)", "Game", key_display="←→"),
        Binding("right,l", "game(1)", "Next game", show=False),
        Binding("y", "mine", "Your profile"),
        Binding("escape,q", "back", "Back"),
    ]

    def __init__(self, send: Callable[[p.Msg], None], *, game: str = "", you: str = "") -> None:
        super().__init__()
        self.send = send
        self.you = you  # the reader's identity ("" or a guest's: unrated)
        self.games = rated_games()
        ids = [g for g, _ in self.games]
        self.game = game if game in ids else (ids[0] if ids else "")
        self.board: Leaderboard | None = None
        self.identities: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("Leaderboard", id="board-head")
        yield Tabs(*[Tab(title, id=f"game-{gid}") for gid, title in self.games], id="board-games",
                   active=f"game-{self.game}" if self.game else None)
        yield DataTable(id="board", cursor_type="row", zebra_stripes=True)
        yield Static("Loading…", id="board-you")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#board", DataTable)
        table.add_column("#", key="place", width=5)
        table.add_column("player", key="name", width=22)
        table.add_column("rating", key="rating", width=8)
        table.add_column("games", key="games", width=6)
        table.focus()
        self._ask()

    def _ask(self) -> None:
        if self.game:
            self.board = None
            self.query_one("#board-you", Static).update("Loading…")
            self.send(p.AskLeaderboard(game=self.game))

    def hub_message(self, msg: p.Msg) -> None:
        if isinstance(msg, p.LeaderboardView) and msg.board.game == self.game and self.is_mounted:
            self.show(msg.board)

    def show(self, board: Leaderboard) -> None:
        self.board = board
        title = dict(self.games).get(board.game, board.game)
        self.query_one("#board-head", Static).update(
            f"Leaderboard · {title} · {board.players} rated player"
            f"{'' if board.players == 1 else 's'} · ? marks a provisional rating")
        table = self.query_one("#board", DataTable)
        table.clear()
        self.identities = []
        for row in board.rows:
            mine = row.identity == self.you
            style = "bold" if mine else ""
            table.add_row(Text(str(row.place), style=style),
                          Text(row.name + (" ★" if mine else ""), style=style),
                          Text(row.rating.text(), style=style), Text(str(row.rating.games)),
                          key=row.identity)
            self.identities.append(row.identity)
        if not board.rows:
            table.add_row("", Text("none yet: be the first", style="dim"), "", "")  # (fits 22)
            self.identities.append("")
        self.query_one("#board-you", Static).update(
            your_line(board, self.you.startswith("key:")))

    @on(Tabs.TabActivated, "#board-games")
    def _tab(self, event: Tabs.TabActivated) -> None:
        gid = (event.tab.id or "").removeprefix("game-")
        if gid and gid != self.game:
            self.game = gid
            self._ask()

    def action_game(self, delta: int) -> None:
        ids = [g for g, _ in self.games]
        if not ids:
            return
        self.query_one("#board-games", Tabs).active = \
            f"game-{ids[(ids.index(self.game) + delta) % len(ids)]}"

    @on(DataTable.RowSelected, "#board")
    def _row(self, event: DataTable.RowSelected) -> None:
        identity = self.identities[event.cursor_row] if event.cursor_row < len(
            self.identities) else ""
        if identity:
            self._profile(identity)

    def action_mine(self) -> None:
        if not self.you.startswith("key:"):
            self.notify("Guests have no profile: come with an SSH key.")
            return
        self._profile(self.you)

    def _profile(self, identity: str) -> None:
        self.app.push_screen(ProfileScreen(self.send, identity=identity))

    def action_back(self) -> None:
        self.dismiss()
