"""Checked by mypy (tests/test_types.py), never run: each table kind is a ``Table``, each clock
a ``RoundClock``, and ``NoUndo`` the undo part of one. A member missing or of the wrong type in any of them fails the type check."""

from __future__ import annotations

from cellwars_tui.online.remote import RemoteTable
from cellwars_tui.table import (
    FollowingClock, LocalTable, NoUndo, ReplayTable, RoundClock, RoundSession, Table, Undoing,
)


def local(table: LocalTable) -> Table:
    return table


def replay(table: ReplayTable) -> Table:
    return table


def remote(table: RemoteTable) -> Table:
    return table


def no_undo(part: NoUndo) -> Undoing:
    return part


def session(clock: RoundSession) -> RoundClock:
    return clock


def following(clock: FollowingClock) -> RoundClock:
    return clock
