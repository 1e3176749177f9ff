"""The Cell Wars table: the 61-tile hex body, a panel per cell, the round track and every decision.

The board is :class:`~.hex_board.HexBoard`; the side panel and the log are text built by
:mod:`.side_panel`; what can be done now is worked out by :mod:`.decisions` (headless). The
screen turns keys and clicks into those decisions. A cursor (arrows) or the mouse picks tiles
(Enter or a click acts there): setup spots, steps along the highlighted reachable tiles, attack
targets, relapse tiles, card targets. Other choices sit in a numbered bar under the board (keys
1-9, 0 for "end"/"stay", or a click); steps also take the six direction keys ``w e`` (NW NE),
``a d`` (W E), ``z x`` (SW SE). The look is ``screen.tcss``.
"""

from __future__ import annotations

import random
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.strip import Strip
from textual.widgets import Static

from ...core.api import CHANCE, Action
from ...table.protocol import Table
from ...ui.game_screen import LOG_LINES, GameScreen
from ...ui.widgets.choice_bar import ChoiceBar
from ...ui.widgets.keys_panel import KeysPanel
from ...ui.widgets.text_lines import TextLines
from . import board as B
from . import clarifications as C
from . import rules as R
from .cards import IMMUNE
from .decisions import (Back, Decision, Option, PickCard, Picking, PickFrom, StartBuild, decide,
                        move_cursor, skipped_note)
from .hex_board import HexBoard, Marks, pick_scale, tile_pieces
from .labels import DIRECTION_KEYS, KEY_OF_DIRECTION, LEGEND, SPOT_WORDS, TISSUE_WORDS
from .side_panel import attack_line, side_text, special_sentence

DICE_FRAMES = 8
CENTRE_TILE = B.BY_NAME["E5"]

KEYS_HELP = (
    "Arrows move the cursor; Enter acts on its tile (or click a tile).\n"
    "1-9 pick a choice of the bar under the board; 0 goes on to the next step.\n"
    "w e / a d / z x step NW NE / W E / SW SE · n: cursor to the next cell\n"
    "Esc: back out of a card or a wall · m, or type a move: the list of all moves\n"
    "u / r: undo / redo (never past a die roll or a card draw)\n"
    "?: rules · q: leave the table\n"
    "\n"
    f"{LEGEND}"
)


