"""The app in a browser: ``cellwars web`` and ``cellwars serve --web`` (textual-serve).

textual-serve answers HTTP with a page holding a terminal (xterm.js) and starts one app process
per browser tab over a websocket. ``cellwars web`` serves the plain app (local games, saves in the
user's data dir): it is for a player without a terminal at hand, so it listens on loopback unless
told otherwise. ``cellwars serve --web`` serves the same session app as the SSH server, joined to
the same hub, so browser players sit at the same tables as SSH players: each browser tab is a
guest that picks a nickname (a browser has no SSH key to prove an identity).

textual-serve's ``Server.serve()`` runs its own event loop; here its aiohttp application runs in
the caller's loop next to the SSH server (``WebServer.start``/``close``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import sys
from collections.abc import Mapping

from ..core.errors import CellwarsError

DEFAULT_WEB_PORT = 8000


def _textual_serve():
    try:
        import textual_serve.server as ts
    except ImportError:
        raise CellwarsError(
            "serving to a browser needs textual-serve: pip install textual-serve") from None
    return ts


def session_command(env: Mapping[str, str] | None = None) -> str:
    """The shell command textual-serve runs per browser tab: the session app, with ``env`` added
    to the server's environment (``exec`` so the app itself gets the quit message)."""
    assignments = " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted((env or {}).items()))
    python = shlex.quote(sys.executable)
    prefix = f"exec env {assignments} " if assignments else "exec "
    return f"{prefix}{python} -m cellwars_tui.ssh.session_app"


class WebServer:
    """textual-serve's web app, run inside the current asyncio loop."""

    def __init__(self, host: str = "127.0.0.1", port: int = DEFAULT_WEB_PORT,
                 env: Mapping[str, str] | None = None, title: str = "Cellwars",
                 max_tabs: int = 50) -> None:
        ts = _textual_serve()
        outer = self

        class _Capped(ts.Server):
            async def on_startup(self, app) -> None:  # no logo on our stdout
                return None

            async def handle_websocket(self, request):
                """One app process per tab, up to ``max_tabs`` at once (then a clear refusal)."""
                from aiohttp import web

                if outer.tabs >= outer.max_tabs:
                    return web.Response(status=503, text=(
                        f"cellwars: the server is full ({outer.max_tabs} browser players); "
                        "please try again later."))
                outer.tabs += 1
                try:
                    return await super().handle_websocket(request)
                finally:
                    outer.tabs -= 1

        self.host = host
        self.port = port
        self.max_tabs = max_tabs
        self.tabs = 0  # browser tabs with an app running now
        self.server = _Capped(session_command(env), host=host, port=port, title=title)
        self._runner = None

    @property
    def url(self) -> str:
        host = self.host if ":" not in self.host else f"[{self.host}]"
        return f"http://{host}:{self.port}/"

    async def start(self) -> None:
        from aiohttp import web

        app = await self.server._make_app()  # textual-serve's routes: page, websocket, statics
        runner = web.AppRunner(app, handle_signals=False)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port, reuse_address=True)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise CellwarsError(
                f"cannot listen on {self.host}:{self.port} for the web: {exc.strerror or exc}"
            ) from None
        self._runner = runner
        if self.port == 0:
            sockets = getattr(site._server, "sockets", None) or ()
            if sockets:
                self.port = sockets[0].getsockname()[1]
        self.server.port = self.port
        self.server.public_url = self.url.rstrip("/")

    async def close(self) -> None:
        """Stop listening; every tab's app is told to quit (textual-serve waits for it)."""
        runner, self._runner = self._runner, None
        if runner is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(runner.cleanup(), 15)


async def run_web(host: str, port: int, *, ready=None, stop: asyncio.Event | None = None) -> None:
    """``cellwars web``: serve the app to browsers until ``stop`` (or SIGINT/SIGTERM)."""
    from .server import run_until_stopped

    server = WebServer(host, port)
    await server.start()
    await run_until_stopped(server, ready=ready, stop=stop)


def run_web_command(args) -> int:
    """``cellwars web [--host H] [--port P]`` from the command line."""
    if not 0 <= args.port <= 65535:
        raise CellwarsError(f"--port must be between 0 and 65535, not {args.port}")
    _textual_serve()

    def ready(server: WebServer) -> None:
        print(f"cellwars: serving the app to browsers at {server.url}", flush=True)

    try:
        asyncio.run(run_web(args.host, args.port, ready=ready))
    except KeyboardInterrupt:
        return 130
    return 0


def web_env(hub_socket: str, token: str, home: str) -> dict[str, str]:
    """What a browser tab's session needs to join the SSH server's hub (as a guest)."""
    from .client import ENV_HUB, ENV_IDENTITY, ENV_TOKEN

    return {ENV_HUB: hub_socket, ENV_TOKEN: token, ENV_IDENTITY: "guest", "CELLWARS_HOME": home,
            "LANG": os.environ.get("LANG", "C.UTF-8")}
