"""A recorded game opened for replay: any step in milliseconds, per-seat views, play from here.

A record the app sealed (its digest matches: see ``record.format.sealed``) is opened as written: its
steps were checked when they were played, so they are decoded but not re-validated, the file's
snapshots (the state every ``SNAPSHOT_EVERY`` steps) are the key frames, and each step's events are
found when first shown, by applying the steps between two snapshots. ``trusted`` says so.

Any other record (hand-edited, cut short, older, salvaged, a move list) applies every step once
through the rules (``Game.apply`` validates each), which is how a damaged record is found to be
"valid up to step N". Rather than keep all N states, the replay keeps a msgspec-encoded snapshot
every few steps (more often when the game's steps are slow to apply) and the current state.

Either way, seeking decodes the nearest snapshot at or before the target and applies at most a
snapshot interval of steps (``Game._apply``), like a video decoder's key frames. States are
immutable, so the current state is shared, never copied.

Nothing here imports textual or rich: the replay screen is a view of this model.
"""

from __future__ import annotations

import bisect
import math
import re
import secrets
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, overload

from ..core.api import CHANCE, Event, Game, Options, Outcome
from ..core.errors import BadNotation, BadOptions, CellwarsError, RecordError
from ..core.match import Match, Seat, Step
from ..core.registry import get_game
from ..record.files import read_user_file
from ..record.format import (
    MAX_RECORD_BYTES, Record, decode_record, match_to_record, record_game, seal_record,
    sealed,
)
from ..record.text import MAGIC as MOVE_LIST_MAGIC
from ..record.text import export_text, import_text
from ..table.log import moved, sentences, step_entries
from .salvage import salvage

# A snapshot at least every MAX_INTERVAL steps, and sooner once the steps since the last one took
# SNAPSHOT_BUDGET seconds to validate and apply (the unvalidated re-application while seeking is
# cheaper still), so a seek applies at most a few milliseconds' worth of steps.
MAX_INTERVAL = 64
SNAPSHOT_BUDGET = 0.003

# Autoplay pacing: seconds per step at x1 for turn-based games (chance steps go faster), and the
# longest pause a real-time game's timestamps may ask for.
TURN_DELAY = 1.0
CHANCE_DELAY = 0.35
MAX_REAL_PAUSE = 5.0
SPEEDS = (1, 2, 4, 8)


