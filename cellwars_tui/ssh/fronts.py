"""What the two front ends share: the SSH server (:mod:`.server`) and the browser front
(:mod:`.web`).

``cellwars serve --web`` runs both, and the SSH server starts the browser front; the browser
front never imports the server. What they share is here:

* admission: one cap on connections, one session cap and one per-address cap over SSH
  players and browser tabs together. Each front is an :class:`Admission` the other asks before letting someone in;
* :func:`run_until_stopped`: how ``cellwars serve`` and ``cellwars web`` run until interrupted.
"""

from __future__ import annotations

import asyncio
import signal
from typing import Protocol


class Admission(Protocol):
    """A front end's sessions, counted with the other front end's (``serve --web``)."""

    def sessions_in_use(self) -> int:
        """Sessions (SSH sessions or browser tabs) running now."""
        ...

    def connections_from(self, address: str) -> int:
        """Connections (or tabs) open now from ``address`` (counted by ``logins.client_of``)."""
        ...

    def connections_open(self) -> int:
        """Connections (or tabs) open now, logged in or not."""
        ...


async def run_until_stopped(server, *, ready=None, stop: asyncio.Event | None = None) -> None:
    """Tell ``ready`` the server is up, wait for ``stop`` (default: SIGINT or SIGTERM), then close
    the server (``cellwars serve`` and ``cellwars web`` alike)."""
    if stop is None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
    if ready is not None:
        ready(server)
    try:
        await stop.wait()
    finally:
        await server.close()
