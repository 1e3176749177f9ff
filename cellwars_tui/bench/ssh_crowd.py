"""A crowd arriving at ``cellwars serve`` (run by ``cellwars bench``; never inside the tests).

250 players arrive at 10 a second and stay (issue 28: the slowest first frame within 5 s on a
2-core machine; once 11.8 s). The same run then starts 250 bare Textual apps the same way (the
same server, forked by the same zygote onto PTYs, a line and Textual's key footer:
``ssh_bare_floor.session_main``), the yardstick no one-app-per-session server beats. For each:
the first frames (median, 90th percentile, slowest), the time a session spent in the SSH
handshake (the slowest) and the longest line to start (the server's start gate), the CPU the sessions and the bench
process (the server and all the clients: asyncssh on both ends) used, and the sessions' memory.
Wall times depend on whatever else the machine does: the load average is in every note.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from typing import Any

import asyncssh

from ..ssh.zygote import ENV_APP
from . import Result, result
from .ssh import _alive, _cpu_s, _load, _pss_kib, _Session, _with_server

CROWD = 250
RATE = 10.0  # arrivals a second
GOAL = 5.0  # seconds: the slowest first frame
BARE_APP = "cellwars_tui.bench.ssh_bare_floor:session_main"


async def _crowd(n: int, rate: float) -> dict[str, float | str]:
    key = asyncssh.generate_private_key("ssh-ed25519")

    async def body(server, children) -> dict[str, float | str]:
        gate = server.start_gate
        longest_line = 0

        async def watch_line() -> None:
            nonlocal longest_line
            while True:
                longest_line = max(longest_line, gate.waiting)
                await asyncio.sleep(0.05)

        watcher = asyncio.create_task(watch_line())
        arrivals = [_Session() for _ in range(n)]

        async def one(i: int, a: _Session) -> None:
            await asyncio.sleep(i / rate)
            await a.open(server.port, key, timeout=120.0)

        own0, wall0 = time.process_time(), time.perf_counter()
        outcomes = await asyncio.gather(*(one(i, a) for i, a in enumerate(arrivals)),
                                        return_exceptions=True)
        own, wall = time.process_time() - own0, time.perf_counter() - wall0
        watcher.cancel()
        await asyncio.sleep(0.5)
        pss = [_pss_kib(pid) for pid in children if _alive(pid)]
        cpu = [c for c in (_cpu_s(pid) for pid in children) if c == c]
        await asyncio.gather(*(a.close() for a in arrivals))
        frames = sorted(a.first_frame for a in arrivals if a.first_frame == a.first_frame)
        shakes = [a.handshake for a in arrivals if a.handshake == a.handshake]
        return {
            "failures": sum(1 for o in outcomes if isinstance(o, BaseException)),
            "median": statistics.median(frames) if frames else float("nan"),
            "p90": frames[int(0.9 * (len(frames) - 1))] if frames else float("nan"),
            "slowest": frames[-1] if frames else float("nan"),
            "handshake": max(shakes) if shakes else float("nan"),
            "line": longest_line,
            "children_cpu": sum(cpu),
            "own_cpu": own,
            "wall": wall,
            "pss_mib": statistics.mean(pss) / 1024 if pss else 0.0,
            "load": _load(),  # as this run ends (the next run's differs)
        }

    return await _with_server(body, max_sessions=n + 10)


def _run(n: int, app: str = "") -> dict[str, Any]:
    saved = os.environ.get(ENV_APP)
    if app:
        os.environ[ENV_APP] = app  # the zygote the server starts inherits it
    try:
        return asyncio.run(_crowd(n, RATE))
    finally:
        if saved is None:
            os.environ.pop(ENV_APP, None)
        else:
            os.environ[ENV_APP] = saved


def _note(r: dict[str, Any], n: int) -> str:
    return (f"{n} arriving at {RATE:g}/s; median {r['median']:.2f} s, 90% {r['p90']:.2f} s; "
            f"slowest handshake {r['handshake']:.2f} s; at most {r['line']:.0f} in line to start; "
            f"CPU: sessions {r['children_cpu']:.1f} s, server and clients {r['own_cpu']:.1f} s "
            f"in {r['wall']:.0f} s; {r['pss_mib']:.1f} MiB (PSS) a session; "
            f"{r['failures']:.0f} failed; {r['load']}")


def bench_crowd_arrivals(quick: bool) -> list[Result]:
    """250 players arriving at 10 a second (50 with --quick), then as many bare Textual apps."""
    n = 50 if quick else CROWD
    real = _run(n)
    bare = _run(n, BARE_APP)
    return [
        result(f"ssh: slowest first frame, {n} players arriving at {RATE:g}/s", real["slowest"],
               "s", "<=", GOAL, note=_note(real, n)),
        result(f"ssh: slowest first frame, {n} bare Textual apps arriving at {RATE:g}/s",
               bare["slowest"], "s",
               note="the yardstick, the same run: the same server and zygote start a line and "
                    "the key footer; " + _note(bare, n)),
    ]


BENCHMARKS = [bench_crowd_arrivals]
