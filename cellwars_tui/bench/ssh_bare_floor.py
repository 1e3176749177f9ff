"""What the smallest Textual app costs a forked session (``python -m cellwars_tui.bench.ssh_bare_floor``).

A yardstick for ``cellwars bench --only ssh``: the same start a session gets from the zygote (a
warm process that has imported Textual and run the app once headless, its heap frozen, forks a
child onto a PTY at 100x30), but the app is one line of text and Textual's key footer. Its CPU
seconds to Ready are what any one-Textual-app-per-session server pays at least, whatever its
first screen shows. Prints one JSON object: ``{"bare": [...], "footer": [...]}`` (seconds).
:func:`session_main` is the same app as a server's session (the crowd bench, bench/ssh_crowd).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import time

from textual.app import App, ComposeResult
from textual.widgets import Footer, Static

from ..ssh.child import set_winsize


class BareApp(App):
    BINDINGS = [("q", "quit", "Quit")]

    def __init__(self, footer: bool, report: int = -1, stay: bool = False) -> None:
        super().__init__()
        self.with_footer = footer
        self.report = report
        self.stay = stay

    def compose(self) -> ComposeResult:
        yield Static("Cellwars")
        if self.with_footer:
            yield Footer()

    def on_ready(self) -> None:
        if self.stay:  # a session: tell the server the first frame is out, and stay
            if self.report >= 0:
                os.write(self.report, b"\x01")
                os.close(self.report)
            return
        if self.report >= 0:
            os.write(self.report, f"{time.process_time():.6f}\n".encode())
        self.exit()


def session_main(ready_fd: int = -1) -> int:
    """A bare app as a server's session (zygote.ENV_APP, the crowd bench): a line and the key
    footer, the first frame reported on the ready pipe as the session app reports it."""
    BareApp(True, ready_fd, stay=True).run()
    return 0


def _warm() -> None:
    async def once(footer: bool) -> None:
        async with BareApp(footer).run_test(size=(100, 30)):
            pass

    for footer in (False, True):
        asyncio.run(once(footer))
    gc.freeze()


def _one(footer: bool) -> float:
    r, w = os.pipe()
    master, slave = os.openpty()
    set_winsize(master, 30, 100)
    pid = os.fork()
    if pid == 0:  # the child: run the app on the PTY and report its CPU at Ready
        code = 1
        try:
            os.close(r)
            os.close(master)
            os.setsid()
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            os.close(slave)
            os.environ["TERM"] = "xterm-256color"
            BareApp(footer, w).run()
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    os.close(slave)
    while True:  # drain what the app writes until it exits
        try:
            if not os.read(master, 65536):
                break
        except OSError:
            break
    os.waitpid(pid, 0)
    os.close(master)
    with os.fdopen(r) as f:
        text = f.read().strip()
    return float(text) if text else float("nan")


def main(argv: list[str] | None = None) -> int:
    n = int((argv if argv is not None else sys.argv[1:] or ["10"])[0])
    _warm()
    out = {"bare": [_one(False) for _ in range(n)], "footer": [_one(True) for _ in range(n)]}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
