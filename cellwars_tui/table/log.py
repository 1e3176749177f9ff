"""A table's log, written once: what each step adds to it, and the sentences a reader may read.

Every table (local, replay, the online hub's) keeps its log as entries ``(step, seat, what)``:
``what`` is a public sentence (a note, or "Ann: roll" for a move without events in a game
without secrets) or a game :class:`~cellwars_tui.core.api.Event`. :func:`step_entries` says
what one step adds; :func:`sentences` turns entries into the lines a reader may read: the game's
``view_event(event, seat)`` hides (None) or masks what that seat may not know (a spectator is
seat None), unless the reader sees everything (a local game, a replay revealing all). A game's
bug in ``view_event`` or ``describe_event`` never breaks a table: a hidden event stays hidden,
a sentence that cannot be written says so in one line. No textual or rich here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..core.api import CHANCE, Action, Event, Game
from .protocol import LogEntry

Entry = tuple[int, "int | None", "str | Event"]  # (step, seat or None, sentence or event)


def moved(name: str, game: Game, action: Action) -> str:
    """The line of a move that told no event ("Ann: hold")."""
    return f"{name}: {game.action_to_str(action)}"


def step_entries(game: Game, step: int, seat: int, action: Action, events: Sequence[Event],
                 name: str, *, reader: int | None = None, everything: bool = False
                 ) -> list[Entry]:
    """What step number ``step`` (1-based) adds to the log: its events, or, for a move that
    told none, the move itself when every seat may know it (a game without secrets), the
    reader made it, or the reader sees everything (a replay revealing all)."""
    who = None if seat == CHANCE else seat
    out: list[Entry] = []
    shown = everything or not game.hidden_information or (who is not None and who == reader)
    if not events and who is not None and shown:
        try:
            out.append((step, who, moved(name, game, action)))
        except Exception:  # noqa: BLE001 - a game's notation bug must not break the table
            pass
    out.extend((step, who, event) for event in events)
    return out


def sentences(game: Game, entries: Iterable[Entry], names: Sequence[str], *,
              reader: int | None = None, everything: bool = False) -> list[LogEntry]:
    """The log as ``reader`` may read it (None: a spectator; ``everything``: no secrets kept,
    as at a local table or a replay revealing all)."""
    out: list[LogEntry] = []
    for step, seat, what in entries:
        if isinstance(what, str):
            out.append((step, seat, what))
            continue
        event: Event | None = what
        if not everything:
            try:
                event = game.view_event(what, reader)
            except Exception:  # noqa: BLE001 - a game's bug must neither leak nor break the table
                event = None
        if event is None:
            continue
        try:
            text = game.describe_event(event, names)
        except Exception as exc:  # noqa: BLE001 - a game's text bug must not break the table
            text = f"({type(event).__name__}: {exc})"
        out.append((step, seat, text))
    return out
