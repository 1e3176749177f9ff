"""The Replays page: saved games, newest first, with search by game and player."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from ..analysis import sidecar
from ..core.errors import CellwarsError
from ..replay import rows, search
from .footer import Footer
from .replay_dialogs import AskText
from .replay_files import confined, exports_dir, import_move_list, user_file
from .replay_viewer import ReplayScreen, open_replay, origin_text


class ReplayListScreen(Screen):
    """Saved games, newest first, with search by game and player; Enter opens the replay."""

    CSS_PATH = "replay_list.tcss"
    BINDINGS = [
        Binding("escape,q", "back", "Back"),
        # priority: the search box takes the keys typed just after / (else they go to the list)
        Binding("slash", "search", "Search", key_display="/", priority=True),
        Binding("i", "import_list", "Import move list"),
        Binding("f5", "reload", "Reload", show=False),
        # from the search box (the list takes its own arrows): down to the matches
        Binding("down", "to_list", "To the list", show=False),
    ]

    def __init__(self, directory: Path | None = None) -> None:
        super().__init__()
        self.directory = directory
        self.rows: list = []
        self.accuracy: dict[Path, str] = {}  # analysed games: their players' accuracy
        self.problems: list = []
        self.shown: list = []
        self.filled = ""  # the search the list shows the matches of

    def compose(self) -> ComposeResult:
        yield Static("Replays", id="rl-title")
        yield Input(placeholder="search by game or player", id="rl-search")
        yield DataTable(id="rl-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="rl-detail")
        yield Static(id="rl-problems")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        self.action_reload()
        table.focus()

    def on_resize(self) -> None:
        if self.rows:
            self._fill(self.query_one("#rl-search", Input).value)

    def on_screen_resume(self) -> None:
        if self.is_mounted:
            self.action_reload()

    def action_reload(self) -> None:
        self.rows, self.problems = rows(self.directory)
        self.accuracy = analysed_accuracy(self.rows)
        self._fill(self.query_one("#rl-search", Input).value)
        note = ""
        if self.problems:
            first = self.problems[0].message
            if confined():  # the file's name, not where the server keeps it
                where = str(self.problems[0].path)
                first = self.problems[0].path.name + first[len(where):] if first.startswith(
                    where) else first
            more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
            note = f"{len(self.problems)} file(s) could not be read: {first}{more}"
        self.query_one("#rl-problems", Static).update(Text(note, no_wrap=True, overflow="ellipsis"))

    def _fill(self, query: str) -> None:
        table = self.query_one(DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        self.filled = query
        self.shown = search(self.rows, query)
        columns = list_columns(self.shown, self.size.width or self.app.size.width)
        base = len(columns)
        columns = with_accuracy(columns, [self.accuracy.get(r.path, "") for r in self.shown])
        for title, width in columns:
            table.add_column(title, width=width, key=title)
        short_date = columns[1][1] < 16
        for row in self.shown:
            cells = list_cells(row, short_date)[:base]
            if len(columns) > base:
                cells.append(self.accuracy.get(row.path, ""))
            table.add_row(*(_cell(c, w) for c, (_, w) in zip(cells, columns)), key=str(row.path))
        if self.shown:
            table.move_cursor(row=min(cursor, len(self.shown) - 1))
        self._show_detail(table.cursor_row if self.shown else -1)
        if not self.shown:
            self.query_one("#rl-title", Static).update(
                "Replays: no saved game matches" if self.rows else "Replays: no saved games yet")
        else:
            self.query_one("#rl-title", Static).update(f"Replays ({len(self.shown)})")

    @on(DataTable.RowHighlighted, "#rl-table")
    def _detail(self, event: DataTable.RowHighlighted) -> None:
        """The highlighted game's seats and result in full (the table cuts them to fit)."""
        self._show_detail(event.cursor_row)

    def _show_detail(self, index: int) -> None:
        detail = ""
        if 0 <= index < len(self.shown):
            row = self.shown[index]
            detail = f"{row.game} · {row.seats} · {row.result}"
            if row.path in self.accuracy:
                detail += f" · accuracy {self.accuracy[row.path]}"
        self.query_one("#rl-detail", Static).update(Text(detail))

    @on(Input.Changed, "#rl-search")
    def _search(self, event: Input.Changed) -> None:
        self._fill(event.value)

    # Focus moves at once (set_focus), not as ``widget.focus()`` does, after the keys already
    # typed: "/", Down, Enter typed together went Down and Enter to the list, which opened its
    # second row.
    @on(Input.Submitted, "#rl-search")
    def _search_done(self) -> None:
        self._fill_if_stale()
        self.set_focus(self.query_one(DataTable))

    def _fill_if_stale(self) -> None:
        """The matches of the search as typed, when its Changed messages are still on their
        way (keys typed fast: "/zed", Down, Enter opened the first game of the whole list)."""
        query = self.query_one("#rl-search", Input).value
        if query != self.filled:
            self._fill(query)

    def action_search(self) -> None:
        self.set_focus(self.query_one("#rl-search", Input))

    def action_to_list(self) -> None:
        """Down in the search box: into the list, on the first match (Enter then opens it)."""
        self._fill_if_stale()
        table = self.query_one(DataTable)
        self.set_focus(table)
        if self.shown:
            table.move_cursor(row=0)

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value is not None:
            open_replay(self.app, Path(event.row_key.value))

    def action_import_list(self) -> None:
        def chosen(text: str | None) -> None:
            if text is None:
                return
            path = user_file(text)
            if path is None:
                self.notify(f"Not a file name: {text!r}", severity="error")
                return
            try:
                replay = import_move_list(path)
            except CellwarsError as exc:
                self.notify(str(exc), severity="error", timeout=8)
                return
            self.action_reload()
            self.app.push_screen(ReplayScreen(replay))

        if confined():
            ask = AskText("Import a move list from (a file in your exports folder):",
                          placeholder="moves.txt")
        else:
            ask = AskText("Import a move list from:", str(exports_dir()) + "/")
        self.app.push_screen(ask, chosen)

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()
        else:
            self.app.exit()


