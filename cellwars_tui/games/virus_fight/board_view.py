"""Virus Fight's board widget: the memory board drawn as text, and a click as a square.

Every square is three cells wide (a marker glyph, then the instruction like ``M3``), and
orthogonal neighbours of a block are joined by ``──`` and ``│`` so blocks read without colour. A
block that carries a marker takes that seat's colour (its active block); a marker-free block is
muted. Markers are the seat glyphs ①..④ in the seat colour. Legal squares of the pick under way
are marked (``+`` on an empty square, ``›`` and underlined on an instruction), ``»`` shows the
squares of a turn waiting for Enter and ``×`` an instruction being erased.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ...ui.game_screen import SEAT_GLYPHS
from . import engine as E
from .engine import piece_name
from .picks import TurnPicker, block_owners
from .types import PLACE, VFState

X0 = 3  # columns before file a (rank label)
PITCH_X = 5  # a square is 3 cells, then 2 for the horizontal link
PITCH_Y = 2  # a square row, then a row for the vertical links
Y0 = 1  # the file letters above the board
# The board grows with the window (as Cell Wars' does): (PITCH_X, PITCH_Y) at each scale, the
# squares farther apart with longer links. Scale 1 is the 80x24 board.
PITCHES = {1: (PITCH_X, PITCH_Y), 2: (8, 3), 3: (10, 4), 4: (12, 5)}


def board_extent(size: int, scale: int) -> tuple[int, int]:
    """(width, height) in cells of a board ``size`` squares a side drawn at ``scale``."""
    px, py = PITCHES[scale]
    return X0 + (size - 1) * px + 3 + 2, Y0 + (size - 1) * py + 1  # (ranks both sides)


def pick_scale(size: int, width: int, height: int) -> int:
    """The largest scale whose board fits ``width`` x ``height`` (1 if none does)."""
    best = 1
    for scale in sorted(PITCHES):
        w, h = board_extent(size, scale)
        if w <= width and h <= height:
            best = scale
    return best


class BoardView(Widget):
    """The memory board; a click posts the square under the mouse. It keeps its text as one
    strip per line and repaints only the lines that changed (a step changes a few squares)."""

    can_focus = False

    class Clicked(Message):
        """A square of the board was clicked."""

        def __init__(self, square: int) -> None:
            super().__init__()
            self.square = square

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: list[Text] = []
        self._strips: list[Strip | None] = []
        self._width = 0
        self.board_size = 0  # squares a side (0 until a board is shown)
        self.scale = 1  # the PITCHES the lines were drawn at (a click finds its square by it)

    def set_lines(self, lines: list[Text], board_size: int, scale: int = 1) -> None:
        """Show ``lines`` (a board ``board_size`` squares a side, drawn at ``scale``); only the
        lines that changed are repainted."""
        self.board_size = board_size
        self.scale = scale
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
        px, py = PITCHES[self.scale]
        if y < Y0 or x < X0 - 1:
            return None
        row = (y - Y0) // py
        f = (x - X0 + 1) // px
        if not (0 <= row < size and 0 <= f < size):
            return None
        return E.square(f, size - 1 - row)

    def on_click(self, event: events.Click) -> None:
        if not self.board_size:
            return
        offset = event.get_content_offset(self)
        if offset is None:
            return
        sq = self.square_at(offset.x, offset.y, self.board_size)
        if sq is not None:
            event.stop()
            self.post_message(self.Clicked(sq))


class _Lines:
    """Text built line by line: ``append("\\n")`` starts the next line."""

    def __init__(self) -> None:
        self.lines: list[Text] = [Text(no_wrap=True, end="")]

    def append(self, text: str, style: str = "") -> None:
        if text == "\n":
            self.lines.append(Text(no_wrap=True, end=""))
        else:
            self.lines[-1].append(text, style=style)


def board_lines(view: VFState, turn: TurnPicker, *, can_act: bool, cursor: int,
                colour: Callable[[str], str], seat_colour: Callable[[int], str],
                scale: int = 1, lit: frozenset[int] = frozenset()) -> list[Text]:
    """The board's lines for ``view`` with the turn being picked (``turn``) drawn on it:
    ``cursor`` is the square under the cursor, ``can_act`` whether the viewer picks now,
    ``scale`` how far apart the squares are (``PITCHES``), ``lit`` the squares a lesson points
    at (drawn on the highlight colour)."""
    size = view.size
    px, py = PITCHES[scale]
    gap = " " * (px - 3)  # between two squares of a row
    view, changed, erased = turn.provisional(view)
    board = view.board
    owners = block_owners(view)
    markers = {m: q for q, m in enumerate(view.markers) if m >= 0}
    targets = turn.target_squares() if can_act else set()
    cursor = cursor if can_act else -1
    picked = {v for (stage, v) in turn.picks if stage not in ("piece", "step") and v >= 0}
    preview: dict[int, int] = {}
    seat = turn.seat
    if view.phase == PLACE and seat is not None and can_act:
        start = turn.value_for_square(cursor) if cursor >= 0 else None
        if start is not None:
            prog = view.programs[seat]
            preview = dict(zip(turn.span(start), prog))
    pending = turn.pending_squares()
    muted = colour("muted")
    target_col = colour("target")
    t = _Lines()
    t.append(" " * X0)
    for f in range(size):
        t.append(f" {chr(97 + f)} " + (gap if f < size - 1 else ""), style=muted)
    t.append("\n")
    for row in range(size):
        r = size - 1 - row
        t.append(f"{r + 1:>2} ", style=muted)
        for f in range(size):
            sq = E.square(f, r)
            code = board[sq]
            seats = owners.get(sq)
            if code:
                style = f"bold {seat_colour(seats[0])}" if seats else muted
                marker = markers.get(sq)
                if marker is not None:
                    t.append(SEAT_GLYPHS[marker % 6], style=f"bold reverse {seat_colour(marker)}")
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
                style = f"bold {colour('danger')}"
            elif sq in preview:
                t.append(" ")
                body = piece_name(preview[sq])
                style = f"italic {seat_colour(seat or 0)}"
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
            if sq in lit:
                style += f" on {colour('highlight')}"
            if sq == cursor:
                style += " reverse"
            t.append(body, style=style.strip())
            if f < size - 1:
                right = E.square(f + 1, r)
                link = "─" * len(gap) if code and board[right] else gap
                t.append(link, style=seat_colour(seats[0]) if seats else muted)
        t.append(f" {r + 1}", style=muted)
        t.append("\n")
        for _ in range(py - 1 if row < size - 1 else 0):
            t.append(" " * X0)
            for f in range(size):
                sq = E.square(f, r)
                below = E.square(f, r - 1)
                seats = owners.get(sq)
                mark = " │ " if board[sq] and board[below] else "   "
                t.append(mark, style=seat_colour(seats[0]) if seats else muted)
                if f < size - 1:
                    t.append(gap)
            t.append("\n")
    if not t.lines[-1].plain:
        t.lines.pop()  # (after the last line's newline)
    return t.lines
