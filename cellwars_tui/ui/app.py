"""The Textual application: launcher first, game screens pushed over it, themes from files."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from ..core.errors import CellwarsError
from ..core.match import Match
from .host import CommandScreen, Host
from .size_guard import SizeGuard
from .themes import DEFAULT_THEME, FALLBACK_VARIABLES, load_settings, load_themes, save_settings

if TYPE_CHECKING:
    from ..replay import Replay
    from .game_screen import GameScreen
    from .request import NewGameRequest


class CellwarsApp(SizeGuard, Host):
    """The game table."""

    TITLE = "Cellwars"
    # a full path: the SSH session's OnlineApp (ssh/session_app.py) inherits it, and Textual
    # reads a relative CSS_PATH beside the subclass's file
    CSS_PATH = str(Path(__file__).with_name("app.tcss"))
    # The launcher is the default screen, not a mode: Textual parses every stylesheet again when
    # it installs a mode's screen (the launcher's CSS is its DEFAULT_CSS, no CSS_PATH to load).
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("ctrl+t", "change_theme", "Theme", show=False),
        # a guided first game's "go on": before any screen's own Enter, only while the lesson
        # waits for the player to read (check_action); a game screen's Enter is its own then
        Binding("enter", "lesson_go_on", "Go on", priority=True),
    ]

    def __init__(
        self,
        start: NewGameRequest | None = None,
        replay: Path | Replay | None = None,
        resume: Path | None = None,
        match: Match | None = None,
        *,
        learn: str | None = None,
        games: list[Any] | None = None,
        theme: str | None = None,
    ) -> None:
        self.games = games  # the launcher's list (None: every registered game)
        self._start = start
        self._replay = replay
        self._resume = resume
        self._start_match = match
        self._learn = learn
        self.theme_problems: list[str] = []
        self._after_frame: list[Any] = []  # see call_after_frame
        self.theme_preview = False  # the theme picker is previewing: do not remember yet
        # the game last opened (new, resumed, from a replay): the launcher comes back on it
        self.last_game: str | None = None
        super().__init__()
        themes, self.theme_problems = load_themes()
        for loaded in themes:
            self.register_theme(loaded)
        wanted = theme or load_settings().get("theme")
        if isinstance(wanted, str) and wanted in self.available_themes:
            self.theme = wanted
        elif DEFAULT_THEME in self.available_themes:
            self.theme = DEFAULT_THEME
            if isinstance(wanted, str):
                self.theme_problems.append(f"theme {wanted!r} not found; using {DEFAULT_THEME}")

    def get_default_screen(self) -> Screen:
        from .launcher import LauncherScreen

        return LauncherScreen(self.games)

    # -- work that waits for a painted frame -------------------------------------------------
    FRAME_WAIT_LIMIT = 1.0  # seconds: run the waiting work anyway if no frame comes

    def call_after_frame(self, callback: Any) -> None:
        """Run ``callback`` once the next frame has been written to the terminal (the first
        frame need not wait for saved-game listings or game imports); at the latest after
        FRAME_WAIT_LIMIT seconds."""
        self._after_frame.append(callback)
        if len(self._after_frame) == 1:
            self.set_timer(self.FRAME_WAIT_LIMIT, self._run_after_frame)

    def _run_after_frame(self) -> None:
        callbacks, self._after_frame = self._after_frame, []
        for callback in callbacks:
            self.call_later(callback)

    def _display(self, screen: Screen, renderable: Any) -> None:
        super()._display(screen, renderable)
        if self._after_frame and renderable is not None and not self._batch_count:
            self._run_after_frame()

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return dict(FALLBACK_VARIABLES)

    def on_mount(self) -> None:
        for problem in self.theme_problems:
            self.notify(problem, severity="warning", timeout=8)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        try:
            if self._start is not None:
                self.start_match(self._start.make_match())
            elif self._start_match is not None:
                self.start_match(self._start_match)
            elif self._resume is not None:
                self.resume(self._resume)
            elif self._replay is not None:  # ``cellwars replay FILE``: q leaves to the shell
                from .replay import open_replay

                opened = open_replay(self, self._replay)
                if opened is not None:
                    opened.leaves_app = True  # type: ignore[attr-defined]
            elif self._learn is not None:
                self.start_lesson(self._learn)
        except CellwarsError as exc:
            self.notify(str(exc), severity="error", timeout=10)

    def on_unmount(self) -> None:
        """The app is closing (quit, the terminal gone): every save asked for is written first."""
        from ..record.writer import flush

        flush()

    def _theme_changed(self, theme: Any) -> None:
        from .theme_picker import ThemeScreen

        if self.theme_preview or any(isinstance(s, ThemeScreen) for s in self.screen_stack):
            return  # a preview: the picker remembers the theme the user keeps
        self.remember_theme(theme.name)

    def remember_theme(self, name: str) -> None:
        """Keep ``name`` as the theme for the next start (settings written atomically)."""
        settings = load_settings()
        if settings.get("theme") == name:
            return
        settings["theme"] = name
        problem = save_settings(settings)
        if problem:
            self.notify(problem, severity="warning")

    def action_change_theme(self) -> None:
        """The theme picker (shipped and user theme files, previewed as the cursor moves)."""
        from .theme_picker import ThemeScreen

        if not isinstance(self.screen, ThemeScreen):
            self.push_screen(ThemeScreen())

    # -- opening games -----------------------------------------------------------------------
    def game_screen(self, match: Match, *, read_only: bool = False) -> GameScreen:
        from ..table.local import LocalTable
        from .screens import screen_class

        table: LocalTable[Any, Any] = LocalTable(match, read_only=read_only)
        return screen_class(match.game)(table, read_only=read_only)

    def start_match(self, match: Match) -> GameScreen:
        """Push the game's screen for ``match`` (new, resumed, or started from a replay)."""
        screen = self.game_screen(match)
        if match.path is None:
            screen.table.save()
        self.last_game = match.game.id
        self.push_screen(screen)
        return screen

    def start_request(self, request: NewGameRequest) -> GameScreen:
        return self.start_match(request.make_match())

    def resume(self, path: Path) -> GameScreen:
        """Open a saved game where it was left (RecordError with a one-line message if bad)."""
        from ..record.format import load_match

        return self.start_match(load_match(path))

    def start_lesson(self, game_id: str) -> GameScreen:
        """Push ``game_id``'s guided first game (LessonError, one line, for a bad lesson)."""
        from ..core.registry import get_game
        from ..learn.run import checked_lesson
        from ..learn.table import LessonTable
        from .screens import screen_class

        game = get_game(game_id)
        table = LessonTable(game, checked_lesson(game))
        screen = screen_class(game)(table)
        screen.follow_lesson(table)
        self.last_game = game.id  # (q: the launcher comes back on this game)
        self.push_screen(screen)
        return screen

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "lesson_go_on":
            from .game_screen import GameScreen

            screen = self.screen
            return isinstance(screen, GameScreen) and screen.lesson_reading()
        return True

    def action_lesson_go_on(self) -> None:
        from .game_screen import GameScreen

        screen = self.screen
        if isinstance(screen, GameScreen):
            screen.lesson_go_on()

    def play_again(self, screen: GameScreen) -> None:
        """A fresh game with the same game, options and seats (a new seed)."""
        match = screen.table.match
        if match is None:
            return
        import secrets

        fresh = Match(match.game, match.options, match.seats, secrets.randbelow(2**63))
        new_screen = self.game_screen(fresh)
        new_screen.table.save()
        self.switch_screen(new_screen)

    def open_replay(self, path: Path | None = None, seat: int | None = -1) -> bool:
        """The Replays page, or the replay viewer for ``path`` (False if it cannot be opened),
        through ``seat``'s eyes when given (the player who played it there)."""
        from .replay import ReplayListScreen, open_replay

        if path is None:
            self.push_screen(ReplayListScreen())
            return True
        return open_replay(self, path, seat) is not None

    def new_game_dialog(self, game: Any) -> None:
        """The New-game dialog for ``game``; the chosen game starts over the launcher."""
        from .setup import NewGameScreen

        def chosen(request: Any) -> None:
            if request is None:
                return
            try:
                self.start_request(request)
            except CellwarsError as exc:
                self.notify(str(exc), severity="error")

        self.push_screen(NewGameScreen(game), chosen)

    # -- command palette ---------------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The current screen's own actions first (its ``palette_commands`` and every binding with
        a description), then theme and quit, then Textual's own (keys, screenshot ...)."""
        titles: set[str] = set()
        covered: set[str] = set()  # actions already offered under another title
        if isinstance(screen, CommandScreen):
            for title, help_text, callback in screen.palette_commands():
                titles.add(title)
                # an ``action_*`` method, or a functools.partial of one (``partial(
                # self.action_spare, 1)``): its key binding is not listed a second time
                name = getattr(getattr(callback, "func", callback), "__name__", "")
                if name.startswith("action_"):
                    covered.add(name[len("action_"):])
                yield SystemCommand(title, help_text, callback)
        for command in binding_commands(screen, covered | {"change_theme", "quit",
                                                           "command_palette"}):
            if command.title not in titles:
                titles.add(command.title)
                yield command
        yield SystemCommand("Theme", "Pick a colour theme (yours too: drop a file in your "
                            "themes folder)", self.action_change_theme)
        titles.add("Theme")
        for name in sorted(self.available_themes):
            if name.startswith("cellwars") or name not in _TEXTUAL_BUILTIN:
                yield SystemCommand(
                    f"Theme: {name}", f"Switch to the {name} theme",
                    lambda n=name: setattr(self, "theme", n), discover=False,
                )
        yield SystemCommand("Quit", "Leave Cellwars (games are saved after every move)",
                            self.action_quit)
        titles.add("Quit")
        for command in super().get_system_commands(screen):
            if command.title not in titles:
                yield command


