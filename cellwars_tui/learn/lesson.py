"""A lesson as data: ``games/<game>/lesson.toml`` read into a :class:`Lesson` of :class:`Step`.

A lesson file says which game it teaches (players, options, a fixed seed, which seat is yours)
and lists its steps in order. A step is one of:

* a **read** step (``text`` only): the player reads, then presses Enter to go on;
* a **do** step (``do = "move b1-c2 >b2"``): the player's own action, in the game's notation
  (``Game.action_from_str``), with the text that says what to do and why;
* a **bot** step (``bot = "..."``): the other seat's action, played by the lesson;
* an **auto** step (``auto = "..."``): an action of the player's own seat that the lesson plays
  for them (a long set-up skipped, told in its text);
* a **chance** step (``chance = "..."``): the outcome the lesson forces at a chance node (a die,
  a draw, a shuffle), applied like any chance outcome;
* a **clock** step (``clock = "time-up 1"``): in a real-time game, the system action the round
  clock plays by itself (the player watches the timer run out).

Any step may name ``keys`` to show, ``marks`` (squares, tiles or cards for the game's screen to
highlight, in that screen's names), ``notes`` (biology notes of the ``[notes]`` table, one key
away), ``wrong`` (why another move is not the lesson's) and, for a real-time game, ``wind``
(seconds left on the round's clock when the step begins). A lesson ends with ``end``, the text
shown when the player plays on alone against ``opponent`` (a bot level).

Every mistake in a file is a :class:`LessonError` of one line naming the file and the step. No
textual or rich here.
"""

from __future__ import annotations

import importlib.util
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..ai.levels import UnknownLevel, level_name
from ..core.api import Action, Game
from ..core.errors import CellwarsError

LESSON_FILE = "lesson.toml"
READ, DO, BOT, AUTO, CHANCE_STEP, CLOCK = "read", "do", "bot", "auto", "chance", "clock"
ACTION_KINDS = (DO, BOT, AUTO, CHANCE_STEP, CLOCK)
MAX_LESSON_BYTES = 256 * 1024

_TOP = {"title", "game", "players", "seed", "you", "names", "opponent", "minutes", "options",
        "notes", "end", "step"}
_STEP = {"title", "text", "do", "bot", "auto", "chance", "clock", "seat", "keys", "marks",
         "notes", "wrong", "wind"}


class LessonError(CellwarsError):
    """A lesson file that cannot be used (one line: the file, the step, what is wrong)."""


@dataclass(frozen=True)
class Step:
    """One step of a lesson. ``action`` is parsed with the game's notation (None: a read step)."""

    number: int  # counted from 1, as the file's [[step]] tables come
    kind: str  # READ, DO, BOT, AUTO, CHANCE_STEP or CLOCK
    text: str = ""
    title: str = ""
    notation: str = ""  # the action as the file writes it
    action: Action | None = None
    seat: int = -1  # a bot step's seat (0-based); the player's for a do or auto step
    keys: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    wrong: str = ""
    wind: float | None = None


@dataclass(frozen=True)
class Lesson:
    """A guided first game of ``game``: its table (players, options, seed, seats) and steps."""

    game_id: str
    title: str
    path: str  # where it was read from (for messages)
    players: int
    seed: int
    you: int  # the player's seat, 0-based
    names: tuple[str, ...]
    opponent: str  # the bot level the other seats play at once the lesson is over ("": none)
    minutes: int
    options: dict[str, Any]
    steps: tuple[Step, ...]
    notes: dict[str, str] = field(default_factory=dict)
    end: str = ""

    def problem(self, step: Step | None, text: str) -> LessonError:
        where = f"step {step.number}: " if step is not None else ""
        return LessonError(f"{self.path}: {where}{text}")


def lesson_path(game: Game) -> Path:
    """Where ``game``'s lesson file is: ``lesson.toml`` beside its rules module."""
    module = type(game).__module__
    package = module.rpartition(".")[0] if module.endswith(".rules") else module
    spec = importlib.util.find_spec(package)
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    if not locations:
        raise LessonError(f"{game.title} has no lesson")
    return Path(locations[0]) / LESSON_FILE


def has_lesson(game: Any) -> bool:
    """Whether ``game`` (a Game, or the launcher's cached entry of one: anything with an ``id``)
    has a lesson file."""
    try:
        path = lesson_path(game) if isinstance(game, Game) else _path_by_id(game.id)
    except LessonError:
        return False
    return path.is_file()


def _path_by_id(game_id: str) -> Path:
    """A game's lesson file found from its id alone (no game module imported)."""
    spec = importlib.util.find_spec("cellwars_tui.games")
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    if not locations:
        raise LessonError(f"no games package for {game_id}")
    return Path(locations[0]) / game_id.replace("-", "_") / LESSON_FILE


_NOTES: dict[str, dict[str, str]] = {}
def lesson_notes(game: Game) -> dict[str, str]:
    """The biology notes of ``game``'s lesson file (``{}`` without a usable one), read once."""
    notes = _NOTES.get(game.id)
    if notes is None:
        try:
            notes = load_lesson(game).notes
        except LessonError:
            notes = {}
        _NOTES[game.id] = notes
    return notes


