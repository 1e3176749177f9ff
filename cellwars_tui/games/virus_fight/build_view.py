"""Virus Fight's secret program editor (``#vf-build``): the program's five slots, the palette of
twelve instructions, Drop and Ready, the other seats' progress, and, in a wide window, a help
column beside them (what each instruction does when a marker runs it, who goes first, where the
program will go).

The screen (:mod:`.screen`) turns keys and clicks into actions; this widget only shows the
build phase of a view. Its look is in ``screen.tcss`` (the help column shows when the screen
has the ``-wide`` class: ``VirusFightScreen.HORIZONTAL_BREAKPOINTS``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Static

from ...core.api import Action
from . import clarifications as C
from . import engine as E
from .engine import ALL_CODES, PIP, piece_name, square_name
from .notation import program_text
from .types import Drop, Ready, VFState, home_line, side_name
from .widgets import Chip, Painter, set_class, show

# What each instruction does when a marker runs it (the rules page's "A turn", shortened).
INSTRUCTION_HELP = (
    ("M", "MOVE", "moves any instruction of your block (a rival's too, once the blocks "
                  "touch) to an empty square next to the block"),
    ("W", "WRITE", "puts one of your spares on an empty square next to your block"),
    ("J", "JUMP", "moves your marker to another instruction of your block, or onto a block "
                  "no marker runs"),
    ("E", "ERASE", "removes an instruction beside any ERASE of your block (yours or a "
                   "rival's); it becomes your spare"),
)


RUNS = ("Your block is the block your marker stands on. Each turn you run the instruction under "
        "your marker:")
STEPS = ("After MOVE, WRITE or ERASE your marker steps to a neighbouring instruction (none free: "
         "you are out). No one can move or erase an instruction under a marker.")


def your_program(view: VFState, seat: int | None) -> Text:
    """Who goes first, and for a seat writing its program its figures for that rule and where
    its program will go."""
    t = Text()
    t.append("Who goes first\n", style="bold")
    t.append("The fewest instructions, then the fewest pips, then the most pips under the "
             "marker.")
    if seat is None or not 0 <= seat < view.players or seat >= len(view.programs):
        return t
    prog, mark = view.programs[seat], view.marks[seat]
    if prog:
        t.append(f"\nYours now: {_count(len(prog), 'instruction')}, "
                 f"{_count(sum(PIP[c] for c in prog), 'pip')}")
        if 0 <= mark < len(prog):
            t.append(f", ▼ on {piece_name(prog[mark])} ({_count(PIP[prog[mark]], 'pip')})")
        t.append(".")
    line = home_line(view.players, seat)
    t.append("\n\nWhere it goes\n", style="bold")
    t.append(f"On your home line, {square_name(line[0])}-{square_name(line[-1])} "
             f"({side_name(view.players, seat)} edge), in the order written; you choose where "
             "it starts once everyone is ready.")
    return t


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


class ProgramEditor(Vertical):
    """The build phase: the seat's secret program, the palette, the buttons, the others."""

    def compose(self) -> ComposeResult:
        yield Static(id="vf-build-title")
        with Horizontal(id="vf-build-row"):
            with Vertical(id="vf-build-main"):
                with Horizontal(id="vf-program"):
                    for i in range(C.MAX_PROGRAM):
                        yield Chip("", "slot", i, id=f"vf-slot-{i + 1}", classes="vf-slot")
                with Grid(id="vf-palette"):
                    for kind in range(4):
                        for pip in (1, 2, 3):
                            code = E.code(kind, pip)
                            yield Chip(piece_name(code), "add", code,
                                       id=f"vf-add-{piece_name(code)}", classes="vf-add")
                with Horizontal(id="vf-build-buttons"):
                    yield Chip("⌫ Drop last", "drop", 0, id="vf-drop", classes="vf-button")
                    yield Chip("✓ Ready (y)", "ready", 0, id="vf-ready", classes="vf-button")
                yield Static(id="vf-others")
            with Vertical(id="vf-build-help"):
                yield Static("How a program runs", classes="vf-help-title")
                yield Static(RUNS)
                with Grid(id="vf-help-kinds"):
                    for letter, name, text in INSTRUCTION_HELP:
                        yield Static(f"{letter} {name}", classes="vf-help-kind")
                        yield Static(text)
                yield Static(STEPS)
                yield Static(id="vf-help-you")

    def paint(self, view: VFState, seat: int | None, *, legal: Collection[Action],
              palette: int, highlighted: Collection[str], painter: Painter,
              seat_name: Callable[[int], str], seat_label: Callable[[Text, int], None]) -> None:
        """Show ``view``'s build phase as ``seat`` sees it (None: a replay or a spectator);
        ``palette`` is the cursor's index in the palette, ``highlighted`` what a lesson points
        at, ``seat_label`` appends a seat's coloured glyph and name to a Text."""
        mine = seat is not None and 0 <= seat < view.players
        prog: tuple[int, ...] = view.programs[seat] if seat is not None and mine else ()
        mark = view.marks[seat] if seat is not None and mine else -1
        if seat is not None and mine:
            t = Text(f"{seat_name(seat)}'s secret program ({len(prog)}/{C.MAX_PROGRAM}); ▼ "
                     "marks the marker", no_wrap=True, overflow="ellipsis")
        elif seat is None and any(view.programs):  # reveal all (a replay, a bots-only game)
            t = Text("Every program as written so far (revealed):", no_wrap=True,
                     overflow="ellipsis")
        else:
            t = Text("Programs are being written in secret.", no_wrap=True)
        painter.put(self.query_one("#vf-build-title", Static), t)
        for i in range(C.MAX_PROGRAM):
            slot = self.query_one(f"#vf-slot-{i + 1}", Chip)
            filled = mine and i < len(prog)
            painter.put(slot, Text(("▼" if i == mark else "") + piece_name(prog[i])
                                   if filled else ""))
            slot.border_subtitle = str(i + 1)
            set_class(slot, filled and i == mark, "marked")
            set_class(slot, filled, "filled")
            # a lesson pointing at an instruction already written lights it in the program
            set_class(slot, filled and piece_name(prog[i]) in highlighted, "lit")
        for i, code in enumerate(ALL_CODES):
            chip = self.query_one(f"#vf-add-{piece_name(code)}", Chip)
            set_class(chip, code in prog, "used")
            set_class(chip, mine and bool(legal) and i == palette, "cursor")
            set_class(chip, code not in prog and piece_name(code) in highlighted, "lit")
            painter.put(chip, Text(f"[{piece_name(code)}]" if code in prog
                                   else piece_name(code)))
        set_class(self.query_one("#vf-ready", Chip), Ready() not in legal, "off")
        set_class(self.query_one("#vf-drop", Chip), Drop() not in legal, "off")
        show(self.query_one("#vf-program"), mine)
        show(self.query_one("#vf-palette"), mine and bool(legal))
        show(self.query_one("#vf-build-buttons"), mine and bool(legal))
        others = Text()
        for q in range(view.players):
            if q == seat and mine:
                continue
            seat_label(others, q)
            others.append(": ready ✓" if view.ready[q] else ": writing…")
            if view.programs[q]:  # only when this view may see it (a replay showing all)
                others.append("  " + program_text(view.programs[q], view.marks[q]))
            others.append("\n")
        painter.put(self.query_one("#vf-others", Static), others)
        painter.put(self.query_one("#vf-help-you", Static), your_program(view, seat))
