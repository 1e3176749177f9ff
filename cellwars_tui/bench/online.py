"""Load figures for the online hub (issue 30): a move's round trip with 50 busy tables, beside the
same move at a local table, and the hub's event-loop lag while every save is slowed on purpose.

* **Round trip**: a hub with its SQLite store (as ``cellwars serve`` runs it) and 50 busy tables
  of Virus Fight at once (two quick players at each, a random legal move 0.3 s after it is
  their turn; a new game when one ends; their clients in a process of their own, as sessions
  are); at one more table two clients play random legal moves in the game's notation as fast
  as the hub answers. A move's round trip runs from the Play sent to the new state received by
  every seat of that table (what each seat's screen repaints from); the local figure is the
  same kind of move at a ``LocalTable`` with autosave on, from ``submit`` to its listener.
* **Loop lag**: the same 50 busy tables while every save of the store sleeps 50 ms in the
  store's thread; a ticker in the hub's event loop asks to wake every 5 ms and measures how late
  it wakes. A save that ran on the loop would make it 50 ms late each time.
* **Floor**: a bare asyncio loop in a process of its own ticks the same way during each run; its
  lag is what the machine's scheduler alone costs (on a loaded machine the hub's figure is read
  against it).
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from . import Result, result

TABLES = 50
GAME = "virus-fight"
PACE = 0.3  # seconds a busy table's player takes over a move


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.1f}/{five:.1f} on {os.cpu_count()} cores"


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _slow_store(path: Path, delay: float) -> Any:
    """The SQLite store, each table's save sleeping ``delay`` seconds in a thread first (a far
    database); everything else (loading, the league's results and ratings) is the store's own."""
    from ..online.store import SqliteTableStore

    class SlowStore(SqliteTableStore):
        async def save(self, table) -> None:
            await asyncio.get_running_loop().run_in_executor(None, time.sleep, delay)
            await super().save(table)

    return SlowStore(path) if delay else SqliteTableStore(path)


async def _client(hub, identity: str):
    from ..online.client import HubClient

    token = secrets.token_hex(8)
    hub.admit(token, identity, identity.split(":")[1])
    client = HubClient(str(hub.socket_path), token)
    await client.connect()
    return client


async def _busy_process(hub, n: int, pace: float) -> asyncio.subprocess.Process:
    """The ``n`` busy tables' players, in a process of their own (as sessions are: the hub's
    event loop is measured alone): ``python -m cellwars_tui.bench.online SOCKET PACE`` reads
    its players' tokens on stdin."""
    import json
    import sys

    tokens = []
    for i in range(n):
        pair = []
        for who in (f"host{i}", f"guest{i}"):
            token = secrets.token_hex(8)
            hub.admit(token, f"key:{who}", who)
            pair.append(token)
        tokens.append(pair)
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", __name__, str(hub.socket_path), str(pace),
        stdin=asyncio.subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(tokens).encode() + b"\n")
    await proc.stdin.drain()
    return proc


async def _busy_tables(socket: str, tokens: list[list[str]], pace: float) -> None:
    """Tables where two players each make a random legal move ``pace`` seconds after it is
    their turn (a quick player), a new game at the same table's players once one ends."""
    from ..online import protocol as p
    from ..online.client import HubClient

    async def player(client, seat: int, codes: asyncio.Queue[str], rng: random.Random) -> None:
        while True:
            if seat == 0:
                client.send(p.CreateTable(game=GAME, players=2))
                state = await client.next(p.TableState, timeout=600)
                assert isinstance(state, p.TableState)
                await codes.put(state.info.code)
                while [s.kind for s in state.info.seats] != ["human", "human"]:
                    msg = await client.next(p.TableState, timeout=600)
                    assert isinstance(msg, p.TableState)
                    state = msg
                client.send(p.Start())
            else:
                client.send(p.Join(code=await codes.get()))
                client.send(p.Sit(seat=1))
            while True:
                msg = await client.next(p.TableState, timeout=600)
                assert isinstance(msg, p.TableState)
                if msg.outcome is not None:
                    break
                if msg.legal:
                    await asyncio.sleep(pace)
                    client.send(p.Play(step=msg.step, action=rng.choice(msg.legal)))
            client.send(p.Leave())
            await client.next(p.Left, timeout=600)

    async def table(i: int, pair: list[str]) -> None:
        host, guest = HubClient(socket, pair[0]), HubClient(socket, pair[1])
        await host.connect()
        await guest.connect()
        codes: asyncio.Queue[str] = asyncio.Queue()
        rng = random.Random(i)
        try:
            await asyncio.gather(player(host, 0, codes, rng), player(guest, 1, codes, rng))
        finally:
            await host.close()
            await guest.close()

    await asyncio.gather(*(table(i, pair) for i, pair in enumerate(tokens)),
                         return_exceptions=True)


