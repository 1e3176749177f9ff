"""Play over SSH (``cellwars serve``) and in a browser (``cellwars web``, ``cellwars serve --web``).

* :mod:`.server` — the asyncssh server: host key, authentication, limits, colours, one session
  per client.
* :mod:`.child` — one child process per session on its own PTY, with resizes forwarded.
* :mod:`.zygote` — a warm process that forks the sessions' children (fast first frames).
* :mod:`.session_app` — what a session runs: the whole app plus the online tables.
* :mod:`.lobby` — the lobby and table screens; :mod:`.remote` — ``RemoteTable``, the seat's
  table for the game screens; :mod:`.client` — the session's side of the hub connection.
* :mod:`.hub` — the lobby, connections and seats (in the server process); :mod:`.hub_play` —
  the authoritative game, bots and real-time tables' shared timer; :mod:`.tables` — a table,
  its per-seat views, guests' reconnect codes; :mod:`.store` — the table store (SQLite) that
  brings tables back after a restart.
* :mod:`.homes` — each session's own folder under the server's data dir, swept after a crash.
* :mod:`.logs` — the servers' log, a repeated error once a second.
* :mod:`.protocol` — the length-prefixed msgspec messages between a session's app and the hub.
* :mod:`.limits` — the server's limits and the rate limiter for input.
* :mod:`.web` — the app in a browser through textual-serve (``cellwars web`` wants its token).
* :mod:`.bench` — load figures for ``cellwars bench``.

Only the game is served: no shell, no exec, no forwarding, no SFTP.
"""
