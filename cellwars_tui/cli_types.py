"""Value types for the command line's options (``cellwars`` and ``cellwars serve``/``web``).

Python's ``int`` and ``float`` read more than a user means: "²" and "①" pass ``str.isdigit``
but not ``int``, "٣" reads as 3, "1_000" as 1000, and more than 4,300 digits raise a message about
``sys.set_int_max_str_digits``. These types take plain ASCII numbers only and say what they
expected in one line (argparse adds the option's name); range checks stay with the code that
knows the range. No textual or rich here: ``cellwars --help`` stays fast.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path

_WHOLE = re.compile(r"[+-]?[0-9]+")
MAX_DIGITS = 30  # more than any option needs; a longer number is "too large" for every option


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a one-line message, cut short if long."""
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def parse_whole(text: str) -> int | None:
    """``text`` as a whole number (ASCII digits, an optional sign, surrounding spaces allowed),
    or None."""
    t = text.strip()
    return int(t) if _WHOLE.fullmatch(t) and len(t) <= MAX_DIGITS + 1 else None


def whole(what: str) -> Callable[[str], int]:
    """An argparse type: a whole number, e.g. ``whole("number of players")``."""

    def convert(text: str) -> int:
        value = parse_whole(text)
        if value is None:
            why = "too large" if _WHOLE.fullmatch(text.strip()) else "expected a whole number"
            raise argparse.ArgumentTypeError(f"invalid {what} {shown(text)}: {why}")
        return value

    return convert


def seconds(what: str, unit: str = "seconds") -> Callable[[str], float]:
    """An argparse type: a number of seconds (or of ``unit``) such as 30, 0.5 or 1e3 (ASCII;
    "nan" and "inf" pass here for the range check to refuse them in the option's own words)."""

    def convert(text: str) -> float:
        try:
            if not text.isascii():
                raise ValueError(text)
            return float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid {what} {shown(text)}: expected {unit}, "
                                             "like 30 or 0.5") from None

    return convert


def path(text: str) -> Path:
    """An argparse type: a file name (the system refuses one with a NUL byte, or an empty one)."""
    if not text or "\0" in text:
        raise argparse.ArgumentTypeError(f"invalid file name {shown(text)}")
    return Path(text)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(message: str) -> str:
    """``message`` on one line, control characters (a newline or an escape sequence in a file
    name the user typed) shown as escapes instead of acting on the terminal."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], message)
