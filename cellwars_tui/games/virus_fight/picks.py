"""Virus Fight's turn built pick by pick, without a screen (no textual, no rich).

A turn is one action (the instruction's effect plus the marker's step). The table screen builds
it one pick at a time from the legal actions: for MOVE the instruction to move, then where it
goes, then where the marker steps (:func:`turn_picks` lists an action's picks). Picks with one
possible value are taken automatically; a finished turn is played at once, or waits for Enter
when the player chose nothing yet or when it would eliminate the player. :class:`TurnPicker`
is that state machine; the screen only turns keys and clicks into its calls and draws it.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ...core.api import Action
from . import engine as E
from .engine import ERASE, TYPE_NAMES, piece_name, square_name
from .types import (PLACE, PLAY, Erase, Jump, Move, Place, VFState, Write, eliminates,
                    home_line)

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


def erase_nothing_squares(view: VFState, seat: int) -> set[int]:
    """Empty squares beside an ERASE of ``seat``'s active block (aiming there erases nothing)."""
    m = view.markers[seat]
    if m < 0:
        return set()
    nb = E.NEIGHBOURS[view.size]
    out: set[int] = set()
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


def stage_word(stage: str) -> str:
    """A pick as the prompt lists it: "move", "to", "write" ..."""
    return {"src": "move", "dst": "to", "wdst": "on", "piece": "write", "step": "step",
            "land": "jump", "erase": "erase", "place": "place"}.get(stage, stage)


def value_text(stage: str, v: int) -> str:
    """A pick's value as the prompt lists it: a piece, a square or "nothing"."""
    if stage == "piece":
        return piece_name(v) if v else "nothing"
    return square_name(v) if v >= 0 else "nothing"


def describe_square(view: VFState, sq: int) -> str:
    """"MOVE 3 (M3) on c2": the instruction on ``sq``."""
    code = view.board[sq]
    return f"{TYPE_NAMES[E.KIND[code]]} {E.PIP[code]} ({piece_name(code)}) on {square_name(sq)}"


