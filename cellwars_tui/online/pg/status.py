"""The operator's view of servers sharing one PostgreSQL: ``cellwars serve --store URL --status``
(servers alive, the tables each owns, players connected) and the line each server writes in its
log every minute."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class ServerStatus:
    name: str
    host: str
    pid: int
    beat_age: float  # seconds since its last heartbeat (the database's clock)
    players: int
    tables: list[str] = field(default_factory=list)  # the tables it owns
    alive: bool = True


async def cluster_status(conn: Any) -> list[ServerStatus]:
    """Every server registered: alive or not, its heartbeat's age, players connected and the
    tables it owns (the tables' owner column, kept by the lock's holder)."""
    cur = await conn.execute(
        "SELECT s.name, s.host, s.pid, extract(epoch FROM now() - s.beat)::float8, s.players, "
        "EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = s.backend) "
        "FROM cellwars_servers s ORDER BY s.name")
    servers = {r[0]: ServerStatus(r[0], r[1], r[2], r[3], r[4], alive=r[5])
               for r in await cur.fetchall()}
    cur = await conn.execute("SELECT owner, code FROM cellwars_tables WHERE owner <> '' "
                             "ORDER BY code")  # (open, playing and over: an owner runs each)
    for owner, code in await cur.fetchall():
        if owner in servers:
            servers[owner].tables.append(code)
    return list(servers.values())



async def status_text(url: str) -> str:
    """What ``--status`` prints (StoreError, one line, if the database cannot be reached)."""
    from .store import connect, shown_url

    conn = await connect(url)
    try:
        cur = await conn.execute("SELECT to_regclass('cellwars_servers') IS NOT NULL")
        row = await cur.fetchone()
        if not (row and row[0]):
            return f"{shown_url(url)}: no cellwars server has used this database yet"
        servers = await cluster_status(conn)
        cur = await conn.execute("SELECT status, count(*) FROM cellwars_tables GROUP BY status")
        counts = {status: n for status, n in await cur.fetchall()}
        owned = {code for s in servers if s.alive for code in s.tables}
        cur = await conn.execute("SELECT code FROM cellwars_tables WHERE status = 'playing'")
        unowned = sorted(r[0] for r in await cur.fetchall() if r[0] not in owned)
    finally:
        await conn.close()
    alive = [s for s in servers if s.alive]
    lines = [f"{shown_url(url)}: {len(alive)} server{'s' if len(alive) != 1 else ''} alive"]
    for s in servers:
        if s.alive:
            tables = " ".join(s.tables) if s.tables else "none"
            lines.append(f"  {s.name} (on {s.host}, pid {s.pid}): alive, heartbeat "
                         f"{s.beat_age:.1f} s ago, {s.players} player"
                         f"{'s' if s.players != 1 else ''} connected, owns "
                         f"{len(s.tables)} table{'s' if len(s.tables) != 1 else ''}: {tables}")
        else:
            lines.append(f"  {s.name} (on {s.host}, pid {s.pid}): gone (last heartbeat "
                         f"{s.beat_age:.0f} s ago)")
    total = sum(counts.values())
    lines.append(f"tables: {total} ({counts.get('playing', 0)} playing, {counts.get('open', 0)} "
                 f"open, {counts.get('over', 0)} over)"
                 + (f"; playing with no owner now: {' '.join(unowned)}" if unowned else ""))
    return "\n".join(lines)
