"""The table store's one error, apart so that every part of the store (tables, results and
ratings) raises the same one without importing the others."""

from __future__ import annotations


class StoreError(Exception):
    """The store could not save or read (one line: the disk is full, the file is damaged...)."""
