"""A TCP relay between a test's client and the server, that can make the client go silent
(``freeze``) or vanish in the middle of a packet (``cut``) on cue: deterministic stand-ins for a
client whose network died and a client that dropped mid-frame."""

from __future__ import annotations

import asyncio
import contextlib


class Proxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.cut_after: int | None = None  # client bytes still let through before the cut
        self.server_side_closed = asyncio.Event()
        self._server: asyncio.AbstractServer | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._tasks: set[asyncio.Task] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self.port

    def freeze(self) -> None:
        """From now on nothing gets through either way (it is read and dropped, as by a dead
        network); no socket is closed."""
        self.flowing.clear()

    def cut(self, after: int) -> None:
        """Let ``after`` more bytes from the client through, then drop both sides at once."""
        self.cut_after = after

    async def _accept(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers += [client_w, server_w]
        for task in (self._pump(client_r, server_w, upstream=True),
                     self._pump(server_r, client_w, upstream=False)):
            t = asyncio.create_task(task)
            self._tasks.add(t)

    async def _pump(self, reader, writer, *, upstream: bool) -> None:
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    if not upstream:
                        self.server_side_closed.set()
                    writer.close()
                    return
                if not self.flowing.is_set():
                    continue  # lost on the way (read, so the proxy sees the server hang up)
                if upstream and self.cut_after is not None:
                    writer.write(data[:self.cut_after])
                    await writer.drain()
                    for w in self._writers:
                        w.transport.abort()
                    return
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            if not upstream:
                self.server_side_closed.set()

    async def close(self) -> None:
        for w in self._writers:
            w.transport.abort()
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(BaseException):
                await t
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