class CellWarsScreen(GameScreen[R.CWState, Action]):
    """Cell Wars at the table: setup in three guided steps, then sixteen rounds."""

    CSS_PATH = "screen.tcss"

    BINDINGS = [
        Binding("up", "cursor('up')", "Up", show=False),
        Binding("down", "cursor('down')", "Down", show=False),
        Binding("left", "cursor('left')", "Left", show=False),
        Binding("right", "cursor('right')", "Right", show=False),
        # (Enter only: a space typed under the board, as in "place C4", placed a cell)
        Binding("enter", "act", "Act here"),
        *(Binding(k, f"direction({d})", f"Step {B.DIR_NAMES[d]}", show=False)
          for k, d in DIRECTION_KEYS.items()),
        *(Binding(str(k), f"choose('{k}')", f"Choice {k}", show=False) for k in range(10)),
        Binding("n", "next_piece", "Next cell", show=False),
        Binding("k", "keys_help", "Keys+legend"),
        Binding("escape", "cancel", "Cancel/Back", show=False),
    ]

    dice_seconds: float = 0.06  # per frame of the die animation (0: no animation)
    # the honeycomb (37x19 at its smallest), the panel of six cells and the prompt need this;
    # smaller windows get the "terminal too small" notice (ui/size_guard.py)
    MIN_SIZE = (80, 24)

    def __init__(self, table: Table, *, read_only: bool = False) -> None:
        super().__init__(table, read_only=read_only)
        self.view_state: R.CWState | None = None
        self.cursor = CENTRE_TILE
        self.picking = Picking()  # a card picked, or a wall under way (see decisions.py)
        self.decision = Decision()  # what can be done now: prompt, tiles, numbered choices
        self._last_panel_key: tuple | None = None
        self._seen_cursor: int | None = None
        self._dice_timer: Any = None
        self._dice_frames: list[str] = []
        self._dice_final = ""
        self._dice_text = ""
        self._rng = random.Random()
        self._line_cache: dict[tuple, list[Strip]] = {}  # drawn lines of the log and panel
        self._side_lines = -1  # lines in the seat panel when it was last painted
        self._ended_step = False  # the player's last choice ended its step (0, roll, stay)

    # -- layout ------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield HexBoard(id="cw-board")
        yield ChoiceBar(id="cw-choices")

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        try:
            side = self.query_one("#gs-side")
        except NoMatches:
            return
        if width >= 120:
            lay = pick_scale(width - 40, event.size.height - 5)
            side.styles.width = max(36, min(64, width - lay.width - 6))
        else:
            side.styles.width = 36 if width >= 76 else 28
        self.call_after_refresh(self._paint_side)  # the seat lines fit the panel's new width

    def on_mount(self) -> None:
        # no super().on_mount(): Textual runs GameScreen.on_mount itself (every class's handler
        # in the MRO), and calling it here subscribed the screen twice (two repaints an action)
        for board in self.query(HexBoard):  # (none when the app quits while the screen mounts)
            board.focus()
        for panel in self.query("#gs-seats, #gs-log"):
            panel.auto_links = False  # (no links in them: each repaint skips a pass per line)

    # -- painting ------------------------------------------------------------------------------
    def show(self, view: Any, seat: int | None, legal: list[Action]) -> None:
        if not isinstance(view, R.CWState):
            return
        previous = self.view_state
        self.view_state = view
        key = (view.phase, view.round, view.panel, view.step, len(view.signs),
               R.cancer_count(view), tuple(legal))
        if key != self._last_panel_key:
            self.picking = Picking()
            if previous is None or (previous.panel, previous.phase, previous.round) != (
                    view.panel, view.phase, view.round):
                self._cursor_to_actor(view)
            self._last_panel_key = key
        self._work_out(view, legal)
        if legal and previous is not None:
            note = skipped_note(previous, view, self._ended_step)
            if note:  # a step passed by itself: say what 0 does now before it is pressed
                self._status, self._status_at = note, self._status_mark()
        if legal:
            self._ended_step = False
        self._paint_board()
        self._paint_bottom()
        if seat is None:  # (a covered table: _paint_frame does not follow)
            self._paint_side()
        self._animate_new_rolls()

    def _paint_frame(self, viewer: int | None, bot: int | None) -> None:
        told = bool(self.pending_status())
        super()._paint_frame(viewer, bot)  # (its seats and log are this screen's, below)
        self._paint_side()
        if not told:
            self._paint_prompt()

    def paint_seats(self, viewer: int | None, acting: list[int], over: bool) -> None:
        pass  # the side panel (_paint_side) draws every seat

    def paint_log(self) -> None:
        self._paint_log()

    def _paint_log(self) -> None:
        """The log with the tile a special action happened on; long sentences wrap (the log
        panel shows the newest entries that fit, newest last)."""
        try:
            widget = self.query_one("#gs-log", Static)
        except NoMatches:
            return
        muted = self.colour("muted")
        entries = []
        for step, seat, sentence in self.log_entries(LOG_LINES):
            entry = Text(f"{step:>3} ", style=muted)
            entry.append(sentence, style=self.seat_colour(seat) if seat is not None else "")
            entries.append(entry)
        # (the log's height is the panel's, whatever it holds: no new layout for it)
        widget.update(TextLines(Text("\n").join(entries), self.app.console, wrap=True,
                                indent=4, cache=self._line_cache), layout=False)

    def log_entries(self, rows: int) -> list[tuple[int, int | None, str]]:
        """The last ``rows`` log lines; a special action names its tile ("Cancer beta degrades
        E4") and comes first among the lines of its step (the cause before what it did to the
        tile) when the match is at hand; every other sentence is the table's own."""
        entries = self.log_events(rows)
        match = self.table.match
        if match is None:
            return entries
        out = []
        for step, seat, sentence in entries:
            i = step - 1
            better = None
            if 0 <= i < len(match.events) and i + 1 < len(match.states):
                specials = [e for e in match.events[i] if isinstance(e, R.Special)]
                if len(specials) == 1 and sentence == R.describe(specials[0]):
                    better = special_sentence(specials[0], match.states[i + 1])
            out.append((step, better is None, seat, better or sentence))
        out.sort(key=lambda e: e[:2])  # (stable: the steps come in order already)
        return [(step, seat, sentence) for step, _, seat, sentence in out]

    def _paint_prompt(self) -> None:
        """The status line says what to do now (unless a message was just said)."""
        text = self.prompt
        problem = self.table.save_problem
        if problem:
            text = problem
        if not text:
            return
        try:
            self.query_one("#gs-status", Static).update(
                Text(text, no_wrap=True, overflow="ellipsis"), layout=False)
        except NoMatches:
            pass

    def _cursor_to_actor(self, view: R.CWState) -> None:
        if view.phase == R.PLAY and 0 <= view.panel < len(view.panels):
            t = view.panels[view.panel].tile
            if t >= 0:
                self.cursor = t

    def _selected_immune(self) -> int:
        """The immune cell whose range is drawn: the one under the cursor, else the acting one."""
        s = self.view_state
        if s is None or s.phase not in (R.PLAY, R.OVER):
            return -1
        for p in tile_pieces(s, self.cursor):
            if R.PANEL_CAMPS[p] == IMMUNE:
                return p
        p = s.panel
        if 0 <= p < len(s.panels) and R.PANEL_CAMPS[p] == IMMUNE and s.panels[p].tile >= 0:
            return p
        return -1

    def marks(self) -> Marks:
        s = self.view_state
        targets = frozenset(self.tile_actions)
        greyed: frozenset[int] = frozenset()
        if s is not None and s.phase in (R.SIGNS, R.TISSUE, R.PIECES) and targets:
            greyed = frozenset(range(B.N_TILES)) - targets
            if len(targets) > 20:  # most of the board: greying the rest says enough
                targets = frozenset()
        in_range: frozenset[int] = frozenset()
        p = self._selected_immune()
        if p >= 0 and s is not None:
            in_range = frozenset(B.within(s.panels[p].tile, R.range_of(s, p)))
        picking = self.picking
        lit = frozenset(B.BY_NAME[m] for m in self.highlighted if m in B.BY_NAME)
        return Marks(cursor=self.cursor, targets=targets, greyed=greyed - lit, in_range=in_range,
                     picked=picking.build_from if picking.building else -1, lit=lit)

    def _paint_board(self) -> None:
        try:
            board = self.query_one(HexBoard)
        except NoMatches:
            return
        board.update_board(self.view_state, self.marks())

    def _paint_bottom(self) -> None:
        try:
            bar = self.query_one(ChoiceBar)
        except NoMatches:
            return
        bar.set_choices(self.choices)
        # at the end the banner takes the bar's place (so the whole board stays in view at 80x24)
        over = self.view_state is not None and self.view_state.phase == R.OVER
        if bar.display == over:
            bar.display = not over

    # -- the side panel ------------------------------------------------------------------------
    def _paint_side(self) -> None:
        s = self.view_state
        if s is None or not self.is_mounted:
            return
        try:
            widget = self.query_one("#gs-seats", Static)
        except NoMatches:
            return
        lines = TextLines(self.side_text(s), self.app.console, cache=self._line_cache)
        # a new layout only when the panel's height changes (the log below takes the rest)
        widget.update(lines, layout=len(lines.lines) != self._side_lines)
        self._side_lines = len(lines.lines)

    def side_text(self, s: R.CWState) -> Text:
        return side_text(s, self.game, room=self._side_width(), colour=self.colour,
                         seat_colour=self.seat_colour, dice_text=self._dice_text,
                         card=self.picking.card, attack=self.attack_text(s))

    def attack_text(self, s: R.CWState) -> str:
        """The last attack of this round made by or on a cell the viewer leads (any cell in a
        replay or a bots' game), or the last of its cells that rolled with nothing to attack:
        the side panel keeps it in view when the log has moved on."""
        match = self.table.match
        if match is None or s.phase != R.PLAY:
            return ""
        viewer = self.table.viewer()
        mine = set(R.seat_panels(s, viewer)) if viewer is not None else None
        for i in range(match.cursor - 1, max(-1, match.cursor - 300), -1):
            after = match.states[i + 1]
            if after.round != s.round:
                break
            attacks = [e for e in match.events[i]
                       if isinstance(e, (R.AttackResult, R.DoubleAttack, R.NoAttack))]
            if attacks and (mine is None or any(
                    e.panel in mine or (not isinstance(e, R.NoAttack) and e.target in mine)
                    for e in attacks)):
                return attack_line(match.events[i], after)
        return ""

    def _side_width(self) -> int:
        try:
            widget = self.query_one("#gs-seats", Static)
        except NoMatches:
            return 32
        return widget.content_region.width or 32

    # -- working out what can be done ------------------------------------------------------------
    @property
    def tile_actions(self) -> dict[int, list[Any]]:
        """Tile -> what acting on it does (an action, or a wall's first tile)."""
        return self.decision.tiles

    @property
    def choices(self) -> list[Option]:
        """The numbered choices of the bar under the board."""
        return self.decision.options

    @property
    def prompt(self) -> str:
        return self.decision.prompt

    def _work_out(self, s: R.CWState, legal: list[Action]) -> None:
        if s.phase != R.OVER and not legal:
            self.decision = Decision(prompt=self._waiting_prompt(s))
            return
        self.decision = decide(s, legal, self.picking, self.game.action_to_str)

    def _waiting_prompt(self, s: R.CWState) -> str:
        if self.read_only:
            return "Replay"
        seats = [x for x in self.table.to_act() if x != CHANCE]
        if not seats or (self.lesson is not None and self.lesson.active):
            return ""  # (nobody is deciding: the lesson plays the other seats, its panel says)
        panel = R.GAME.acting_panel(s)
        who = C.PANEL_TITLES[panel] if panel >= 0 else ""
        return f"{self.table.seat_name(seats[0])} is deciding for {who}…"

    # -- decisions -------------------------------------------------------------------------------
    def play(self, action: Action) -> bool:
        self._ended_step = isinstance(action, (R.End, R.Roll, R.Stay))
        return super().play(action)

    def pick_card(self, slug: str) -> None:
        """Pick a card: the status line asks for its target (or says what it does), the side
        panel shows its whole text."""
        s = self.view_state
        if s is None:
            return
        self.picking.card = slug
        self._refresh_decision()

    def _back(self) -> None:
        """Put down the picked card, or give up the wall under way."""
        self.picking = Picking()
        self._refresh_decision()

    def start_build(self) -> None:
        self.picking = Picking(building=True)
        self._refresh_decision()

    def _refresh_decision(self) -> None:
        if self.view_state is None:
            return
        self._work_out(self.view_state, self.legal)
        self._paint_board()
        self._paint_bottom()
        self._paint_prompt()
        self._paint_side()  # a picked card's text shows there

    @on(ChoiceBar.Picked)
    def _choice_clicked(self, message: ChoiceBar.Picked) -> None:
        assert isinstance(message.choice, Option)
        self.run_choice(message.choice)

    def run_choice(self, choice: Option) -> None:
        self._settle_dice()
        self._run(choice)

    def _run(self, choice: Option) -> None:
        """Do what a numbered choice says: play its action, or take a picking step."""
        do = choice.do
        if isinstance(do, PickCard):
            self.pick_card(do.slug)
        elif isinstance(do, StartBuild):
            self.start_build()
        elif isinstance(do, Back):
            self._back()
        else:
            self.play(do)

    def act_on_tile(self, t: int) -> bool:
        actions = self.tile_actions.get(t)
        if not actions:
            return False
        a = actions[0]
        if isinstance(a, PickFrom):
            self.picking.build_from = a.tile
            self._refresh_decision()
            return True
        self.play(a)
        return True

    @on(HexBoard.Clicked)
    def _tile_clicked(self, message: HexBoard.Clicked) -> None:
        self.clicked_tile(message.tile)

    def clicked_tile(self, t: int) -> None:
        self._settle_dice()
        self.cursor = t
        if not self.act_on_tile(t):
            self.say(self.describe_tile(t))
            self._paint_board()

    def describe_tile(self, t: int) -> str:
        s = self.view_state
        if s is None:
            return B.NAMES[t]
        parts = [f"{B.NAMES[t]}: {TISSUE_WORDS[s.tiles[t]]} tissue"]
        k = R.sign_at(s, t)
        if k >= 0:
            word = SPOT_WORDS[k]
            if k in R.CARD_SIGNS:
                word += " (active)" if s.card_signs[k] else " (inactive)"
            parts.append(word)
        for p in tile_pieces(s, t):
            parts.append(f"{C.PANEL_TITLES[p]} (Bio {s.panels[p].biomass})")
        return ", ".join(parts)

    # -- key actions -------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.read_only and action in ("act", "direction", "choose"):
            return False
        return super().check_action(action, parameters)

    def action_cursor(self, where: str) -> None:
        self._settle_dice()
        self.cursor = move_cursor(self.cursor, where)
        self._paint_board()
        if self.view_state is not None:
            self.tell(self.describe_tile(self.cursor))

    def action_act(self) -> None:
        if self._settle_dice():
            return
        if self.act_on_tile(self.cursor):
            return
        if not self.legal:
            self.say("Nothing for you to decide now.")
        elif self.tile_actions:
            self.say(f"Nothing to do on {B.NAMES[self.cursor]}: pick a highlighted tile.")
        else:
            self.say("Pick one of the numbered choices (or m for the list of moves).")

    def action_direction(self, d: int) -> None:
        self._settle_dice()
        for c in self.choices:
            if c.key == KEY_OF_DIRECTION[d]:
                self._run(c)
                return
        s = self.view_state
        if s is not None and s.phase == R.PLAY and s.step in (R.MOVE, R.CARDMOVE) and self.legal:
            self.say(f"No step {B.DIR_NAMES[d]} from here (a wall, the edge, or the card's rule).")
            return
        n = B.NEIGHBOUR[self.cursor][d]
        if n >= 0:
            self.cursor = n
            self._paint_board()
            self.tell(self.describe_tile(n))

    def action_choose(self, key: str) -> None:
        self._settle_dice()
        for c in self.choices:
            if c.key == key:
                self._run(c)
                return
        if self.legal:
            self.say(f"No choice {key} now.")

    def action_next_piece(self) -> None:
        s = self.view_state
        if s is None:
            return
        tiles = sorted({pn.tile for pn in s.panels if pn.tile >= 0})
        if not tiles:
            return
        later = [t for t in tiles if t > self.cursor]
        self.cursor = later[0] if later else tiles[0]
        self._paint_board()
        self.tell(self.describe_tile(self.cursor))

    KEYS_HELP = KEYS_HELP

    def action_keys_help(self) -> None:
        self._settle_dice()
        self.app.push_screen(KeysPanel("Cell Wars: keys and board legend", self.KEYS_HELP))

    def action_cancel(self) -> None:
        if self.picking.card is not None or self.picking.building:
            self._back()
        else:
            self.action_back()

    def action_undo(self) -> None:
        if not self.read_only and self.table.undo_stopped_by_chance():
            self.say("Undo stops at the last die roll or card draw: what chance showed "
                     "stays.")
            return
        super().action_undo()

    # -- dice ------------------------------------------------------------------------------------
    def _animate_new_rolls(self) -> None:
        match = self.table.match
        if match is None:
            return
        cursor = match.cursor
        start = self._seen_cursor
        self._seen_cursor = cursor
        if start is None or start >= cursor or cursor - start > 60:
            return
        last = None
        for i in range(start, cursor):
            step = match.steps[i]
            if step.seat == CHANCE and isinstance(step.action, R.Die):
                last = (i, step.action.face)
        if last is None:
            return
        i, face = last
        why = ""
        for ev in match.events[i]:
            if isinstance(ev, R.Rolled):
                why = f"{C.PANEL_TITLES[ev.panel]}, {ev.why}"
        self._dice_final = f"[{face}] {why}".strip()
        if self.dice_seconds <= 0:
            self._show_dice(self._dice_final)
            return
        self._dice_frames = [f"[{self._rng.randint(1, 6)}] …" for _ in range(DICE_FRAMES)]
        if self._dice_timer is not None:
            self._dice_timer.stop()
        self._show_dice(self._dice_frames.pop())
        self._dice_timer = self.set_interval(self.dice_seconds, self._dice_tick)

    def _dice_tick(self) -> None:
        if self._dice_frames:
            self._show_dice(self._dice_frames.pop())
        else:
            self._settle_dice()

    def _settle_dice(self) -> bool:
        """Finish a running die animation; True if one was running."""
        if self._dice_timer is None:
            return False
        self._dice_timer.stop()
        self._dice_timer = None
        self._dice_frames = []
        self._show_dice(self._dice_final)
        return True

    @property
    def rolling(self) -> bool:
        return self._dice_timer is not None

    def _show_dice(self, text: str) -> None:
        self._dice_text = text
        self._paint_side()

    def on_key(self, event: events.Key) -> None:
        if self.rolling:
            self._settle_dice()
        if self._typing(event):
            # a letter that is no key here starts typing a move: the list of moves opens with
            # it in its filter (issue 29: "place C4" typed without m placed a cell on the
            # space); the keys that act are the ones the footer, the bar and k show
            event.stop()
            event.prevent_default()
            self.action_moves(event.character or "")
        elif event.key == "space" and self.legal:
            event.stop()
            self.say("Enter acts on the tile under the cursor; to type a move, just type it.")

    def _typing(self, event: events.Key) -> bool:
        """Whether ``event`` is a letter no binding of this screen takes, while a move is ours."""
        char = event.character or ""
        if len(char) != 1 or not char.isalpha() or not char.isascii():
            return False
        if self.read_only or not self.legal or self.lesson_reading():
            return False
        return event.key not in self.every_binding()

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        out = super().palette_commands()
        return [("Next cell", "Put the cursor on the next cell piece", self.action_next_piece),
                *out]


SCREEN = CellWarsScreen