class Replay:
    """A record's valid steps, a cursor over them, and the state at the cursor.

    ``cursor`` is the number of steps applied (0 = the initial state, ``len(replay)`` = the end),
    like :attr:`Match.cursor`. ``problem`` says where and why the record stops being valid (None
    when every recorded step is valid).
    """

    def __init__(
        self,
        game: Game,
        options: Options,
        seats: Sequence[Seat],
        seed: int,
        steps: Sequence[Step],
        *,
        path: Path | None = None,
        started: str | None = None,
        origin: str | None = None,
        lesson: str | None = None,
        title: str = "",
        problem: str | None = None,
        warning: str | None = None,
        snapshots: Sequence[tuple[int, Any]] | None = None,
    ) -> None:
        """Check every step through the rules, or, given ``snapshots`` (encoded states of a sealed
        record, by step), trust the steps as recorded."""
        self.game = game
        self.options = options
        self.seats = tuple(seats)
        self.seed = seed
        self.path = path
        self.started = started
        self.origin = origin
        self.lesson = lesson  # the game's id when the game began as its guided first game
        self.title = title
        self.problem = problem
        self.warning = warning  # read although not quite right (a version mismatch): a note
        self.players = options.players
        self.rules_version = game.rules_version  # the record's (from_record: its header's)
        self.steps: list[Step] = []
        self.events: Sequence[tuple[Event, ...]] = []
        self._snap_at: list[int] = []
        self._snaps: list[Any] = []
        self._encoded = True
        state = game.initial_state(options)
        self._initial = state
        self._take_snapshot(0, state, first=True)
        # Only encoded snapshots can be trusted, and only when the game's states survive encoding.
        self.trusted = snapshots is not None and self._encoded
        if self.trusted:
            self._trust(steps, snapshots or ())
        else:
            self._validate(steps)

    def _validate(self, steps: Sequence[Step]) -> None:
        """Apply every step through the rules, up to the first that is not valid."""
        game = self.game
        state = self._initial
        self.steps = []
        events: list[tuple[Event, ...]] = []
        self.events = events
        del self._snap_at[1:], self._snaps[1:]
        since = 0.0
        for i, step in enumerate(steps):
            t0 = time.perf_counter()
            try:
                state, step_events = game.apply(state, step.seat, step.action)
            except CellwarsError as exc:
                self._stop(i, str(exc))
                break
            except Exception as exc:  # a game bug met on a hand-edited record: stop, never crash
                self._stop(i, f"the rules could not apply it ({type(exc).__name__}: {exc})")
                break
            since += time.perf_counter() - t0
            self.steps.append(step)
            events.append(step_events)
            n = i + 1
            if n - self._snap_at[-1] >= MAX_INTERVAL or since >= SNAPSHOT_BUDGET:
                self._take_snapshot(n, state)
                since = 0.0
        self._final = state
        self.cursor = len(self.steps)
        self.state = state

    def _trust(self, steps: Sequence[Step], snapshots: Sequence[tuple[int, Any]]) -> None:
        """Take a sealed record's steps and snapshots as written; the state at the end comes from
        the last snapshot and the steps after it."""
        self.steps = list(steps)
        self.events = _LazyEvents(self, len(self.steps))
        for at, snap in snapshots:
            self._snap_at.append(at)
            self._snaps.append(snap)
        self.cursor, self.state = 0, self._initial
        end = len(self.steps)
        try:
            self._final = self._compute(end) if end else self._initial
        except Exception as exc:
            self._distrust(exc, keep_position=False)
            return
        self.cursor, self.state = end, self._final

    def _distrust(self, exc: Exception, *, keep_position: bool = True) -> None:
        """A sealed record that does not replay after all (a state that no longer decodes, a step
        the rules cannot apply): check every step, as for any other record (the cursor then stays
        where it was, or goes to the end)."""
        cursor = self.cursor
        self.trusted = False
        self._validate(self.steps)
        note = f"its snapshots could not be used ({type(exc).__name__}); every step was checked"
        self.warning = f"{self.warning}; {note}" if self.warning else note
        if keep_position:
            self.seek(cursor)

    # -- opening -------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path | str, *, game: Game | None = None) -> Replay:
        """Open a record file as far as it is valid. Raises only :class:`RecordError` (a file
        that cannot be read at all or whose header is unreadable, an unknown game, impossible
        options). A file cut short, with a step of the wrong shape or of a newer format opens up
        to its last readable step, with ``problem`` / ``warning`` saying why. A plain-text move
        list (see :meth:`export_text`) opens too."""
        path = Path(path)
        data = read_user_file(path, limit=MAX_RECORD_BYTES)
        try:
            record = decode_record(data, path)
        except RecordError as exc:
            if not data.strip():
                raise
            if data.lstrip().startswith(MOVE_LIST_MAGIC.encode()):  # an exported move list
                return cls.from_text(data.decode("utf-8", errors="replace"), path)
            found = salvage(data, path, exc)
        else:
            return cls.from_record(record, path, game=game, data=data)
        replay = cls.from_record(found.record, path, game=game)
        notes = [w for w in (replay.warning, found.warning) if w]
        replay.warning = "; ".join(notes) or None
        if replay.problem is None and found.problem is not None:
            replay.problem = f"valid up to step {len(replay)}; {found.problem}"
        return replay

    @classmethod
    def from_record(cls, record: Record, path: Path | None = None, *,
                    game: Game | None = None, data: bytes | None = None) -> Replay:
        """A replay of ``record``. Given ``data``, the bytes it was decoded from, a record the app
        sealed is trusted as written (see the module's docstring); else every step is checked."""
        where = path if path is not None else "<record>"
        h = record.header
        warning = None
        if game is None:
            try:
                game = get_game(h.game)
            except CellwarsError:
                game = record_game(record, where)  # the project's error for an unknown game
            if h.rules_version > game.rules_version:
                warning = (f"made with newer {game.title} rules (version {h.rules_version}; "
                           f"these are version {game.rules_version}): steps checked by these")
        try:
            options = game.options_from_record(h.options, h.rules_version)
        except BadOptions as exc:
            raise RecordError(where, str(exc)) from None
        except Exception as exc:  # an options type whose checks trip on absurd values
            raise RecordError(where, f"bad options ({type(exc).__name__}: {exc})") from None
        if len(h.seats) != options.players:
            raise RecordError(where, f"{len(h.seats)} seats recorded for {options.players} players")
        steps: list[Step] = []
        problem: str | None = None
        for i, rs in enumerate(record.steps):
            try:
                action = game.decode_action(rs.action)
            except BadNotation as exc:
                detail = str(exc).removeprefix(f"not a {game.title} action: ")
                problem = f"step {i + 1} is not a {game.title} action ({detail})"
                break
            steps.append(Step(rs.seat, action, rs.t))
        snapshots = None
        if data is not None and warning is None and problem is None and sealed(data, record, game):
            snapshots = _snapshots_of(record)
        replay = cls(game, options, h.seats, h.seed, steps, path=path, started=h.started,
                     origin=h.origin, lesson=h.lesson, title=h.title, warning=warning,
                     snapshots=snapshots)
        if replay.problem is None and problem is not None:
            replay.problem = f"valid up to step {len(replay.steps)}; {problem}"
        replay.rules_version = h.rules_version
        return replay

    @classmethod
    def from_match(cls, match: Match, path: Path | None = None) -> Replay:
        """A replay of a match's history up to its cursor."""
        return cls(match.game, match.options, match.seats, match.seed, match.history,
                   path=path if path is not None else match.path,
                   started=match.started, origin=match.origin, lesson=match.lesson)

    @classmethod
    def from_text(cls, text: str, path: Path | str | None = None) -> Replay:
        """Import a plain-text move list (see :mod:`cellwars_tui.record.text`) as far as it is
        valid: a bad or illegal line stops it there (``problem`` says which and why); a bad
        header is a :class:`RecordError`."""
        where = path if path is not None else "<move list>"
        problem = None
        try:
            match = _import_text(text, where)
        except RecordError as exc:
            found = re.match(r"line (\d+): ", exc.problem)
            if found is None:
                raise
            line = int(found.group(1))
            match = _import_text("\n".join(text.splitlines()[: line - 1]), where)
            problem = f"valid up to step {len(match.history)}; {exc.problem}"
        replay = cls.from_match(match)
        replay.path = None
        if replay.problem is None:
            replay.problem = problem
        return replay

    def _stop(self, index: int, why: str) -> None:
        why = why.splitlines()[0] if why else "invalid"
        prefix = f"step {index + 1}: "
        self.problem = f"valid up to step {index}; {prefix}{why.removeprefix(prefix)}"

    def _take_snapshot(self, n: int, state: Any, *, first: bool = False) -> None:
        if first:
            try:  # keep encoded snapshots only for states that survive the round trip
                self._encoded = self.game.decode_state(self.game.encode_state(state)) == state
            except Exception:
                self._encoded = False
        self._snap_at.append(n)
        self._snaps.append(self.game.encode_state(state) if self._encoded else state)

    # -- the position --------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.steps)

    @property
    def snapshot_count(self) -> int:
        return len(self._snaps)

    def seek(self, n: int) -> Any:
        """Move the cursor to step ``n`` (clamped to 0..len) and return the state there."""
        n = max(0, min(int(n), len(self.steps)))
        state = self.state_at(n)
        self.cursor = min(n, len(self.steps))  # (a sealed record found bad may have shrunk)
        self.state = state
        return state

    def state_at(self, n: int) -> Any:
        """The full state after ``n`` steps, without moving the cursor."""
        if not 0 <= n <= len(self.steps):
            raise IndexError(f"step {n} is outside 0..{len(self.steps)}")
        if n == self.cursor:
            return self.state
        if n == len(self.steps):
            return self._final
        if n == 0:
            return self._initial
        if not self.trusted:
            return self._compute(n)
        try:
            return self._compute(n)
        except Exception as exc:
            self._distrust(exc)
            return self.state_at(min(n, len(self.steps)))

    def _compute(self, n: int) -> Any:
        """The state after ``n`` steps: from the cursor when it is on the way, else from the
        snapshot at or before ``n``."""
        k = bisect.bisect_right(self._snap_at, n) - 1
        base = self._snap_at[k]
        if base <= self.cursor <= n:
            return self._run(self.state, self.cursor, n)
        return self._run(self._snapshot(k), base, n)

    def _snapshot(self, k: int) -> Any:
        snap = self._snaps[k]
        return self.game.decode_state(snap) if self._encoded else snap

    def _run(self, state: Any, start: int, stop: int) -> Any:
        """Apply steps ``start..stop`` (already known valid) to ``state``, keeping their events
        when they are still to be found (a trusted record's)."""
        apply = self.game._apply
        steps = self.steps
        if not isinstance(self.events, _LazyEvents):
            for step in steps[start:stop]:
                state = apply(state, step.seat, step.action)[0]
            return state
        known = self.events.known
        for i in range(start, stop):
            step = steps[i]
            state, known[i] = apply(state, step.seat, step.action)
        return state

    def _find_events(self, i: int) -> None:
        """Apply the steps from the snapshot before step ``i + 1`` to the next (a trusted record's
        events are found a snapshot interval at a time)."""
        k = bisect.bisect_right(self._snap_at, i) - 1
        stop = self._snap_at[k + 1] if k + 1 < len(self._snap_at) else len(self.steps)
        try:
            if self._snap_at[k] <= self.cursor <= i:
                self._run(self.state, self.cursor, stop)
            else:
                self._run(self._snapshot(k), self._snap_at[k], stop)
        except Exception as exc:
            self._distrust(exc)

    def forward(self, count: int = 1) -> Any:
        return self.seek(self.cursor + count)

    def back(self, count: int = 1) -> Any:
        return self.seek(self.cursor - count)

    def home(self) -> Any:
        return self.seek(0)

    def end(self) -> Any:
        return self.seek(len(self.steps))

    @property
    def at_end(self) -> bool:
        return self.cursor >= len(self.steps)

    # -- what the position shows ---------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return self.game.to_act(self.state)

    def outcome(self) -> Outcome | None:
        """The result at the cursor (None before the end of the game)."""
        return self.game.outcome(self.state)

    def final_outcome(self) -> Outcome | None:
        return self.game.outcome(self._final)

    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    def view(self, seat: int | None) -> Any:
        """What ``seat`` saw at the cursor; ``None`` reveals everything (the full state)."""
        if seat is None:
            return self.state
        return self.game.view(self.state, seat)

    def seat_names(self) -> list[str]:
        return [s.name or self.game.seat_label(i) for i, s in enumerate(self.seats)]

    def who(self, seat: int) -> str:
        if seat == CHANCE:
            return "chance"
        names = self.seat_names()
        return names[seat] if 0 <= seat < len(names) else self.game.seat_label(seat)

    def step_events(self, n: int) -> list[str]:
        """Sentences for what step ``n`` (1-based: the step that led to cursor ``n``) did."""
        if not 1 <= n <= len(self.steps):
            return []
        step = self.steps[n - 1]
        entries = step_entries(self.game, n, step.seat, step.action, self.events[n - 1],
                               self.who(step.seat), everything=True)
        if not entries:  # (the chance seat's step without an event)
            entries = [(n, None, moved(self.who(step.seat), self.game, step.action))]
        return [text for _, _, text in sentences(self.game, entries, self.seat_names(),
                                                  everything=True)]

    def events_upto(self, n: int | None = None, *,
                    last: int = 200) -> list[tuple[int, int | None, str]]:
        """The event log as (step, seat, sentence) up to cursor ``n`` (default: the cursor),
        keeping the ``last`` lines: what a player watching the game would have seen so far."""
        n = self.cursor if n is None else n
        lines: list[tuple[int, int | None, str]] = []
        i = n
        while i >= 1 and len(lines) < last:
            seat = self.steps[i - 1].seat
            for text in reversed(self.step_events(i)):
                lines.append((i, None if seat == CHANCE else seat, text))
            i -= 1
        lines.reverse()
        return lines[-last:]

    def notation(self, n: int) -> str:
        """``"12. Ann: roll"`` for step ``n`` (1-based)."""
        step = self.steps[n - 1]
        return f"{n}. {self.who(step.seat)}: {self.game.action_to_str(step.action)}"

    # -- navigation by seat and time -----------------------------------------------------------
    def next_turn(self, seat: int, after: int | None = None) -> int | None:
        """The next cursor (after ``after``, default the cursor) where ``seat`` is about to act."""
        start = self.cursor if after is None else after
        for i in range(start + 1, len(self.steps)):
            if self.steps[i].seat == seat:
                return i
        return None

    def previous_turn(self, seat: int, before: int | None = None) -> int | None:
        """The previous cursor (before ``before``) where ``seat`` was about to act."""
        start = self.cursor if before is None else before
        for i in range(min(start, len(self.steps)) - 1, -1, -1):
            if self.steps[i].seat == seat:
                return i
        return None

    def time_at(self, n: int) -> float:
        """Seconds since the start when the game reached cursor ``n``."""
        if n <= 0 or not self.steps:
            return 0.0
        t = self.steps[min(n, len(self.steps)) - 1].t
        return t if math.isfinite(t) and t >= 0 else 0.0

    @property
    def timed(self) -> bool:
        """Whether the record's steps carry times (a record made without a clock has none: a
        real-time game's replay then keeps the even pace of a turn-based one)."""
        return self.time_at(len(self.steps)) > 0

    def delay_before(self, n: int, speed: float = 1.0) -> float:
        """How long autoplay waits at cursor ``n`` before showing step ``n + 1``.

        A real-time game keeps its own rhythm (the recorded timestamps, long pauses cut to
        ``MAX_REAL_PAUSE``); a turn-based game (or a record without times) gets an even pace,
        quicker over chance steps."""
        if n >= len(self.steps):
            return 0.0
        speed = speed if speed > 0 else 1.0
        if self.game.real_time and self.timed:
            gap = self.steps[n].t - self.time_at(n)
            if not math.isfinite(gap):
                gap = 0.0
            return max(0.0, min(gap, MAX_REAL_PAUSE)) / speed
        base = CHANCE_DELAY if self.steps[n].seat == CHANCE else TURN_DELAY
        return base / speed

    # -- leaving the replay ----------------------------------------------------------------------
    def origin_label(self, n: int | None = None) -> str:
        n = self.cursor if n is None else n
        source = str(self.path) if self.path is not None else "<imported move list>"
        return f"{source}#{n}"

    def play_from_here(self, seats: Sequence[Seat] | None = None, *, n: int | None = None,
                       seed: int | None = None) -> Match:
        """A new match from cursor ``n`` (default the cursor): the same history, new seats.

        It gets a fresh seed so the dice after the branch point are not the original game's (which
        the replay has shown), and ``origin`` names the source file and step for its record."""
        n = self.cursor if n is None else max(0, min(n, len(self.steps)))
        seats = tuple(seats) if seats is not None else self.seats
        if len(seats) != self.players:
            raise CellwarsError(f"{len(seats)} seats for a {self.players}-player game")
        match = Match(self.game, self.options, seats,
                      secrets.randbits(63) if seed is None else seed, auto_chance=False)
        match.replay_steps(self.steps[:n])
        match.auto_chance = True
        match.origin = self.origin_label(n)  # (started: now, when the new game was made)
        match.resolve_chance()
        return match

    def as_match_like(self, n: int | None = None) -> _RecordedGame:
        """A read-only stand-in for a Match (history up to ``n``, default all) for the record and
        move-list writers."""
        n = len(self.steps) if n is None else max(0, min(n, len(self.steps)))
        return _RecordedGame(self, n)

    def export_text(self, n: int | None = None) -> str:
        """The plain-text move list of the valid steps (up to ``n``)."""
        return export_text(self.as_match_like(n))  # type: ignore[arg-type]

    def to_record(self, n: int | None = None) -> Record:
        like = self.as_match_like(n)
        return match_to_record(like, started=self.started)  # type: ignore[arg-type]

    def record_bytes(self, n: int | None = None) -> bytes:
        """The record of the valid steps (up to ``n``), sealed: every step in it was checked."""
        return seal_record(self.to_record(n), self.game)


