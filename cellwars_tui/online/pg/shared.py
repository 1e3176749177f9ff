"""A server's shared store: the PostgreSQL table store and its place among the servers using it
(:mod:`.node`), opened together at start (before the server writes anything) and closed
together."""

from __future__ import annotations

import hashlib
import hmac

from ..store import StoreError
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

    async def check_identity(self, host_key: str, guest_secret: bytes) -> None:
        """Every server of one store must have the same host key (players' SSH clients would
        see a changed key from one to the next) and the same guests' secret (a reconnect code
        made on one would give nothing back on another). The first server to start records
        the key's fingerprint and a check value of the secret (an HMAC of a constant: nothing
        about the secret itself); a server that differs is refused (StoreError, one line)."""
        check = hmac.new(guest_secret, b"cellwars: one guest secret for every server",
                         hashlib.sha256).hexdigest()[:32]
        wanted = {"host_key": host_key, "guest_secret_check": check}
        rows = await self.store._query(
            "INSERT INTO cellwars_settings (key, value) VALUES ('host_key', %(host_key)s), "
            "('guest_secret_check', %(guest_secret_check)s) ON CONFLICT (key) DO NOTHING; ",
            wanted)
        rows = await self.store._query(
            "SELECT key, value FROM cellwars_settings WHERE key IN "
            "('host_key', 'guest_secret_check')")
        found = dict(rows)
        if found.get("host_key") != host_key:
            raise StoreError(
                f"this server's host key ({host_key}) is not the one of the servers sharing "
                f"this store ({found.get('host_key')}): copy ssh_host_ed25519_key and "
                "ssh_guest_secret from their data dir into this one's (README: Running "
                "several servers)")
        if found.get("guest_secret_check") != check:
            raise StoreError(
                "this server's guest secret is not the one of the servers sharing this store "
                "(a reconnect code made on one would not work on another): copy "
                "ssh_guest_secret from their data dir into this one's")

    async def close(self) -> None:
        await self.node.close()
        await self.store.close()
