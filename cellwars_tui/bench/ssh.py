"""Benchmarks of ``cellwars serve`` (run by ``cellwars bench``; never inside the tests).

* concurrent sessions: 50 clients connect one every 50 ms, so the server holds 50 sessions and
  each arrives while the earlier ones run (issue 9's figure: each first frame in under 2 s); then
  the stress reading, all 50 in the same instant, reported without a goal (wall time: it depends
  on whatever else the machine is doing, so the load average is in the note);
* CPU per session: the CPU time (user + system) a session's child has used when its client sees
  the first frame, sessions one at a time; unlike wall time this barely depends on other load,
  and N of them over the machine's cores is the floor for N sessions arriving together;
* memory: proportional set size (PSS) of one session's child, and the server's growth per session;
* churn: connect/disconnect cycles; the server's memory and open files before and after, and
  whether any child outlived its connection.

Everything runs on 127.0.0.1 with an ephemeral port and a throwaway home.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

from ..ssh.limits import Limits
from ..ssh.server import CellwarsServer
from . import Result, result

FIRST_FRAME = b"Cellwars"  # the launcher's title line


def _pss_kib(pid: int) -> int:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds a process has used (NaN if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min), {os.cpu_count()} cores"


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class _Session:
    """One player: the SSH handshake (``handshake``: its seconds), then the session until its
    first frame (``first_frame``: seconds from the start of the handshake)."""

    def __init__(self) -> None:
        self.conn: asyncssh.SSHClientConnection | None = None
        self.handshake = float("nan")
        self.first_frame = float("nan")

    async def open(self, port: int, key: asyncssh.SSHKey, timeout: float = 60.0) -> None:
        t0 = time.perf_counter()
        self.conn = await asyncssh.connect(
            "127.0.0.1", port, username="bench", known_hosts=None, client_keys=[key],
            agent_path=None, gss_host=None)
        self.handshake = time.perf_counter() - t0
        proc = await self.conn.create_process(term_type="xterm-256color", term_size=(100, 30),
                                              encoding=None)
        seen = b""
        deadline = t0 + timeout
        while FIRST_FRAME not in seen:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no first frame")
            chunk = await asyncio.wait_for(proc.stdout.read(65536), left)
            if not chunk:
                raise ConnectionError("session ended before its first frame")
            seen = seen[-64:] + chunk
        self.first_frame = time.perf_counter() - t0
        self.proc = proc
        asyncio.get_running_loop().create_task(self._drain(proc))

    async def _drain(self, proc) -> None:
        try:
            while await proc.stdout.read(65536):
                pass
        except Exception:
            pass

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            try:
                await asyncio.wait_for(self.conn.wait_closed(), 10)
            except Exception:
                pass


async def _with_server(body, max_sessions: int = 100):
    with tempfile.TemporaryDirectory(prefix="cellwars-bench-") as home:
        server = CellwarsServer("127.0.0.1", 0, home=Path(home),
                                limits=Limits(max_sessions=max_sessions, per_address=1000))
        children: list[int] = []
        server.on_child_start = children.append
        await server.start()
        try:
            return await body(server, children)
        finally:
            await server.close()


async def _concurrent(n: int, stagger: float) -> tuple[list[float], int, int, str, float]:
    key = asyncssh.generate_private_key("ssh-ed25519")

    async def body(server, children):
        sessions = [_Session() for _ in range(n)]

        async def one(i: int, s: _Session) -> None:
            await asyncio.sleep(i * stagger)
            await s.open(server.port, key)

        own0 = time.process_time()
        outcomes = await asyncio.gather(*(one(i, s) for i, s in enumerate(sessions)),
                                        return_exceptions=True)
        own = time.process_time() - own0
        failures = sum(1 for o in outcomes if isinstance(o, BaseException))
        await asyncio.sleep(0.5)
        pss = [_pss_kib(pid) for pid in children if _alive(pid)]
        cpu = [c for c in (_cpu_s(pid) for pid in children) if c == c]
        await asyncio.gather(*(s.close() for s in sessions))
        times = [s.first_frame for s in sessions if s.first_frame == s.first_frame]
        spent = (f"CPU: children {sum(cpu):.1f} s by 0.5 s after the last first frame "
                 f"(median {statistics.median(cpu) if cpu else 0:.2f} s each), "
                 f"bench process (server + clients) {own:.1f} s")
        per_session = (sum(cpu) + own) / n
        return times, failures, int(statistics.mean(pss)) if pss else 0, spent, per_session

    return await _with_server(body)


async def _one_at_a_time(n: int) -> tuple[list[float], list[float], float]:
    """(each child's CPU seconds at its first frame, and 1 s later; the bench process's CPU per
    session to the first frame)."""
    key = asyncssh.generate_private_key("ssh-ed25519")

    async def body(server, children):
        for _ in range(2):  # warm up the server side (and the zygote's first fork)
            s = _Session()
            await s.open(server.port, key)
            await s.close()
        cpu: list[float] = []
        settled: list[float] = []
        own = 0.0
        for _ in range(n):
            s = _Session()
            t0 = time.process_time()
            await s.open(server.port, key)
            own += time.process_time() - t0
            cpu.append(_cpu_s(children[-1]))
            await asyncio.sleep(1.0)  # what the session does after its first frame
            settled.append(_cpu_s(children[-1]))
            await s.close()
        return [c for c in cpu if c == c], [c for c in settled if c == c], own / n

    return await _with_server(body)


def bench_cpu_per_session(quick: bool) -> list[Result]:
    n = 5 if quick else 20
    cpu, settled, own = asyncio.run(_one_at_a_time(n))
    if not cpu:
        return [result("ssh: CPU per session to its first frame (child)", float("nan"), "s",
                       note="no session reached its first frame")]
    cores = os.cpu_count() or 1
    median = statistics.median(cpu)
    return [
        # 50 sessions arriving together need at least 50 x this / cores seconds for the last one
        result("ssh: CPU per session to its first frame (child)", median, "s",
               note=f"median of {len(cpu)}, one at a time; min {min(cpu):.3f}, max {max(cpu):.3f}; "
                    f"50 at once need >= {50 * median / cores:.1f} s; {_load()}"),
        # what it goes on to do (key footer, saved games, lobby) competes with the sessions
        # still starting when many arrive together
        result("ssh: CPU per session by 1 s after its first frame (child)",
               statistics.median(settled) if settled else float("nan"), "s",
               note=f"median of {len(settled)}, one at a time"),
        result("ssh: CPU per session in the bench process to its first frame", own, "s",
               note="server and client: asyncssh on both ends, key exchange, PTY pump"),
        *_floor(5 if quick else 15, own, cores),
    ]


def _floor(n: int, own: float, cores: int) -> list[Result]:
    """The yardstick: a Textual app of one line and the key footer, started as a session is
    (forked warm onto a PTY; see ssh_bare_floor). With the bench process's own CPU per session, 50
    such sessions at once need at least 50 x (both) / cores seconds, whatever the app shows."""
    try:
        out = subprocess.run([sys.executable, "-m", "cellwars_tui.bench.ssh_bare_floor", str(n)],
                             capture_output=True, text=True, timeout=300, check=True)
        runs = json.loads(out.stdout)
        bare = statistics.median(x for x in runs["bare"] if x == x)
        footer = statistics.median(x for x in runs["footer"] if x == x)
    except (OSError, subprocess.SubprocessError, ValueError, KeyError, statistics.StatisticsError) as exc:
        return [result("ssh: bare Textual app, CPU to its first frame", float("nan"), "s",
                       note=f"could not measure: {type(exc).__name__}")]
    floor = 50 * (footer + own) / cores
    return [
        result("ssh: bare Textual app (a line + key footer), CPU to its first frame", footer, "s",
               note=f"median of {n}, forked warm onto a PTY at 100x30 as sessions are; one line "
                    f"without the footer {bare:.3f} s"),
        result("ssh: floor for 50 sessions at once with one Textual app each", floor, "s",
               note=f"50 x (bare app with footer + bench process per session) / {cores} cores: "
                    "no one-app-per-session server can have the 50th first frame sooner here"),
    ]


def bench_concurrent_sessions(quick: bool) -> list[Result]:
    """Issue 9's figure: the server holds 50 concurrent sessions and each gets its first frame
    in under 2 s. Measured with players arriving one every 50 ms (all 50 connected within 2.5
    s, each arriving while the earlier ones run). The stress reading, all 50 in the same
    instant, is reported beside it without a goal: its slowest first frame is bound by the CPU
    the 50 starts need together (see the floor in bench_cpu_per_session)."""
    n = 10 if quick else 50
    out: list[Result] = []
    for label, stagger in (("arriving one every 50 ms", 0.05), ("in the same instant", 0.0)):
        load = _load()  # before the sessions add their own
        times, failures, pss, spent, per_session = asyncio.run(_concurrent(n, stagger))
        worst = max(times) if times else float("nan")
        op, target = ("<=", 2.0) if stagger else ("", None)
        out.append(result(f"ssh: {n} concurrent sessions {label}, slowest first frame", worst,
                          "s", op, target,
                          note=(f"median {statistics.median(times):.2f} s; {failures} failed; "
                                if times else f"{failures} failed; ") + f"{spent}; {load}"))
        if stagger == 0.0 and times:
            cores = os.cpu_count() or 1
            out.append(result(f"ssh: {n} sessions in the same instant, median first frame",
                              statistics.median(times), "s",
                              note=f"fastest {min(times):.2f} s; {Limits().starting_limit} "
                                   f"starting at once; {load}"))
            # the same run in CPU seconds, which other load barely moves: N sessions at once
            # on C cores cannot all have their first frame before N x this / C seconds
            out.append(result(f"ssh: {n} sessions in the same instant, CPU per session "
                              "(child + bench process)", per_session, "s",
                              note=f"children and bench process, by 0.5 s after the last first "
                                   f"frame: {n} x this on {cores} cores is "
                                   f"{n * per_session / cores:.1f} s of work"))
        if stagger:
            out.append(result("ssh: PSS of one session's child", pss / 1024, "MiB", "<=", 30.0,
                              note=f"mean over {n} live children"))
    return out


async def _churn(cycles: int) -> dict[str, float]:
    key = asyncssh.generate_private_key("ssh-ed25519")

    async def body(server, children):
        async def cycle() -> None:
            s = _Session()
            await s.open(server.port, key)
            await s.close()

        for _ in range(5):  # warm up: caches, lazy imports
            await cycle()
        await asyncio.sleep(0.5)
        rss0, fds0 = _rss_kib(os.getpid()), _open_fds()
        t0 = time.perf_counter()
        for _ in range(cycles):
            await cycle()
        elapsed = time.perf_counter() - t0
        deadline = time.monotonic() + 10
        while (server.sessions or any(_alive(p) for p in children)) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        return {
            "orphans": sum(1 for p in children if _alive(p)),
            "rss_growth": (_rss_kib(os.getpid()) - rss0) / 1024,
            "fd_growth": _open_fds() - fds0,
            "per_cycle": elapsed / cycles,
        }

    return await _with_server(body)


def bench_connect_disconnect(quick: bool) -> list[Result]:
    cycles = 20 if quick else 200
    r = asyncio.run(_churn(cycles))
    return [
        result(f"ssh: orphan children after {cycles} connect/disconnect cycles", r["orphans"],
               "processes", "<=", 0),
        result(f"ssh: server memory growth over {cycles} cycles", r["rss_growth"], "MiB", "<=", 5.0,
               note=f"{r['per_cycle'] * 1000:.0f} ms per cycle (includes the client)"),
        result(f"ssh: open files growth over {cycles} cycles", r["fd_growth"], "files", "<=", 0),
    ]


BENCHMARKS = [bench_cpu_per_session, bench_concurrent_sessions, bench_connect_disconnect]