async def _round_trips(hub, moves: int) -> list[float]:
    """Seconds from a move sent to the new state at every seat of its table."""
    from ..online import protocol as p

    ann, ben = await _client(hub, "key:ann"), await _client(hub, "key:ben")
    wait = 600.0  # seconds: only against a hang
    rng = random.Random(3)
    out: list[float] = []
    try:
        while len(out) < moves:
            ann.send(p.CreateTable(game=GAME, players=2))
            state = await ann.next(p.TableState, timeout=wait)
            assert isinstance(state, p.TableState)
            ben.send(p.Join(code=state.info.code))
            ben.send(p.Sit(seat=1))
            ann.send(p.Start())
            seats = {0: ann, 1: ben}
            latest: dict[int, p.TableState] = {}
            for seat, client in seats.items():
                while seat not in latest or not latest[seat].view:
                    msg = await client.next(p.TableState, timeout=wait)
                    assert isinstance(msg, p.TableState)
                    latest[seat] = msg
            while len(out) < moves and latest[0].outcome is None:
                mover = next((s for s in seats if latest[s].legal), None)
                if mover is None:  # (a secret move: the other seat was not told; ask again)
                    msg = await seats[0].next(p.TableState, timeout=600)
                    assert isinstance(msg, p.TableState)
                    latest[0] = msg
                    continue
                step = latest[mover].step
                t0 = time.perf_counter()
                seats[mover].send(p.Play(step=step, action=rng.choice(latest[mover].legal),
                                         seq=len(out) + 1))
                moved = await seats[mover].next((p.TableState, p.Error), timeout=600)
                if isinstance(moved, p.Error):
                    continue
                assert isinstance(moved, p.TableState)
                latest[mover] = moved
                other = 1 - mover
                others_too = moved.step > step
                # the other seat repaints too, unless the move was a secret from it
                try:
                    seen = await asyncio.wait_for(seats[other].next(p.TableState), 0.5)
                    assert isinstance(seen, p.TableState)
                    latest[other] = seen
                except asyncio.TimeoutError:
                    others_too = False
                if others_too:
                    out.append(time.perf_counter() - t0)
            ann.send(p.Leave())
            ben.send(p.Leave())
            await ann.next(p.Left, timeout=wait)
            await ben.next(p.Left, timeout=wait)
    finally:
        await ann.close()
        await ben.close()
    return out


async def _lag(stop: asyncio.Event, interval: float = 0.005) -> list[float]:
    """How late the event loop wakes a sleeper, every ``interval`` until ``stop``."""
    loop = asyncio.get_running_loop()
    lags = []
    while not stop.is_set():
        due = loop.time() + interval
        await asyncio.sleep(interval)
        lags.append(max(0.0, loop.time() - due))
    return lags


# A bare asyncio loop in a process of its own, ticking like _lag until its stdin closes, then
# printing how late it woke each time: the floor the machine's scheduler sets on the same measure.
_FLOOR = """
import asyncio, json, sys
async def main():
    loop = asyncio.get_running_loop()
    closed = loop.run_in_executor(None, sys.stdin.read)
    lags = []
    while not closed.done():
        due = loop.time() + 0.005
        await asyncio.sleep(0.005)
        lags.append(max(0.0, loop.time() - due))
    print(json.dumps(lags))
asyncio.run(main())
"""


async def _floor_process() -> asyncio.subprocess.Process:
    import sys

    return await asyncio.create_subprocess_exec(sys.executable, "-c", _FLOOR,
                                                stdin=asyncio.subprocess.PIPE,
                                                stdout=asyncio.subprocess.PIPE)


async def _floor_lags(floor: asyncio.subprocess.Process) -> list[float]:
    import json

    out, _ = await floor.communicate(b"")
    return json.loads(out or b"[]")


