"""The bots of the hub's tables think in worker processes (ssh/botpool.py), not in the server's."""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time
from pathlib import Path

import msgspec

from cellwars_tui.ai.bots import RandomBot
from cellwars_tui.core import Action, Game, GameType, Options, Outcome, register
from cellwars_tui.core.api import parse_error
from cellwars_tui.online import protocol as p
from cellwars_tui.online.botpool import BotPool
from cellwars_tui.online.hub import Hub

from .test_hub import SECRET, join, table_where

ENV_DIR = "CELLWARS_TEST_BOT_DIR"  # where the test games' bot hooks leave word (workers inherit it)


# -- games whose bot hook (bot_actions, asked by search bots only) misbehaves in the worker ------
class Go(Action, frozen=True, tag="go"):
    pass


class Steps(msgspec.Struct, frozen=True):
    players: int
    n: int = 0


class TakeTurns(Game[Steps, Go]):
    """Two seats say "go" in turn, four times in all; seat 1 wins."""

    meta = GameType(
        id="bots-take-turns",
        title="Take turns",
        blurb="test only",
        min_players=2,
        max_players=2,
    )
    state_type = Steps
    action_type = Go
    total = 4

    def initial_state(self, options: Options) -> Steps:
        return Steps(options.players)

    def to_act(self, s):
        return (s.n % 2,) if s.n < self.total else ()

    def legal_actions(self, s, seat):
        return [Go()] if seat in self.to_act(s) else []

    def _apply(self, s, seat, a):
        return Steps(s.players, s.n + 1), ()

    def outcome(self, s):
        return Outcome((1,), "done") if s.n >= self.total else None

    def action_to_str(self, a):
        return "go"

    def action_from_str(self, text):
        if text == "go":
            return Go()
        raise parse_error(self, text, "expected go")


class SlowThinker(TakeTurns):
    """The search bot burns CPU until the test lets it go (the file ``release`` appears)."""

    meta = msgspec.structs.replace(
        TakeTurns.meta,
        id="bots-slow-thinker",
    )

    def bot_actions(self, s, seat):
        folder = Path(os.environ[ENV_DIR])
        (folder / "thinking").write_text(str(os.getpid()))
        deadline = time.monotonic() + 60
        while not (folder / "release").exists() and time.monotonic() < deadline:
            sum(i * i for i in range(20_000))  # busy: holds the GIL of whatever process runs it
        return [Go()]


class CrashingThinker(TakeTurns):
    """The search bot's process dies on its first move (once: the file ``crashed`` remembers)."""

    meta = msgspec.structs.replace(
        TakeTurns.meta,
        id="bots-crashing-thinker",
    )

    def bot_actions(self, s, seat):
        mark = Path(os.environ[ENV_DIR]) / "crashed"
        if not mark.exists():
            mark.write_text(str(os.getpid()))
            os._exit(3)
        return [Go()]


register(TakeTurns())
register(SlowThinker())
register(CrashingThinker())


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def ended(pid: int) -> bool:
    """The process exited (reaped, or a zombie left to whoever adopted it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def bot_workers() -> list[int]:
    """This process's children that are bot workers (python -m cellwars_tui.online.botpool)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == os.getpid() and b"cellwars_tui.online.botpool" in cmdline:
            out.append(int(entry.name))
    return out


async def hub_at(tmp_path: Path) -> Hub:
    hub = Hub(tmp_path / "tables", sweep_interval=3600)
    await hub.start()
    return hub


async def table_with_bot(hub: Hub, game: str):
    """ann at seat 1, a search bot at seat 2, the game started: ann to act."""
    ann = await join(hub, "key:ann", "ann")
    ann.send(p.CreateTable(game=game, players=2, think=0.05))
    await table_where(ann, lambda t: t.you == 0)
    ann.send(p.SetBot(seat=1, bot="mcts"))
    await table_where(ann, lambda t: t.info.seats[1].kind == "bot")
    ann.send(p.Start())
    state = await table_where(ann, lambda t: 0 in t.to_act)
    return ann, state


async def test_a_pool_bot_chooses_what_the_same_bot_chooses_here_with_the_same_seed():
    pool = BotPool(workers=1)
    view = SECRET.initial_state(SECRET.options_from_dict({"players": 2}))
    try:
        for seed in (1, 2, 3, 2**63 + 5):
            here = RandomBot().choose(SECRET, view, 0, random.Random(seed), 0.01)
            there, pid = await pool.choose(SECRET, view, 0, "random", seed, 0.01)
            assert there == here
            assert pid != os.getpid()
    finally:
        await pool.close()


async def test_a_hub_table_of_bots_plays_to_the_end_in_worker_processes(tmp_path):
    hub = await hub_at(tmp_path)
    try:
        ann = await join(hub, "key:ann", "ann")
        ann.send(p.CreateTable(game="toy-race", players=2, think=0.01))
        await table_where(ann, lambda t: t.you == 0)
        ann.send(p.Stand())
        await table_where(ann, lambda t: t.info.seats[0].kind == "free")
        ann.send(p.SetBot(seat=0, bot="random"))
        ann.send(p.SetBot(seat=1, bot="mcts"))
        await table_where(ann, lambda t: all(s.kind == "bot" for s in t.info.seats))
        assert hub.bots.pids() == []  # started on the first bot move, not before
        ann.send(p.Start())
        end = await table_where(ann, lambda t: t.outcome is not None, timeout=60)
        assert end.info.status == "over"
        assert hub.bots.pids() and os.getpid() not in hub.bots.pids()
        assert not any("failed" in line.text for line in end.log)
        await ann.close()
    finally:
        await hub.close()


