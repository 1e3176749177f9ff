"""The theme picker: shipped and user theme files, previewed as the cursor moves.

Enter keeps the highlighted theme (remembered in settings), Escape puts the old one back. The
user's themes folder is shown with its path (in a confined session, a server's, it is not);
``r`` rescans it (a file dropped there while the app runs appears at once) and ``c`` writes an
editable copy of the highlighted theme into it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..locations import shown_folder, user_themes_dir
from .themes import copy_theme, is_user_theme, load_theme_files
from .footer import Footer
from .host import Host

SWATCH_KEYS = ("seat-1", "seat-2", "seat-3", "seat-4", "seat-5", "seat-6")


class ThemeScreen(ModalScreen[str | None]):
    """Pick a colour theme; dismisses with the kept theme's name (None: unchanged)."""

    CSS_PATH = "theme_picker.tcss"
    BINDINGS = [
        Binding("enter", "keep", "Keep", priority=True),
        Binding("escape", "cancel", "Cancel"),
        Binding("r", "reload", "Rescan folder"),
        Binding("c", "copy", "Copy to edit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.files: list[tuple[Path, Any]] = []
        self.problems: list[str] = []
        self.original = ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Theme: ↑↓ previews, Enter keeps, Esc goes back", id="theme-title")
            yield OptionList(id="theme-list")
            yield Static(id="theme-folder")
            yield Static(id="theme-problems")
        yield Footer()

    def on_mount(self) -> None:
        self.original = self.app.theme
        self.reload()
        self.query_one("#theme-list", OptionList).focus()

    # -- the list ----------------------------------------------------------------------------
    def reload(self, keep: str | None = None) -> None:
        self.files, self.problems = load_theme_files()
        app: Any = self.app
        for _, theme in self.files:
            app.register_theme(theme)
        options = self.query_one("#theme-list", OptionList)
        options.clear_options()
        current = keep or self.app.theme
        highlight = 0
        for i, (path, theme) in enumerate(self.files):
            if theme.name == current:
                highlight = i
            options.add_option(Option(self._line(path, theme), id=theme.name))
        if self.files:
            options.highlighted = highlight
        folder = shown_folder(user_themes_dir(), "kept with this session")
        self.query_one("#theme-folder", Static).update(Text.assemble(
            "Your themes folder: ", (folder, "bold"), "\n",
            "Drop a .toml theme file there and press r; c copies the highlighted theme "
            "there to edit.",
        ))
        self.query_one("#theme-problems", Static).update("\n".join(self.problems))

    def _line(self, path: Path, theme: Any) -> Text:
        line = Text()
        line.append(f"{theme.name:<28}", style="bold")
        variables = theme.variables or {}
        for key in SWATCH_KEYS:
            colour = variables.get(key)
            line.append("██", style=colour or "")
        line.append("  ")
        line.append("your file" if is_user_theme(path) else ("dark" if theme.dark else "light"),
                    style="dim italic")
        return line

    def highlighted_name(self) -> str | None:
        options = self.query_one("#theme-list", OptionList)
        if options.highlighted is None or not options.option_count:
            return None
        return options.get_option_at_index(options.highlighted).id

    # -- preview, keep, cancel ---------------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#theme-list")
    def _preview(self, event: OptionList.OptionHighlighted) -> None:
        name = event.option.id
        if name and name in self.app.available_themes and name != self.app.theme:
            app: Any = self.app
            app.theme_preview = True
            try:
                self.app.theme = name
            finally:
                app.theme_preview = False

    @on(OptionList.OptionSelected, "#theme-list")
    def _selected(self) -> None:
        self.action_keep()

    def action_keep(self) -> None:
        name = self.highlighted_name()
        if name is None:
            self.dismiss(None)
            return
        self.app.theme = name
        if isinstance(self.app, Host):
            self.app.remember_theme(name)
        self.dismiss(name)

    def action_cancel(self) -> None:
        if self.original in self.app.available_themes:
            app: Any = self.app
            app.theme_preview = True
            try:
                self.app.theme = self.original
            finally:
                app.theme_preview = False
        self.dismiss(None)

    def action_reload(self) -> None:
        before = {t.name for _, t in self.files}
        self.reload(keep=self.highlighted_name())
        if self.app.theme in {t.name for _, t in self.files}:
            # the file of the theme in use may have been edited: repaint with its new colours
            self.app._invalidate_css()
            self.app.refresh_css(animate=False)
        new = [t.name for _, t in self.files if t.name not in before]
        if new:
            self.notify("New theme: " + ", ".join(new))
        elif not self.problems:
            self.notify("No new theme file found.")
        for problem in self.problems:
            self.notify(problem, severity="warning", timeout=8)

    def action_copy(self) -> None:
        name = self.highlighted_name()
        theme = next((t for _, t in self.files if t.name == name), None)
        if theme is None:
            return
        try:
            path = copy_theme(theme)
        except OSError as exc:
            self.notify(f"could not write the copy: {exc.strerror or exc}", severity="error")
            return
        self.reload(keep=path.stem)
        self.notify(f"Wrote {path}: edit it, then press r here to see your changes.", timeout=8)
