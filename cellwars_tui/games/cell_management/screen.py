"""The Cell Management screen: the alien ship, the guards' walk step by step, hints and solutions.

The ship is a grid of small boxes: containment cells on the outer ring (numbered 1..n clockwise,
the keys that start the guards there), secret hideouts just inside them (friendly: a sun and a
rounded frame; hostile: a crown and a double frame, so they differ without colour), and the escape
area in the middle (the boxes are :mod:`.ship`'s). After a round starts, the walk is replayed
from the rules' own ``walk`` one step at a time with a line of narration; space skips it, + and -
change its speed. The look is ``screen.tcss``.
"""

from __future__ import annotations

import datetime as _dt
import secrets
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.css.query import NoMatches
from textual.widgets import Static

from ...core.errors import CellwarsError
from ...core.match import Match
from ...table.protocol import Table
from ...ui.game_screen import LOG_LINES, GameScreen
from ...ui.host import Host
from . import rules as R
from . import solver as S
from . import stats as ST
from .dialogs import PuzzleNumber, SolutionScreen
from ...core.api import Action
from .rules import CMOptions, CMState, Done, Return, Start
from .ship import COLS, CENTRE, LAYOUTS, ROWS, SLOTS, CellBox, EscapeArea, HideoutBox
from .types import guard_position

FRIENDLY_GLYPH = "☼"
HOSTILE_GLYPH = "♛"
GUARD_GLYPH = "⚑"
EMPTY = "·"
SPEEDS = (0.0, 0.15, 0.3, 0.6, 1.0, 1.6)  # seconds per step of the walk; 0 = no animation
SPEED_SETTING = "cell-management-walk-speed"  # key in the user's settings file
RESUMED_NOTICE = "Resumed your unfinished puzzle · n: new puzzle"


def _saved_speed() -> int | None:
    """The walk speed the player chose last time (an index into SPEEDS), if any."""
    from ...ui.themes import load_settings

    value = load_settings().get(SPEED_SETTING)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(SPEEDS):
        return value
    return None


def _save_speed(index: int) -> str | None:
    from ...ui.themes import load_settings, save_settings

    settings = load_settings()
    if settings.get(SPEED_SETTING) == index:
        return None
    settings[SPEED_SETTING] = index
    return save_settings(settings)
DEFAULT_SPEED = 2


