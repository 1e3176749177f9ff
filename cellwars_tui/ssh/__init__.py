"""Play over SSH (``cellwars serve``) and in a browser (``cellwars web``, ``cellwars serve --web``).

* :mod:`.server` — the asyncssh server: host key, authentication, limits, colours, one session
  per client.
* :mod:`.child` — one child process per session on its own PTY, with resizes forwarded.
* :mod:`.zygote` — a warm process that forks the sessions' children (fast first frames).
* :mod:`.session_app` — what a session runs: the whole app plus the online tables.
* :mod:`.lobby` — the lobby and table screens; :mod:`.remote` — ``RemoteTable``, the seat's
  table for the game screens; :mod:`.client` — the session's side of the hub connection.
* :mod:`.hub` — lobby, tables, seats, the authoritative game state and real-time tables' shared
  timer (in the server process).
* :mod:`.protocol` — the length-prefixed msgspec messages between a session's app and the hub.
* :mod:`.limits` — the server's limits and the rate limiter for input.
* :mod:`.web` — the app in a browser through textual-serve.
* :mod:`.bench` — load figures for ``cellwars bench``.

Only the game is served: no shell, no exec, no forwarding, no SFTP.
"""
