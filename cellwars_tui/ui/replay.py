"""Replays in the app: open a record in the replay viewer, or the Replays page.

The viewer is :mod:`.replay_viewer` (its bar's scrubber is ui/widgets/scrubber.py, its dialogs
:mod:`.replay_dialogs`), the Replays page :mod:`.replay_list`, and the files a player names for
move-list exports and imports :mod:`.replay_files`. Their public names are gathered here.
"""

from __future__ import annotations

import logging
from pathlib import Path

from textual.app import App
from textual.screen import Screen

from ..core.errors import CellwarsError
from ..replay import Replay
from .replay_dialogs import SEAT_CHOICES, AskText, SeatsDialog
from ..record.files import MAX_MOVE_LIST_BYTES, check_user_file, read_user_file
from .replay_files import confined, exports_dir, import_move_list, user_file
from .replay_list import ReplayListScreen, list_cells, list_columns
from .replay_viewer import ReplayBar, ReplayScreen, replay_screen_class
from .widgets.scrubber import Scrubber

log = logging.getLogger(__name__)

__all__ = [
    "AskText", "MAX_MOVE_LIST_BYTES", "ReplayBar", "ReplayListScreen", "ReplayScreen",
    "SEAT_CHOICES", "Scrubber", "SeatsDialog", "check_user_file", "confined", "exports_dir",
    "import_move_list", "list_cells", "list_columns", "open_replay", "read_user_file",
    "replay_screen_class", "user_file",
]


def open_replay(app: App, path: Path | str | Replay) -> Screen | None:
    """Push the replay viewer for ``path``; a record that cannot be opened at all is a
    one-line error notification instead."""
    try:
        screen = ReplayScreen(path)
    except CellwarsError as exc:
        app.notify(str(exc), severity="error", timeout=10)
        return None
    except Exception as exc:  # a game screen's bug: a message, never a crash of the app
        log.exception("cannot open a replay of %s", path)
        app.notify(f"{path}: this game's screen cannot show a replay "
                   f"({type(exc).__name__}: {exc})", severity="error", timeout=10)
        return None
    app.push_screen(screen)
    return screen