def _import_text(text: str, where: object) -> Match:
    """``import_text``, with a game's parser bug (anything but our errors) as a RecordError."""
    try:
        return import_text(text, where)
    except CellwarsError:
        raise
    except Exception as exc:
        raise RecordError(where, f"cannot read the move list ({type(exc).__name__}: {exc})") \
            from None


class _RecordedGame:
    """Just enough of :class:`Match` for ``match_to_record`` and ``export_text``."""

    def __init__(self, replay: Replay, n: int) -> None:
        self._replay = replay
        self._n = n
        self.game = replay.game
        self.options = replay.options
        self.seats = replay.seats
        self.seed = replay.seed
        self.started = replay.started
        self.origin = replay.origin
        self.lesson = replay.lesson
        self.history = replay.steps[:n]
        self.states = _States(replay)

    @property
    def state(self) -> Any:
        return self._replay.state_at(self._n)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)


class _States:
    """A replay's states by step, as ``Match.states`` reads (for the record's snapshots)."""

    def __init__(self, replay: Replay) -> None:
        self._replay = replay

    def __getitem__(self, n: int) -> Any:
        return self._replay.state_at(n)


class _LazyEvents(Sequence[tuple[Event, ...]]):
    """A trusted record's events by step, each found when first asked for (see
    :meth:`Replay._find_events`); reads like the list a checked record has."""

    def __init__(self, replay: Replay, length: int) -> None:
        self._replay = replay
        self.known: list[Any] = [None] * length

    def __len__(self) -> int:
        return len(self.known)

    @overload
    def __getitem__(self, i: int) -> tuple[Event, ...]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[Event, ...]]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self.known)))]
        found = self.known[i]  # an IndexError as a list's
        if found is None:
            replay = self._replay
            replay._find_events(i % len(self.known))
            if replay.events is not self:  # found bad and checked: read the checked events
                return replay.events[i] if -len(replay.events) <= i < len(replay.events) else ()
            found = self.known[i]
        return found


def _snapshots_of(record: Record) -> list[tuple[int, Any]] | None:
    """A sealed record's snapshots as (step, encoded state), when they are in order and within
    its steps (else None: its steps are checked instead)."""
    out = []
    last = 0
    for snap in record.snapshots:
        if not last < snap.step <= len(record.steps):
            return None
        out.append((snap.step, snap.state))
        last = snap.step
    return out