def ship_grid(width: int, height: int) -> tuple[int, int, int, int]:
    """(row height, ring column width, centre column width, left margin) of the ship for a
    window of ``width`` x ``height``: the board's room is the window less the side panel
    (screen.tcss: a quarter, 28-44 columns) and the title, narration, info, status and footer
    lines; the ship is centred in it."""
    side = max(28, min(44, width // 4)) + 1
    room_w, room_h = width - side, height - 6
    rows = max(3, min(6, room_h // ROWS))
    centre = 13 if rows < 5 else 17
    cols = max(9, min(22, (room_w - centre - 2) // 4))
    return rows, cols, centre, max(0, (room_w - 4 * cols - centre) // 2)

class CellManagementScreen(GameScreen[CMState, Action]):
    """The ship, the walk animation, the return-to-prison choice, hint, solution and stats."""

    CSS_PATH = "screen.tcss"

    # The footer shows the keys that apply now (check_action): the walk's keys while it runs,
    # the return-to-prison keys when a captive may be sent back, only New/Undo/Rules/Back once
    # the puzzle is over; every one fits 80 columns (issue 19).
    BINDINGS = [
        *(Binding(str(k), f"key_position({k - 1})", f"Cell {k}", show=False) for k in range(1, 7)),
        Binding("b", "send_back", "Send back"),
        Binding("0", "done", "Nobody"),
        Binding("space", "skip", "Skip walk"),
        Binding("plus,equals_sign", "speed(1)", "Slower", show=False),
        Binding("minus", "speed(-1)", "Faster", show=False),
        Binding("h", "hint", "Hint"),
        Binding("s", "solution", "Solution"),
        Binding("n", "new_puzzle", "New"),
        # the launcher's key for today's puzzle too (the game's t and the launcher's d differed)
        Binding("d", "daily", "Daily", show=False),
        Binding("number_sign", "by_number", "Puzzle #", show=False),
        Binding("m", "moves", "Moves", show=False),  # (the numbered keys say more)
    ]

    speed: ClassVar[int] = DEFAULT_SPEED  # index into SPEEDS, kept for the whole session

    def __init__(self, table: Table, *, read_only: bool = False) -> None:
        super().__init__(table, read_only=read_only)
        state = table.view(None)
        self.species = state.species if state.cells else 6
        self.view_state: CMState | None = None
        self._frames: list[tuple[Any, CMState]] = []
        self._frame = 0
        self._timer: Any = None
        self._picking = False  # "b" was pressed: the next key 1..n names a hideout
        saved = _saved_speed()
        if saved is not None:
            type(self).speed = saved
        self._hint_position: int | None = None
        self._optimum_cache: dict[tuple, int | None] = {}
        self._counted: set[str] = set()
        self._stats_line = ""
        self._resumed_at: int | None = None  # the step a resumed puzzle opened at (-1: none)
        key = self._game_key()
        self.assisted = bool(key) and not read_only and ST.is_assisted(key)

    # -- layout ------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        n = self.species
        cells: dict[tuple[int, int], Static] = {}
        for p, slot in enumerate(LAYOUTS[n]):
            cell_at, hideout_at = SLOTS[slot]
            cells[cell_at] = CellBox(p)
            cells[hideout_at] = HideoutBox(p)
        with Grid(id="cm-ship"):
            for r in range(ROWS):
                for c in range(COLS):
                    if (r, c) == CENTRE:
                        yield EscapeArea()
                    elif (r, c) == (CENTRE[0] + 1, CENTRE[1]):
                        continue  # covered by the escape area
                    elif (r, c) in cells:
                        yield cells[(r, c)]
                    else:
                        yield Static(classes="cm-filler")
        yield Static(id="cm-narration")
        yield Static(id="cm-info")

    def on_resize(self, event: events.Resize) -> None:
        """The ship grows with the window, its boxes in proportion (the ring stretched lopsided
        at 160x50: every box as wide as a quarter of the board, three rows high)."""
        try:
            ship = self.query_one("#cm-ship", Grid)
        except NoMatches:
            return
        rows, cols, centre, left = ship_grid(event.size.width, event.size.height)
        if (rows, cols, centre, left) != self._grid_shape:
            self._grid_shape = (rows, cols, centre, left)
            ship.styles.grid_rows = str(rows)
            ship.styles.grid_columns = f"{cols} {cols} {centre} {cols} {cols}"
            ship.styles.height = ROWS * rows
            ship.styles.width = 4 * cols + centre
            ship.styles.margin = (0, 0, 0, left)

    _grid_shape: tuple[int, int, int, int] = (0, 0, 0, 0)

    # -- painting ----------------------------------------------------------------------------
    def show(self, view: Any, seat: int | None, legal: list) -> None:
        previous = self.view_state
        if self.animating and view == previous:
            return  # the same state painted again (undo and redo repaint twice): the walk goes on
        self.view_state = view
        if not view.cells:
            return
        self._picking = False
        self._hint_position = None
        frames = self._walk_frames(previous, view)
        self._stop_animation()
        if frames and SPEEDS[self.speed] > 0 and not self.read_only:
            self._frames = frames
            self._frame = 0
            self._paint_frame_of_walk()
            self._timer = self.set_interval(SPEEDS[self.speed], self._tick)
        else:
            if frames:
                self.narrate(self._after_walk(frames, view))
            elif previous is None or previous.round != view.round or previous.phase != view.phase:
                self.narrate(self._prompt(view))
            self.paint(view)
        self._count_result(view)
        self._paint_info(view)
        self._announce_resume(view)
        self.refresh_bindings()  # the footer's keys follow the phase (key_applies)

    def _announce_resume(self, view: CMState) -> None:
        """On a resumed puzzle the status line says so until the first decision (each repaint
        before it keeps the notice, unless another message is pending)."""
        match = self.table.match
        if self._resumed_at is None:
            self._resumed_at = match.cursor if match is not None and self.resumed(view) else -1
        if match is None or self._resumed_at != match.cursor or view.phase in R.OVER:
            self._resumed_at = -1
            return
        if not self._status:
            self.say(RESUMED_NOTICE)

    def resumed(self, view: CMState) -> bool:
        """The screen opens on a puzzle already under way: the match has the player's decisions
        in it (a saved puzzle resumed), not only the shuffle."""
        match = self.table.match
        if self.read_only or match is None or view.phase in R.OVER:
            return False
        return match.cursor > 1

    def _walk_frames(self, previous: CMState | None, view: CMState) -> list[tuple[Any, CMState]]:
        """The steps of the round that led from ``previous`` to ``view``, if one just did."""
        if previous is None or not previous.cells or previous.phase != R.START:
            return []
        if view.round != previous.round + 1 or view.setup != previous.setup:
            return []
        match = self.table.match
        if match is not None and match.cursor >= 1:
            step = match.steps[match.cursor - 1]
            if isinstance(step.action, Start) and match.states[match.cursor - 1] == previous:
                return list(R.walk(previous, step.action.cell))
        fits = []
        for cell in previous.cells:
            frames = list(R.walk(previous, cell))
            if frames[-1][1] == view:
                fits.append(frames)
        return fits[0] if len(fits) == 1 else []

    def _after_walk(self, frames: list[tuple[Any, CMState]], view: CMState) -> str:
        """The narration once a walk is over: what it gave (what to do next is on the status
        line, where it is never cut: the two narration lines held both at 80 columns)."""
        if view.phase in R.OVER:
            return self.result_line(view)
        freed = [e.species for e, _ in frames if isinstance(e, R.Escape) and e.to == "center"]
        text = R.describe(frames[-1][0])
        if freed:
            text += " Free this round: " + ", ".join(R.NAMES[x] for x in freed) + "."
        return text

    def prompt_text(self) -> str:
        """The status line while the player decides: the decision of the moment in words."""
        view = self.view_state
        if view is None or not view.cells or view.phase in R.OVER:
            return ""
        if self.animating:  # (the decision after the walk comes when it is over)
            return "The guards walk · space: skip, + / -: slower / faster"
        return self._prompt(view)

    def _paint_frame(self, viewer: int | None, bot: int | None) -> None:
        super()._paint_frame(viewer, bot)
        if self.animating:
            self._paint_log()

    def _paint_log(self) -> None:
        """The side log without the steps of the walk the animation has not reached yet."""
        try:
            widget = self.query_one("#gs-log", Static)
        except NoMatches:
            return
        entries = self.log_events(LOG_LINES + len(self._frames))
        last_step = entries[-1][0] if entries else 0
        hidden = len(self._frames) - self._frame - 1 if self.animating else 0
        if hidden > 0:
            kept = [e for e in entries if e[0] != last_step]
            walk = [e for e in entries if e[0] == last_step]
            entries = kept + walk[: max(0, len(walk) - hidden)]
        log = Text()
        for step, _seat, sentence in entries[-LOG_LINES:]:
            log.append(f"{step:>3} ", style=self.colour("muted"))
            log.append(sentence + "\n")
        widget.update(log)

    def _tick(self) -> None:
        self._frame += 1
        if self._frame >= len(self._frames):
            self._finish_animation()
            return
        self._paint_frame_of_walk()

    def _paint_frame_of_walk(self) -> None:
        event, state = self._frames[self._frame]
        guard = guard_position(event)
        if guard is None:  # escape / leave steps: keep the guards where they were
            for back in range(self._frame, -1, -1):
                guard = guard_position(self._frames[back][0])
                if guard is not None:
                    break
        start = self._frames[0][0].position
        self.paint(state, guard=guard if not isinstance(event, R.Leave) else None, start=start)
        self.narrate(R.describe(event) + "   (space: skip)")
        self._paint_log()

    def _finish_animation(self) -> None:
        frames = self._frames
        self._stop_animation()
        self.refresh_bindings()  # (space: skip walk goes from the footer)
        if self.legal and not self.pending_status():
            self.tell(self.prompt_text())  # the walk is over: what to decide now
        if self.view_state is not None:
            if frames:
                self.narrate(self._after_walk(frames, self.view_state))
            self.paint(self.view_state)
            self._paint_info(self.view_state)
            self._paint_log()

    def _stop_animation(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._frames = []

    @property
    def animating(self) -> bool:
        return self._timer is not None

    def narrate(self, text: str) -> None:
        try:
            widget = self.query_one("#cm-narration", Static)
        except NoMatches:
            return
        widget.update(Text(text, overflow="ellipsis"))

    def _prompt(self, view: CMState) -> str:
        if view.phase in R.OVER:
            return self.result_line(view)
        if view.phase == R.START:
            return (f"Round {self.round_number(view)}: pick the cell that attracts the guards "
                    f"(1-{view.species}).")
        if view.phase == R.RETURN:
            return "Send an escaped captive back? b then its hideout's key, or a click; 0: nobody."
        return ""

    @staticmethod
    def round_number(state: CMState) -> int:
        """The round the status line and the prompt both name: the one about to be played while
        a cell is to be picked, the one just walked while a captive may be sent back, and the
        rounds played once the puzzle is over."""
        return state.round + 1 if state.phase == R.START else state.round

    def paint(self, state: CMState, *, guard: int | None = None, start: int | None = None) -> None:
        """Draw ``state`` (the guards at ``guard``, their walk started at ``start``)."""
        if not state.cells or not self.query("#cm-ship"):
            return
        returnable = set(state.returnable()) if state.phase == R.RETURN else set()
        for p in range(state.species):
            c, h = state.cells[p], state.hideouts[p]
            cell = self.query_one(f"#cm-cell-{p + 1}", CellBox)
            cell.border_title = f"{p + 1}:{R.SYMBOLS[c]}"
            marks = []
            if guard == p:
                marks.append(GUARD_GLYPH)
            if start == p and guard != p:
                marks.append("✦")
            cell.border_subtitle = "".join(marks)
            inside = state.in_cell[c]
            cell.update(Text(" ".join([R.SYMBOLS[c]] * inside + [EMPTY] * (2 - inside)),
                             style="bold"))
            cell.set_class(guard == p, "guard")
            cell.set_class(self._hint_position == p, "hint")
            hide = self.query_one(f"#cm-hideout-{p + 1}", HideoutBox)
            hostile = h in state.hostile
            hide.set_class(hostile, "hostile")
            hide.set_class(not hostile, "friendly")
            hide.set_class(guard == p, "guard")
            hide.set_class(self._picking and h in returnable, "pick")
            hide.border_title = f"{HOSTILE_GLYPH if hostile else FRIENDLY_GLYPH}{R.SYMBOLS[h]}"
            hide.border_subtitle = str(p + 1)  # pairs it with cell p + 1; the key after "b"
            hide.update(Text(R.SYMBOLS[h] if state.in_hideout[h] else EMPTY, style="bold"))
        centre = self.query_one(EscapeArea)
        centre.species = state.species
        centre.border_title = "escape"
        slots = Text()
        for x in range(state.species):
            if x:
                slots.append(" ")
            if state.in_center[x]:
                style = "bold reverse" if x in returnable else "bold"
                slots.append(R.SYMBOLS[x], style=style)
            else:
                slots.append(EMPTY, style=self.colour("muted"))
        free = sum(state.in_center)
        text = Text.assemble("free\n", slots, f"\n{free} of {state.species}")
        text.justify = "center"
        centre.update(text)

    def _optimum(self, state: CMState) -> int | None:
        key = state.setup.hideouts + state.setup.hostile + state.setup.cells
        if key not in self._optimum_cache:
            self._optimum_cache[key] = S.min_rounds(state.setup)
        return self._optimum_cache[key]

    def _paint_info(self, state: CMState) -> None:
        if not state.cells or not self.query("#cm-info"):
            return
        optimum = self._optimum(state)
        best = "unsolvable" if optimum is None else f"optimum {optimum}"
        puzzle = f"daily {state.date}" if state.date else f"puzzle {state.number}"
        if state.phase in R.OVER and self._stats_line and not self.animating:
            text = self._stats_line
        else:
            speed = SPEEDS[self.speed]
            # while a walk is shown, the round being walked (the state is already after it)
            rnd = self._frames[0][0].round if self.animating else self.round_number(state)
            text = (f"Round {rnd} · {best} · {puzzle} · "
                    f"walk {'off' if not speed else f'{speed:g}s'}")
        self.query_one("#cm-info", Static).update(Text(text, no_wrap=True, overflow="ellipsis"))

    def result_text(self) -> str:
        """The verdict, in the result line over the game-over buttons (at 80x24 it covers the
        narration, which said it): "Solved with help in 9 rounds; the optimum is 9 (not counted
        as solved)."."""
        state = self.table.state()
        if not self.table.is_over() or state.phase not in R.OVER:
            return super().result_text()
        return self.result_line(state)

    def result_line(self, state: CMState) -> str:
        """The verdict once the puzzle is over: rounds against the optimum."""
        optimum = self._optimum(state)
        if state.phase == R.WON and self.assisted:
            best = "" if optimum is None else f"; the optimum is {optimum}"
            return f"Solved with help in {state.round} rounds{best} (not counted as solved)."
        if state.phase == R.WON:
            if optimum is None:
                return f"Solved in {state.round} rounds!"
            if state.round <= optimum:
                return f"Solved in {state.round} rounds: the optimum!"
            return (f"Solved in {state.round} rounds; the optimum is {optimum} "
                    f"(+{state.round - optimum}).")
        best = "it cannot be solved" if optimum is None else f"the optimum is {optimum} rounds"
        return f"Not solved after {state.round} rounds ({best})."

    # -- stats ---------------------------------------------------------------------------------
    def _count_result(self, state: CMState) -> None:
        if self.read_only or state.phase not in R.OVER:
            return
        match = self.table.match
        if match is None:
            return
        key = f"{match.seed}/{R.setup_code(state.setup)}/{match.cursor}"
        if key in self._counted:
            return
        self._counted.add(key)
        game_key = f"{match.seed}/{R.setup_code(state.setup)}"
        try:
            stats = ST.record_result(
                game_key, code=R.setup_code(state.setup), won=state.phase == R.WON,
                rounds=state.round, optimum=self._optimum(state), daily=state.date,
                assisted=self.assisted)
        except OSError as exc:
            self.say(f"could not save your stats: {exc.strerror or exc}")
            return
        self._stats_line = stats.summary()  # "..., 1 solved with help" once there is one

    def _game_key(self) -> str:
        """The key the stats know this game by (its seed and setup), '' before the setup."""
        match = self.table.match
        if match is None:
            return ""
        state = match.state
        if not state.cells:
            return ""
        return f"{match.seed}/{R.setup_code(state.setup)}"

    def mark_assisted(self) -> None:
        """A hint or the solution was shown: this puzzle no longer counts as solved unaided
        (kept in the stats file, so resuming it later keeps the mark)."""
        if self.assisted or self.read_only:
            return
        self.assisted = True
        key = self._game_key()
        if not key:
            return
        try:
            ST.mark_assisted(key)
        except OSError as exc:
            self.say(f"could not save your stats: {exc.strerror or exc}")

    # -- decisions -------------------------------------------------------------------------------
    def _settle_animation(self) -> None:
        if self.animating:
            self._finish_animation()

    def _state(self) -> CMState | None:
        s = self.view_state
        return s if s is not None and s.cells else None

    def start_at(self, position: int) -> None:
        """Start the guards at ``position`` (sending nobody back first if that is pending)."""
        s = self._state()
        if s is None or position >= s.species:
            return
        if s.phase == R.RETURN:
            if not self.play(Done()):
                return
            s = self._state()
            if s is None:
                return
        if s.phase != R.START:
            self.say("The puzzle is over: n for a new one, u to undo.")
            return
        self.play(Start(s.cells[position]))

    def send_back(self, species: int) -> None:
        s = self._state()
        if s is None or s.phase != R.RETURN:
            self.say("Nobody can be sent back now.")
            return
        if species not in s.returnable():
            self.say(f"The {R.NAMES[species]} cannot go back now.")
            return
        if self.play(Return(species)):
            self.say(R.describe(R.Returned(species)))  # replaces "Send back which?"

    @on(CellBox.Clicked)
    def _cell_clicked(self, message: CellBox.Clicked) -> None:
        self.clicked_cell(message.position)

    @on(HideoutBox.Clicked)
    def _hideout_clicked(self, message: HideoutBox.Clicked) -> None:
        self.clicked_hideout(message.position)

    @on(EscapeArea.Clicked)
    def _centre_clicked(self, message: EscapeArea.Clicked) -> None:
        self.clicked_centre(message.species)

    def clicked_cell(self, position: int) -> None:
        self._settle_animation()
        self.start_at(position)

    def clicked_hideout(self, position: int) -> None:
        self._settle_animation()
        s = self._state()
        if s is None:
            return
        if s.phase == R.RETURN and s.hideouts[position] in s.returnable():
            self.send_back(s.hideouts[position])
        else:
            self.start_at(position)

    def clicked_centre(self, species: int | None) -> None:
        self._settle_animation()
        s = self._state()
        if s is None or s.phase != R.RETURN:
            return
        if species is None:
            options = s.returnable()
            if len(options) != 1:
                self.say("Click the freed captive to send back (or press b).")
                return
            species = options[0]
        self.send_back(species)

    # -- a lesson (learn/) -------------------------------------------------------------------
    def follow_lesson(self, lesson: Any) -> None:
        super().follow_lesson(lesson)
        self.mark_assisted()  # a guided puzzle counts as solved with help

    def highlight(self, marks: tuple[str, ...]) -> None:
        """A lesson's marks: "cell 3", "hideout 6" (ring positions, the keys) and "centre"."""
        super().highlight(marks)
        for box in self.query(".cm-cell, .cm-hideout, #cm-centre"):
            if isinstance(box, CellBox):
                name = f"cell {box.position + 1}"
            elif isinstance(box, HideoutBox):
                name = f"hideout {box.position + 1}"
            else:
                name = "centre"
            box.set_class(name in marks, "lit")

    # -- key actions ---------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.read_only and action in ("key_position", "done", "send_back", "hint",
                                         "solution", "new_puzzle", "daily", "by_number"):
            return False
        return self.key_applies(action) and super().check_action(action, parameters)

    def key_applies(self, action: str) -> bool:
        """Whether ``action``'s key does anything now (False disables it and hides it from
        the footer: the game-over footer offers New, Undo, Rules and Back, nothing else)."""
        s = self.view_state
        if s is None or not s.cells:
            return True
        over = s.phase in R.OVER
        if action == "skip":
            return self.animating
        if action in ("send_back", "done"):
            return s.phase == R.RETURN
        if action in ("hint", "solution", "key_position"):
            return not over
        if action == "redo":
            return self.table.can_redo()
        return True

    def footer_hidden(self) -> frozenset[str]:
        """Keys that work but make way in the footer for those of the moment: the walk's skip
        while it runs, the return-to-prison keys after it."""
        s = self.view_state
        if s is None or s.phase in R.OVER:
            return frozenset()
        if self.animating:
            return frozenset({"hint", "solution", "new_puzzle", "send_back", "done"})
        if s.phase == R.RETURN:
            return frozenset({"solution", "new_puzzle"})
        return frozenset()

    def action_key_position(self, position: int) -> None:
        self._settle_animation()
        s = self._state()
        if s is None:
            return
        if position >= s.species:
            self.say(f"This ship has {s.species} cells: keys 1-{s.species}.")
            return
        if self._picking:
            self._picking = False
            self.send_back(s.hideouts[position]) if s.hideouts[position] in s.returnable() \
                else self.say(f"Hideout {position + 1} is not the hideout of a freed captive.")
            self.paint(self._state() or s)  # (after a send back: the new state, not the old)
            return
        self.start_at(position)

    def action_done(self) -> None:
        self._settle_animation()
        s = self._state()
        if s is not None and s.phase == R.RETURN:
            self.play(Done())
        else:
            self.say("There is no return to prison to decline now.")

    def action_send_back(self) -> None:
        self._settle_animation()
        s = self._state()
        if s is None or s.phase != R.RETURN:
            self.say("Nobody can be sent back now.")
            return
        self._picking = not self._picking
        self.paint(s)
        if self._picking:
            keys = ", ".join(f"{s.position_of_hideout(x) + 1} ({R.NAMES[x]})"
                             for x in s.returnable())
            self.say(f"Send back which? Press its hideout's key: {keys}.")
        else:
            self.say("Send back cancelled.")

    def action_skip(self) -> None:
        if self.animating:
            self._finish_animation()

    def action_speed(self, delta: int) -> None:
        type(self).speed = max(0, min(len(SPEEDS) - 1, self.speed + delta))
        speed = SPEEDS[self.speed]
        self.say("Walk animation off." if not speed else f"Walk animation: {speed:g} s per step.")
        problem = _save_speed(self.speed)
        if problem:
            self.say(problem)
        if self.animating and speed:
            self._timer.stop()
            self._timer = self.set_interval(speed, self._tick)
        elif self.animating:
            self._finish_animation()
        if self.view_state is not None:
            self._paint_info(self.view_state)

    def action_hint(self) -> None:
        self._settle_animation()
        s = self._state()
        if s is None or s.phase in R.OVER:
            self.say("No hint: the puzzle is over.")
            return
        action = S.hint(s)
        if action is None:
            self.say("No way to win from here: undo (u) or give up.")
            return
        self.mark_assisted()
        if isinstance(action, Start):
            p = s.position_of_cell(action.cell)
            self._hint_position = p
            self.paint(s)
            self.say(f"Hint: start the guards at cell {p + 1} (species "
                     f"{R.SYMBOLS[action.cell]}, key {p + 1}).")
        elif isinstance(action, Return):
            p = s.position_of_hideout(action.species)
            self.say(f"Hint: send the {R.NAMES[action.species]} back (b then {p + 1}).")
        else:
            self.say("Hint: send nobody back (0).")

    def action_solution(self) -> None:
        self._settle_animation()
        s = self._state()
        if s is None or s.phase in R.OVER:
            self.say("The puzzle is over.")
            return
        lines = S.plan_lines(s)
        if lines is None:
            self.say("No way to win from here: undo (u) or give up.")
            return
        self.mark_assisted()
        done = s.round
        title = f"One fastest way on: {len([x for x in lines if x.startswith('Round')])} more " \
                f"rounds ({done} played)"
        self.app.push_screen(SolutionScreen(title, lines))

    def show_stats(self) -> None:
        """The player's statistics (from the data dir) on the status line."""
        stats = ST.load_stats()
        self.say(f"Your Cell Management statistics: {stats.summary()}." if stats.played
                 else "No puzzle finished yet: your statistics start with the first one.")

    # -- new puzzles ---------------------------------------------------------------------------
    def _new(self, **changes: Any) -> None:
        match = self.table.match
        if match is None:
            self.say("New puzzles are started from the launcher here.")
            return
        own = R.GAME.own_options(match.options)
        options = CMOptions(**{**{"species": own.species, "max_rounds": own.max_rounds},
                               **changes})
        try:
            fresh = Match(R.GAME, options, match.seats, secrets.randbelow(2**63))
        except CellwarsError as exc:
            self.say(str(exc))
            return
        self.table.save()
        screen = self.app.game_screen(fresh) if isinstance(self.app, Host) else None
        if screen is None:
            return
        screen.table.save()
        self.app.switch_screen(screen)

    def action_new_puzzle(self) -> None:
        self._new()

    def action_daily(self) -> None:
        self._new(puzzle="daily")

    def action_by_number(self) -> None:
        def chosen(text: str | None) -> None:
            if not text:
                return
            try:  # "#12" is a six-species puzzle wherever it is typed, as the rules page says
                setup = R.setup_from_code(text)
            except CellwarsError as exc:
                self.say(str(exc))
                return
            self._new(code=R.setup_code(setup), species=len(setup.hideouts))

        self.app.push_screen(PuzzleNumber(), chosen)

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        out = super().palette_commands()
        if self.read_only:
            return out
        today = _dt.date.today().isoformat()
        return [
            ("Hint", "The best next decision, from the solver", self.action_hint),
            ("Show solution", "One fastest way to free everyone from here", self.action_solution),
            ("Skip the walk", "Show the end of the guards' round at once", self.action_skip),
            ("Walk slower", "Slow the guards' animation down", lambda: self.action_speed(1)),
            ("Walk faster", "Speed the guards' animation up (fastest: off)",
             lambda: self.action_speed(-1)),
            ("New puzzle", "A fresh random ship", self.action_new_puzzle),
            ("Daily puzzle", f"The puzzle of {today}, the same for everyone", self.action_daily),
            ("Puzzle by number", "Play a shared puzzle number or setup code",
             self.action_by_number),
            ("Give up", "End this puzzle unsolved", lambda: self.play(R.GiveUp())),
            ("Your statistics", "Puzzles solved, streaks and rounds against the optimum",
             self.show_stats),
            *out,
        ]


SCREEN = CellManagementScreen
