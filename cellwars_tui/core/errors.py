"""The project's own errors.

Every failure a user can cause (a wrong action, a corrupt file, an absurd option) is raised as a
subclass of :class:`CellwarsError` whose ``str()`` is one plain sentence fit to show on one line.
"""

from __future__ import annotations


class CellwarsError(Exception):
    """Base class of every error the project raises on purpose."""


class IllegalAction(CellwarsError):
    """An action that the rules do not allow in this state, or from this seat."""


class BadNotation(CellwarsError):
    """Text that does not parse as an action, a position or an option."""


class BadOptions(CellwarsError):
    """Game options that make no sense (wrong player count, absurd values)."""


class RecordError(CellwarsError):
    """A record file that cannot be read: truncated, corrupt, wrong game or future version."""

    def __init__(self, path: object, problem: str, *, valid_steps: int | None = None) -> None:
        self.path = str(path)
        self.problem = problem
        self.valid_steps = valid_steps
        super().__init__(f"{self.path}: {problem}")
