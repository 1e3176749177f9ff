"""A bare Textual app for the escape-sequence fuzz tests (test_hostile_input.py): the real
terminal parser (Textual's), on a PTY under the SSH server or behind textual-serve, with nothing
else that could end it: no key quits it. It shows the letters and digits it was typed (the last
40), so a test can see it still answers."""

import os

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static


class Probe(App):
    ENABLE_COMMAND_PALETTE = False

    def __init__(self) -> None:
        super().__init__()
        self.typed = ""

    def compose(self) -> ComposeResult:
        yield Static("PROBE READY", id="typed")

    def on_key(self, event: events.Key) -> None:
        ch = event.character or ""
        if len(ch) == 1 and ch.isascii() and ch.isalnum():
            self.typed = (self.typed + ch)[-40:]
            self.query_one("#typed", Static).update(f"typed: {self.typed}")

    def on_ready(self) -> None:  # tell the SSH server the first frame is out (limits.ENV_READY_FD)
        fd = os.environ.pop("CELLWARS_SSH_READY_FD", "")
        if fd:
            os.write(int(fd), b"\x01")
            os.close(int(fd))

    async def action_quit(self) -> None:  # ctrl+q: a fuzzed key must not end the probe
        return None

    def action_help_quit(self) -> None:
        return None


if __name__ == "__main__":
    Probe().run()
