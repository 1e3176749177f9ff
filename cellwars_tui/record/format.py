"""The game record file: one versioned JSON format for every game.

A record holds a header (game, rules version, options, seats, seed, start time, result, origin) and
the list of steps (seat, action, seconds since start). Actions are decoded with the game's own
tagged-union decoder, so the format needs no code per game.

Schema evolution (msgspec's advice): new fields get defaults, no field ever changes type, unknown
fields are ignored, and ``format_version`` is ours to migrate with (see ``MIGRATIONS``).

Loading never raises anything but :class:`RecordError`, whose text names the file and the problem.
A record that goes bad part-way can still be opened up to its last valid step with
``load_record(..., partial=True)``.
"""

from __future__ import annotations

import datetime as _dt
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from ..core.api import Game, Outcome
from ..core.errors import BadNotation, BadOptions, CellwarsError, IllegalAction, RecordError
from ..core.match import Match, Seat, Step
from ..core.registry import get_game

FORMAT_VERSION = 1
SUFFIX = ".cellwars.json"


class Header(msgspec.Struct, kw_only=True):
    game: str
    rules_version: int
    options: dict[str, Any]
    seats: list[Seat]
    seed: int
    started: str
    result: Outcome | None = None
    origin: str | None = None  # "FILE#STEP" when started from a replay position
    finished: str | None = None
    title: str = ""


class RecordedStep(msgspec.Struct, array_like=True):
    seat: int
    action: msgspec.Raw
    t: float = 0.0


class Record(msgspec.Struct, kw_only=True):
    format_version: int
    header: Header
    steps: list[RecordedStep] = []


class _VersionProbe(msgspec.Struct):
    format_version: int


# format_version N -> function upgrading a raw dict from N to N+1
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}

_encoder = msgspec.json.Encoder(order="deterministic")
_record_decoder = msgspec.json.Decoder(Record)
_probe_decoder = msgspec.json.Decoder(_VersionProbe)


def now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def match_to_record(match: Match, *, origin: str | None = None, started: str | None = None) -> Record:
    """The record of a match's history up to its cursor (the redo branch is not kept)."""
    game = match.game
    header = Header(
        game=game.id,
        rules_version=game.rules_version,
        options=msgspec.to_builtins(match.options),
        seats=list(match.seats),
        seed=match.seed,
        started=started or getattr(match, "started", None) or now_iso(),
        result=match.outcome(),
        origin=origin if origin is not None else getattr(match, "origin", None),
        finished=now_iso() if match.is_over() else None,
    )
    steps = [
        RecordedStep(s.seat, msgspec.Raw(game.encode_action(s.action)), s.t) for s in match.history
    ]
    return Record(format_version=FORMAT_VERSION, header=header, steps=steps)


def encode_record(record: Record) -> bytes:
    return _encoder.encode(record)


def decode_record(data: bytes, path: object = "<record>") -> Record:
    """Decode and migrate a record's bytes; RecordError on anything wrong."""
    if not data.strip():
        raise RecordError(path, "the file is empty")
    try:
        version = _probe_decoder.decode(data).format_version
    except msgspec.ValidationError as exc:  # (a subclass of DecodeError: test it first)
        raise RecordError(path, f"not a cellwars record ({_short(exc)})") from None
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        raise RecordError(path, f"not a readable record ({_short(exc)})") from None
    if version > FORMAT_VERSION:
        raise RecordError(
            path, f"record format {version} is newer than this version of cellwars reads "
            f"({FORMAT_VERSION}); upgrade cellwars"
        )
    if version < 1:
        raise RecordError(path, f"record format {version} does not exist")
    try:
        if version < FORMAT_VERSION:
            raw = msgspec.json.decode(data)
            for v in range(version, FORMAT_VERSION):
                raw = MIGRATIONS[v](raw)
            return msgspec.convert(raw, Record)
        return _record_decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError, KeyError,
            TypeError, ValueError) as exc:
        raise RecordError(path, f"damaged record ({_short(exc)})") from None
    except RecursionError:
        raise RecordError(path, "damaged record (nested too deeply)") from None


def _short(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def record_game(record: Record, path: object = "<record>") -> Game:
    try:
        game = get_game(record.header.game)
    except CellwarsError:
        raise RecordError(path, f"unknown game {record.header.game!r}") from None
    if record.header.rules_version > game.rules_version:
        raise RecordError(
            path, f"made with newer {game.title} rules (version {record.header.rules_version})"
        )
    return game


def record_to_match(
    record: Record, path: object = "<record>", *, partial: bool = False, expect_game: str | None = None
) -> Match:
    """Rebuild a match by applying every recorded step.

    With ``partial=True`` a record that turns bad part-way gives the match up to its last valid step,
    and ``match.record_problem`` says where and why (None when the whole record is valid).
    """
    game = record_game(record, path)
    if expect_game is not None and game.id != expect_game:
        raise RecordError(path, f"this is a {game.title} record, not {expect_game}")
    h = record.header
    try:
        options = game.options_from_dict(h.options)
    except BadOptions as exc:
        raise RecordError(path, str(exc)) from None
    if len(h.seats) != options.players:
        raise RecordError(path, f"{len(h.seats)} seats recorded for {options.players} players")
    match = Match(game, options, h.seats, h.seed, auto_chance=False)
    match.started = h.started  # type: ignore[attr-defined]
    match.origin = h.origin  # type: ignore[attr-defined]
    match.record_problem = None  # type: ignore[attr-defined]
    steps: list[Step] = []
    problem: str | None = None
    for i, rs in enumerate(record.steps):
        try:
            action = game.decode_action(rs.action)
        except BadNotation as exc:
            problem = f"step {i + 1} is not a {game.title} action: {exc}"
            break
        steps.append(Step(rs.seat, action, rs.t))
    try:
        match.replay_steps(steps)
    except IllegalAction as exc:
        problem = str(exc)
    if problem is not None:
        if not partial:
            raise RecordError(path, problem, valid_steps=match.cursor)
        match.record_problem = f"valid up to step {match.cursor}; {problem}"  # type: ignore[attr-defined]
    match.auto_chance = True
    return match


# -- files --------------------------------------------------------------------------------------
def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


MAX_RECORD_BYTES = 64 * 1024 * 1024


def read_record_file(path: Path) -> Record:
    from .files import read_user_file

    return decode_record(read_user_file(path, limit=MAX_RECORD_BYTES), path)


def load_match(path: Path, *, partial: bool = False, expect_game: str | None = None) -> Match:
    match = record_to_match(read_record_file(path), path, partial=partial, expect_game=expect_game)
    match.path = path  # type: ignore[attr-defined]
    return match


def save_match(match: Match, path: Path) -> None:
    write_atomic(path, encode_record(match_to_record(match)))
