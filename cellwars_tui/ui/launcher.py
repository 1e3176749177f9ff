"""The first screen: the games, Resume and Replays.

A game with a lesson (``learn/``) offers "Learn to play" (key ``l``, a button) and says "new
here?" beside its name until the player has finished its lesson (kept in the user's settings).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from ..core.api import Game
from ..core.errors import CellwarsError
from ..core.registry import playable_games
from ..learn.lesson import has_lesson
from .css import default_css
from .footer import Footer
from .game_list import (
    Entry,
    GameInfo,
    cached_games,
    chance_words,
    is_solitaire,
    quick_puzzles,
    resolve,
    save_cache,
)
from .host import CommandScreen, Host

RESUME = "resume"
REPLAYS = "replays"
THEMES = "themes"


def players_text(game: Entry) -> str:
    meta = game.meta
    if meta.min_players == meta.max_players:
        return "solitaire" if meta.min_players == 1 else f"{meta.min_players} players"
    return f"{meta.min_players}-{meta.max_players} players"


class GameList(OptionList):
    """The launcher's list: an OptionList that keeps its rendered options when a resize leaves
    its width as it was (Textual's clears them on every resize, and the first layout sends
    one: the whole list was rendered twice for the first two frames)."""

    _drawn_width = -1  # the content width the options were last rendered at
    _stale = False  # rendered at a new width before the resize came: Textual's clear is due

    def render_lines(self, crop: Any) -> Any:
        width = self.scrollable_content_region.width
        if self._drawn_width not in (-1, width):
            self._stale = True
        self._drawn_width = width
        return super().render_lines(crop)

    def on_resize(self, event: events.Resize) -> None:
        if not self._stale and self.scrollable_content_region.width == self._drawn_width:
            event.prevent_default()  # the cached options are still right
        self._stale = False


class LauncherScreen(CommandScreen):
    """Pick a game (New game / Rules), resume an unfinished one, or watch replays."""

    # default CSS, not CSS_PATH: the app's default screen (ui/css.py says why)
    DEFAULT_CSS = default_css(__file__, "launcher.tcss")
    BINDINGS = [
        Binding("enter", "open", "Open", show=False),
        Binding("n", "new_game", "New game"),
        Binding("l", "learn", "Learn"),
        # A puzzle game's own keys: named on its detail page and buttons, not in the footer (a
        # footer that changed with the highlighted game would be rebuilt on every move).
        Binding("d", "daily", "Daily", show=False),
        Binding("number_sign", "by_number", "By number", key_display="#", show=False),
        Binding("question_mark,f1", "rules", "Rules", key_display="?"),
        Binding("c", "resume", "Resume"),
        Binding("p", "replays", "Replays"),
        Binding("t", "app.change_theme", "Theme"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, games: list[Game] | None = None) -> None:
        super().__init__()
        self.from_cache = False
        found: list[Entry] | list[Game] | list[GameInfo]
        problems: list[str] = []
        if games is None:
            cached = cached_games()
            if cached is not None:  # the real games are imported after the first frame
                found, self.from_cache = cached, True
            else:
                loaded, problems = playable_games()
                if not problems:
                    save_cache(loaded)
                found = loaded
        else:
            found = games
        self.games: list[Entry] = list(found)
        self.load_problem = "\n".join(problems)
        self.unfinished_count = 0
        self.problem_count = 0
        self._offered: tuple[str, ...] = ()  # the game keys the footer shows (see check_action)
        self._shown: dict[str, str] = {}  # what the detail page's Statics show (see _Unchanged)
        self._button_rows = -1  # rows of buttons the detail page is sized for
        self._lessons_done: frozenset[str] = _finished()  # games whose lesson is finished

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble(("Cellwars", "bold"), "  a table for cell-biology games"),
                     id="launcher-title")
        with Horizontal(id="launcher-body"):
            yield GameList(*self._options(), id="launcher-list")
            with Vertical(id="launcher-detail"):
                yield Static(id="detail-title")
                yield Static(id="detail-text")
                yield Grid(id="detail-buttons")  # buttons: after the first frame (see on_mount)
        note = Static(self.load_problem, id="launcher-note")
        note.display = bool(self.load_problem)
        yield note
        yield Footer()

    def _options(self) -> list[Option | None]:
        options: list[Option | None] = []
        for game in self.games:
            # two lines, each cut with an ellipsis at the list's width (text-wrap in the CSS)
            meta = game.meta
            prompt = Text.assemble((meta.title, "bold"), ("  " + players_text(game), "dim"),
                                   "\n  ", (NEW_HERE if self._new_here(game) else ""),
                                   (" ".join(meta.blurb.split()), "italic dim"))
            options.append(Option(prompt, id=f"game:{meta.id}"))
        options.append(None)
        options.append(Option(Text(self._resume_label()), id=RESUME))
        options.append(Option(Text("Replays"), id=REPLAYS))
        options.append(Option(Text("Colour theme"), id=THEMES))
        return options

    def on_mount(self) -> None:
        # Reading the saved games' headers and importing the games wait for the first frame
        # (there may be many files; the imports would hold the interpreter while it paints).
        self._after_frame(self._after_first_frame)
        options = self.query_one("#launcher-list", OptionList)
        options.highlighted = 0
        options.focus()
        self._show_detail()

    @work(thread=True, exclusive=True, group="launcher-games", exit_on_error=False)
    def _load_games(self) -> None:
        """Import the games the cached list stands for (so a game opens at once, and a game
        that no longer loads is reported)."""
        games, problems = playable_games()
        self.app.call_from_thread(self._games_loaded, games, problems)

    def _games_loaded(self, games: list[Game], problems: list[str]) -> None:
        before = [GameInfo.of(g) for g in self.games]
        self.games = list(games)
        self.from_cache = False
        if problems:
            note = self.query_one("#launcher-note", Static)
            note.update("\n".join(problems))
            note.display = True
        else:
            save_cache(games)
        if [GameInfo.of(g) for g in games] != before:
            options = self.query_one("#launcher-list", OptionList)
            highlighted = options.highlighted
            options.clear_options()
            options.add_options(self._options())
            self.refresh_saved()
            if highlighted is not None and highlighted < options.option_count:
                options.highlighted = highlighted
            self._show_detail()

    def _after_frame(self, callback: Any) -> None:
        if isinstance(self.app, Host):
            self.app.call_after_frame(callback)
        else:
            self.call_after_refresh(callback)

    # The detail page's buttons, in their grid order: (id, label, variant).
    BUTTONS = (
        ("btn-new", "New game", "primary"),
        ("btn-rules", "Rules", "default"),
        ("btn-learn", "Learn", "default"),
        ("btn-daily", "Daily", "default"),
        ("btn-number", "By number", "default"),
        ("btn-open", "Open", "primary"),
    )

    def _make_buttons(self, wanted: set[str]) -> list[Button]:
        return [Button(label, id=button_id, variant=variant)  # type: ignore[arg-type]
                for button_id, label, variant in self.BUTTONS if button_id in wanted]

    def _buttons(self, wanted: set[str]) -> None:
        """Mount the buttons in ``wanted`` that are not mounted yet, each at its place in the
        grid (a button is made the first time the highlighted entry shows it: most sessions
        only ever need New game and Rules)."""
        grid = self.query_one("#detail-buttons", Grid)
        have = {child.id: child for child in grid.children}
        for button in self._make_buttons(wanted - set(have)):
            order = [b[0] for b in self.BUTTONS]
            later = next((have[b] for b in order[order.index(button.id or "") + 1:] if b in have), None)
            if later is not None:
                grid.mount(button, before=later)
            else:
                grid.mount(button)
            have[button.id] = button

    def _shown_buttons(self, game: Entry | None) -> set[str]:
        """The buttons the detail page shows for ``game`` (None: Open, for the other entries)."""
        if game is None:
            return {"btn-open"}
        by_key = {"daily": "btn-daily", "by_number": "btn-number"}
        learn = {"btn-learn"} if has_lesson(game) else set()
        return {"btn-new", "btn-rules", *learn, *(by_key[k] for k in self.game_keys(game))}

    def _after_first_frame(self) -> None:
        """What the first frame need not wait for: the buttons (keys work before them; Textual
        parses a button's styles on its first use), saved games, the games' own modules."""
        self._first_frame_done = True
        self._saved_then_detail()  # and the buttons the highlighted entry shows
        if self.from_cache:
            self._load_games()

    def _saved_then_detail(self) -> None:
        self.refresh_saved()
        self._refresh_lessons()
        self._show_detail()

    def _new_here(self, game: Entry) -> bool:
        """Whether ``game`` has a lesson this player has not finished."""
        return game.meta.id not in self._lessons_done and has_lesson(game)

    def _refresh_lessons(self) -> None:
        """A lesson finished since the list was drawn: its game says "new here?" no more."""
        done = _finished()
        if done == self._lessons_done:
            return
        self._lessons_done = done
        options = self.query_one("#launcher-list", OptionList)
        for index, option in enumerate(self._options()):
            if option is not None and option.id and option.id.startswith("game:"):
                options.replace_option_prompt_at_index(index, option.prompt)

    _first_frame_done = False

    _resumed = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._resumed:
            # The first resume comes right after the mount, which styled every widget: Textual
            # would style them all again (about 5 ms of a session's first frame, same look).
            self._resumed = True
            event.refresh_styles = False
        self._highlight_last_game()
        if self._first_frame_done:  # the first time, on_mount has it in hand
            self._after_frame(self._saved_then_detail)

    def _highlight_last_game(self) -> None:
        """Back from a game (new, resumed, from a replay): the list is on that game, so that
        the next key acts on the game just played, not on where the cursor was before."""
        app = self.app
        if not isinstance(app, Host) or not app.last_game:
            return
        game_id, app.last_game = app.last_game, None
        options = self.query_one("#launcher-list", OptionList)
        try:
            index = options.get_option_index(f"game:{game_id}")
        except Exception:  # noqa: BLE001 - a game not in this launcher's list
            return
        if options.highlighted != index:
            options.highlighted = index

    def refresh_saved(self) -> None:
        from ..record.store import list_saved

        try:
            saved, problems = list_saved()
        except Exception as exc:  # noqa: BLE001 - the launcher must open whatever is on disk
            saved, problems = [], []
            note = self.query_one("#launcher-note", Static)
            note.update(f"cannot list saved games: {exc}")
            note.display = True
        self.unfinished_count = sum(1 for g in saved if not g.finished)
        self.problem_count = len(problems)
        self._saved_read = True
        options = self.query_one("#launcher-list", OptionList)
        label = self._resume_label()
        try:
            index = options.get_option_index(RESUME)
        except Exception:
            return
        if str(options.get_option_at_index(index).prompt) != label:  # else no repaint
            options.replace_option_prompt_at_index(index, Text(label))

    _saved_read = False

    def _resume_label(self) -> str:
        """The Resume entry: with its count once the saved games are read (or, before the
        first frame, when there are none to read: nothing to repaint after it)."""
        if not self._saved_read:
            try:
                from ..locations import games_dir
                from ..record.format import SUFFIX

                if next(games_dir().glob(f"*{SUFFIX}"), None) is not None:
                    return "Resume a saved game"
            except Exception:  # noqa: BLE001 - refresh_saved reports it after the first frame
                return "Resume a saved game"
        label = f"Resume a saved game ({self.unfinished_count})"
        if self.problem_count:
            label += f"  ⚠ {self.problem_count} unreadable"
        return label

    # -- what is highlighted -----------------------------------------------------------------
    def current(self) -> str | None:
        options = self.query_one("#launcher-list", OptionList)
        if options.highlighted is None:
            return None
        return options.get_option_at_index(options.highlighted).id

    def current_game(self) -> Entry | None:
        """The highlighted game: a Game, or a GameInfo from the cached list (see ``resolve``)."""
        key = self.current()
        if key and key.startswith("game:"):
            wanted = key[5:]
            return next((g for g in self.games if g.meta.id == wanted), None)
        return None

    @on(OptionList.OptionHighlighted, "#launcher-list")
    def _highlighted(self) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        key = self.current()
        game = self.current_game()
        title = _Unchanged(self.query_one("#detail-title", Static), self._shown)
        text = _Unchanged(self.query_one("#detail-text", Static), self._shown)
        offered = self.game_keys(game)
        shown = self._shown_buttons(game)
        grid = self.query_one("#detail-buttons", Grid)
        rows = (len(shown) + 1) // 2  # two buttons a row, three lines each (launcher.tcss)
        if rows != self._button_rows:  # sized before its buttons come: nothing moves then
            self._button_rows = rows
            grid.styles.height = 3 * rows
        if self._first_frame_done:  # keys work before the buttons: they follow the first frame
            self._buttons(shown)
        for button in grid.children:
            show = button.id in shown
            if button.display != show:  # setting it anyway restyles the screen on every key
                button.display = show
        self._offered = offered  # check_action reads it when a key is pressed
        label = "New puzzle" if game is not None and is_solitaire(game) else "New game"
        for new in self.query("#btn-new").results(Button):
            if str(new.label) != label:
                new.label = label
        if game is not None:
            meta = game.meta
            title.update(meta.title)
            extras = []
            luck = chance_words(game)
            if luck:
                extras.append(luck)
            if meta.hidden_information:
                extras.append("hidden information")
            if meta.real_time:
                extras.append("real time")
            keys = {"daily": "d daily", "by_number": "# by number"}
            offered_keys = [keys[k] for k in offered if k in keys]
            text.update(f"{meta.blurb}\n\n{players_text(game).capitalize()}"
                        + (f"; {', '.join(extras)}." if extras else ".")
                        + (f"\n\nKeys: n new, {', '.join(offered_keys)}." if offered_keys
                           else ""))
        elif key == RESUME:
            title.update("Resume")
            note = f"{self.unfinished_count} unfinished game(s)."
            if self.problem_count:
                note += f"\n{self.problem_count} saved file(s) could not be read: open to see why."
            text.update(note)
        elif key == REPLAYS:
            title.update("Replays")
            text.update("Step through any saved game, and take over from any position.")
        elif key == THEMES:
            from ..locations import shown_folder, user_themes_dir

            title.update("Colour theme")
            text.update(f"Now: {self.app.theme}.\n\nDark, light and high-contrast (colour-blind "
                        f"safe) themes ship with Cellwars; your own theme files go in\n"
                        f"{shown_folder(user_themes_dir(), 'your themes folder')}.")
        else:
            title.update("")
            text.update("")

    @staticmethod
    def game_keys(game: Entry | None) -> tuple[str, ...]:
        """The launcher actions ``game`` offers beyond New game and Rules."""
        if game is None or not is_solitaire(game):
            return ()
        return tuple({"daily": "daily", "number": "by_number"}[k] for k in quick_puzzles(game))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("daily", "by_number"):
            return action in self._offered  # False hides the key from the footer
        return True

    # -- actions -------------------------------------------------------------------------------
    @on(OptionList.OptionSelected, "#launcher-list")
    def _selected(self) -> None:
        self.action_open()

    def action_open(self) -> None:
        key = self.current()
        if key == RESUME:
            self.action_resume()
        elif key == REPLAYS:
            self.action_replays()
        elif key == THEMES:
            self.app.action_change_theme()
        elif self.current_game() is not None:
            self.action_new_game()

    @on(Button.Pressed, "#btn-open")
    def _open_button(self) -> None:
        self.action_open()

    def _picked(self, game: Entry | None = None) -> Game | None:
        """``game`` or the highlighted one, imported (None, with a message, if there is none)."""
        game = game if isinstance(game, (Game, GameInfo)) else self.current_game()
        if game is None:
            self.app.notify("Pick a game first.")
            return None
        try:
            return resolve(game)
        except CellwarsError as exc:
            self.app.notify(str(exc), severity="error")
            return None

    def _start(self, game: Game, options: dict[str, Any] | None = None) -> bool:
        """Start ``game`` at once: one human seat, the default options but ``options``."""
        from .request import new_game_request

        try:
            self.app.start_request(  # type: ignore[attr-defined]
                new_game_request(game.id, options=options))
        except CellwarsError as exc:
            self.app.notify(str(exc), severity="error")
            return False
        return True

    @on(Button.Pressed, "#btn-new")
    def action_new_game(self, game: Game | None = None) -> None:
        """The New-game form, for every game: a solitaire's shows its variants with Start
        focused, so n then Enter starts it, and no key starts a game unseen (issue 19: Down
        then n started a puzzle when the list was not where the player thought)."""
        game = self._picked(game)
        if game is not None:
            self._form(game)

    @on(Button.Pressed, "#btn-learn")
    def action_learn(self, game: Entry | None = None) -> None:
        """The highlighted game's guided first game (its lesson)."""
        picked = self._picked(game)
        if picked is None:
            return
        if not has_lesson(picked):
            self.app.notify(f"{picked.title} has no lesson yet.")
            return
        try:
            self.app.start_lesson(picked.id)  # type: ignore[attr-defined]
        except CellwarsError as exc:
            self.app.notify(str(exc), severity="error", timeout=10)

    @on(Button.Pressed, "#btn-daily")
    def action_daily(self, game: Game | None = None) -> None:
        """Today's puzzle, the same for everyone."""
        game = self._picked(game)
        if game is not None:
            self._start(game, {"puzzle": "daily"})

    @on(Button.Pressed, "#btn-number")
    def action_by_number(self, game: Game | None = None) -> None:
        """Ask for a puzzle number or setup code, then start that puzzle."""
        game = self._picked(game)
        if game is None:
            return
        from .dialogs import TextPrompt

        def chosen(text: str | None) -> None:
            if text:
                self.start_by_number(game, text)

        self.app.push_screen(TextPrompt(
            f"{game.title}: puzzle by number", "A puzzle number (#1234, 4#12) or a setup code",
            placeholder="#1234"), chosen)

    def start_by_number(self, game: Game, text: str) -> bool:
        """Start the puzzle ``text`` names; a code for another variant (say 4 species) is tried
        with each value of the game's other choice options before giving the first error."""
        from .request import literal_choices, new_game_request, option_fields

        options: dict[str, Any] = {"puzzle": "number", "code": text}
        try:
            request = new_game_request(game.id, options=options)
        except CellwarsError as exc:
            first = exc
            request = None
            for f in option_fields(game):
                if f.name == "puzzle" or request is not None:
                    continue
                for value in literal_choices(f.type) or ():
                    try:
                        request = new_game_request(game.id, options={**options, f.name: value})
                        break
                    except CellwarsError:
                        continue
            if request is None:
                self.app.notify(str(first), severity="error")
                return False
        try:
            self.app.start_request(request)  # type: ignore[attr-defined]
        except CellwarsError as exc:
            self.app.notify(str(exc), severity="error")
            return False
        return True

    def _form(self, game: Game) -> None:
        from .setup import NewGameScreen

        def chosen(request: Any) -> None:
            if request is not None:
                try:
                    self.app.start_request(request)  # type: ignore[attr-defined]
                except CellwarsError as exc:
                    self.app.notify(str(exc), severity="error")

        self.app.push_screen(NewGameScreen(game), chosen)

    @on(Button.Pressed, "#btn-rules")
    def action_rules(self) -> None:
        game = self.current_game()
        if game is None:
            self.app.notify("Pick a game to see its rules.")
            return
        try:
            game = resolve(game)
        except CellwarsError as exc:
            self.app.notify(str(exc), severity="error")
            return
        from .dialogs import RulesScreen

        self.app.push_screen(RulesScreen(game))

    def action_resume(self) -> None:
        from .resume import ResumeScreen

        self.app.push_screen(ResumeScreen())

    def action_replays(self) -> None:
        if isinstance(self.app, Host):
            self.app.open_replay()

    def action_quit(self) -> None:
        self.app.exit()

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        out: list[tuple[str, str, Any]] = []
        for game in self.games:
            meta = game.meta
            out.append((f"New game: {meta.title}", meta.blurb,
                        lambda g=game: self.action_new_game(g)))
            keys = self.game_keys(game)
            if "daily" in keys:
                out.append((f"Daily puzzle: {meta.title}", "Today's puzzle, the same for everyone",
                            lambda g=game: self.action_daily(g)))
            if "by_number" in keys:
                out.append((f"Puzzle by number: {meta.title}",
                            "Play a shared puzzle number or setup code",
                            lambda g=game: self.action_by_number(g)))
            if has_lesson(game):
                out.append((f"Learn to play: {meta.title}", "A guided first game",
                            lambda g=game: self.action_learn(g)))
            out.append((f"Rules: {meta.title}", f"How to play {meta.title}",
                        lambda g=game: self.app.push_screen(_rules(resolve(g)))))
        out.append(("Resume a saved game", "Continue an unfinished game", self.action_resume))
        out.append(("Replays", "Step through saved games", self.action_replays))
        return out


class _Unchanged:
    """A Static's ``update`` that does nothing when the text is what it shows (an update
    relayouts the screen)."""

    def __init__(self, static: Static, shown: dict[str, str]) -> None:
        self.static = static
        self.shown = shown  # Static id -> the text it shows

    def update(self, text: str) -> None:
        if self.shown.get(self.static.id or "") != text:
            self.shown[self.static.id or ""] = text
            self.static.update(text)


# before the blurb of a game whose lesson is not finished
NEW_HERE = ("✦ new here? Learn to play (l) · ", "bold")


def _finished() -> frozenset[str]:
    from ..learn.progress import finished_lessons

    return finished_lessons()


def _rules(game: Game) -> Screen:
    from .dialogs import RulesScreen

    return RulesScreen(game)
