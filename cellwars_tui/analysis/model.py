"""What an analysis is, as values: one :class:`Decision` per judged step, each seat's Win% at
every step (the chart), and each player's accuracy and counts. Saved as JSON in the sidecar file
beside the record (``sidecar.py``); new fields get defaults, ``FORMAT`` goes up on any change of
meaning."""

from __future__ import annotations

import bisect

import msgspec

from .judge import BLUNDER, INACCURACY, MISTAKE, THRESHOLDS, mark

FORMAT = 2  # 2: the drop measured on fresh batches with a Student margin (paired.py)


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """One decision step weighed. ``step`` is 1-based (the step that led to cursor ``step``),
    ``before`` each seat's Win% after the preferred move, ``after`` after the move played."""

    step: int
    seat: int
    played: str  # the move in the game's notation
    best: str = ""  # the preferred move ("" for a forced move)
    before: tuple[float, ...] = ()
    after: tuple[float, ...] = ()
    judgment: str = ""  # "", "inaccuracy", "mistake", "blunder"
    forced: bool = False
    exact: bool = False
    note: str = ""  # the game's own words (Cell Management: "adds 2 rounds ...")
    margin: float = 0.0  # the part of the drop the search cannot tell from noise

    @property
    def drop(self) -> float:
        """The mover's Win% lost against the preferred move, beyond the search's margin."""
        if self.forced or not self.before:
            return 0.0
        return max(0.0, self.before[self.seat] - self.after[self.seat] - self.margin)

    @property
    def near(self) -> str:
        """The judgment whose threshold the drop is too near to tell (its margin reaches over
        it), "" when every threshold is clear: such a move may be judged a grade higher or
        lower with another seed or budget."""
        if self.forced or not self.before or self.margin <= 0:
            return ""
        raw = self.before[self.seat] - self.after[self.seat]
        for at_least, name in reversed(THRESHOLDS):
            if abs(raw - at_least) < self.margin:
                return name
        return ""

    @property
    def mark(self) -> str:
        return mark(self.judgment)

    @property
    def judged(self) -> bool:
        return not self.forced


class PlayerSummary(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    name: str
    accuracy: float | None  # None: no judged decision
    decisions: int = 0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0


class Analysis(msgspec.Struct, kw_only=True):
    format: int = FORMAT
    record_key: str  # blake2b of the record file's bytes (what the sidecar belongs to)
    game: str
    rules_version: int
    budget: int
    seed: int
    steps: int  # the record's valid steps analysed
    names: tuple[str, ...]
    lines: tuple[str, ...]  # the chart's lines: a name per seat, or Team and Virus
    values: tuple[tuple[float, ...], ...]  # per cursor 0..steps: each line's Win%
    decisions: tuple[Decision, ...]
    players: tuple[PlayerSummary, ...]
    notes: tuple[str, ...] = ()  # what the reader should know (damaged record, older rules)
    seconds: float = 0.0

    def decision_at(self, step: int) -> Decision | None:
        """The decision at 1-based ``step`` (None: a chance step, or not analysed)."""
        i = bisect.bisect_left(self.decisions, step, key=lambda d: d.step)
        found = self.decisions[i] if i < len(self.decisions) else None
        return found if found is not None and found.step == step else None

    def judged_steps(self, at_least: str = INACCURACY) -> list[int]:
        """The steps judged ``at_least`` an inaccuracy (or a mistake, or a blunder), in order."""
        order = (INACCURACY, MISTAKE, BLUNDER)
        wanted = set(order[order.index(at_least):])
        return [d.step for d in self.decisions if d.judgment in wanted]

    def worst(self, seat: int | None = None) -> Decision | None:
        """The worst decision (of ``seat``'s, or anyone's): the gravest judgment, then the
        largest drop, then the earliest."""
        found = [d for d in self.decisions if d.judged and (seat is None or d.seat == seat)]
        order = ("", INACCURACY, MISTAKE, BLUNDER)
        return max(found, key=lambda d: (order.index(d.judgment), d.drop, -d.step), default=None)

    def accuracy_text(self) -> str:
        """``"Ann 87 · Bot 92"``: each player's accuracy (``-`` without a judged move)."""
        return " · ".join(f"{p.name} {'-' if p.accuracy is None else round(p.accuracy)}"
                          for p in self.players)


_encoder = msgspec.json.Encoder(order="deterministic")
_decoder = msgspec.json.Decoder(Analysis)


def encode(analysis: Analysis) -> bytes:
    return _encoder.encode(analysis)


def decode(data: bytes) -> Analysis:
    return _decoder.decode(data)
