"""The game record file: one versioned JSON format for every game.

A record holds a header (game, rules version, options, seats, seed, start time, result, origin) and
the list of steps (seat, action, seconds since start). Actions are decoded with the game's own
tagged-union decoder, so the format needs no code per game.

Schema evolution (msgspec's advice): new fields get defaults, no field ever changes type, unknown
fields are ignored, and ``format_version`` is ours to migrate with (see ``MIGRATIONS``).

Loading never raises anything but :class:`RecordError`, whose text names the file and the problem.
A record that goes bad part-way can still be opened up to its last valid step with
``load_record(..., partial=True)``.

Sealed records (what the app writes): ``save_match`` also stores the state every ``SNAPSHOT_EVERY``
steps (each encoded once per match and cached, so an autosave after every action does not re-encode
them) and, first in the file, a ``digest``: blake2b over the rest of the file's bytes as written
(the record's encoding without a digest), keyed by the game's id, rules version and state and action
schemas. When a file's digest matches (:func:`sealed`), the file is byte for byte what the app wrote
after checking every action as it was played, so a replay may trust its steps and snapshots instead
of re-validating every step through the rules. Any edit, cut or salvage, an older file without the
new fields, other rules or other state types all leave the digest unmatched: then the steps are
checked one by one, as before. The fields are additive (older readers ignore them, older files lack
them), so ``FORMAT_VERSION`` stays 1. The digest guards against accidents, not forgery: whoever
recomputes it can vouch for any steps.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from ..core.api import Game, Outcome
from ..core.errors import BadNotation, BadOptions, CellwarsError, IllegalAction, RecordError
from ..core.match import Match, Seat, Step, now_iso
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
    title: str = ""  # Game.record_title: what tells this game apart in lists ("puzzle #12")
    lesson: str | None = None  # the game's id when the game began as its guided first game


class RecordedStep(msgspec.Struct, array_like=True):
    seat: int
    action: msgspec.Raw
    t: float = 0.0


class Snapshot(msgspec.Struct, array_like=True):
    """The full state after ``step`` steps, as the game encodes it (decoded only when needed)."""

    step: int
    state: msgspec.Raw


class Record(msgspec.Struct, kw_only=True, omit_defaults=True):
    # ``digest`` and ``snapshots`` were added within format 1: older files have neither (and a
    # record without them is written without them), older readers ignore them. The digest comes
    # first, so sealing and checking it never re-encode the record; the snapshots come after the
    # steps, so a file cut short loses as few steps as it can.
    digest: str = ""
    format_version: int
    header: Header
    steps: list[RecordedStep] = []
    snapshots: list[Snapshot] = []


class _VersionProbe(msgspec.Struct):
    format_version: int


# format_version N -> function upgrading a raw dict from N to N+1
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}

# A sealed record stores the state every SNAPSHOT_EVERY steps: a replay jumps to any step by
# decoding the snapshot before it and applying fewer than this many steps. The costliest run of
# steps is Cellulis Bellum's opening (placing nuclei and spawning, up to a millisecond a step): 32
# of them take about 6 ms; 32 Cell Wars steps about 1.5 ms. A 10,000-step record of Cell Wars
# (about 1 KB a state) carries about 310 KB of snapshots.
SNAPSHOT_EVERY = 32

_encoder = msgspec.json.Encoder(order="deterministic")
_record_decoder = msgspec.json.Decoder(Record)
_probe_decoder = msgspec.json.Decoder(_VersionProbe)


def match_to_record(match: Match, *, origin: str | None = None, started: str | None = None) -> Record:
    """The record of a match's history up to its cursor (the redo branch is not kept)."""
    game = match.game
    header = Header(
        game=game.id,
        rules_version=game.rules_version,
        options=msgspec.to_builtins(match.options),
        seats=list(match.seats),
        seed=match.seed,
        started=started or match.started or now_iso(),
        result=match.outcome(),
        origin=origin if origin is not None else match.origin,
        finished=now_iso() if match.is_over() else None,
        title=game.record_title(match.state),
        lesson=match.lesson,
    )
    cache = _cache_of(match)
    steps = cache.recorded_steps(game, match.history)
    snapshots = cache.snapshots(game, match.states, len(steps))
    return Record(format_version=FORMAT_VERSION, header=header, steps=steps, snapshots=snapshots)


