"""Moved to :mod:`cellwars_tui.table.listeners`. This re-export stays only while
``ssh/remote.py`` (being rewritten by the SSH security work) imports it from here."""

from ..table.listeners import ChangeListeners

__all__ = ["ChangeListeners"]