async def test_the_server_loop_answers_while_a_bot_thinks_in_another_process(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_DIR, str(tmp_path))
    hub = await hub_at(tmp_path)
    try:
        ann, state = await table_with_bot(hub, "bots-slow-thinker")
        ann.send(p.Play(step=state.step, action="go"))
        await table_where(ann, lambda t: 1 in t.to_act)
        thinking = tmp_path / "thinking"
        for _ in range(3000):  # the worker starts Python first: wait for the bot to be at it
            if thinking.exists() and thinking.read_text():
                break
            await asyncio.sleep(0.02)
        pid = int(thinking.read_text())
        assert pid != os.getpid() and pid in hub.bots.pids()
        # the bot burns CPU until released; meanwhile the hub answers another player at once
        ben = await join(hub, "key:ben", "ben")
        asked = time.monotonic()
        ben.send(p.Join(code="ZZZZ"))
        assert "no table" in (await ben.next(p.Error)).message
        assert time.monotonic() - asked < 5.0  # loose: the loop is not held by the bot
        assert not (tmp_path / "release").exists() and hub.tables[state.info.code].match.cursor == 1
        (tmp_path / "release").write_text("go")
        await table_where(ann, lambda t: t.step == 2, timeout=60)
        await ann.close()
        await ben.close()
    finally:
        await hub.close()


async def test_a_crashed_bot_worker_plays_a_random_legal_move_and_the_table_goes_on(
        tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_DIR, str(tmp_path))
    hub = await hub_at(tmp_path)
    try:
        ann, state = await table_with_bot(hub, "bots-crashing-thinker")
        for _ in range(2):
            ann.send(p.Play(step=state.step, action="go"))
            state = await table_where(ann, lambda t, s=state.step: t.outcome is not None
                                      or (0 in t.to_act and t.step > s), timeout=60)
        assert state.outcome is not None and state.step == 4
        crashed = int((tmp_path / "crashed").read_text())
        assert crashed != os.getpid() and gone(crashed)
        failed = [line.text for line in state.log if "failed" in line.text]
        assert len(failed) == 1 and "plays a random move" in failed[0]  # the second move was thought
        await ann.close()
    finally:
        await hub.close()


async def test_closing_the_hub_leaves_no_worker_processes(tmp_path):
    hub = await hub_at(tmp_path)
    ann, state = await table_with_bot(hub, "bots-take-turns")
    ann.send(p.Play(step=state.step, action="go"))
    await table_where(ann, lambda t: t.step == 2)  # the bot moved
    pids = hub.bots.pids()
    assert pids and all(pid in bot_workers() for pid in pids)
    await ann.close()
    await hub.close()
    assert all(gone(pid) for pid in pids)
    assert bot_workers() == []


async def test_a_real_time_bot_thinks_in_a_worker_process_too(tmp_path):
    from .test_realtime import RoundsState  # noqa: F401  (registers live-rounds)

    hub = await hub_at(tmp_path)
    try:
        ann = await join(hub, "key:ann", "ann")
        ann.send(p.CreateTable(game="live-rounds", players=2, options={"round_seconds": 30}))
        await table_where(ann, lambda t: t.you == 0)
        ann.send(p.SetBot(seat=1, bot="mcts"))
        await table_where(ann, lambda t: t.info.seats[1].kind == "bot")
        assert hub.bots.pids() == []
        ann.send(p.Start())
        await table_where(ann, lambda t: any(line.seat == 1 for line in t.log), timeout=60)
        assert hub.bots.pids() and os.getpid() not in hub.bots.pids()
        await ann.close()
    finally:
        await hub.close()


async def test_a_worker_ends_when_the_server_dies_without_closing_the_pool(tmp_path):
    script = tmp_path / "server.py"
    script.write_text(
        "import asyncio, os, random\n"
        "from cellwars_tui.online.botpool import BotPool\n"
        "from tests.online.test_hub import SECRET\n"
        "async def main():\n"
        "    pool = BotPool(workers=1)\n"
        "    view = SECRET.initial_state(SECRET.options_from_dict({'players': 2}))\n"
        "    await pool.choose(SECRET, view, 0, 'random', 1, 0.01)\n"
        "    print(*pool.pids(), flush=True)\n"
        "    os._exit(0)  # killed, as it were: nothing closed\n"
        "asyncio.run(main())\n")
    root = Path(__file__).parents[2]
    proc = await asyncio.create_subprocess_exec(
        sys.executable, str(script), cwd=root, env={**os.environ, "PYTHONPATH": str(root)},
        stdout=asyncio.subprocess.PIPE)
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    (pid,) = map(int, out.split())
    for _ in range(500):  # the worker sees its stdin close and exits
        if ended(pid):
            break
        await asyncio.sleep(0.02)
    assert ended(pid)
