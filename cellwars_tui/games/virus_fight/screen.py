"""The Virus Fight table: the memory board, the secret program editor and turns by keys or mouse.

The board is drawn as text: every square is three cells wide (a marker glyph, then the
instruction like ``M3``), and orthogonal neighbours of a block are joined by ``──`` and ``│`` so
blocks read without colour. A block that carries a marker takes that seat's colour (its active
block); a marker-free block is muted. Markers are the seat glyphs ①..④ in the seat colour.

A turn is one action (the instruction's effect plus the marker's step); the screen builds it one
pick at a time from the legal actions: e.g. for MOVE the instruction to move, then where it goes,
then where the marker steps. Picks with one possible value are taken automatically. Squares are
picked with the arrows and Enter (Tab jumps to the next legal square) or by a click; legal squares
are highlighted (``+`` on an empty square, underlined instructions). The piece for a WRITE is
picked on the spares row (``[``/``]`` or a click).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import msgspec
from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.css.query import NoMatches
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from ...core.api import Action
from ...table.protocol import Table
from ...ui.game_screen import LOG_LINES, SEAT_GLYPHS, GameScreen
from . import clarifications as C
from . import engine as E
from .engine import ALL_CODES, ERASE, JUMP, MOVE, PIP, TYPE_NAMES, WRITE, piece_name, square_name
from .notation import program_text
from .rules import (BUILD, FIRST, OVER, PLACE, PLAY, Add, Agree, Decline, Drop, Erase, Jump,
                    Mark, Move, Offer, Place, Ready, VFState, Write, home_line, side_name,
                    stalemate_winners)

X0 = 3  # columns before file a (rank label)
PITCH_X = 5  # a square is 3 cells, then 2 for the horizontal link
PITCH_Y = 2  # a square row, then a row for the vertical links
Y0 = 1  # the file letters above the board

STAGE_HELP = {
    "src": "pick the instruction to move",
    "dst": "pick the empty square it goes to",
    "wdst": "pick the empty square to write it on",
    "piece": "pick the spare instruction to write ([ ] or a click)",
    "step": "pick where your marker steps",
    "land": "pick where your marker jumps",
    "erase": "pick the instruction to erase (an empty square beside ERASE: erase nothing)",
    "place": "pick where your program starts on your home line",
}


def turn_picks(a: Action) -> tuple[tuple[str, int], ...]:
    """The picks that build ``a`` on the screen, in order: (stage, value)."""
    if isinstance(a, Move):
        return (("src", a.src), ("dst", a.dst), ("step", a.step))
    if isinstance(a, Write):
        return (("piece", a.piece), ("wdst", a.dst), ("step", a.step))
    if isinstance(a, Jump):
        return (("land", a.to),)
    if isinstance(a, Erase):
        return (("erase", a.target), ("step", a.step))
    if isinstance(a, Place):
        return (("place", a.sq),)
    return ()


def spares_text(spares: tuple[int, ...]) -> str:
    counts: dict[int, int] = {}
    for c in spares:
        counts[c] = counts.get(c, 0) + 1
    return " ".join(piece_name(c) + (f"×{n}" if n > 1 else "") for c, n in sorted(counts.items()))


def hand_layout(name: str, chips: list[str], room: int) -> tuple[str, int]:
    """The spares row's label and how many chips (in order) share its line, for a row ``room``
    columns wide: "Red's spares (11):" when everything fits, else "Spares (11):", and the
    chips that still do not fit go on a second line (never cut off). Each chip takes its
    text and one space."""
    if not chips:
        return f"{name}: no spares", 0
    width = sum(cell_len(c) + 1 for c in chips) - 1
    for title in (f"{name}'s spares ({len(chips)}):", f"Spares ({len(chips)}):"):
        if cell_len(title) + 1 + width <= room:
            return title, len(chips)
    used = cell_len(title) + 1
    for i, chip in enumerate(chips):
        used += cell_len(chip) + 1
        if used - 1 > room:
            return title, i
    return title, len(chips)


def erase_nothing_squares(view: VFState, seat: int) -> set[int]:
    """Empty squares beside an ERASE of ``seat``'s active block (aiming there erases nothing)."""
    m = view.markers[seat]
    if m < 0:
        return set()
    nb = E.NEIGHBOURS[view.size]
    out = set()
    for c in E.block_of(view.board, nb, m):
        if E.KIND[view.board[c]] == ERASE:
            out.update(d for d in nb[c] if not view.board[d])
    return out


def block_owners(view: VFState) -> dict[int, list[int]]:
    """Square -> the seats whose marker stands in the block holding it (active blocks)."""
    nb = E.NEIGHBOURS[view.size]
    owners: dict[int, list[int]] = {}
    for seat, m in enumerate(view.markers):
        if m < 0 or not view.board[m]:
            continue
        for c in E.block_of(view.board, nb, m):
            owners.setdefault(c, []).append(seat)
    return owners


class BoardView(Widget):
    """The memory board; a click picks the square under the mouse. It keeps its text as one
    strip per line and repaints only the lines that changed (a step changes a few squares)."""

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: list[Text] = []
        self._strips: list[Strip | None] = []
        self._width = 0

    def set_lines(self, lines: list[Text]) -> None:
        """Show ``lines``; only the lines that changed are repainted."""
        width = max((line.cell_len for line in lines), default=0)
        old = self._lines
        if len(lines) != len(old) or width != self._width:
            self._lines, self._width = lines, width
            self._strips = [None] * len(lines)
            self.refresh(layout=True)
            return
        changed = [y for y, (a, b) in enumerate(zip(old, lines)) if a != b]
        self._lines = lines
        for y in changed:
            self._strips[y] = None
        if changed:
            self.refresh(*(Region(0, y, max(1, self.size.width), 1) for y in changed))

    @property
    def text(self) -> Text:
        return Text("\n").join(self._lines)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips = [None] * len(self._lines)  # (a theme's background)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        if not 0 <= y < len(self._lines):
            return Strip.blank(width, base)
        strip = self._strips[y]
        if strip is None or strip.cell_length != width:
            segments = list(self._lines[y].render(self.app.console, end=""))
            strip = Strip(Segment.apply_style(segments, base), self._lines[y].cell_len)
            strip = strip.extend_cell_length(width, base).crop(0, width)
            self._strips[y] = strip
        return strip

    def square_at(self, x: int, y: int, size: int) -> int | None:
        if y < Y0 or x < X0 - 1:
            return None
        row = (y - Y0) // PITCH_Y
        f = (x - X0 + 1) // PITCH_X
        if not (0 <= row < size and 0 <= f < size):
            return None
        return E.square(f, size - 1 - row)

    def on_click(self, event: events.Click) -> None:
        screen = self.screen
        if not isinstance(screen, VirusFightScreen) or screen.view_state is None:
            return
        offset = event.get_content_offset(self)
        if offset is None:
            return
        sq = self.square_at(offset.x, offset.y, screen.view_state.size)
        if sq is not None:
            event.stop()
            screen.clicked_square(sq)


