"""The online table service: the hub, its tables and store, the protocol, the session's side.

Headless and transport-free: nothing here imports textual, rich, asyncssh or ``ssh/`` (a test
checks it in a subprocess). The SSH server and the browser front (:mod:`cellwars_tui.ssh`) carry
a session's terminal; everything about tables, seats and moves is here.

* :mod:`.hub` — the lobby, connections and seats (in the server process); :mod:`.hub_play` —
  the authoritative game, bots and real-time tables' shared timer; :mod:`.tables` — a table,
  its per-seat views, guests' reconnect codes; :mod:`.store` — the table store (SQLite) that
  brings tables back after a restart.
* :mod:`.botpool` — the hub's bots think in worker processes.
* :mod:`.protocol` — the length-prefixed msgspec messages between a session's app and the hub.
* :mod:`.client` — the session's side of the hub connection; :mod:`.remote` — ``RemoteTable``,
  the seat's table for the game screens.
"""