class _EncodeCache:
    """What one match's saves have encoded already: each step's recorded form and each snapshot's
    bytes, reused while the step or state at that index is the very same (immutable) object."""

    __slots__ = ("steps", "snaps")

    def __init__(self) -> None:
        self.steps: list[tuple[Step, RecordedStep]] = []
        self.snaps: dict[int, tuple[Any, Snapshot]] = {}

    def recorded_steps(self, game: Game, history: list[Step]) -> list[RecordedStep]:
        cached = self.steps
        if len(cached) > len(history):
            del cached[len(history):]
        for i, (step, _) in enumerate(cached):  # the first step that differs ends the reuse
            if step is not history[i]:
                del cached[i:]
                break
        for step in history[len(cached):]:
            action = msgspec.Raw(game.encode_action(step.action))
            cached.append((step, RecordedStep(step.seat, action, step.t)))
        return [recorded for _, recorded in cached]

    def snapshots(self, game: Game, states: Any, length: int) -> list[Snapshot]:
        out = []
        for n in range(SNAPSHOT_EVERY, length + 1, SNAPSHOT_EVERY):
            state = states[n]
            hit = self.snaps.get(n)
            if hit is None or hit[0] is not state:
                hit = (state, Snapshot(n, msgspec.Raw(game.encode_state(state))))
                self.snaps[n] = hit
            out.append(hit[1])
        for n in [n for n in self.snaps if n > length]:  # an undo dropped them
            del self.snaps[n]
        return out


_caches: weakref.WeakKeyDictionary[Any, _EncodeCache] = weakref.WeakKeyDictionary()


def _cache_of(match: Any) -> _EncodeCache:
    try:
        cache = _caches.get(match)
        if cache is None:
            cache = _caches[match] = _EncodeCache()
        return cache
    except TypeError:  # an object that cannot be weakly referenced: no cache
        return _EncodeCache()


def encode_record(record: Record) -> bytes:
    """The record's bytes as they stand (a digest it carries is kept, not recomputed: see
    :func:`seal_record`)."""
    return _encoder.encode(record)


# -- the digest -----------------------------------------------------------------------------------
_DIGEST_HEAD = b'{"digest":"'
_DIGEST_HEX = 32  # blake2b, 16 bytes
_DIGEST_REST = len(_DIGEST_HEAD) + _DIGEST_HEX + 2  # past '",': the unsealed encoding goes on
_fingerprints: dict[tuple[type, int], bytes] = {}


def _fingerprint(game: Game) -> bytes:
    """The game's id, rules version and state and action schemas (field names, types, defaults):
    a record sealed under other state types or rules never passes as sealed under these."""
    key = (type(game), game.rules_version)
    found = _fingerprints.get(key)
    if found is None:
        try:
            schema = msgspec.json.encode(
                msgspec.json.schema_components([game.state_type, game.action_type]))
        except Exception:  # a type msgspec cannot describe: its name stands in
            schema = repr((game.state_type, game.action_type)).encode()
        found = hashlib.blake2b(f"{game.id}/{game.rules_version}/".encode() + schema,
                                digest_size=32).digest()
        _fingerprints[key] = found
    return found


SECRET_FILE = "record-seal.key"
_SECRET_BYTES = 32
_secrets: dict[str, bytes] = {}


def seal_secret() -> bytes:
    """This installation's secret for sealing records (random, made on first use in the data
    dir, readable by the user only). The digest is keyed by it, so only records this
    installation wrote open unchecked; a record from another machine or another CELLWARS_HOME,
    or one crafted with a fresh digest, is checked step by step like any unsealed record. When
    the data dir cannot keep the secret, it lasts for this process only."""
    from ..locations import data_dir

    try:
        where = data_dir()
    except OSError:
        where = None
    found = _secrets.get(str(where))
    if found is not None:
        return found
    secret = _read_or_make_secret(where / SECRET_FILE) if where is not None else None
    if secret is None:
        secret = os.urandom(_SECRET_BYTES)
    _secrets[str(where)] = secret
    return secret