class _Lines:
    """Text built line by line: ``append("\\n")`` starts the next line."""

    def __init__(self) -> None:
        self.lines: list[Text] = [Text(no_wrap=True, end="")]

    def append(self, text: str, style: str = "") -> None:
        if text == "\n":
            self.lines.append(Text(no_wrap=True, end=""))
        else:
            self.lines[-1].append(text, style=style)


class Chip(Static):
    """A small clickable label: an instruction of the palette, a program slot, a spare, a button."""

    can_focus = False

    def __init__(self, label: str, kind: str, value: int, **kwargs: Any) -> None:
        super().__init__(label, **kwargs)
        self.kind = kind
        self.value = value

    def on_click(self, event: events.Click) -> None:
        screen = self.screen
        if isinstance(screen, VirusFightScreen):
            event.stop()
            screen.clicked_chip(self.kind, self.value)


class VirusFightScreen(GameScreen):
    """Virus Fight for 2-4 players: build, reveal, place, then run the programs."""

    DEFAULT_CSS = GameScreen.DEFAULT_CSS + """
    VirusFightScreen #gs-seats { text-wrap: nowrap; text-overflow: ellipsis; }
    VirusFightScreen #vf-round { height: 1; padding: 0 1; text-style: bold; }
    VirusFightScreen #vf-board { width: auto; height: auto; padding: 0 0 0 1; margin-top: 1; }
    VirusFightScreen #vf-build { height: auto; padding: 0 1; display: none; }
    VirusFightScreen.building #vf-build { display: block; }
    VirusFightScreen.building #vf-board { display: none; }
    VirusFightScreen #vf-program { height: 3; width: auto; }
    VirusFightScreen .vf-slot { width: 7; height: 3; border: round $panel-lighten-2;
        content-align: center middle; }
    VirusFightScreen .vf-slot.marked { border: heavy $accent; text-style: bold; }
    VirusFightScreen .vf-slot.filled { color: $foreground; }
    VirusFightScreen #vf-palette { grid-size: 3 4; grid-gutter: 0 1; width: 21; height: 4;
        margin-top: 1; }
    VirusFightScreen .vf-add { width: 6; height: 1; content-align: center middle;
        background: $boost; }
    VirusFightScreen .vf-add.used { color: $text-disabled; background: transparent; }
    VirusFightScreen .vf-add.cursor { background: $accent; color: $text; text-style: bold; }
    VirusFightScreen #vf-build-buttons { height: 1; margin-top: 1; width: auto; }
    VirusFightScreen .vf-button { width: auto; height: 1; padding: 0 1; margin-right: 2;
        background: $primary 40%; }
    VirusFightScreen .vf-button.off { background: transparent; color: $text-disabled; }
    VirusFightScreen #vf-others { height: auto; margin-top: 1; }
    VirusFightScreen #vf-hand { height: auto; margin-top: 1; padding: 0 1; }
    VirusFightScreen .vf-hand-row { height: 1; }
    VirusFightScreen #vf-hand-row-1 { display: none; }
    VirusFightScreen #vf-hand-label { width: auto; height: 1; margin-right: 1; }
    VirusFightScreen .vf-spare { width: auto; height: 1; margin-right: 1; }
    VirusFightScreen .vf-spare.pick { background: $boost; }
    VirusFightScreen .vf-spare.cursor { background: $accent; text-style: bold; }
    VirusFightScreen #vf-answer { height: 1; margin-top: 1; padding: 0 1; display: none; }
    VirusFightScreen #vf-prompt { height: auto; min-height: 2; padding: 0 1; margin-top: 1; }
    """

    AUTO_FOCUS = ""  # keys go to the screen's bindings, not to the (hidden) banner buttons

    BINDINGS = [
        Binding("up", "cursor(0,1)", "Up", show=False),
        Binding("down", "cursor(0,-1)", "Down", show=False),
        Binding("left", "cursor(-1,0)", "Left", show=False),
        Binding("right", "cursor(1,0)", "Right", show=False),
        Binding("enter,space", "pick", "Pick", key_display="⏎"),
        Binding("tab", "next_target(1)", "Next", key_display="Tab"),
        Binding("shift+tab", "next_target(-1)", "Previous", show=False),
        Binding("left_square_bracket", "spare(-1)", "Spare", show=False),
        Binding("right_square_bracket", "spare(1)", "Spare", show=False),
        Binding("backspace", "drop", "Drop", key_display="⌫"),
        *(Binding(str(k), f"mark({k - 1})", f"Marker on {k}", show=False) for k in range(1, 6)),
        Binding("y", "ready", "Ready"),
        Binding("o", "offer", "Stalemate?"),
        Binding("a", "answer(1)", "Agree"),
        Binding("d", "answer(0)", "Decline"),
        # Esc takes back a pick of the turn being built; with none it is Back (as q)
        Binding("escape", "cancel", "Cancel", key_display="Esc"),
        Binding("escape", "back", "Back", show=False),
    ]

    def __init__(self, table: Table, *, read_only: bool = False) -> None:
        super().__init__(table, read_only=read_only)
        self.view_state: VFState | None = None
        self.seat: int | None = None
        self.picks: list[tuple[str, int]] = []
        self.user_picks: list[int] = []  # indices in picks the player chose (others are forced)
        self.pending: Action | None = None  # a complete turn waiting for Enter
        self.cursor = (2, 0)  # (file, rank) on the board
        self.palette = 0  # index into ALL_CODES in the build editor
        self.spare_cursor = 0  # index into the distinct spares in a WRITE
        self._log_key: tuple | None = None  # what the log was last built for
        self._log_text: Text | None = None
        self._seats_shape: tuple[int, int] | None = None
        self._board_key: tuple | None = None  # what the board's lines were built for
        self._board_cache: list[Text] | None = None

    # -- layout ------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield Static(id="vf-round")
        yield BoardView(id="vf-board")
        with Vertical(id="vf-build"):
            yield Static(id="vf-build-title")
            with Horizontal(id="vf-program"):
                for i in range(C.MAX_PROGRAM):
                    yield Chip("", "slot", i, id=f"vf-slot-{i + 1}", classes="vf-slot")
            with Grid(id="vf-palette"):
                for kind in range(4):
                    for pip in (1, 2, 3):
                        code = E.code(kind, pip)
                        yield Chip(piece_name(code), "add", code, id=f"vf-add-{piece_name(code)}",
                                   classes="vf-add")
            with Horizontal(id="vf-build-buttons"):
                yield Chip("⌫ Drop last", "drop", 0, id="vf-drop", classes="vf-button")
                yield Chip("✓ Ready (y)", "ready", 0, id="vf-ready", classes="vf-button")
            yield Static(id="vf-others")
        # The spares: one row when it fits, else the chips that do not fit go on a second row
        # (each spare has a chip in both rows; _paint_hand shows exactly one of them).
        with Vertical(id="vf-hand"):
            with Horizontal(id="vf-hand-row-0", classes="vf-hand-row"):
                yield Static("Spares:", id="vf-hand-label")
                for code in ALL_CODES:
                    yield Chip(piece_name(code), "spare", code,
                               id=f"vf-spare-{piece_name(code)}", classes="vf-spare")
            with Horizontal(id="vf-hand-row-1", classes="vf-hand-row"):
                for code in ALL_CODES:
                    yield Chip(piece_name(code), "spare", code,
                               id=f"vf-spare-{piece_name(code)}-2", classes="vf-spare")
        with Horizontal(id="vf-answer"):
            yield Chip("✓ Agree (a)", "agree", 1, id="vf-agree", classes="vf-button")
            yield Chip("✗ Decline (d)", "agree", 0, id="vf-decline", classes="vf-button")
        yield Static(id="vf-prompt")

    def _step_count_public(self) -> bool:
        """Whether step numbers may show. While programs are written in secret they would
        tell how many instructions a rival (a bot, or the other person at a hot-seat table) has
        added, so the title and the log leave them out until the reveal. (A replay shows them;
        a table over SSH keeps them for now: its tests follow the title's step count.)"""
        if self.read_only or not self.table.supports_undo:  # (online)
            return True
        view = self.table.state()  # (the table's, fresher than view_state)
        return view is None or view.phase != BUILD

    def step_label(self) -> str:
        return super().step_label() if self._step_count_public() else ""

    def needs_cover(self, view: Any, seat: int) -> bool:
        # after the reveal nothing is secret: hot-seat players pass without a cover
        return view.phase == BUILD and super().needs_cover(view, seat)

    # -- the state and the picks -------------------------------------------------------------
    def show(self, view: Any, seat: int | None, legal: list[Action]) -> None:
        changed = view != self.view_state or seat != self.seat
        self.view_state = view
        self.seat = seat
        if changed:
            self.picks = []
            self.user_picks = []
            self.pending = None
            self.spare_cursor = 0
            self._start_cursor()
        _cls(self, view.phase == BUILD, "building")
        self._advance()
        self.paint()
        self.refresh_bindings()

    def _start_cursor(self) -> None:
        """Put the board cursor somewhere useful for a new decision."""
        view = self.view_state
        if view is None:
            return
        seat = self.seat
        if view.phase == PLAY and seat is not None and 0 <= seat < view.players \
                and view.markers[seat] >= 0:
            m = view.markers[seat]
            self.cursor = (m & 7, m >> 3)
        elif view.phase == PLACE and seat is not None and 0 <= seat < view.players:
            line = home_line(view.players, seat)
            self.cursor = (line[0] & 7, line[0] >> 3)
        size = view.size
        f, r = self.cursor
        self.cursor = (min(f, size - 1), min(r, size - 1))

    def _turn_legal(self) -> list[Action]:
        view = self.view_state
        if view is None or view.phase not in (PLAY, PLACE):
            return []
        return [a for a in self.legal if turn_picks(a)]

    def candidates(self) -> list[Action]:
        k = len(self.picks)
        return [a for a in self._turn_legal() if turn_picks(a)[:k] == tuple(self.picks)]

    def stage(self) -> str | None:
        """The pick the player has to make now (None: nothing, or a turn waits for Enter)."""
        if self.pending is not None:
            return None
        cands = self.candidates()
        k = len(self.picks)
        for a in cands:
            picks = turn_picks(a)
            if len(picks) > k:
                return picks[k][0]
        return None

    def options(self) -> set[int]:
        k = len(self.picks)
        return {turn_picks(a)[k][1] for a in self.candidates() if len(turn_picks(a)) > k}

    def _advance(self) -> None:
        """Take every forced pick; a finished turn is played (or waits for Enter if the player
        chose nothing yet, or if it would eliminate the player)."""
        self.pending = None
        while True:
            cands = self.candidates()
            if not cands:
                self.picks, self.user_picks = [], []
                if not self._turn_legal():
                    return
                continue
            k = len(self.picks)
            done = [a for a in cands if len(turn_picks(a)) == k]
            if done:
                action = done[0]
                if not self.user_picks or _eliminates(action):
                    self.pending = action
                else:
                    self._play_turn(action)
                return
            values = {turn_picks(a)[k] for a in cands}
            if len(values) > 1:
                self._aim_cursor()
                return
            self.picks.append(values.pop())

    def _play_turn(self, action: Action) -> None:
        self.picks, self.user_picks, self.pending = [], [], None
        self.play(action)

    def choose(self, value: int) -> bool:
        """The player picks ``value`` for the current stage."""
        if value not in self.options():
            return False
        stage = self.stage()
        self.user_picks.append(len(self.picks))
        self.picks.append((stage or "", value))
        self._advance()
        self.paint()
        self.refresh_bindings()  # (Esc now takes the pick back)
        return True

    # -- squares for the current stage -------------------------------------------------------
    def target_squares(self) -> set[int]:
        view, stage = self.view_state, self.stage()
        if view is None or stage is None:
            return set()
        opts = self.options()
        if stage == "piece":
            piece = self._spare_choice()
            k = len(self.picks)
            return {turn_picks(a)[k + 1][1] for a in self.candidates()
                    if turn_picks(a)[k][1] == piece and turn_picks(a)[k + 1][1] >= 0}
        if stage == "erase":
            out = {v for v in opts if v >= 0}
            if -1 in opts and self.seat is not None:
                out |= erase_nothing_squares(view, self.seat)
            return out
        return {v for v in opts if v >= 0}

    def value_for_square(self, sq: int) -> int | None:
        view, stage = self.view_state, self.stage()
        if view is None or stage is None:
            return None
        opts = self.options()
        if stage == "erase":
            if view.board[sq]:
                return sq if sq in opts else None
            if -1 in opts and self.seat is not None and sq in erase_nothing_squares(view,
                                                                                    self.seat):
                return -1
            return None
        if stage == "place":
            if sq in opts:
                return sq
            starts = [s for s in sorted(opts) if sq in self._span(s)]
            return starts[0] if starts else None
        if stage == "piece":
            return None
        return sq if sq in opts else None

    def _span(self, start: int) -> tuple[int, ...]:
        view, seat = self.view_state, self.seat
        if view is None or seat is None or view.phase != PLACE:
            return ()
        line = home_line(view.players, seat)
        if start not in line:
            return ()
        off = line.index(start)
        return line[off: off + len(view.programs[seat])]

    def _aim_cursor(self) -> None:
        targets = self.target_squares()
        sq = E.square(*self.cursor)
        if targets and sq not in targets:
            sq = min(targets, key=lambda t: (abs((t & 7) - (sq & 7)) + abs((t >> 3) - (sq >> 3)),
                                             t))
            self.cursor = (sq & 7, sq >> 3)

    def _spare_codes(self) -> list[int]:
        """The spare codes a WRITE may use now (the piece stage's options, in order)."""
        if self.stage() != "piece":
            return []
        return sorted(v for v in self.options() if v > 0)

    def _spare_choice(self) -> int | None:
        codes = self._spare_codes()
        if not codes:
            return None
        return codes[self.spare_cursor % len(codes)]

    # -- input ---------------------------------------------------------------------------------
    def _can_act(self) -> bool:
        return not self.read_only and bool(self.legal)

    def clicked_square(self, sq: int) -> None:
        if not self._can_act() or self.view_state is None:
            return
        self.cursor = (sq & 7, sq >> 3)
        self._pick_square(sq)

    def _pick_square(self, sq: int) -> None:
        view = self.view_state
        if view is None:
            return
        if self.pending is not None:
            self._confirm()
            return
        stage = self.stage()
        if stage is None:
            self.paint()
            return
        if stage == "piece":
            piece = self._spare_choice()
            if piece is None:
                return
            if sq not in self.target_squares():
                self.say(f"{piece_name(piece)} cannot be written on {square_name(sq)}.")
                self.paint()
                return
            self.choose(piece)
            if self.stage() == "wdst":
                self.choose(sq)
            return
        value = self.value_for_square(sq)
        if value is None:
            self.say(f"{square_name(sq)} is not a choice: {STAGE_HELP.get(stage, '')}.")
            self.paint()
            return
        self.choose(value)

    def _confirm(self) -> None:
        action = self.pending
        if action is not None:
            self._play_turn(action)

    def clicked_chip(self, kind: str, value: int) -> None:
        if self.read_only:
            return
        if kind == "add":
            self.palette = ALL_CODES.index(value)
            self._build(Add(value))
        elif kind == "slot":
            self._build(Mark(value))
        elif kind == "drop":
            self._build(Drop())
        elif kind == "ready":
            self._build(Ready())
        elif kind == "agree":
            self.action_answer(value)
        elif kind == "spare":
            codes = self._spare_codes()
            if value in codes:
                self.spare_cursor = codes.index(value)
                self.paint()

    def _build(self, action: Action) -> None:
        view = self.view_state
        if view is None or view.phase != BUILD or not self._can_act():
            return
        if action in self.legal:
            self.play(action)
            return
        seat = self.seat
        prog = view.programs[seat] if seat is not None and seat < len(view.programs) else ()
        if isinstance(action, Add):
            if action.piece in prog:
                self.say(f"{piece_name(action.piece)} is already in your program.")
            else:
                self.say(f"A program holds at most {C.MAX_PROGRAM} instructions.")
        elif isinstance(action, Mark):
            if action.index >= len(prog):
                self.say(f"Your program has no instruction {action.index + 1}.")
            else:
                self.say("Your marker is already there.")
        elif isinstance(action, Drop):
            self.say("Your program is empty.")
        elif isinstance(action, Ready):
            self.say("Add at least one instruction and put your marker on one (keys 1-5).")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        own = ("cursor", "pick", "next_target", "spare", "drop", "mark", "ready", "offer",
               "answer")
        if action == "cancel":
            return not self.read_only and bool(self.user_picks)
        if action in own:
            if self.read_only:
                return False
            view = self.view_state
            phase = view.phase if view is not None else None
            if action == "offer":
                return Offer() in self.legal
            if action == "answer":
                return Agree() in self.legal
            if action in ("cursor", "pick") and phase != BUILD and not self._turn_legal():
                return False
            if action in ("drop", "mark", "ready"):
                return phase == BUILD
            if action in ("next_target", "spare"):
                return phase in (PLAY, PLACE) and bool(self.legal) if action == "next_target" \
                    else phase == PLAY and self.stage() == "piece"
            return True
        return super().check_action(action, parameters)

    def action_cursor(self, df: int, dr: int) -> None:
        view = self.view_state
        if view is None or not self._can_act():
            return
        if view.phase == BUILD:
            col, row = self.palette % 3, self.palette // 3
            col = max(0, min(2, col + df))
            row = max(0, min(3, row - dr))
            self.palette = row * 3 + col
            self.paint()
            return
        f, r = self.cursor
        size = view.size
        self.cursor = (max(0, min(size - 1, f + df)), max(0, min(size - 1, r + dr)))
        self.paint()

    def action_pick(self) -> None:
        view = self.view_state
        if view is None or not self._can_act():
            return
        if view.phase == BUILD:
            self._build(Add(ALL_CODES[self.palette]))
            return
        self._pick_square(E.square(*self.cursor))

    def action_next_target(self, direction: int) -> None:
        targets = sorted(self.target_squares(), key=lambda s: (-(s >> 3), s & 7))
        if not targets:
            return
        sq = E.square(*self.cursor)
        if sq in targets:
            sq = targets[(targets.index(sq) + direction) % len(targets)]
        else:
            sq = targets[0 if direction > 0 else -1]
        self.cursor = (sq & 7, sq >> 3)
        self.paint()

    def action_spare(self, direction: int) -> None:
        codes = self._spare_codes()
        if codes:
            self.spare_cursor = (self.spare_cursor + direction) % len(codes)
            self._aim_cursor()
            self.paint()

    def action_drop(self) -> None:
        view = self.view_state
        if view is not None and view.phase == BUILD:
            self._build(Drop())
        else:
            self.action_cancel()

    def action_mark(self, index: int) -> None:
        self._build(Mark(index))

    def action_ready(self) -> None:
        self._build(Ready())

    def action_offer(self) -> None:
        if Offer() in self.legal:
            self.play(Offer())
        else:
            self.say("You can offer a stalemate on your turn (once until you have played it).")

    def action_answer(self, agree: int) -> None:
        action = Agree() if agree else Decline()
        if action in self.legal:
            self.play(action)
        else:
            self.say("There is no stalemate offer to answer.")

    def action_cancel(self) -> None:
        """Take back the last pick of the turn being built; with none, leave the table."""
        if self.user_picks:
            k = self.user_picks.pop()
            self.picks = self.picks[:k]
            self.pending = None
            self._advance()
            self.say("Pick taken back.")
            self.paint()
            self.refresh_bindings()
            return
        self.action_back()

    # -- painting --------------------------------------------------------------------------------
    def paint(self) -> None:
        view = self.view_state
        if view is None or not self.is_mounted:
            return
        try:
            _put(self.query_one("#vf-round", Static), self._round_text(view))
            if view.phase == BUILD:
                self._paint_build(view)
            else:
                self.query_one("#vf-board", BoardView).set_lines(self.board_lines(view))
            self._paint_hand(view)
            _show(self.query_one("#vf-answer"), Agree() in self.legal)
            _put(self.query_one("#vf-prompt", Static), self._prompt(view))
        except NoMatches:
            return

    def _round_text(self, view: VFState) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis")
        size = f"{view.size}x{view.size}"
        if view.phase == BUILD:
            t.append(f"Secret programs · {size} board")
        elif view.phase in (FIRST, PLACE):
            t.append(f"Placing programs · {size} board · first: ")
            self._seat_label(t, view.first)
        else:
            t.append(f"Round {view.round}/{view.round_limit} · first: ")
            self._seat_label(t, view.first)
            if view.queue:
                t.append(" · to play: ")
                for i, q in enumerate(view.queue):
                    if i:
                        t.append(" ")
                    t.append(SEAT_GLYPHS[q % 6], style=f"bold {self.seat_colour(q)}")
        return t

    def _seat_label(self, t: Text, seat: int) -> None:
        t.append(f"{SEAT_GLYPHS[seat % 6]} {self.table.seat_name(seat)}",
                 style=f"bold {self.seat_colour(seat)}")

    def provisional(self, view: VFState) -> tuple[VFState, set[int], set[int]]:
        """``view`` with the turn's picks so far applied (moved/written/erased instructions),
        the squares those picks changed, and the squares erased."""
        picks = dict(self.picks)
        action = self.pending
        if action is not None:
            picks = dict(turn_picks(action))
        if view.phase != PLAY or not picks:
            return view, set(), set()
        board = list(view.board)
        changed: set[int] = set()
        erased: set[int] = set()
        src, dst = picks.get("src", -1), picks.get("dst", -1)
        if src >= 0 and dst >= 0:
            board[dst], board[src] = board[src], 0
            changed.add(dst)
        piece, wdst = picks.get("piece", 0), picks.get("wdst", -1)
        if piece and wdst >= 0:
            board[wdst] = piece
            changed.add(wdst)
        target = picks.get("erase", -1)
        if target >= 0:
            board[target] = 0
            erased.add(target)
        return msgspec.structs.replace(view, board=tuple(board)), changed, erased

    def board_text(self, view: VFState) -> Text:
        """The board as text (also used by the tests). Without colour: ① .. ④ are the markers,
        ``──``/``│`` link a block, ``+`` is a legal empty square and ``›`` a legal instruction,
        ``»`` the squares of a turn waiting for Enter, ``×`` an instruction being erased."""
        t = Text("\n", no_wrap=True).join(self.board_lines(view))
        t.append("\n")
        return t

    def board_lines(self, view: VFState) -> list[Text]:
        """The board's lines, built once per state of the board and of the turn being picked
        (a repaint for anything else, such as the log or the replay bar, reuses them)."""
        can_act = self._can_act()
        key = (view, self.seat, tuple(self.picks), self.pending, self.cursor, can_act,
               self.spare_cursor, tuple(self.legal) if can_act else (), self.app.theme)
        if self._board_key != key or self._board_cache is None:
            self._board_cache = self._board_lines(view)
            self._board_key = key
        return self._board_cache

    def _board_lines(self, view: VFState) -> list[Text]:
        size = view.size
        view, changed, erased = self.provisional(view)
        board = view.board
        owners = block_owners(view)
        markers = {m: q for q, m in enumerate(view.markers) if m >= 0}
        can_act = self._can_act()
        targets = self.target_squares() if can_act else set()
        cursor = E.square(*self.cursor) if can_act else -1
        picked = {v for (stage, v) in self.picks if stage not in ("piece", "step") and v >= 0}
        preview: dict[int, int] = {}
        if view.phase == PLACE and self.seat is not None and can_act:
            start = self.value_for_square(cursor) if cursor >= 0 else None
            if start is not None:
                prog = view.programs[self.seat]
                preview = dict(zip(self._span(start), prog))
        pending = self._pending_squares()
        muted = self.colour("muted")
        target_col = self.colour("target")
        t = _Lines()
        t.append(" " * X0)
        for f in range(size):
            t.append(f" {chr(97 + f)} " + ("  " if f < size - 1 else ""), style=muted)
        t.append("\n")
        for row in range(size):
            r = size - 1 - row
            t.append(f"{r + 1:>2} ", style=muted)
            for f in range(size):
                sq = E.square(f, r)
                code = board[sq]
                seats = owners.get(sq)
                if code:
                    style = f"bold {self.seat_colour(seats[0])}" if seats else muted
                    marker = markers.get(sq)
                    if marker is not None:
                        t.append(SEAT_GLYPHS[marker % 6],
                                 style=f"bold reverse {self.seat_colour(marker)}")
                    elif sq in pending:
                        t.append("»", style=f"bold {target_col}")
                    elif sq in targets:
                        t.append("›", style=f"bold {target_col}")
                    else:
                        t.append(" ")
                    body = piece_name(code)
                    if sq in targets:
                        style += " underline"
                    if sq in changed:
                        style += " italic"
                elif sq in erased:
                    t.append("»" if sq in pending else " ", style=f"bold {target_col}")
                    body = "× "
                    style = f"bold {self.colour('danger')}"
                elif sq in preview:
                    t.append(" ")
                    body = piece_name(preview[sq])
                    style = f"italic {self.seat_colour(self.seat or 0)}"
                elif sq in pending:
                    t.append("»", style=f"bold {target_col}")
                    body = "··"
                    style = target_col
                else:
                    t.append(" ")
                    body = "+ " if sq in targets else "· "
                    style = f"bold {target_col}" if sq in targets else muted
                if sq in picked:
                    style += " underline"
                if sq == cursor:
                    style += " reverse"
                t.append(body, style=style.strip())
                if f < size - 1:
                    right = E.square(f + 1, r)
                    link = "──" if code and board[right] else "  "
                    t.append(link, style=self.seat_colour(seats[0]) if seats else muted)
            t.append(f" {r + 1}", style=muted)
            t.append("\n")
            if row < size - 1:
                t.append(" " * X0)
                for f in range(size):
                    sq = E.square(f, r)
                    below = E.square(f, r - 1)
                    seats = owners.get(sq)
                    mark = " │ " if board[sq] and board[below] else "   "
                    t.append(mark, style=self.seat_colour(seats[0]) if seats else muted)
                    if f < size - 1:
                        t.append("  ")
                t.append("\n")
        if not t.lines[-1].plain:
            t.lines.pop()  # (after the last line's newline)
        return t.lines

    def _pending_squares(self) -> set[int]:
        """Squares of the turn that waits for Enter (where things go and the marker ends)."""
        a = self.pending
        if a is None:
            return set()
        out = set()
        for _stage, v in turn_picks(a):
            if v >= 0 and _stage != "piece":
                out.add(v)
        return out

    def _paint_build(self, view: VFState) -> None:
        seat = self.seat
        mine = seat is not None and 0 <= seat < view.players
        title = self.query_one("#vf-build-title", Static)
        prog: tuple[int, ...] = ()
        mark = -1
        if seat is not None and 0 <= seat < view.players:
            prog = view.programs[seat]
            mark = view.marks[seat]
        if mine:
            who = self.table.seat_name(seat)
            t = Text(f"{who}'s secret program ({len(prog)}/{C.MAX_PROGRAM}); ▼ marks the "
                     "marker", no_wrap=True, overflow="ellipsis")
        elif seat is None and any(view.programs):  # reveal all (a replay, a bots-only game)
            t = Text("Every program as written so far (revealed):", no_wrap=True,
                     overflow="ellipsis")
        else:
            t = Text("Programs are being written in secret.", no_wrap=True)
        _put(title, t)
        for i in range(C.MAX_PROGRAM):
            slot = self.query_one(f"#vf-slot-{i + 1}", Chip)
            filled = mine and i < len(prog)
            _put(slot, Text(("▼" if i == mark else "") + piece_name(prog[i]) if filled else ""))
            slot.border_subtitle = str(i + 1)
            _cls(slot, filled and i == mark, "marked")
            _cls(slot, filled, "filled")
        for i, code in enumerate(ALL_CODES):
            chip = self.query_one(f"#vf-add-{piece_name(code)}", Chip)
            _cls(chip, code in prog, "used")
            _cls(chip, mine and bool(self.legal) and i == self.palette, "cursor")
            _put(chip, Text(f"[{piece_name(code)}]" if code in prog else piece_name(code)))
        can_ready = Ready() in self.legal
        _cls(self.query_one("#vf-ready", Chip), not can_ready, "off")
        _cls(self.query_one("#vf-drop", Chip), Drop() not in self.legal, "off")
        _show(self.query_one("#vf-program"), mine)
        _show(self.query_one("#vf-palette"), mine and bool(self.legal))
        _show(self.query_one("#vf-build-buttons"), mine and bool(self.legal))
        others = Text()
        for q in range(view.players):
            if q == seat and mine:
                continue
            state = "ready ✓" if view.ready[q] else "writing…"
            self._seat_label(others, q)
            others.append(f": {state}")
            if view.programs[q]:  # only when this view may see it (a replay showing all)
                others.append("  " + program_text(view.programs[q], view.marks[q]))
            others.append("\n")
        _put(self.query_one("#vf-others", Static), others)

    def _paint_hand(self, view: VFState) -> None:
        hand = self.query_one("#vf-hand")
        seat = self.seat
        show = view.phase in (PLAY, OVER) and seat is not None and 0 <= seat < view.players
        _show(hand, show)
        if not show:
            return
        assert seat is not None
        label = self.query_one("#vf-hand-label", Static)
        mine = view.spares[seat]
        counts: dict[int, int] = {}
        for c in mine:
            counts[c] = counts.get(c, 0) + 1
        codes = self._spare_codes()
        choice = self._spare_choice()
        texts = {code: ("▸" if code == choice else "") + piece_name(code)
                 + (f"×{n}" if n > 1 else "") for code, n in counts.items()}
        name = self.table.seat_name(seat)
        room = hand.content_region.width or 10_000  # not laid out yet: one row
        title, first_row = hand_layout(name, [texts[c] for c in sorted(texts)], room)
        _put(label, Text(title, no_wrap=True, overflow="ellipsis"))
        on_first = set(sorted(texts)[:first_row])
        _show(self.query_one("#vf-hand-row-1"), len(texts) > first_row)
        for code in ALL_CODES:
            for suffix, row_has in (("", code in on_first), ("-2", code in texts
                                                             and code not in on_first)):
                chip = self.query_one(f"#vf-spare-{piece_name(code)}{suffix}", Chip)
                _show(chip, row_has)
                if not row_has:
                    continue
                _put(chip, Text(texts[code]))
                _cls(chip, code in codes, "pick")
                _cls(chip, code == choice, "cursor")

    def _prompt(self, view: VFState) -> Text:
        t = Text()
        seat = self.seat
        if view.phase == BUILD:
            if self._can_act():
                t.append("Arrows + Enter (or a click) add an instruction · ⌫ drops the last · "
                         "1-5 put the marker · y: ready")
            elif seat is not None and 0 <= seat < view.players and view.ready[seat]:
                t.append("Your program is ready: waiting for the others.")
            return t
        if view.phase == PLAY and view.offer >= 0:
            self._seat_label(t, view.offer)
            t.append(" offers a stalemate: it would end the game now, and ")
            winners = stalemate_winners(view.board, view.markers, view.spares, view.players)
            t.append(" and ".join(self.table.seat_name(w) for w in winners))
            t.append(" would win (most spares, then pips). ")
            if Agree() in self.legal:
                t.append("a: agree · d: decline", style="bold")
            else:
                waiting = [self.table.seat_name(q) for q in self.table.to_act()]
                t.append("Waiting for " + ", ".join(waiting) + ".", style=self.colour("muted"))
            return t
        if view.phase == OVER or not self._can_act():
            if view.phase == PLAY and view.queue:
                q = view.queue[0]
                m = view.markers[q]
                self._seat_label(t, q)
                if m >= 0 and view.board[m]:
                    t.append(f" runs {_describe_square(view, m)}.")
                else:
                    t.append(" to play.")
            return t
        if view.phase == PLACE:
            prog = view.programs[seat] if seat is not None else ()
            t.append(f"Your program {' '.join(piece_name(c) for c in prog)}: ")
            t.append(STAGE_HELP["place"] + " (arrows/Tab + Enter, or a click).")
            return t
        assert seat is not None
        m = view.markers[seat]
        kind = E.KIND[view.board[m]] if m >= 0 else -1
        t.append(f"You run {TYPE_NAMES[kind]} ({piece_name(view.board[m])} on {square_name(m)}). ",
                 style="bold")
        if view.declined:
            t.append("(Stalemate declined: play on.) ", style=self.colour("muted"))
        if self.pending is not None:
            text = self.game.action_to_str(self.pending)
            if _eliminates(self.pending):
                t.append(f"{text}: your marker cannot step and you will be OUT. ",
                         style=f"bold {self.colour('danger')}")
                t.append("Enter: confirm · Esc: back" if self.user_picks else "Enter: confirm")
            else:
                t.append(f"Your only move is {text}. Enter: run it")
            return t
        done = []
        for stage_, v in self.picks:
            if stage_ == "src" and v < 0:
                done.append("nothing can move")
            elif stage_ == "piece" and not v:
                done.append("nothing to write")
            elif v >= 0 or stage_ == "erase":
                done.append(f"{_stage_word(stage_)} {_value_text(stage_, v)}")
        if done:
            t.append("(" + ", ".join(done) + ") ", style=self.colour("muted"))
        stage = self.stage()
        if stage == "piece":
            choice = self._spare_choice()
            t.append(f"Write which spare? Now {piece_name(choice) if choice else '-'} "
                     "([ ] or a click changes it); pick the empty square (+) to write it on.")
            return t
        if stage is not None:
            help_text = STAGE_HELP[stage]
            t.append(help_text[0].upper() + help_text[1:] + ".")
            if stage != "piece":
                t.append(" Arrows/Tab + Enter or a click.", style=self.colour("muted"))
            cur = E.square(*self.cursor)
            if view.board[cur]:
                t.append(f" Cursor: {_describe_square(view, cur)}.", style=self.colour("muted"))
        return t

    # -- the side panel: seats with their markers, spares and pips ---------------------------
    def _paint_frame(self, viewer: int | None, bot: int | None) -> None:
        super()._paint_frame(viewer, bot)
        view = self.view_state
        if view is None:
            return
        try:
            widget = self.query_one("#gs-seats", Static)
        except NoMatches:
            return
        acting = set(self.table.to_act())
        t = Text(no_wrap=True, overflow="ellipsis")
        for q in range(view.players):
            t.append("▶ " if q in acting and view.phase != OVER else "  ")
            name = self.table.seat_name(q)
            t.append(f"{SEAT_GLYPHS[q % 6]} {name if len(name) <= 9 else name[:8] + '…'}",
                     style=f"bold {self.seat_colour(q)}")
            t.append(f" {side_name(view.players, q)}", style=self.colour("muted"))
            if viewer == q and view.phase != OVER:
                t.append(" (you)")
            elif self.table.seats[q].is_bot:  # (online, a person's seat is a "player", not a bot)
                t.append(" (bot)", style=self.colour("muted"))
            elif self.table.seat_kind(q).endswith("(away)"):
                t.append(" (away)", style=self.colour("muted"))
            t.append("\n    ")
            spares = view.spares[q]
            pips = sum(PIP[c] for c in spares)
            if view.phase == BUILD:
                t.append("ready ✓" if view.ready[q] else "writing…", style=self.colour("muted"))
            elif view.phase in (PLAY, OVER) and view.markers[q] < 0:
                t.append("OUT", style=f"bold {self.colour('danger')}")
            elif view.phase in (PLAY, OVER):
                m = view.markers[q]
                t.append(f"{piece_name(view.board[m])}@{square_name(m)}")
            if view.phase != BUILD:
                word = "spare" if len(spares) == 1 else "spares"
                gap = "  " if view.phase in (PLAY, OVER) else ""
                t.append(f"{gap}{len(spares)} {word} {pips}p", style=self.colour("muted"))
                if view.phase in (FIRST, PLACE) and view.markers[q] >= 0:
                    t.append(" · placed", style=self.colour("muted"))
            t.append("\n")
        widget.update(t, layout=self._seats_shape != _shape(t))  # (the base painted its own)
        self._seats_shape = _shape(t)
        self._paint_log(force=True)  # the base painted its own version just before
        self.call_after_refresh(self._paint_log)  # again if the log's size was not known

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._paint_log)
        self.call_after_refresh(self._repaint_hand)

    def _repaint_hand(self) -> None:
        """The spares row for the new width (its label and line break depend on it)."""
        if self.view_state is not None and self.is_attached:
            self._paint_hand(self.view_state)

    def _paint_log(self, *, force: bool = False) -> None:
        """The log, one line per step (a turn's effect and its marker step together), cut from
        the top so the newest sentences always show. Built once per change of the table or of
        the log's size; the log's height is fixed by the layout, so no layout pass follows."""
        try:
            widget = self.query_one("#gs-log", Static)
        except NoMatches:
            return
        width = max(10, widget.size.width or 26)
        room = widget.size.height or LOG_LINES
        try:  # the log may reach below its panel: count only the rows that show
            side = self.query_one("#gs-side").content_region
            if widget.region.height and side.height:
                room = min(room, side.bottom - widget.region.y)
        except NoMatches:
            pass
        room = max(1, room)
        table = self.table
        key = (table.revision, table.step(), table.viewer(), width, room,
               self.app.theme)
        if key == self._log_key and self._log_text is not None:
            if force:
                widget.update(self._log_text, layout=False)
            return
        groups: list[tuple[int, int | None, list[str]]] = []
        for step, seat, sentence in table.events(last=LOG_LINES):
            if groups and groups[-1][0] == step and groups[-1][1] == seat:
                groups[-1][2].append(sentence)
            else:
                groups.append((step, seat, [sentence]))
        # while programs are secret, step numbers would count another seat's instructions
        secret_counts = not self._step_count_public()
        # each step's line is wrapped here (not by the widget: that is about twice as costly)
        chosen: list[list[Text]] = []
        used = 0
        console = self.app.console
        muted = self.colour("muted")
        for step, seat, sentences in reversed(groups):
            entry = Text(end="")
            entry.append("  · " if secret_counts else f"{step:>3} ", style=muted)
            entry.append(" ".join(sentences), style=self.seat_colour(seat) if seat is not None
                         else "")
            lines = [entry] if entry.cell_len <= width else list(entry.wrap(console, width))
            if chosen and used + len(lines) > room:
                break
            used += len(lines)
            chosen.append(lines)
        log = Text("\n", no_wrap=True, end="").join(
            line for lines in reversed(chosen) for line in lines)
        log.no_wrap = True
        if force or log != self._log_text:
            widget.update(log, layout=False)
        self._log_key, self._log_text = key, log

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        """Every action open now, each once: the game's own first, then the table's (undo,
        rules, back ...). Keys with a footer label (Enter: Pick) come from their bindings."""
        out = super().palette_commands()
        view = self.view_state
        if self.read_only or view is None or not self.legal:
            return out
        own: list[tuple[str, str, Any]] = []
        if view.phase == BUILD:
            seat = self.seat
            prog = view.programs[seat] if seat is not None and 0 <= seat < view.players else ()
            own.append(("Ready", "Declare your secret program ready (y)", self.action_ready))
            own.append(("Drop last instruction", "Take the last instruction off your program (⌫)",
                        self.action_drop))
            for i, code in enumerate(prog):
                own.append((f"Marker on instruction {i + 1}",
                            f"Put your marker on {piece_name(code)} (key {i + 1})",
                            partial(self.action_mark, i)))
        else:
            if self.target_squares():
                own.append(("Next target", "Move the cursor to the next legal square (Tab)",
                            partial(self.action_next_target, 1)))
                own.append(("Previous target",
                            "Move the cursor to the previous legal square (Shift+Tab)",
                            partial(self.action_next_target, -1)))
            if len(self._spare_codes()) > 1:
                own.append(("Next spare", "Write the next spare instruction (])",
                            partial(self.action_spare, 1)))
                own.append(("Previous spare", "Write the previous spare instruction ([)",
                            partial(self.action_spare, -1)))
            if self.user_picks:
                own.append(("Cancel pick", "Take back the last pick of this turn (Esc)",
                            self.action_cancel))
            if Offer() in self.legal:
                own.append(("Offer a stalemate",
                            "End the game now if everyone agrees (most spares wins) (o)",
                            self.action_offer))
            if Agree() in self.legal:
                own.append(("Agree to the stalemate", "Accept the stalemate offered (a)",
                            partial(self.action_answer, 1)))
                own.append(("Decline the stalemate", "Play on (d)",
                            partial(self.action_answer, 0)))
        return own + out