async def _run(tables: int, moves: int,
               slow: float) -> tuple[list[float], list[float], list[float], int]:
    import logging

    from ..online.hub import Hub

    logging.getLogger("cellwars_tui").setLevel(logging.ERROR)  # (the sweep's lines: not here)
    with tempfile.TemporaryDirectory(prefix="cellwars-bench-online-") as folder:
        kept = _slow_store(Path(folder) / "tables.sqlite3", slow)
        hub = Hub(Path(folder) / "tables", store=kept,
                  idle_table_seconds=1.0, sweep_interval=1.0)  # (finished games leave)
        await hub.start()
        busy = await _busy_process(hub, tables, PACE)
        stop = asyncio.Event()
        lagging = asyncio.create_task(_lag(stop))
        floor = await _floor_process()
        try:
            await asyncio.sleep(2.0)  # every busy table playing
            trips = await _round_trips(hub, moves)
        finally:
            stop.set()
            lags = await lagging
            floor_lags = await _floor_lags(floor)
            busy.kill()
            await busy.wait()
            saves = sum(t.saver.version for t in hub.tables.values())
            await hub.close()
    return trips, lags, floor_lags, saves


def _local_round_trips(moves: int) -> list[float]:
    """The same kind of move at a local table (autosave on: the record writer's thread)."""
    from ..core.match import Match, Seat
    from ..core.registry import get_game
    from ..record.writer import flush
    from ..table.local import LocalTable

    game = get_game(GAME)
    rng = random.Random(3)
    out: list[float] = []
    with tempfile.TemporaryDirectory(prefix="cellwars-bench-local-") as home:
        old = os.environ.get("CELLWARS_HOME")
        os.environ["CELLWARS_HOME"] = home
        try:
            while len(out) < moves:
                table: LocalTable[Any, Any] = LocalTable(Match(game, game.options_type(players=2),
                                         [Seat(name="ann"), Seat(name="ben")], rng.getrandbits(32)))
                told: list[float] = []
                table.subscribe(lambda: told.append(time.perf_counter()))
                while len(out) < moves and not table.is_over():
                    seat = table.humans_to_act()[0]
                    action = rng.choice(table.legal(seat))
                    t0 = time.perf_counter()
                    table.submit(seat, action)
                    out.append(told[-1] - t0)
            flush()
        finally:
            if old is None:
                os.environ.pop("CELLWARS_HOME", None)
            else:
                os.environ["CELLWARS_HOME"] = old
    return out


def bench_online_round_trip(quick: bool) -> list[Result]:
    moves = 100 if quick else 400
    trips, lags, floor, saves = asyncio.run(_run(TABLES, moves, 0.0))
    local = _local_round_trips(moves)
    note = f"{TABLES} busy tables, SQLite store ({saves} saves); {_load()}"
    return [
        result("online: move round trip p50 (submit to every seat's new state)",
               _quantile(trips, 0.5) * 1000, "ms", note=note),
        result("online: move round trip p95", _quantile(trips, 0.95) * 1000, "ms", note=note),
        result("local: the same move p50 (submit to the table's listener, autosave on)",
               _quantile(local, 0.5) * 1000, "ms", note=f"{len(local)} moves"),
        result("local: the same move p95", _quantile(local, 0.95) * 1000, "ms",
               note=f"{len(local)} moves"),
        result("online: hub loop lag p99 (busy tables, real store)", _quantile(lags, 0.99) * 1000,
               "ms", "<=", 5, note=f"{len(lags)} wake-ups every 5 ms"),
        _floor_result(floor, "real store"),
    ]


def _floor_result(floor: list[float], during: str) -> Result:
    return result(f"bare asyncio loop lag p99 beside the hub ({during}: the machine's floor)",
                  _quantile(floor, 0.99) * 1000, "ms",
                  note=f"{len(floor)} wake-ups every 5 ms, a process of its own; {_load()}")


def bench_online_loop_lag_slow_saves(quick: bool) -> list[Result]:
    moves = 30 if quick else 100
    trips, lags, floor, saves = asyncio.run(_run(TABLES, moves, 0.05))
    note = (f"{TABLES} busy tables, every save sleeps 50 ms in the store's thread "
            f"({saves} saves); {_load()}")
    return [
        result("online: hub loop lag p50 (saves slowed to 50 ms)", _quantile(lags, 0.5) * 1000,
               "ms", note=note),
        result("online: hub loop lag p99 (saves slowed to 50 ms)", _quantile(lags, 0.99) * 1000,
               "ms", "<=", 5, note=note),
        result("online: move round trip p50 (saves slowed to 50 ms)",
               statistics.median(trips) * 1000 if trips else float("nan"), "ms", note=note),
        _floor_result(floor, "saves slowed"),
    ]


BENCHMARKS = [bench_online_round_trip, bench_online_loop_lag_slow_saves]


if __name__ == "__main__":  # the busy tables' players (_busy_process)
    import json
    import sys

    asyncio.run(_busy_tables(sys.argv[1], json.loads(sys.stdin.readline()), float(sys.argv[2])))
