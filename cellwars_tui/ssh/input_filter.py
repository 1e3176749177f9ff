"""What a client types, made safe for the app's terminal parser (Textual's), for the SSH server
and the browser front alike.

Textual turns a control sequence's numbers into characters and sizes with ``int()`` and
``chr()`` and trusts them: ``ESC[11111111u`` (a "key" past U+10FFFF) raised ValueError and
ended the session (froze a browser tab), ``ESC[999999999999;9999999~`` raised OverflowError,
``ESC[97:65;5u`` (a field with a colon) ValueError, and an in-band resize report
(``ESC[48;rows;cols;height;width t``) of a million columns or of zero pixels made the app lay out
an endless screen or divide by zero. :class:`InputFilter` sits between the client and the app
(one per session, fed the decoded text in order) and lets through only CSI sequences
(``ESC [`` parameters, intermediates, final byte) that the parser takes safely:

* a sequence with a number of more than ``MAX_DIGITS`` digits, or longer than the parser
  ever matches (``MAX_SEQUENCE``), or broken by a character that cannot be part of it, is
  dropped whole;
* a key sequence (final ``u``, ``~`` or ``A``-``S``, no private marker) whose key or text is
  not a character (past U+10FFFF, or a surrogate) or whose key or modifier field is not a plain
  number is dropped;
* an in-band resize report is clamped to sizes a terminal can have (``1``-``MAX_CELLS`` cells,
  ``1``-``MAX_PIXELS`` pixels a side).

Everything else passes unchanged and at once, except a CSI sequence, which is held until its
final byte (the parser itself waits for that), and an ``ESC`` at the very end of what arrived,
which passes at once (a lone Escape key must not wait) while the filter remembers it.
Headless: no Textual here; the SSH child bridge (:mod:`.child`) and the browser front
(:mod:`.web`) each give every session one filter.
"""

from __future__ import annotations

ESC = "\x1b"
MAX_DIGITS = 7  # no number a terminal sends is longer (a key, a mouse cell, a size in pixels)
MAX_SEQUENCE = 32  # Textual's parser gives up on longer sequences (re-sends them as keys)
MAX_CELLS = 1000  # a terminal's rows or columns (as the PTY's own size is clamped)
MAX_PIXELS = 100_000
MAX_CODE_POINT = 0x10FFFF
KEY_FINALS = frozenset("u~ABCDEFHPQRS")  # sequences Textual reads as a key with a code point

_GROUND, _ESCAPE, _CSI, _DISCARD = range(4)


def _is_parameter(ch: str) -> bool:
    return "0" <= ch <= "?"  # 0x30-0x3F: digits : ; < = > ?


def _is_intermediate(ch: str) -> bool:
    return " " <= ch <= "/"  # 0x20-0x2F


def _is_final(ch: str) -> bool:
    return "@" <= ch <= "~"  # 0x40-0x7E


def _a_character(number: str) -> bool:
    value = int(number)
    return value <= MAX_CODE_POINT and not 0xD800 <= value <= 0xDFFF


def safe_sequence(sequence: str) -> str:
    """A whole CSI sequence (``ESC [`` ... final byte) as the app may see it: itself, clamped,
    or "" (dropped). Its characters are ASCII parameters, intermediates and a final byte."""
    body, final = sequence[2:-1], sequence[-1]
    if len(sequence) > MAX_SEQUENCE:
        return ""
    parameters = body.rstrip(" !\"#$%&'()*+,-./")
    intermediates = body[len(parameters):]
    numbers = "".join(ch if ch.isdigit() else " " for ch in parameters).split()
    if any(len(n) > MAX_DIGITS for n in numbers):
        return ""
    if final == "t" and body.startswith("48;"):
        return _clamped_resize(body.split(";")[1:])
    if parameters.startswith(("<", "=", ">", "?")) or intermediates:
        return sequence  # private or with intermediates: never read as a key
    fields = parameters.split(";")
    if final in KEY_FINALS:
        key, modifiers, text = (fields + ["", ""])[:3]
        if not (key.isdigit() or key == "") or not (modifiers.isdigit() or modifiers == ""):
            return ""  # Textual reads these two with int()
        if key and not _a_character(key):
            return ""
        if any(part.isdigit() and not _a_character(part) for part in text.split(":")):
            return ""
    return sequence


def _clamped_resize(fields: list[str]) -> str:
    """An in-band resize report (rows, columns, height and width in pixels) within a terminal's
    possible sizes; "" if it is not four numbers."""
    numbers = [field.partition(":")[0] for field in fields]
    if len(numbers) != 4 or not all(n.isdigit() for n in numbers):
        return ""
    rows, cols, height, width = (int(n) for n in numbers)

    def clamp(value: int, most: int) -> int:
        return max(1, min(value, most))

    return (f"{ESC}[48;{clamp(rows, MAX_CELLS)};{clamp(cols, MAX_CELLS)};"
            f"{clamp(height, MAX_PIXELS)};{clamp(width, MAX_PIXELS)}t")


class InputFilter:
    """One session's filter: ``feed(text)`` gives what may go on to the app now."""

    def __init__(self) -> None:
        self._state = _GROUND
        self._sequence = ""  # the CSI sequence so far (ESC included)
        self._escape_sent = False  # its ESC went on already (it ended what arrived before)

    def feed(self, text: str) -> str:
        if self._state == _GROUND and ESC not in text:
            return text  # the common case: keys and text
        out: list[str] = []
        for ch in text:
            self._step(ch, out)
        if self._state == _ESCAPE and not self._escape_sent:
            out.append(ESC)  # a lone Escape key must not wait for what comes next
            self._escape_sent = True
        return "".join(out)

    def _step(self, ch: str, out: list[str]) -> None:
        state = self._state
        if state == _ESCAPE:
            if ch == "[":
                self._sequence = ESC + "["
                self._state = _CSI
                return
            if not self._escape_sent:
                out.append(ESC)
            self._state = _GROUND
        elif state == _CSI:
            if _is_parameter(ch) or _is_intermediate(ch):
                self._sequence += ch
                if len(self._sequence) > MAX_SEQUENCE:
                    self._state = _DISCARD
                return
            if _is_final(ch):
                safe = safe_sequence(self._sequence + ch)
                if safe and self._escape_sent:
                    safe = safe[1:]
                out.append(safe)
                self._state = _GROUND
                return
            self._state = _GROUND  # broken off: the sequence so far is dropped
        elif state == _DISCARD:
            if _is_parameter(ch) or _is_intermediate(ch):
                return
            self._state = _GROUND
            if _is_final(ch):
                return
        # ground
        if ch == ESC:
            self._state = _ESCAPE
            self._escape_sent = False
        else:
            out.append(ch)
