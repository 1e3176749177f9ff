"""The chat's rules, for a table's chat and the lobby's: every limit in one place.

* **One line, at most** :data:`MAX_CHARS` **characters** (200), after cleaning. A line longer
  than that is refused, not cut (the chat box takes no more; only a hostile client sends more),
  and a line over :data:`MAX_RAW` characters is refused before it is even cleaned.
* **At most** :data:`BURST` **messages in** :data:`WINDOW` **seconds a player** (3 in 3, as
  ssh-chat): :class:`FloodGuard`. A refused message does not count.
* **Nothing reaches another terminal raw** (:func:`clean_text`): escape sequences are removed
  whole (CSI, OSC, DCS and the other string controls, two-character escapes, and their 8-bit
  C1 forms), then every control character (C0, DEL, C1), every format character (bidi
  embeddings, overrides and isolates, zero-width characters, the BOM), every unassigned or
  surrogate code point; line and paragraph separators and any run of spaces become one space;
  a letter keeps at most :data:`MAX_MARKS` combining marks (no "Zalgo" text spilling over the
  lines around it). A nickname needs no cleaning: :mod:`.names` allows only letters, digits
  and ``-_.`` in one.
* ``/mute NAME`` hides NAME's lines from you (``/unmute NAME`` shows them again; ``/mute``
  alone lists whom you mute): :func:`parse`; at most :data:`MAX_MUTES` names a player.
* **A line read back from the store is cleaned again** (:func:`kept_line`): whatever bytes a
  store row holds (an older build's, another program's), a line shown is cleaned and at most
  :data:`MAX_CHARS` characters, its name too.
* **Hidden from a seat it could help cheat**: a game says when its table's chat is closed
  (``Game.chat_closed``: Virus Fight while programs are written in secret) and the hub refuses
  a line then, with the game's reason.

Headless: the hub applies these rules (:mod:`.hub_chat`); screens only show what it sends.
"""

from __future__ import annotations

import re
import unicodedata
from collections import deque
from collections.abc import Iterable

import msgspec

from ..core.errors import CellwarsError

MAX_CHARS = 200  # characters in one chat line, after cleaning
MAX_RAW = 2000  # characters a line may have before cleaning (a longer one is refused at once)
BURST = 3  # messages a player may send ...
WINDOW = 3.0  # ... in this many seconds
MAX_MARKS = 2  # combining marks kept on one letter
KEPT = 100  # lines a table or the lobby keeps
SENT = 30  # lines sent with each table state or lobby
MAX_MUTES = 100  # names one player may mute

MUTE_HELP = "/mute NAME hides a player's lines from you; /unmute NAME shows them again"


class ChatRefused(CellwarsError):
    """A chat line or command the hub refuses (its text, one line, is told to the sender)."""


class ChatLine(msgspec.Struct, frozen=True, array_like=True):
    """One line of a chat: when (seconds since the epoch), the game's step then (0 in the
    lobby and before the start), who said it (their name, and their seat: None for a
    spectator or in the lobby) and what (cleaned)."""

    at: float
    step: int
    name: str
    text: str
    seat: int | None = None


# ESC and its 8-bit forms: string controls (OSC, DCS, SOS, PM, APC) run to their terminator
# (BEL or ST) or, cut short, to the end; a CSI runs to its final byte; other escapes are two
# characters (an intermediate byte may come between).
_ESCAPES = re.compile(
    r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c|$)"
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|\x1b[ -/]*[0-~]?",
)
_SPACES = re.compile(r"\s+")
_DROPPED = frozenset({"Cc", "Cf", "Cs", "Cn"})  # controls, formats, surrogates, unassigned
_AS_SPACE = frozenset({"Zl", "Zp"})  # line and paragraph separators


