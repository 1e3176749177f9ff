"""Virus Fight's side panel as text: the seats with their markers, spares and pips, and the log
(one line per step, the newest that fit). Rich text only; the screen puts it in its widgets."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.text import Text

from ...ui.game_screen import SEAT_GLYPHS
from .engine import PIP, piece_name, square_name
from .types import BUILD, FIRST, OVER, PLACE, PLAY, VFState, side_name


def seats_text(view: VFState, *, acting: set[int], you: int | None, names: Sequence[str],
               notes: Sequence[str], colour: Callable[[str], str],
               seat_colour: Callable[[int], str]) -> Text:
    """Two lines a seat: ``▶ ① Ann North (you)``, then its marker, spares and pips (or "ready",
    "OUT", "placed"). ``you``: the seat marked "(you)" (a finished game too); ``notes`` says
    "bot" or "away" for a seat (else "")."""
    muted = colour("muted")
    t = Text(no_wrap=True, overflow="ellipsis")
    for q in range(view.players):
        t.append("▶ " if q in acting and view.phase != OVER else "  ")
        name = names[q]
        t.append(f"{SEAT_GLYPHS[q % 6]} {name if len(name) <= 9 else name[:8] + '…'}",
                 style=f"bold {seat_colour(q)}")
        t.append(f" {side_name(view.players, q)}", style=muted)
        if you == q:
            t.append(" (you)")
        elif notes[q]:
            t.append(f" ({notes[q]})", style=muted)
        t.append("\n    ")
        spares = view.spares[q]
        pips = sum(PIP[c] for c in spares)
        if view.phase == BUILD:
            t.append("ready ✓" if view.ready[q] else "writing…", style=muted)
        elif view.phase in (PLAY, OVER) and view.markers[q] < 0:
            t.append("OUT", style=f"bold {colour('danger')}")
        elif view.phase in (PLAY, OVER):
            m = view.markers[q]
            t.append(f"{piece_name(view.board[m])}@{square_name(m)}")
        if view.phase != BUILD:
            word = "spare" if len(spares) == 1 else "spares"
            gap = "  " if view.phase in (PLAY, OVER) else ""
            t.append(f"{gap}{len(spares)} {word} {pips}p", style=muted)
            if view.phase in (FIRST, PLACE) and view.markers[q] >= 0:
                t.append(" · placed", style=muted)
        t.append("\n")
    return t


def log_text(events: Sequence[tuple[int, int | None, str]], *, width: int, room: int,
             console: Console, muted: str, seat_colour: Callable[[int], str],
             secret_counts: bool) -> Text:
    """The log, one line per step (a turn's effect and its marker step together), wrapped to
    ``width`` and cut from the top to ``room`` lines so the newest sentences always show.
    ``secret_counts``: step numbers are left out (while programs are written in secret they
    would count another seat's instructions)."""
    groups: list[tuple[int, int | None, list[str]]] = []
    for step, seat, sentence in events:
        if groups and groups[-1][0] == step and groups[-1][1] == seat:
            groups[-1][2].append(sentence)
        else:
            groups.append((step, seat, [sentence]))
    # each step's line is wrapped here (not by the widget: that is about twice as costly)
    chosen: list[list[Text]] = []
    used = 0
    for step, seat, sentences in reversed(groups):
        entry = Text(end="")
        entry.append("  · " if secret_counts else f"{step:>3} ", style=muted)
        entry.append(" ".join(sentences), style=seat_colour(seat) if seat is not None else "")
        lines = [entry] if entry.cell_len <= width else list(entry.wrap(console, width))
        if chosen and used + len(lines) > room:
            break
        used += len(lines)
        chosen.append(lines)
    log = Text("\n", no_wrap=True, end="").join(
        line for lines in reversed(chosen) for line in lines)
    log.no_wrap = True
    return log
