"""Reading what can be read of a damaged record file, for the replay.

``record.format.decode_record`` refuses a file whole when its JSON is cut short, a step is of the
wrong shape or the format is newer than this cellwars. A replay does better: as long as the header
can be read, it opens the steps up to the first one that cannot, and says where and why. The file is
scanned one top-level value at a time (the header may come before or after the steps, as a hand
edit leaves it), and the steps one array element at a time.
"""

from __future__ import annotations

import json
import math
from typing import Any

import msgspec

from ..core.errors import RecordError
from ..record.format import FORMAT_VERSION, Header, Record, RecordedStep

_decoder = json.JSONDecoder()


class Salvaged(msgspec.Struct, frozen=True):
    """The readable part of a damaged record, and why the rest could not be read."""

    record: Record
    problem: str | None  # where the steps stop being readable (None: every step was read)
    warning: str | None  # a version mismatch read anyway


def _ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def _step(value: Any) -> RecordedStep:
    """One step from its JSON value ``[seat, action, t]``; ValueError when it is of the wrong
    shape (the action itself is checked by the game later)."""
    if not isinstance(value, list) or not 2 <= len(value) <= 3:
        raise ValueError("a step is [seat, action, seconds]")
    seat = value[0]
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ValueError(f"the seat {seat!r} is not a number")
    t = value[2] if len(value) == 3 else 0.0
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
        raise ValueError(f"the time {t!r} is not a number of seconds")
    return RecordedStep(seat, msgspec.Raw(msgspec.json.encode(value[1])), float(t))


def _describe(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return exc.msg.lower()
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text if len(text) <= 100 else text[:97] + "..."


def salvage(data: bytes, path: object, original: RecordError) -> Salvaged:
    """The header and the readable steps of ``data``; raises ``original`` when not even the
    header can be read (then nothing can be replayed)."""
    text = data.decode("utf-8", errors="replace")
    top: dict[str, Any] = {}
    steps: list[RecordedStep] = []
    problem: str | None = None
    saw_steps = False
    steps_whole = False  # the steps' closing bracket was read
    cut_after_steps = False
    cut = not text.rstrip().endswith("}")
    i = _ws(text, 0)
    if not text.startswith("{", i):
        raise original
    i += 1
    try:
        while True:
            i = _ws(text, i)
            if i >= len(text):
                break
            if text[i] == "}":
                break
            if text[i] == ",":
                i += 1
                continue
            key, i = _decoder.raw_decode(text, i)
            i = _ws(text, i)
            if not isinstance(key, str) or not text.startswith(":", i):
                break
            i = _ws(text, i + 1)
            if key != "steps":
                value, i = _decoder.raw_decode(text, i)
                top[key] = value
                continue
            saw_steps = True
            if not text.startswith("[", i):
                problem = "the steps are not a list"
                break
            i += 1
            while True:
                i = _ws(text, i)
                if i >= len(text):
                    problem = f"the file is cut short after step {len(steps)}"
                    break
                if text[i] == "]":
                    i += 1
                    steps_whole = True
                    break
                if text[i] == ",":
                    i += 1
                    continue
                try:
                    value, i = _decoder.raw_decode(text, i)
                except json.JSONDecodeError as exc:
                    # A cut may land just after a closing brace inside a step, so a parse
                    # error at the very end of the text counts as a cut too.
                    ends = exc.pos >= len(text.rstrip())
                    why = "the file is cut short" if cut or ends else _describe(exc)
                    problem = f"step {len(steps) + 1} cannot be read: {why}"
                    break
                except RecursionError:
                    problem = f"step {len(steps) + 1} cannot be read: nested too deeply"
                    break
                try:
                    steps.append(_step(value))
                except ValueError as exc:
                    problem = f"step {len(steps) + 1} cannot be read: {exc}"
                    break
            if problem is not None:
                break
    except (json.JSONDecodeError, RecursionError):
        # the rest of the file: whatever was read before it stands (a sealed record's snapshots
        # come after its steps, so a cut there loses no step)
        cut_after_steps = steps_whole and cut
    if "header" not in top:
        raise original
    try:
        header = msgspec.convert(top["header"], Header)
    except (msgspec.ValidationError, TypeError, ValueError):
        raise original from None
    version = top.get("format_version")
    warning = None
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        warning = (f"record format {version} is newer than this cellwars reads "
                   f"({FORMAT_VERSION}); read as far as it goes")
    elif version != FORMAT_VERSION:
        warning = f"the record format {version!r} is unknown; read as format {FORMAT_VERSION}"
    if problem is None and warning is None:
        warning = ("the file is cut short after its steps (every step was read)" if cut_after_steps
                   else f"read despite: {original.problem}")
    if problem is None and not saw_steps:
        problem = "the file is cut short before its steps" if cut else "the file has no steps"
    record = Record(format_version=FORMAT_VERSION, header=header, steps=steps)
    return Salvaged(record, problem, warning)
