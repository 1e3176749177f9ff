"""The session's place at one table of the hub, headless: what any front end plays a table through.

:class:`TableSeat` follows one table's states from the hub, owns the seat's
:class:`~.remote.RemoteTable` once the game has started (the game's own screen, or a headless
client, plays through it), and routes the hub's answers: a state updates the remote table, a
refused move lets the next queued one go, leaving the table ends it. A front end hands it every
message from the hub (:meth:`hub_message`) and reads what happened from the answer: the lobby's
table screen (:mod:`cellwars_tui.ssh.lobby`) then draws, a test's client plays on. It imports no
transport and no UI library.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..core.api import Game
from ..core.errors import CellwarsError
from . import protocol as p
from .remote import RemoteTable

STATE, LEFT, REFUSED = "state", "left", "refused"  # what a message from the hub did here


class TableSeat:
    """One table, as this session sits at it (or watches it)."""

    def __init__(self, code: str, send: Callable[[p.Msg], None], *,
                 notify: Callable[[str], None] | None = None, game: Game | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.code = code
        self.send = send
        self.notify = notify or (lambda text: None)
        self.game = game
        self.clock = clock
        self.state: p.TableState | None = None
        self.remote: RemoteTable | None = None  # once the game has started
        self.left = False
        self.problem = ""  # why the game cannot be followed here (a game this build lacks)

    def hub_message(self, msg: p.Msg) -> str | None:
        """Follow one message from the hub: STATE (this table's new state), LEFT (this session
        left it), REFUSED (an error: a refused move's seat may act again), or None (not about
        this table)."""
        match msg:
            case p.TableState() if msg.info.code == self.code:
                self.state = msg
                self._follow(msg)
                return STATE
            case p.Left():
                self.left = True
                return LEFT
            case p.Error():
                if self.remote is not None and msg.seq:
                    self.remote.refused(msg.seq)  # the next queued move may go
                return REFUSED
        return None

    def _follow(self, state: p.TableState) -> None:
        if not state.view:
            return
        if self.remote is not None:
            self.remote.update(state)
            return
        try:
            self.remote = RemoteTable(state, self.send, self.game, clock=self.clock,
                                      notify=self.notify)
        except CellwarsError as exc:
            self.problem = str(exc)
            self.notify(self.problem)

    @property
    def started(self) -> bool:
        return self.remote is not None
