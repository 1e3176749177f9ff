"""A PostgreSQL driver's error as one line (the store, the league and the node all say them)."""

from __future__ import annotations


def one_line(exc: BaseException) -> str:
    """A driver's message on one line (psycopg's span several, with hints)."""
    text = " ".join(str(exc).split("\n", 1)[0].split()) or type(exc).__name__
    return text[:300]