class TurnPicker:
    """The turn being built for ``seat`` from ``legal`` on ``view``.

    ``picks`` are the (stage, value) pairs so far, ``user_picks`` the indices in ``picks`` the
    player chose (the others were forced), ``pending`` a complete turn waiting for Enter, and
    ``spare_cursor`` the spare a WRITE would use (an index into :meth:`spare_codes`).
    """

    def __init__(self) -> None:
        self.view: VFState | None = None
        self.seat: int | None = None
        self.legal: Sequence[Action] = ()
        self.picks: list[tuple[str, int]] = []
        self.user_picks: list[int] = []
        self.pending: Action | None = None
        self.spare_cursor = 0

    def set_position(self, view: VFState, seat: int | None, legal: Sequence[Action]) -> bool:
        """A new position to pick on; a change of view or seat starts the turn afresh (True)."""
        changed = view != self.view or seat != self.seat
        self.view, self.seat, self.legal = view, seat, legal
        if changed:
            self.picks, self.user_picks, self.pending = [], [], None
            self.spare_cursor = 0
        return changed

    # -- what may be picked ------------------------------------------------------------------
    def turn_legal(self) -> list[Action]:
        view = self.view
        if view is None or view.phase not in (PLAY, PLACE):
            return []
        return [a for a in self.legal if turn_picks(a)]

    def candidates(self) -> list[Action]:
        k = len(self.picks)
        return [a for a in self.turn_legal() if turn_picks(a)[:k] == tuple(self.picks)]

    def stage(self) -> str | None:
        """The pick the player has to make now (None: nothing, or a turn waits for Enter)."""
        if self.pending is not None:
            return None
        k = len(self.picks)
        for a in self.candidates():
            picks = turn_picks(a)
            if len(picks) > k:
                return picks[k][0]
        return None

    def options(self) -> set[int]:
        k = len(self.picks)
        return {turn_picks(a)[k][1] for a in self.candidates() if len(turn_picks(a)) > k}

    # -- picking -------------------------------------------------------------------------------
    def advance(self) -> Action | None:
        """Take every forced pick. Returns a finished turn to play now; a finished turn the
        player chose nothing for, or that would eliminate the player, waits in ``pending``."""
        self.pending = None
        while True:
            cands = self.candidates()
            if not cands:
                self.picks, self.user_picks = [], []
                if not self.turn_legal():
                    return None
                continue
            k = len(self.picks)
            done = [a for a in cands if len(turn_picks(a)) == k]
            if done:
                action = done[0]
                if not self.user_picks or eliminates(action):
                    self.pending = action
                    return None
                self.picks, self.user_picks = [], []
                return action
            values = {turn_picks(a)[k] for a in cands}
            if len(values) > 1:
                return None
            self.picks.append(values.pop())

    def choose(self, value: int) -> bool:
        """The player picks ``value`` for the current stage (False if it is not an option);
        :meth:`advance` follows."""
        if value not in self.options():
            return False
        stage = self.stage()
        self.user_picks.append(len(self.picks))
        self.picks.append((stage or "", value))
        return True

    def take_back(self) -> bool:
        """Undo the player's last pick (False: there is none); :meth:`advance` follows."""
        if not self.user_picks:
            return False
        k = self.user_picks.pop()
        self.picks = self.picks[:k]
        self.pending = None
        return True

    def confirm(self) -> Action | None:
        """The turn waiting for Enter, taken (None if none waits)."""
        action = self.pending
        if action is not None:
            self.picks, self.user_picks, self.pending = [], [], None
        return action

    # -- the board's squares for the current stage ---------------------------------------------
    def spare_codes(self) -> list[int]:
        """The spare codes a WRITE may use now (the piece stage's options, in order)."""
        if self.stage() != "piece":
            return []
        return sorted(v for v in self.options() if v > 0)

    def spare_choice(self) -> int | None:
        codes = self.spare_codes()
        if not codes:
            return None
        return codes[self.spare_cursor % len(codes)]

    def target_squares(self) -> set[int]:
        view, stage = self.view, self.stage()
        if view is None or stage is None:
            return set()
        opts = self.options()
        if stage == "piece":
            piece = self.spare_choice()
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
        """The value a pick on square ``sq`` stands for now (None: not a choice)."""
        view, stage = self.view, self.stage()
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
            starts = [s for s in sorted(opts) if sq in self.span(s)]
            return starts[0] if starts else None
        if stage == "piece":
            return None
        return sq if sq in opts else None

    def span(self, start: int) -> tuple[int, ...]:
        """The squares the player's program covers when placed from ``start``."""
        view, seat = self.view, self.seat
        if view is None or seat is None or view.phase != PLACE:
            return ()
        line = home_line(view.players, seat)
        if start not in line:
            return ()
        off = line.index(start)
        return line[off: off + len(view.programs[seat])]

    def pending_squares(self) -> set[int]:
        """Squares of the turn that waits for Enter (where things go and the marker ends)."""
        a = self.pending
        if a is None:
            return set()
        return {v for stage, v in turn_picks(a) if v >= 0 and stage != "piece"}

    def provisional(self, view: VFState) -> tuple[VFState, set[int], set[int]]:
        """``view`` with the turn's picks so far applied (moved/written/erased instructions),
        the squares those picks changed, and the squares erased."""
        picks = dict(self.picks)
        if self.pending is not None:
            picks = dict(turn_picks(self.pending))
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


def lit_squares(marks: tuple[str, ...], size: int) -> frozenset[int]:
    """The squares among a lesson's ``marks`` ("b2"; piece names such as "W2" are not)."""
    out = set()
    for mark in marks:
        if len(mark) == 2 and mark[0] in "abcdef" and mark[1] in "123456":
            f, r = ord(mark[0]) - 97, int(mark[1]) - 1
            if f < size and r < size:
                out.add(E.square(f, r))
    return frozenset(out)
