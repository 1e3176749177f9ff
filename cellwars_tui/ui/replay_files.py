"""The files a player names in the replays: move-list exports and imports, and where they go
(a bare name is in the exports folder; a session of ``cellwars serve`` stays in its own)."""

from __future__ import annotations

from pathlib import Path

from ..core.errors import RecordError
from ..locations import confined as locations_confined
from ..locations import data_dir
from ..record.files import read_user_file
from ..record.format import SUFFIX, write_atomic
from ..replay import Replay


def exports_dir() -> Path:
    path = data_dir() / "exports"
    path.mkdir(parents=True, exist_ok=True)
    return path


def confined() -> bool:
    """Whether this app is a session a server runs for someone else (``cellwars serve``,
    ``cellwars web``, ``locations.confined``): a remote player's files then stay in that
    player's own exports folder (no path on the server can be named, none is shown)."""
    return locations_confined()


def user_file(text: str) -> Path | None:
    """The file a player named for an export or import: a bare name is in the exports folder;
    any other path is used as given, except in a server session (its name in the exports
    folder). None when ``text`` names no file."""
    path = Path(text.strip()).expanduser()
    if confined():
        name = Path(text.strip()).name
        return exports_dir() / name if name not in ("", ".", "..") else None
    if not path.name:
        return None
    if not path.is_absolute() and len(path.parts) == 1 and not path.exists():
        return exports_dir() / path
    return path


def stem(path: Path | None, fallback: str) -> str:
    """A record's name without its suffix (``fallback`` without a path)."""
    if path is None:
        return fallback
    name = path.name
    return name[: -len(SUFFIX)] if name.endswith(SUFFIX) else path.stem


def import_move_list(path: Path) -> Replay:
    """Read a plain-text move list and keep it as a saved game (so it is listed). Only a
    regular file of at most :data:`MAX_MOVE_LIST_BYTES` is read."""
    from ..record.store import new_game_path

    data = read_user_file(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(path, "not a move list (not UTF-8 text)") from None
    replay = Replay.from_text(text, path)
    target = new_game_path(replay.game.id)
    try:
        write_atomic(target, replay.record_bytes())
    except OSError as exc:  # shown anyway, just not kept
        replay.warning = f"not kept as a saved game ({exc.strerror or exc})"
        return replay
    replay.path = target
    return replay
