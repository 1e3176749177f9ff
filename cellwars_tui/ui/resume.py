"""Resume: the unfinished saved games, newest first; unreadable files as one-line problems."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..core.errors import CellwarsError
from ..record.store import Problem, SavedGame, list_saved
from ..replay import catalog
from ..table.naming import plural
from .footer import Footer


def saved_line(game: SavedGame) -> Text:
    """A saved game as the list shows it, dated as the Replays page dates it (when the game
    began), and saying how it began when not as a new game ("from replay step 150", "from the
    lesson")."""
    row = catalog.row(game)
    which = f" {game.header.title}" if game.header.title else ""  # "puzzle #482517"
    begun = catalog.begun(row)
    return Text.assemble((row.game, "bold"), which, f"  {row.date}  ", (row.seats, "italic"),
                         f"  {plural(row.length, 'step')}", (f"  {begun}" if begun else "", "dim"))


def problem_line(problem: Problem) -> str:
    message = problem.message
    prefix = f"{problem.path}: "
    if message.startswith(prefix):
        message = message[len(prefix):]
    return f"⚠ {problem.path.name}: {message}"


class ResumeScreen(Screen):
    """Pick an unfinished game to continue where it was left."""

    CSS_PATH = "resume.tcss"
    BINDINGS = [
        Binding("enter", "open", "Resume"),
        Binding("delete,x", "delete", "Delete", key_display="del"),
        Binding("escape,q", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.saved: list[SavedGame] = []
        self.problems: list[Problem] = []
        self._confirm_delete: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("Resume a saved game: Enter continues it, Delete (twice) removes it",
                     id="resume-title")
        with Vertical():
            yield OptionList(id="resume-list")
            yield Static(id="resume-problems")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        try:
            saved, self.problems = list_saved()
        except Exception as exc:  # noqa: BLE001 - never crash on what is on disk
            saved, self.problems = [], []
            self.notify(f"cannot list saved games: {exc}", severity="error")
        unfinished = {g.path: g for g in saved if not g.finished}
        # in the Replays page's order: the game begun last first
        self.saved = [unfinished[r.path] for r in catalog.newest_first(
            catalog.row(g) for g in unfinished.values())]
        options = self.query_one("#resume-list", OptionList)
        options.clear_options()
        if self.saved:
            options.add_options(
                Option(saved_line(g), id=str(i)) for i, g in enumerate(self.saved)
            )
            options.highlighted = 0
        else:
            options.add_option(Option("No unfinished game.", id="none", disabled=True))
        options.focus()
        self.query_one("#resume-problems", Static).update(
            "\n".join(problem_line(p) for p in self.problems)
        )

    def highlighted(self) -> SavedGame | None:
        options = self.query_one("#resume-list", OptionList)
        if options.highlighted is None or not self.saved:
            return None
        key = options.get_option_at_index(options.highlighted).id or ""
        return self.saved[int(key)] if key.isdigit() else None

    def action_open(self) -> None:
        game = self.highlighted()
        if game is not None:
            self._open(game)

    def action_delete(self) -> None:
        """Delete the highlighted saved game (the key pressed twice: no undo for this)."""
        game = self.highlighted()
        if game is None:
            return
        name = game.path.name
        if self._confirm_delete != name:
            self._confirm_delete = name
            self.notify(f"Press Delete again to delete {name} for good.", severity="warning")
            return
        self._confirm_delete = None
        try:
            game.path.unlink()
        except OSError as exc:
            self.notify(f"could not delete {name}: {exc.strerror or exc}", severity="error")
            return
        self.notify(f"Deleted {name}.")
        self.reload()

    @on(OptionList.OptionHighlighted, "#resume-list")
    def _moved(self) -> None:
        self._confirm_delete = None

    @on(OptionList.OptionSelected, "#resume-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is None or not event.option.id.isdigit():
            return
        self._open(self.saved[int(event.option.id)])

    def _open(self, game: SavedGame) -> None:
        from ..record.format import load_match

        try:
            match = load_match(game.path)
        except CellwarsError as exc:
            self.notify(str(exc), severity="error", timeout=10)
            return
        self.app.pop_screen()
        self.app.start_match(match)  # type: ignore[attr-defined]

    def action_back(self) -> None:
        self.app.pop_screen()