def load_lesson(game: Game, path: Path | None = None) -> Lesson:
    """Read and check ``game``'s lesson file (or ``path``); LessonError with one line if bad."""
    path = lesson_path(game) if path is None else path
    shown = f"{game.id} lesson ({path.name})"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise LessonError(f"{game.title} has no lesson yet") from None
    except OSError as exc:
        raise LessonError(f"{shown}: cannot read ({exc.strerror or exc})") from None
    if len(data) > MAX_LESSON_BYTES:
        raise LessonError(f"{shown}: too large for a lesson file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise LessonError(f"{shown}: not UTF-8 text") from None
    return parse_lesson(game, text, shown)


def parse_lesson(game: Game, text: str, shown: str = "lesson") -> Lesson:
    """A lesson from the text of a lesson file (``shown`` names it in messages)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(f"{shown}: not valid TOML ({exc})") from None

    def bad(what: str) -> LessonError:
        return LessonError(f"{shown}: {what}")

    unknown = sorted(set(data) - _TOP)
    if unknown:
        raise bad(f"unknown field {unknown[0]!r}")
    game_id = data.get("game", game.id)
    if game_id != game.id:
        raise bad(f"a lesson of {game_id!r}, not of {game.id!r}")
    title = _text(data, "title", bad, default=f"{game.title}: a first game")
    players = _int(data, "players", bad, default=game.min_players)
    if not game.min_players <= players <= game.max_players:
        raise bad(f"players must be {game.min_players} to {game.max_players}, not {players}")
    seed = _int(data, "seed", bad, default=1)
    you = _int(data, "you", bad, default=1)
    if not 1 <= you <= players:
        raise bad(f"you must be a seat from 1 to {players}, not {you}")
    names = tuple(_strings(data, "names", bad))
    if names and len(names) != players:
        raise bad(f"names must name all {players} seats")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise bad("[options] must be a table")
    notes = data.get("notes", {})
    if not isinstance(notes, dict) or not all(isinstance(v, str) for v in notes.values()):
        raise bad("[notes] must be a table of texts")
    raw_steps = data.get("step", [])
    if not isinstance(raw_steps, list) or not raw_steps:
        raise bad("a lesson needs at least one [[step]]")
    steps = tuple(_step(game, i + 1, raw, players, you - 1, notes, bad)
                  for i, raw in enumerate(raw_steps))
    opponent = _text(data, "opponent", bad, default="easy")
    if opponent:
        try:
            opponent = level_name(opponent)
        except UnknownLevel as exc:
            raise bad(f"opponent: {exc}") from None
    return Lesson(
        game_id=game.id, title=title, path=shown, players=players, seed=seed, you=you - 1,
        names=names, opponent=opponent,
        minutes=_int(data, "minutes", bad, default=5), options=dict(options), steps=steps,
        notes={str(k): " ".join(v.split()) for k, v in notes.items()},
        end=_prose(_text(data, "end", bad, default="")),
    )


def _step(game: Game, number: int, raw: Any, players: int, you: int, notes: dict[str, Any],
          bad: Any) -> Step:
    def wrong(what: str) -> LessonError:
        return bad(f"step {number}: {what}")

    if not isinstance(raw, dict):
        raise wrong("must be a table")
    unknown = sorted(set(raw) - _STEP)
    if unknown:
        raise wrong(f"unknown field {unknown[0]!r}")
    kinds = [k for k in ACTION_KINDS if k in raw]
    if len(kinds) > 1:
        raise wrong(f"one of do, bot, auto, chance or clock, not {' and '.join(kinds)}")
    kind = kinds[0] if kinds else READ
    text = _prose(_text(raw, "text", wrong, default=""))
    if kind in (READ, DO) and not text:
        raise wrong("needs a text")
    action = None
    notation = ""
    if kind != READ:
        notation = _text(raw, kind, wrong, default="")
        try:
            action = game.action_from_str(notation)
        except CellwarsError as exc:
            raise wrong(str(exc)) from None
    seat = you
    if kind == BOT:
        default = next(s for s in range(players) if s != you) if players > 1 else you
        seat = _int(raw, "seat", wrong, default=default + 1) - 1
        if not 0 <= seat < players or seat == you:
            raise wrong(f"a bot plays a seat from 1 to {players} other than yours")
    elif "seat" in raw:
        raise wrong("only a bot step names a seat")
    about = tuple(_strings(raw, "notes", wrong))
    missing = [n for n in about if n not in notes]
    if missing:
        raise wrong(f"no note {missing[0]!r} in [notes]")
    wind = raw.get("wind")
    if wind is not None and (not isinstance(wind, (int, float)) or isinstance(wind, bool)
                             or not wind > 0):
        raise wrong("wind must be a number of seconds above 0")
    if wind is not None and not game.real_time:
        raise wrong("only a real-time game's clock can be wound on")
    if kind == CLOCK and not game.real_time:
        raise wrong("only a real-time game has a round clock")
    return Step(number=number, kind=kind, text=text, title=_text(raw, "title", wrong, default=""),
                notation=notation, action=action, seat=seat,
                keys=tuple(_strings(raw, "keys", wrong)), marks=tuple(_strings(raw, "marks", wrong)),
                notes=about, wrong=_prose(_text(raw, "wrong", wrong, default="")),
                wind=float(wind) if wind is not None else None)


def _prose(text: str) -> str:
    """A text as the panel flows it: paragraphs (blank lines) kept, other line breaks spaces."""
    paragraphs = [" ".join(p.split()) for p in text.strip().split("\n\n")]
    return "\n".join(p for p in paragraphs if p)


def _text(table: dict[str, Any], key: str, bad: Any, *, default: str) -> str:
    value = table.get(key, default)
    if not isinstance(value, str):
        raise bad(f"{key} must be a text")
    return value


def _int(table: dict[str, Any], key: str, bad: Any, *, default: int) -> int:
    value = table.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise bad(f"{key} must be a whole number")
    return value


def _strings(table: dict[str, Any], key: str, bad: Any) -> list[str]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise bad(f"{key} must be a list of texts")
    return value
