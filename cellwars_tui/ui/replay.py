"""Replays in the app: the replay viewer and the Replays page, by their public names.

The viewer is :mod:`.replay_viewer` (its bar's scrubber is ui/widgets/scrubber.py, its dialogs
:mod:`.replay_dialogs`), the Replays page :mod:`.replay_list`, and the files a player names for
move-list exports and imports :mod:`.replay_files`. Their public names are gathered here.
"""

from __future__ import annotations

from ..record.files import MAX_MOVE_LIST_BYTES, check_user_file, read_user_file
from .replay_dialogs import SEAT_CHOICES, AskText, SeatsDialog
from .replay_files import confined, exports_dir, import_move_list, user_file
from .replay_list import ReplayListScreen, list_cells, list_columns
from .replay_viewer import ReplayBar, ReplayScreen, open_replay, replay_screen_class
from .widgets.scrubber import Scrubber

__all__ = [
    "AskText", "MAX_MOVE_LIST_BYTES", "ReplayBar", "ReplayListScreen", "ReplayScreen",
    "SEAT_CHOICES", "Scrubber", "SeatsDialog", "check_user_file", "confined", "exports_dir",
    "import_move_list", "list_cells", "list_columns", "open_replay", "read_user_file",
    "replay_screen_class", "user_file",
]
