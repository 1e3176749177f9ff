"""The session app's side of the hub connection (pure asyncio: no UI here).

``HubClient.from_env()`` connects with the socket and token the server put in the environment;
``send()`` queues a request; ``messages()`` yields what the hub sends. ``latest`` keeps the last
welcome, lobby and table state, so a screen can draw at once when it is (re)mounted.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator

from ..core.errors import CellwarsError
from . import protocol as p

ENV_HUB = "CELLWARS_SSH_HUB"
ENV_TOKEN = "CELLWARS_SSH_TOKEN"
ENV_IDENTITY = "CELLWARS_SSH_IDENTITY"
ENV_RECORDS = "CELLWARS_SSH_RECORDS"  # the hub's tables folder: finished games' records
ENV_SESSION_LOG = "CELLWARS_SESSION_LOG"  # where a failing session's app writes why


def in_ssh_session() -> bool:
    """Whether this app runs as a session of ``cellwars serve`` (with a hub to join)."""
    return bool(os.environ.get(ENV_HUB) and os.environ.get(ENV_TOKEN))


class HubClient:
    def __init__(self, socket_path: str, token: str) -> None:
        self.socket_path = socket_path
        self.token = token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.welcome: p.Welcome | None = None
        self.lobby: p.Lobby | None = None
        self.table: p.TableState | None = None
        self.chats: dict[str, p.ChatLines] = {}  # the latest chat of the lobby, of the table

    @classmethod
    def from_env(cls) -> HubClient:
        if not in_ssh_session():
            raise CellwarsError("not running as a session of `cellwars serve`")
        return cls(os.environ[ENV_HUB], os.environ[ENV_TOKEN])

    async def connect(self) -> None:
        try:
            self.reader, self.writer = await asyncio.open_unix_connection(self.socket_path)
        except OSError as exc:
            raise CellwarsError(f"cannot reach the lobby: {exc.strerror or exc}") from None
        self.send(p.Hello(token=self.token))

    def send(self, msg: p.Msg) -> None:
        if self.writer is None or self.writer.is_closing():
            raise CellwarsError("the lobby connection is closed")
        self.writer.write(p.frame(msg))

    async def messages(self) -> AsyncIterator[p.Msg]:
        """Every message from the hub, until it hangs up."""
        assert self.reader is not None
        while True:
            try:
                body = await p.read_frame(self.reader)
            except (p.ProtocolError, ConnectionError):
                return
            if body is None:
                return
            msg = p.decode_down(body)
            match msg:
                case p.Welcome():
                    self.welcome = msg
                case p.Lobby():
                    self.lobby = msg
                case p.TableState():
                    self.table = msg
                case p.Left():
                    self.table = None
                case p.ChatLines():  # the lobby's, and the latest table's
                    keep = {"lobby": self.chats["lobby"]} if "lobby" in self.chats else {}
                    keep[msg.where] = msg
                    self.chats = keep
            yield msg

    async def next(self, kind: type[p.Msg] | tuple[type[p.Msg], ...], timeout: float = 10.0) -> p.Msg:
        """The next message of ``kind`` (for tests and scripts)."""

        async def find() -> p.Msg:
            async for msg in self.messages():
                if isinstance(msg, kind):
                    return msg
            raise CellwarsError("the hub hung up")

        return await asyncio.wait_for(find(), timeout)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
