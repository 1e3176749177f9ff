"""The online table service: the hub, its tables and store, the protocol, the session's side.

Headless and transport-free: nothing here imports textual, rich, asyncssh or ``ssh/`` (a test
checks it in a subprocess). The SSH server and the browser front (:mod:`cellwars_tui.ssh`) carry
a session's terminal; everything about tables, seats and moves is here.

* :mod:`.hub` — the lobby, connections and seats (in the server process), :mod:`.hub_sweep`
  — tables nobody watches; :mod:`.hub_play` — what the hub allows at a table's game;
  :mod:`.game` — a table's game: the table authority (:mod:`cellwars_tui.table.authority`) with
  the store's saver, the bot pool and seat identities; :mod:`.tables` — a table, its per-seat
  views, guests' reconnect codes; :mod:`.names` — one rule for every name.
* :mod:`.store` — the table store (async, versioned; SQLite by default, :mod:`.pg` shared) and
  :mod:`.saving` — each table's saves, in order, off the event loop, durable before a move is
  told; :mod:`.league` and friends — finished games and ratings.
* :mod:`.botpool` — the hub's bots think in worker processes.
* :mod:`.protocol` — the length-prefixed msgspec messages between a session's app and the hub.
* :mod:`.client` — the session's side of the hub connection; :mod:`.seat` — ``TableSeat``, a
  session's place at a table (headless: any front end); :mod:`.remote` — ``RemoteTable``, the
  seat's table for the game screens.
"""
