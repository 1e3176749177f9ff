"""A game in progress: the states it went through, undo/redo, and chance resolution.

``Match`` is the one mutable object around the immutable rules. It keeps every state (each is a
frozen msgspec snapshot, sharing structure with its neighbours), so undo and redo are moving a
cursor, like python-chess's ``push``/``pop`` storing whole states rather than inverse moves.

Chance steps are drawn from ``chance_rng(seed, step)``: the roll at a given step of a given game
is fixed, so undoing and redoing a die roll can never re-roll it, and a record replays with no RNG
at all because the chance actions themselves are recorded. A match may be given a ``chance``
source that names the outcome it wants instead (a lesson forces its dice and shuffles): the
outcome is applied, validated and recorded like a drawn one.
"""

from __future__ import annotations

import datetime as _dt
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from .api import CHANCE, Action, Event, Game, Options, Outcome
from .errors import IllegalAction


def chance_rng(seed: int, step: int) -> random.Random:
    """The RNG for the chance step at index ``step`` of the game with ``seed``."""
    return random.Random(f"cellwars/{seed}/{step}")


ChanceSource = Callable[[Any], Action | None]
"""Given the state at a chance node, the outcome wanted there, or None to draw one."""


NAME_MAX = 24


def clean_name(text: str) -> str:
    """A player name as plain text: no control characters, no markup brackets, one line, at most
    ``NAME_MAX`` characters (square brackets would be read as styling by the terminal UI)."""
    text = "".join(" " if not ch.isprintable() else ch for ch in text)
    text = text.replace("[", "(").replace("]", ")")
    text = " ".join(text.split())
    return text[:NAME_MAX]


