"""Cell Management's daily puzzle: the same solvable ship for everyone on a date."""

from __future__ import annotations

import datetime as _dt
import hashlib

import msgspec

from ...core.errors import BadOptions
from .setups import Setup, setup_count, setup_from_number
from .solver import min_rounds


def daily_number(date: _dt.date, species: int = 6) -> int:
    """The date's puzzle number (the same for everyone; solvability is checked by the caller)."""
    digest = hashlib.sha256(f"cell-management/{species}/{date.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % setup_count(species) + 1


def daily_setup(date: _dt.date, species: int = 6) -> Setup:
    """The date's puzzle: the setup numbered :func:`daily_number`, or the next solvable one."""
    count = setup_count(species)
    number = daily_number(date, species)
    for i in range(count):
        setup = setup_from_number((number - 1 + i) % count + 1, species)
        if min_rounds(setup) is not None:
            return msgspec.structs.replace(setup, daily=date.isoformat())
    raise BadOptions("no solvable setup exists")  # pragma: no cover


def is_daily(setup: Setup, species: int) -> bool:
    try:
        day = _dt.date.fromisoformat(setup.daily)
    except ValueError:
        return False
    return daily_setup(day, species) == setup