def _read_or_make_secret(path: Path) -> bytes | None:
    """The secret in ``path``, made there if missing or damaged; None if the dir cannot keep it.
    A new secret is written to a temporary file, then linked in (never over one another process
    has just made: that one is read instead) or, over a damaged one, put in its place; a reader
    never sees half a secret."""
    for _ in range(3):
        try:
            data: bytes | None = path.read_bytes()
        except FileNotFoundError:
            data = None
        except OSError:
            return None
        if data is not None and len(data) == _SECRET_BYTES:
            return data
        try:
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".seal-")
        except OSError:
            return None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(os.urandom(_SECRET_BYTES))
            if data is None:
                with contextlib.suppress(FileExistsError):
                    os.link(tmp, path)
            else:
                os.replace(tmp, path)
        except OSError:
            return None
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return None


def _digest(game: Game, rest: bytes | memoryview) -> str:
    """The digest of the unsealed encoding ``{`` + ``rest``, keyed by the game's rules and types
    and this installation's secret."""
    h = hashlib.blake2b(b"{", digest_size=_DIGEST_HEX // 2, key=_fingerprint(game) + seal_secret())
    h.update(rest)
    return h.hexdigest()


def seal_record(record: Record, game: Game) -> bytes:
    """The bytes of ``record`` with its digest first: only for steps the rules have checked (a
    match's history, a validated replay), since a sealed record is trusted when opened."""
    body = _encoder.encode(msgspec.structs.replace(record, digest=""))
    rest = body[1:]  # after the opening brace: never empty, the record has required fields
    return _DIGEST_HEAD + _digest(game, rest).encode() + b'",' + rest


def sealed(data: bytes, record: Record, game: Game) -> bool:
    """Whether ``data`` (which decoded to ``record``) is a record exactly as :func:`seal_record`
    wrote it for ``game``'s rules and types."""
    if len(record.digest) != _DIGEST_HEX or record.header.rules_version != game.rules_version:
        return False
    if not (data.startswith(_DIGEST_HEAD) and data[_DIGEST_REST - 2:_DIGEST_REST] == b'",'
            and data[len(_DIGEST_HEAD):_DIGEST_REST - 2] == record.digest.encode()):
        return False
    return _digest(game, memoryview(data)[_DIGEST_REST:]) == record.digest


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
        options = game.options_from_record(h.options, h.rules_version)
    except BadOptions as exc:
        raise RecordError(path, str(exc)) from None
    if len(h.seats) != options.players:
        raise RecordError(path, f"{len(h.seats)} seats recorded for {options.players} players")
    match = Match(game, options, h.seats, h.seed, auto_chance=False)
    match.started = h.started or match.started
    match.origin = h.origin
    match.lesson = h.lesson
    match.record_problem = None
    steps: list[Step] = []
    problem: str | None = None
    for i, rs in enumerate(record.steps):
        try:
            action = game.decode_action(rs.action)
        except BadNotation as exc:
            problem = f"step {i + 1} is {exc}"  # (exc: "not a <game> action: why")
            break
        steps.append(Step(rs.seat, action, rs.t))
    try:
        match.replay_steps(steps)
    except IllegalAction as exc:
        problem = str(exc)
    if problem is not None:
        if not partial:
            raise RecordError(path, problem, valid_steps=match.cursor)
        match.record_problem = f"valid up to step {match.cursor}; {problem}"
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
    match.path = path
    return match


def encode_match(match: Match) -> bytes:
    """The sealed record of a match (see :func:`seal_record`): what ``save_match`` writes."""
    return seal_record(match_to_record(match), match.game)


def save_match(match: Match, path: Path) -> None:
    write_atomic(path, encode_match(match))