def analysed_accuracy(all_rows: list[Any]) -> dict[Path, str]:
    """Each analysed game's players' accuracy ("Ann 87 · Bot 92"), from the sidecar beside its
    record (a game without a usable one is left out)."""
    out = {}
    for row in all_rows:
        found = sidecar.peek(row.path)
        if found is not None:
            out[row.path] = found.accuracy_text()
    return out


def with_accuracy(columns: list[tuple[str, int]], cells: list[str]) -> list[tuple[str, int]]:
    """The columns with an Accuracy column at the end when some game shown is analysed, its
    width taken from Seats (which keeps at least 16)."""
    if not any(cells):
        return columns
    want = max(8, min(24, max(len(c) for c in cells)))
    seats = dict(columns)["Seats"]
    give = min(want, seats - 16)
    if give < 8:
        return columns
    return [(t, w - give if t == "Seats" else w) for t, w in columns] + [("Accuracy", give)]


def _cell(text: str, width: int) -> Text:
    """A cell shown literally (no markup) and cut with an ellipsis at its column's width."""
    cell = Text(text, no_wrap=True, overflow="ellipsis")
    cell.truncate(width, overflow="ellipsis")
    return cell


def list_cells(row: Any, short_date: bool = False) -> list[str]:
    """A Replays row's cells as plain strings (shown literally: a name is never markup)."""
    date = row.date[5:] if short_date and len(row.date) == 16 else row.date
    begun = origin_text(row.origin) if row.origin else ("the lesson" if row.lesson else "")
    return [row.game, date, row.seats, row.result, str(row.length), begun]


def list_columns(shown: list, width: int) -> list[tuple[str, int]]:
    """The Replays table's (title, width) columns for a screen ``width`` columns wide: every
    header fits; Seats takes what the others leave; From only when some row has an origin (a
    replay's step, or the lesson)."""
    with_origin = any(r.origin or r.lesson for r in shown)
    count = 6 if with_origin else 5
    avail = max(width - 2 - 2 * count, 40)  # the vertical scrollbar, one space each side
    cells = [list_cells(r) for r in shown]

    def natural(i: int, low: int, high: int) -> int:
        return max(low, min(high, max((len(c[i]) for c in cells), default=low)))

    game = natural(0, 4, 16)
    date = 16 if avail >= 80 else 11  # "2026-11-23 01:55" or "11-23 01:55"
    result = natural(3, 6, 14)
    length = 6
    origin = natural(5, 4, 24) if with_origin else 0
    seats = avail - game - date - result - length - origin
    if seats < 20 and with_origin:  # the origin gives way first, then the result
        give = min(20 - seats, origin - 8) if origin > 8 else 0
        origin, seats = origin - give, seats + give
    if seats < 20:
        give = min(20 - seats, result - 8) if result > 8 else 0
        result, seats = result - give, seats + give
    seats = max(seats, 5)
    columns = [("Game", game), ("Date", date), ("Seats", seats), ("Result", result),
               ("Length", length)]
    if with_origin:
        columns.append(("From", origin))
    return columns