def binding_commands(screen: Screen, skip: set[str]) -> list[SystemCommand]:
    """A palette command for every active binding of ``screen`` that has a description (so a
    game screen's own keys are in the palette without listing them twice)."""
    out: list[SystemCommand] = []
    seen: set[str] = set()
    try:
        active = screen.active_bindings
    except Exception:  # noqa: BLE001 - a screen that is not mounted has no bindings to list
        return out
    for key, active_binding in active.items():
        binding = active_binding.binding
        action = binding.action
        name = action.split("(", 1)[0].split(".")[-1]
        if not binding.description or not binding.show or name in skip or action in seen:
            continue
        if not active_binding.enabled or _textual_action(active_binding.node, action):
            continue
        seen.add(action)
        node = active_binding.node
        keys = binding.key_display or screen.app.get_key_display(binding)
        out.append(SystemCommand(
            binding.description, f"Key: {keys}",
            lambda a=action, n=node: screen.app.run_action(a, n),
        ))
    return out


def _textual_action(node: Any, action: str) -> bool:
    """Whether ``action`` is one of Textual's own (copy text, scroll ...), not a Cellwars one."""
    target = node
    if action.startswith("app."):
        target, action = node.app, action[4:]
    elif action.startswith("screen."):
        target, action = node.screen, action[7:]
    name = "action_" + action.split("(", 1)[0]
    for cls in type(target).__mro__:
        if name in cls.__dict__:
            return cls.__module__.startswith("textual.")
    return True  # no method: nothing for the palette to run


def _builtin_theme_names() -> set[str]:
    from textual.theme import BUILTIN_THEMES

    return set(BUILTIN_THEMES)


_TEXTUAL_BUILTIN = _builtin_theme_names()


def run_app(start: NewGameRequest | None = None, replay: Path | Replay | None = None,
            resume: Path | None = None, learn: str | None = None) -> int:
    """Run the table (``cellwars``, ``cellwars play``, ``cellwars replay``: a replay already
    opened, or a record path)."""
    if isinstance(replay, (str, Path)) and not Path(replay).is_file():
        from ..core.errors import RecordError

        raise RecordError(replay, "no such file")
    CellwarsApp(start=start, replay=replay, resume=resume, learn=learn).run()
    return 0