def clean_text(text: str) -> str:
    """``text`` as one line another terminal may show (see the module's docstring): escape
    sequences removed whole, control and format characters dropped, spaces collapsed."""
    text = _ESCAPES.sub("", text)
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", text):
        category = unicodedata.category(ch)
        if category in _AS_SPACE or ch in "\t\n\r\v\f":
            out.append(" ")
            marks = 0
        elif category in _DROPPED:
            continue
        elif category.startswith("M"):
            marks += 1
            if marks <= MAX_MARKS and out and not out[-1].isspace():
                out.append(ch)
        else:
            out.append(ch)
            marks = 0
    return _SPACES.sub(" ", "".join(out)).strip()


def clean_line(text: str) -> str:
    """A line someone sends, cleaned; ChatRefused (saying why) for one that cannot be said:
    too long, or nothing left once cleaned."""
    if len(text) > MAX_RAW:
        raise ChatRefused(f"a chat line has at most {MAX_CHARS} characters")
    line = clean_text(text)
    if not line:
        raise ChatRefused("nothing to say: that line is empty once control characters are out")
    if len(line) > MAX_CHARS:
        raise ChatRefused(f"a chat line has at most {MAX_CHARS} characters "
                          f"(this one has {len(line)})")
    return line


class Say(msgspec.Struct, frozen=True):
    text: str


class Mute(msgspec.Struct, frozen=True):
    name: str  # "" with on=True: list the muted names
    on: bool = True


def parse(text: str) -> Say | Mute:
    """What a line typed in a chat box asks for: a line to say, or ``/mute``/``/unmute``.
    ChatRefused for a line that cannot be said and an unknown command."""
    line = clean_line(text)
    if not line.startswith("/"):
        return Say(line)
    command, _, rest = line.partition(" ")
    command = command.casefold()
    name = rest.strip()
    if command == "/mute":
        return Mute(name, True)
    if command == "/unmute":
        if not name:
            raise ChatRefused("/unmute whom? " + MUTE_HELP)
        return Mute(name, False)
    raise ChatRefused(f"{command[:20]} is not a chat command: {MUTE_HELP}")


def kept_line(line: ChatLine) -> ChatLine | None:
    """A line read back from a store (or heard from another server) as it may be shown: its
    text and name cleaned (:func:`clean_text`) and cut to :data:`MAX_CHARS` characters; None
    when nothing is left of it."""
    text = clean_text(line.text[:MAX_RAW])[:MAX_CHARS]
    name = clean_text(line.name[:MAX_RAW])[:MAX_CHARS]
    if not text:
        return None
    if text == line.text and name == line.name:
        return line
    return msgspec.structs.replace(line, text=text, name=name or "?")


def kept_lines(lines: "Iterable[ChatLine]") -> list[ChatLine]:
    """:func:`kept_line` of each of ``lines`` (those with nothing left are left out)."""
    return [x for x in map(kept_line, lines) if x is not None]


class FloodGuard:
    """At most :data:`BURST` messages in :data:`WINDOW` seconds for each player."""

    def __init__(self, burst: int = BURST, window: float = WINDOW) -> None:
        self.burst = burst
        self.window = window
        self.sent: dict[str, deque[float]] = {}

    def check(self, who: str, now: float) -> None:
        """Count a message of ``who`` at ``now`` (seconds, any monotonic clock); ChatRefused,
        and nothing counted, when it would be one too many."""
        times = self.sent.setdefault(who, deque())
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.burst:
            wait = self.window - (now - times[0])
            raise ChatRefused(f"slow down: at most {self.burst} messages in "
                              f"{self.window:g} seconds (wait {max(wait, 0.1):.1f} s)")
        times.append(now)

    def forget(self, older_than: float) -> None:
        """Drop players who sent nothing since ``older_than`` (the hub's sweep)."""
        for who in [w for w, t in self.sent.items() if not t or t[-1] < older_than]:
            del self.sent[who]


def visible(lines: "deque[ChatLine] | tuple[ChatLine, ...]", muted: "set[str]",
            key=lambda name: name) -> tuple[ChatLine, ...]:
    """The last :data:`SENT` lines of ``lines`` but those of muted names (compared by
    ``key``: the hub's name key, so a muted name's look-alikes are muted too)."""
    if not muted:
        return tuple(lines)[-SENT:]
    return tuple(line for line in lines if key(line.name) not in muted)[-SENT:]