class Seat(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Who sits at a seat: a person, or a bot with its thinking budget."""

    name: str
    kind: str = "human"  # "human" | "bot"
    bot: str = ""  # kind == "bot": its level (ai.levels: random, easy, normal, hard)
    think: float = 1.0  # a bot's seconds a decision: a guard for a level, the budget of "mcts"
    identity: str = ""  # SSH key fingerprint or nickname for networked seats

    def __post_init__(self) -> None:
        # A name is shown everywhere (logs, banners, lists, over SSH): keep it one short line of
        # plain text, whatever a dialog, a nickname prompt or a hand-edited record gave.
        clean = clean_name(self.name)
        if clean != self.name:
            msgspec.structs.force_setattr(self, "name", clean)

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"


class Step(msgspec.Struct, frozen=True, array_like=True):
    """One applied action: who, what, and when (seconds since the match started)."""

    seat: int
    action: Action
    t: float = 0.0


def now_iso() -> str:
    """This moment as a record writes it (UTC, ISO 8601, to the second)."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class Match:
    """A game being played (or replayed): history, cursor, undo/redo, chance resolution.

    Besides the game, a match carries what its record file says about it: ``started`` (the
    game's start, set when the match is made and kept by every save, so the Replays page sorts
    games by when they began), ``origin`` (the replay position a game was played on from),
    ``lesson`` (the game's id when it began as its guided first game), ``path`` (its file, once
    saved or when loaded from one) and ``record_problem`` (where and why a damaged record stopped
    being valid, when it was loaded partially).
    """

    started: str
    origin: str | None
    lesson: str | None
    path: Path | None
    record_problem: str | None

    def __init__(
        self,
        game: Game,
        options: Options,
        seats: Sequence[Seat],
        seed: int,
        *,
        auto_chance: bool = True,
        clock: Callable[[], float] = time.monotonic,
        chance: ChanceSource | None = None,
    ) -> None:
        game.check_options(options)
        if len(seats) != options.players:
            raise ValueError(f"{len(seats)} seats for {options.players} players")
        self.game = game
        self.options = options
        self.seats = tuple(seats)
        self.seed = seed
        self.auto_chance = auto_chance
        self.chance: ChanceSource | None = chance  # outcomes wanted at chance nodes (a lesson's)
        self._clock = clock
        self._t0 = clock()
        self.elapsed_before = 0.0  # time played before this process (resumed games)
        self.states: list[Any] = [game.initial_state(options)]
        self.steps: list[Step] = []
        self.events: list[tuple[Event, ...]] = []
        self.cursor = 0  # number of steps applied; states[cursor] is the current state
        self.started = now_iso()
        self.origin = None
        self.lesson = None
        self.path = None
        self.record_problem = None
        if auto_chance:
            self.resolve_chance(t=0.0)  # the opening shuffles and rolls: at the game's start

    # -- reading -------------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.states[self.cursor]

    def to_act(self) -> tuple[int, ...]:
        return self.game.to_act(self.state)

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return self.game.legal_actions(self.state, seat)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    def view(self, seat: int | None) -> Any:
        return self.game.view(self.state, seat)

    def now(self) -> float:
        return self.elapsed_before + (self._clock() - self._t0)

    def set_clock(self, clock: Callable[[], float], elapsed: float | None = None) -> None:
        """Time later steps by ``clock`` (e.g. a round timer's play time, pauses left out), going on
        from ``elapsed`` seconds (default: the time of the last step applied)."""
        if elapsed is None:
            elapsed = self.steps[self.cursor - 1].t if self.cursor else 0.0
        self._clock = clock
        self._t0 = clock()
        self.elapsed_before = elapsed

    @property
    def history(self) -> list[Step]:
        """The steps up to the cursor (what the current state is made of)."""
        return self.steps[: self.cursor]

    # -- playing -------------------------------------------------------------------------------
    def play(self, seat: int, action: Action, *, t: float | None = None) -> tuple[Event, ...]:
        """Apply ``action`` for ``seat``. Drops any redo branch. Resolves chance that follows."""
        new_state, events = self.game.apply(self.state, seat, action)
        del self.states[self.cursor + 1 :]
        del self.steps[self.cursor :]
        del self.events[self.cursor :]
        self.states.append(new_state)
        self.steps.append(Step(seat, action, round(self.now() if t is None else t, 3)))
        self.events.append(events)
        self.cursor += 1
        all_events = list(events)
        if self.auto_chance:
            all_events.extend(self.resolve_chance())
        return tuple(all_events)

    def resolve_chance(self, *, t: float | None = None) -> list[Event]:
        """Draw and apply chance steps until a player (or nobody) is to act (timed ``t``, or
        now)."""
        out: list[Event] = []
        while self.game.to_act(self.state) == (CHANCE,):
            action = self.chance(self.state) if self.chance is not None else None
            if action is None:
                action = self.game.sample_chance(self.state, chance_rng(self.seed, self.cursor))
            new_state, events = self.game.apply(self.state, CHANCE, action)
            del self.states[self.cursor + 1 :]
            del self.steps[self.cursor :]
            del self.events[self.cursor :]
            self.states.append(new_state)
            self.steps.append(Step(CHANCE, action, round(self.now() if t is None else t, 3)))
            self.events.append(events)
            self.cursor += 1
            out.extend(events)
        return out

    # -- undo / redo ---------------------------------------------------------------------------
    def can_undo(self) -> bool:
        return self.undo_target(None) is not None

    def can_redo(self) -> bool:
        return self.cursor < len(self.steps)

    def undo_target(self, humans: set[int] | None = None, *, keep_chance: bool = False) -> int | None:
        """Cursor to return to: the last decision by a person (any seat if ``humans`` is None),
        never before the first player decision, skipping chance steps that follow it. With
        ``keep_chance`` (a table's rule for games whose dice and draws are hidden until they
        happen), never back across a chance step: what chance showed stays shown."""
        c = self.cursor
        while c > 0:
            c -= 1
            seat = self.steps[c].seat
            if seat != CHANCE and (humans is None or seat in humans):
                break
        else:
            return None
        if keep_chance and any(self.steps[i].seat == CHANCE for i in range(c + 1, self.cursor)):
            return None
        return c

    def undo_stopped_by_chance(self, humans: set[int] | None = None) -> bool:
        """True when a decision could be taken back but a chance step after it forbids it."""
        return (self.undo_target(humans, keep_chance=True) is None
                and self.undo_target(humans) is not None)

    def undo(self, humans: set[int] | None = None, *, keep_chance: bool = False) -> bool:
        """Step back to before the last decision (of one of ``humans``, when given)."""
        target = self.undo_target(humans, keep_chance=keep_chance)
        if target is None:
            return False
        self.cursor = target
        return True

    def redo(self, humans: set[int] | None = None) -> bool:
        """Step forward again through one decision and the chance steps and bot moves after it,
        up to the next decision of one of ``humans`` (any seat if None)."""
        if not self.can_redo():
            return False
        self.cursor += 1
        while self.cursor < len(self.steps):
            seat = self.steps[self.cursor].seat
            if seat == CHANCE or (humans is not None and seat not in humans):
                self.cursor += 1
                continue
            break
        return True

    def seek(self, cursor: int) -> None:
        """Move to any step of the known history (for replays)."""
        if not 0 <= cursor <= len(self.steps):
            raise IndexError(f"step {cursor} is outside 0..{len(self.steps)}")
        self.cursor = cursor

    # -- rebuilding from recorded steps --------------------------------------------------------
    def replay_steps(self, steps: Sequence[Step]) -> None:
        """Apply recorded steps (chance included) exactly; raises IllegalAction at a bad one."""
        auto, self.auto_chance = self.auto_chance, False
        try:
            for i, step in enumerate(steps):
                try:
                    new_state, events = self.game.apply(self.state, step.seat, step.action)
                except IllegalAction as exc:
                    raise IllegalAction(f"step {i + 1}: {exc}") from None
                self.states.append(new_state)
                self.steps.append(step)
                self.events.append(events)
                self.cursor += 1
        finally:
            self.auto_chance = auto
        if steps:
            self.elapsed_before = steps[-1].t
            self._t0 = self._clock()
