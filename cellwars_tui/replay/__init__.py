"""Replays: step through any recorded game, see it per seat or revealed, and play on from any step.

Headless (no textual or rich): the replay screen in ``cellwars_tui.ui.replay`` is a view of this.
"""

from .catalog import Row, rows, search
from .model import SPEEDS, Replay

__all__ = ["Replay", "Row", "SPEEDS", "rows", "search"]
