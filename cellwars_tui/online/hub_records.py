"""A finished online game's record files on a server's disk, and in a keyed player's saved games
on whichever server they use.

Each server has a disk of its own: its tables folder (the table page's Replay opens a finished
game's record there) and its keyed players' homes (their saved games, the Replays page). With
several servers sharing one store (:mod:`.hub_cluster`):

* the table's owner writes a finished game's record into its tables folder and the saved games
  of every keyed player at the table (:meth:`.hub_play.TablePlay.write_records`);
* any other server that shows the finished table (to a player or spectator there, or because it
  took the table over) writes the same files on its own disk before it tells its players the
  record's name (:meth:`.hub_play.TablePlay.records_here`);
* a keyed player who connects to a server finds there their last :data:`RECENT_GAMES` finished
  games: those the league store keeps (each result holds its sealed record) and their saved
  games here lack are written in (:func:`deliver`), dated when the game ended.

A game is in a folder when a file named for its table's code (``*-CODE.cellwars.json``) holds
its seed, whatever stamp the name has (the owner stamps the name when it writes the file, a
delivery from the store with the game's end). The ids of the games written into (or found in) a
player's saved games are listed in :data:`DELIVERED` there, so that a game the player deleted
does not come back at their next login. Every file is written atomically, in a thread.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import os
import re
import threading
import time
from pathlib import Path

from ..core.errors import RecordError
from ..record.format import SUFFIX, read_record_file, write_atomic
from .league import LeagueStore

RECENT_GAMES = 20  # a player's last finished games a login brings into their saved games
DELIVERED = ".online-games"  # in a saved-games folder: the ids of the online games put there
DELIVERED_KEPT = 200  # ids that list keeps (the newest)

_GAME_ID = re.compile(r"([A-Z0-9]{1,16})-([0-9a-f]{16})")
_lock = threading.Lock()  # one check-then-write at a time (the hub's threads)


def record_file_name(game: str, code: str, when: float | None = None) -> str:
    """A finished game's record file name: its game, when (local time) and its table's code."""
    stamp = _dt.datetime.fromtimestamp(time.time() if when is None else when)
    return f"{game}-{stamp:%Y%m%d-%H%M%S}-{code}{SUFFIX}"


def plain_name(name: str) -> bool:
    """Whether ``name`` is a record file's name and nothing else (no folder, not hidden)."""
    return bool(name) and Path(name).name == name and not name.startswith(".") \
        and name.endswith(SUFFIX)


def has_game(folder: Path, game_id: str) -> bool:
    """Whether ``folder`` holds the record of the game ``game_id`` (``CODE-SEED``)."""
    found = _GAME_ID.fullmatch(game_id)
    if found is None:
        return False
    code, seed = found.group(1), int(found.group(2), 16)
    for path in folder.glob(f"*-{code}{SUFFIX}"):
        try:
            if read_record_file(path).header.seed == seed:
                return True
        except (RecordError, OSError):
            continue
    return False


def save_for_player(folder: Path, game_id: str, name: str, data: bytes,
                    when: float | None = None) -> bool:
    """The record ``data`` of game ``game_id`` in a player's saved games ``folder`` as ``name``
    (dated ``when``), unless the folder has that game already; listed there as delivered either
    way. True if it was written. OSError if it cannot be. (In a thread.)"""
    with _lock:
        folder.mkdir(parents=True, exist_ok=True)
        written = not has_game(folder, game_id)
        if written:
            write_atomic(folder / name, data)
            if when is not None:
                os.utime(folder / name, (when, when))
        _note_delivered(folder, [game_id])
        return written


def delivered(folder: Path) -> list[str]:
    """The ids listed as delivered into ``folder`` (a damaged list reads as what it holds)."""
    try:
        text = (folder / DELIVERED).read_text(encoding="utf-8", errors="replace")[:64 * 1024]
    except OSError:
        return []
    return [line for line in text.split() if _GAME_ID.fullmatch(line)]


def _note_delivered(folder: Path, game_ids: list[str]) -> None:
    known = delivered(folder)
    new = [g for g in game_ids if g not in known]
    if new:
        kept = (known + new)[-DELIVERED_KEPT:]
        write_atomic(folder / DELIVERED, ("\n".join(kept) + "\n").encode())


async def deliver(store: LeagueStore, identity: str, home: Path,
                  limit: int = RECENT_GAMES) -> int:
    """Write into ``home``'s saved games the last ``limit`` finished games of ``identity`` that
    the store keeps and that were never put there (found there, or written, before): how many
    were written. StoreError if the store cannot be read, OSError if a file cannot be written."""
    folder = home / "data" / "games"
    ids = await store.game_ids_of(identity, limit)
    if not ids:
        return 0
    loop = asyncio.get_running_loop()

    def missing() -> list[str]:
        with _lock:
            folder.mkdir(parents=True, exist_ok=True)
            known = set(delivered(folder))
            here = [g for g in ids if g not in known and has_game(folder, g)]
            _note_delivered(folder, here)
            return [g for g in ids if g not in known and g not in here]

    written = 0
    for game_id in reversed(await loop.run_in_executor(None, missing)):  # (oldest first)
        result = await store.finished_game(game_id)
        if result is None or not result.record:
            continue
        name = record_file_name(result.game, result.code, result.finished_at)
        written += await loop.run_in_executor(None, save_for_player, folder, game_id, name,
                                              result.record, result.finished_at)
    return written
