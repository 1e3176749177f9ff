"""Play over SSH (``cellwars serve``) and in a browser (``cellwars web``, ``cellwars serve --web``):
the transports over the online table service (:mod:`cellwars_tui.online`).

* :mod:`.server` — the asyncssh server: host key, authentication, limits, colours, one session
  per client.
* :mod:`.child` — one child process per session on its own PTY, with resizes forwarded.
* :mod:`.zygote` — a warm process that forks the sessions' children (fast first frames).
* :mod:`.session_app` — what a session runs: the whole app plus the online tables.
* :mod:`.lobby` — the lobby and table screens over the online table service
  (:mod:`cellwars_tui.online`: the hub, its tables, store and protocol, the remote table).
* :mod:`.homes` — each session's own folder under the server's data dir, swept after a crash.
* :mod:`.logs` — the servers' log, a repeated error once a second.
* :mod:`.limits` — the server's limits and the rate limiter for input.
* :mod:`.web` — the app in a browser through textual-serve (``cellwars web`` wants its token).
* :mod:`.bench` — load figures for ``cellwars bench``.

Only the game is served: no shell, no exec, no forwarding, no SFTP.
"""
