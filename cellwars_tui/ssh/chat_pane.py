"""A chat pane: the lines of a table's chat or the lobby's, and a box to type one.

It shows what the hub sends (:class:`~cellwars_tui.online.protocol.ChatLines`: already cleaned,
the reader's muted names left out) as plain text, never as markup (a line ``[red]hi`` shows
as typed), and sends what is typed as :class:`~cellwars_tui.online.protocol.Say` (a line, or
``/mute NAME``). The hub applies every rule (:mod:`cellwars_tui.online.chat`); the box takes at
most 200 characters, and while the table's chat is closed it is disabled and says why.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, RichLog

from ..online import protocol as p
from ..online.chat import MAX_CHARS, MUTE_HELP, ChatLine
from ..ui.css import default_css

PLACEHOLDER = "say something (Enter) · /mute NAME"


def line_text(line: ChatLine, seats: int | None = None) -> Text:
    """One chat line as shown: the time, the name (a spectator's marked), the words; plain
    text whatever it holds."""
    stamp = time.strftime("%H:%M", time.localtime(line.at)) if line.at > 0 else "--:--"
    who = line.name if line.seat is not None or seats is None else f"{line.name} (watching)"
    return Text.assemble((f"{stamp} ", "dim"), (who, "bold"), ": ", line.text)


class ChatPane(Vertical):
    """The chat of a table or of the lobby (see the module's docstring)."""

    DEFAULT_CSS = default_css(__file__, "chat_pane.tcss")
    BINDINGS = [Binding("escape", "done", "Done", show=False)]  # (not the screen's escape)

    def __init__(self, send: Callable[[p.Msg], None], *, seats: int | None = None,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.send = send
        self.seats = seats  # a table's seats (a line from no seat is a spectator's); None: lobby
        self.lines: tuple[ChatLine, ...] = ()
        self.closed = ""

    def compose(self) -> ComposeResult:
        lines = RichLog(id="chat-lines", wrap=True, markup=False, max_lines=200, min_width=20)
        lines.can_focus = False  # (Tab goes from the seats to the box to the moves)
        yield lines
        yield Input(placeholder=PLACEHOLDER, max_length=MAX_CHARS, id="chat-input")

    def on_mount(self) -> None:
        self.border_title = "chat"
        self._paint()

    def show(self, msg: p.ChatLines) -> None:
        """The chat as the hub sends it (every line kept, newest last)."""
        changed = msg.lines != self.lines
        self.lines = msg.lines
        if changed and self.is_mounted:
            self._paint()
        self.set_closed(msg.closed)

    def set_closed(self, why: str) -> None:
        """Close the box, saying why (""; open it): a table state says so as the game moves."""
        if why != self.closed:
            self.closed = why
            if self.is_mounted:
                self._paint()

    def action_done(self) -> None:
        """Escape in the box: back to the screen (the screen's escape is not pressed)."""
        self.screen.set_focus(None)

    def _paint(self) -> None:
        if not self.query("#chat-lines"):
            return  # (not composed yet: on_mount paints)
        log = self.query_one("#chat-lines", RichLog)
        log.clear()
        if not self.lines:
            log.write(Text(f"No chat yet. {MUTE_HELP}.", style="dim"))
        for line in self.lines:
            log.write(line_text(line, self.seats))
        box = self.query_one("#chat-input", Input)
        box.disabled = bool(self.closed)
        box.placeholder = f"chat closed: {self.closed}" if self.closed else PLACEHOLDER
        self.border_subtitle = "closed" if self.closed else ""

    @on(Input.Submitted, "#chat-input")
    def _say(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if text and not self.closed:
            self.send(p.Say(text=text))
        event.input.value = ""

    def focus_input(self) -> None:
        box = self.query_one("#chat-input", Input)
        if not box.disabled:
            box.focus()
