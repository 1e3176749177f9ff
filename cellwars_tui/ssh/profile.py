"""A player's profile: their rating in each rated game (and their place), their record in every
game (rated or not: Infection's team wins, Cell Management's puzzles solved), and their recent
games, each of which replays with its chat (Enter). A bot has no profile: its seat shows the
bot's level instead.

The data comes from the hub (:class:`~cellwars_tui.online.protocol.ProfileView`, asked for by
:class:`~cellwars_tui.online.protocol.AskProfile`); a recent game is fetched with
:class:`~cellwars_tui.online.protocol.AskGame` and replayed by :mod:`.finished`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ..ai.levels import level_words
from ..core.errors import CellwarsError
from ..core.registry import get_game
from ..online import protocol as p
from ..online.league import GameLine, GameRecord, Profile, seat_outcome
from ..ui.footer import Footer
from .hub_listener import HubListener


def clock_words(seconds: float) -> str:
    """A game's length as players read it: "4:07", "1:02:09"."""
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


def game_title(game_id: str) -> str:
    try:
        return get_game(game_id).title
    except CellwarsError:
        return game_id


def place_words(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def record_words(record: GameRecord) -> str:
    """A player's record in one game, in the game's own words."""
    try:
        game = get_game(record.game)
        cooperative, solitaire = game.meta.cooperative, game.max_players < 2
    except CellwarsError:
        cooperative = solitaire = False
    parts = [f"{record.played} played"]
    if solitaire:
        parts.append(f"{record.won} solved")
    elif cooperative:
        parts += [f"{record.won} team win{'' if record.won == 1 else 's'}", f"{record.lost} lost"]
    else:
        parts += [f"{record.won} won", f"{record.lost} lost"]
        if record.tied:
            parts.append(f"{record.tied} tied")
    if record.best_score is not None:
        parts.append(f"best score {record.best_score:g}")
    if record.fewest_moves is not None:
        parts.append(f"quickest win {record.fewest_moves} moves")
    if record.best_seconds is not None:
        parts.append(f"best time {clock_words(record.best_seconds)}")
    return " · ".join(parts)


def opponents(line: GameLine) -> str:
    """The others at the table: names, bots by their level."""
    out = []
    for i, seat in enumerate(line.seats):
        if i == line.seat:
            continue
        out.append(f"{seat.name} ({seat.bot} bot)" if seat.kind == "bot" else seat.name)
    return ", ".join(out) or "alone"


def bot_words(name: str, level: str, game_id: str) -> str:
    try:
        level = level_words(get_game(game_id), level)
    except CellwarsError:
        pass
    return f"{name} is a bot, level {level}. Bots play casual tables only: they have no rating."


class ProfileScreen(HubListener, Screen):
    """One player's profile (see the module's docstring)."""

    CSS_PATH = "profile.tcss"
    BINDINGS = [
        Binding("escape,q", "back", "Back"),
    ]

    def __init__(self, send: Callable[[p.Msg], None], *, identity: str = "", seat: int = -1,
                 name: str = "") -> None:
        super().__init__()
        self.send = send
        self.identity = identity
        self.seat = seat  # asked by seat at the reader's table (identity unknown to the reader)
        self.player = name  # the name to show until the profile comes
        self.profile: Profile | None = None
        self.games: list[str] = []  # game ids of the recent games, by row
        self.asked_game = ""  # the game fetched to replay

    def compose(self) -> ComposeResult:
        yield Static(f"Profile · {self.player or '…'}", id="profile-head")
        with VerticalScroll(id="profile-body"):
            yield Static("Loading…", id="profile-ratings")
            yield Static("", id="profile-records")
        yield DataTable(id="profile-recent", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#profile-recent", DataTable)
        table.border_title = "recent games (Enter replays one, with its chat)"
        for label, width in (("when", 16), ("game", 16), ("result", 34), ("rating", 7),
                             ("with", 30)):
            table.add_column(label, width=width)
        table.focus()
        self.send(p.AskProfile(identity=self.identity, seat=self.seat))

    def hub_message(self, msg: p.Msg) -> None:
        if not self.is_mounted:
            return
        if isinstance(msg, p.ProfileView) and self._is_ours(msg):
            if msg.bot:
                self.show_bot(msg.name, msg.bot, msg.game)
            else:
                self.show(msg.profile, msg.name)
        elif isinstance(msg, p.FinishedGame) and msg.result.game_id == self.asked_game:
            self.asked_game = ""
            from .finished import open_finished

            open_finished(self.app, msg.result)

    def _is_ours(self, msg: p.ProfileView) -> bool:
        return msg.identity == self.identity and msg.seat == self.seat

    def show_bot(self, name: str, level: str, game: str) -> None:
        self.query_one("#profile-head", Static).update(f"Profile · {name}")
        self.query_one("#profile-ratings", Static).update(bot_words(name, level, game))
        self.query_one("#profile-records", Static).update("")

    def show(self, profile: Profile | None, name: str = "") -> None:
        self.profile = profile
        head = self.query_one("#profile-head", Static)
        ratings = self.query_one("#profile-ratings", Static)
        records = self.query_one("#profile-records", Static)
        table = self.query_one("#profile-recent", DataTable)
        table.clear()
        self.games = []
        if profile is None:
            who = name or "this player"
            head.update(f"Profile · {who}")
            ratings.update(f"No finished game of {who} is kept on this server yet.")
            records.update("")
            return
        key = profile.identity.removeprefix("key:")
        kind = f"key {key[:20]}…" if profile.identity.startswith("key:") else "guest (unrated)"
        head.update(f"Profile · {profile.name} · {kind}")
        if profile.ratings:
            lines = [Text("Ratings", style="bold")]
            for game, rating, place in profile.ratings:
                lines.append(Text(f"  {game_title(game):<16} {rating.text():>6}  "
                                  f"{place_words(place)} · {rating.games} rated game"
                                  f"{'' if rating.games == 1 else 's'}"))
            ratings.update(Text("\n").join(lines))
        else:
            ratings.update("No rating yet: ratings come from rated tables (keyed players only).")
        rec = [Text("Record", style="bold")]
        rec += [Text(f"  {game_title(r.game):<16} {record_words(r)}") for r in profile.records]
        records.update(Text("\n").join(rec))
        for line in profile.recent:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(line.finished_at))
            how = seat_outcome(line, line.seat)
            rated = "" if line.rated else " · casual"
            table.add_row(when, game_title(line.game), Text(f"{how}{rated}: {line.text}"),
                          line.change or "-", opponents(line), key=line.game_id)
            self.games.append(line.game_id)

    @on(DataTable.RowSelected, "#profile-recent")
    def _replay(self, event: DataTable.RowSelected) -> None:
        if 0 <= event.cursor_row < len(self.games):
            self.asked_game = self.games[event.cursor_row]
            self.send(p.AskGame(game_id=self.asked_game))

    def action_back(self) -> None:
        self.dismiss()
