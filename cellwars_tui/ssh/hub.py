"""The hub: lobby, tables, seats and authoritative game state, in the server process."""

from __future__ import annotations

import tempfile
from pathlib import Path


class Hub:
    def __init__(self) -> None:
        self._dir = Path(tempfile.mkdtemp(prefix="cellwars-hub-"))
        self.socket_path = self._dir / "hub.sock"
        self.tokens: dict[str, tuple[str, str]] = {}

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    def admit(self, token: str, identity: str, name: str) -> None:
        self.tokens[token] = (identity, name)

    def dismiss(self, token: str) -> None:
        self.tokens.pop(token, None)