def _shape(content: Any) -> tuple[int, int]:
    """(lines, widest line) of a text: while it stays the same, so does an auto-sized widget."""
    plain = content.plain if isinstance(content, Text) else str(content)
    lines = plain.split("\n")
    return len(lines), max(map(cell_len, lines))


def _put(widget: Static, content: Any) -> None:
    """Update ``widget`` only when its content changes, with a layout pass only when its size
    may change (another line count or width, or lines that may wrap)."""
    last = getattr(widget, "_vf_last", None)
    if last == content:
        return
    shape = _shape(content)
    width = widget.content_region.width
    same = last is not None and getattr(widget, "_vf_shape", None) == shape \
        and 0 < shape[1] <= width
    widget._vf_last = content  # type: ignore[attr-defined]
    widget._vf_shape = shape  # type: ignore[attr-defined]
    widget.update(content, layout=not same)


def _cls(widget: Any, on: bool, name: str) -> None:
    if widget.has_class(name) != on:
        widget.set_class(on, name)


def _show(widget: Any, on: bool) -> None:
    if widget.display != on:
        widget.display = on


def _eliminates(a: Action) -> bool:
    step = getattr(a, "step", None)
    if step is None and isinstance(a, Jump):
        step = a.to
    return step is not None and step < 0


def _stage_word(stage: str) -> str:
    return {"src": "move", "dst": "to", "wdst": "on", "piece": "write", "step": "step",
            "land": "jump", "erase": "erase", "place": "place"}.get(stage, stage)


def _value_text(stage: str, v: int) -> str:
    if stage == "piece":
        return piece_name(v) if v else "nothing"
    return square_name(v) if v >= 0 else "nothing"


def _describe_square(view: VFState, sq: int) -> str:
    code = view.board[sq]
    return f"{TYPE_NAMES[E.KIND[code]]} {E.PIP[code]} ({piece_name(code)}) on {square_name(sq)}"


SCREEN = VirusFightScreen
