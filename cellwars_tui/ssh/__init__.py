"""Play over SSH: ``cellwars serve``.

* :mod:`.server` — the asyncssh server: host key, authentication, limits, one session per client.
* :mod:`.child` — one child process per session on its own PTY, with resizes forwarded.
* :mod:`.hub` — lobby, tables, seats and the authoritative game state (in the server process).
* :mod:`.protocol` — the length-prefixed msgspec messages between a session's app and the hub.
* :mod:`.limits` — the server's limits and the rate limiter for input.

Only the game is served: no shell, no exec, no forwarding, no SFTP.
"""
