"""A server's shared store: the PostgreSQL table store and its place among the servers using it
(:mod:`.node`), opened together at start (before the server writes anything) and closed
together."""

from __future__ import annotations

from .node import ClusterNode
from .store import PostgresTableStore


class SharedStore:
    def __init__(self, store: PostgresTableStore, node: ClusterNode) -> None:
        self.store = store
        self.node = node

    @classmethod
    async def open(cls, url: str, name: str) -> SharedStore:
        """Reach the database, check its schema and take this server's name; StoreError (one
        line) if any of it fails, with nothing written."""
        store = await PostgresTableStore.open(url, origin=name)
        node = ClusterNode(url, name)
        try:
            await node.start()
        except BaseException:
            await store.close()
            raise
        return cls(store, node)

    async def close(self) -> None:
        await self.node.close()
        await self.store.close()
