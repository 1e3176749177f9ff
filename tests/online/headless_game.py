"""Whole online games between headless clients of the hub, with no UI library anywhere: run as
``python -m tests.online.headless_game`` (tests/online/test_headless.py does, and checks what it
prints). It is the proof that a front end which is not a Textual screen gets bots, saving and
real time from the table layer for free.

Two clients, ann and ben, play through :class:`~cellwars_tui.online.seat.TableSeat` and its
``RemoteTable`` (random legal moves, one at a time; a refused move is simply tried again later),
a third, cat, watches; the hub runs the bots in its worker processes and keeps every table in a
SQLite store. First a turn-based game (Virus Fight, three seats, one of them a bot), then a
real-time one (Infection, ann, ben and a bot on the hub's fake round clock). At the end the
script prints one JSON line: what each game came to, what the store holds, how many moves the
hub refused for dice still landing, which modules played a move into a match, and every UI module that was imported (none).
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path

from cellwars_tui.core.match import Match
from cellwars_tui.online import protocol as p
from cellwars_tui.record.format import decode_record
from cellwars_tui.online.botpool import BotPool
from cellwars_tui.online.client import HubClient
from cellwars_tui.online.hub import Hub
from cellwars_tui.online.seat import TableSeat
from cellwars_tui.online.store import SqliteTableStore
from cellwars_tui.timer import FakeClock

GUARD = 240.0  # seconds: only against a hang (a loaded machine takes longer, never fails for it)


class Player:
    """One headless client: its connection, and the table it sits at (or watches)."""

    def __init__(self, hub: Hub, identity: str, name: str) -> None:
        token = secrets.token_hex(8)
        hub.admit(token, identity, name)
        self.client = HubClient(str(hub.socket_path), token)
        self.seat: TableSeat | None = None
        self.refused: list[str] = []
        self._pump: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        await self.client.connect()
        self._pump = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.client.messages():
            if isinstance(msg, p.TableState) and (self.seat is None or self.seat.left
                                                  or self.seat.code != msg.info.code):
                self.seat = TableSeat(msg.info.code, self.client.send)
            if self.seat is not None:
                self.seat.hub_message(msg)
            if isinstance(msg, p.Error):
                self.refused.append(msg.message)

    def send(self, msg: p.Msg) -> None:
        self.client.send(msg)

    async def until(self, what: str, condition) -> None:
        deadline = time.monotonic() + GUARD
        while not condition():
            if time.monotonic() > deadline:
                raise SystemExit(f"never: {what}")
            await asyncio.sleep(0.005)

    def play_one(self, rng: random.Random) -> bool:
        """A random legal move, if this seat may move now and none is on its way."""
        remote = self.seat.remote if self.seat is not None else None
        if remote is None or remote.is_over() or remote.moves_on_their_way():
            return False
        you = remote.viewer()
        legal = remote.legal(you) if you is not None else []
        if not legal:
            return False
        remote.submit(you, rng.choice(legal))
        return True

    async def close(self) -> None:
        await self.client.close()
        if self._pump is not None:
            await asyncio.gather(self._pump, return_exceptions=True)


async def a_table(ann: Player, ben: Player, cat: Player, game: str, players: int,
                  options: dict) -> str:
    """ann hosts ``game``, ben sits, the last seat gets a bot, cat watches; ann starts it."""
    ann.send(p.CreateTable(game=game, players=players, options=options))
    await ann.until("ann's table", lambda: ann.seat is not None and ann.seat.state is not None
                    and ann.seat.state.info.game == game and ann.seat.state.you == 0)
    code = ann.seat.code
    for who in (ben, cat):
        who.send(p.Join(code=code))
    ben.send(p.Sit(seat=1))
    ann.send(p.SetBot(seat=players - 1, bot="random"))
    await ann.until("the seats filled", lambda: [s.kind for s in ann.seat.state.info.seats]
                    == ["human", "human", "bot"])
    ann.send(p.Start())
    for who in (ann, ben, cat):
        await who.until("the game to start", lambda w=who: w.seat is not None
                        and w.seat.code == code and w.seat.started)
    return code


async def play_to_the_end(hub: Hub, players: list[Player], cat: Player, rng: random.Random,
                          clock: FakeClock | None) -> None:
    deadline = time.monotonic() + GUARD
    while not all(w.seat.remote.is_over() for w in (*players, cat)):
        if time.monotonic() > deadline:
            raise SystemExit("the game never ended")
        for who in players:
            who.play_one(rng)

        def answered() -> bool:  # every move made is answered, every step saved
            return not any(w.seat.remote.moves_on_their_way() for w in players) and not any(
                t.authority is not None and t.authority.busy for t in hub.tables.values())

        await players[0].until("the hub's answers", answered)
        if clock is not None:
            # the hub's round clock (bots' pace, landings, time-up) runs on only once nothing
            # waits for the store or the network: fake seconds are far shorter than real ones
            await clock.advance(0.25)
        else:
            await asyncio.sleep(0.002)


def record_who_plays() -> set[str]:
    """The modules that play a move into a match in this process, from now on (one: the table
    authority; the bots think in the pool's processes and play nothing)."""
    callers: set[str] = set()
    play = Match.play

    def noted(self, *args, **kwargs):
        callers.add(sys._getframe(1).f_globals["__name__"])
        return play(self, *args, **kwargs)

    Match.play = noted  # type: ignore[method-assign]
    return callers


async def main() -> dict:
    callers = record_who_plays()
    rng = random.Random(5)
    folder = Path(tempfile.mkdtemp(prefix="cellwars-headless-"))
    store = SqliteTableStore(folder / "tables.sqlite3")
    hub = Hub(folder / "tables", store=store, bots=BotPool(workers=1), sweep_interval=3600)
    clock = FakeClock()
    hub.realtime_clock = clock
    await hub.start()
    ann, ben, cat = (Player(hub, f"key:{n}", n) for n in ("ann", "ben", "cat"))
    out: dict = {}
    try:
        for who in (ann, ben, cat):
            await who.connect()
        for game, options, time_runs in (("virus-fight", {"round_limit": 5}, None),
                                         ("infection", {"round_seconds": 30}, clock)):
            code = await a_table(ann, ben, cat, game, 3, options)
            await play_to_the_end(hub, [ann, ben], cat, rng, time_runs)
            table = hub.tables[code]
            await table.saver.settled()
            stored = await store.fetch(code)
            m = table.match
            assert m is not None and cat.seat is not None and cat.seat.remote is not None
            out[game] = {
                "over": m.is_over(),
                "spectator_saw": cat.seat.remote.outcome_text(),
                "players_saw": sorted({w.seat.remote.outcome_text() for w in (ann, ben)
                                       if w.seat is not None and w.seat.remote is not None}),
                "steps": m.cursor,
                "bot_moves": sum(1 for s in m.steps if s.seat == 2),
                "people_moves": sum(1 for s in m.steps if s.seat in (0, 1)),
                "stored_steps": len(decode_record(stored.record, code).steps) if stored else -1,
                "stored_version": stored.version if stored else -1,
                "saver_version": table.saver.version,
            }
        out["landing_refusals"] = sum("landing" in r for w in (ann, ben) for r in w.refused)
    finally:
        for who in (ann, ben, cat):
            await who.close()
        await hub.close()
    out["match_played_by"] = sorted(callers)
    out["ui_modules"] = sorted(m for m in sys.modules
                               if m.split(".")[0] in ("textual", "rich", "asyncssh"))
    return out


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main())))
