"""The analysis saved beside its record: ``NAME.analysis.json`` next to ``NAME.cellwars.json``,
written atomically, keyed by the record's content (blake2b of its bytes) and the budget, so that
reopening a replay shows its analysis at once and a record that changed (an unfinished game
played on) is never shown an analysis of other moves.

A sidecar that cannot be read, or that belongs to another record, is a one-line
:class:`SidecarProblem`; the replay opens all the same and the analysis can be run again (it then
replaces the file).
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from ..core.errors import CellwarsError
from ..record.files import read_user_file
from ..record.format import SUFFIX, write_atomic
from .model import FORMAT, Analysis, decode, encode

SIDECAR_SUFFIX = ".analysis.json"
MAX_SIDECAR_BYTES = 16 * 1024 * 1024


class SidecarProblem(CellwarsError):
    """A damaged sidecar, or one of another record (one line)."""


def sidecar_path(record: Path) -> Path:
    name = record.name
    stem = name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name
    return record.with_name(stem + SIDECAR_SUFFIX)


def load(record: Path, key: str, budget: int | None = None) -> Analysis | None:
    """The analysis saved for ``record`` whose bytes hash to ``key`` (and made at ``budget``
    when one is asked), None when there is none; SidecarProblem when there is a file but not a
    usable one."""
    path = sidecar_path(record)
    if not path.exists():
        return None
    try:
        data = read_user_file(path, limit=MAX_SIDECAR_BYTES)
    except CellwarsError as exc:
        raise SidecarProblem(f"{path.name}: {exc}") from None
    try:
        found = decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
        text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise SidecarProblem(f"{path.name}: damaged analysis file ({text[:100]}); "
                             f"press a to analyse again") from None
    if found.format != FORMAT:
        raise SidecarProblem(f"{path.name}: an analysis of format {found.format} (this version "
                             f"reads {FORMAT}); press a to analyse again")
    if found.record_key != key:
        raise SidecarProblem(f"{path.name}: belongs to another record (or the record changed "
                             f"since); press a to analyse again")
    if budget is not None and found.budget != budget:
        return None
    return found


def peek(record: Path, key: str | None = None) -> Analysis | None:
    """The saved analysis of ``record`` if there is a usable one (None otherwise, quietly: for
    lists). Without ``key`` the record's bytes are hashed here."""
    if not sidecar_path(record).exists():
        return None
    try:
        if key is None:
            from .run import file_key

            key = file_key(record)
        return load(record, key)
    except CellwarsError:
        return None


def save(record: Path, analysis: Analysis) -> Path:
    """Write the analysis beside ``record`` (atomically); OSError when the folder refuses."""
    path = sidecar_path(record)
    write_atomic(path, encode(analysis))
    return path
