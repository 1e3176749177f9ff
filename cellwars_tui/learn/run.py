"""A lesson being followed: the headless state machine that the lesson table drives and the
screens only draw.

:class:`LessonRun` knows the current step, what it expects, and why a submitted action is not
the lesson's (or, when the rules forbid it, the rules' own reason); it hands the match the chance
outcomes the lesson forces. :func:`play_through` plays a whole lesson with its expected actions
and fails, in one line naming the step, at the first one that does not fit (the loader's check
and the tests' one). No textual or rich here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..ai.levels import TIME_CAP, level_name
from ..core.api import CHANCE, Action, Game
from ..core.errors import CellwarsError, IllegalAction
from ..core.match import Match, Seat
from .lesson import CHANCE_STEP, CLOCK, DO, READ, Lesson, LessonError, Step, load_lesson

def opponent_seat(game: Game, seat: int, name: str, level: str) -> Seat:
    """Who plays ``seat`` once the lesson is over: a bot at the lesson's ``level`` (``easy``
    unless the lesson file names another), with the level's usual time guard."""
    return Seat(name=name, kind="bot", bot=level_name(level or "easy"), think=TIME_CAP)


def lesson_seats(game: Game, lesson: Lesson) -> tuple[Seat, ...]:
    names = lesson.names or tuple(game.seat_label(i) for i in range(lesson.players))
    return tuple(Seat(name=names[i]) if i == lesson.you
                 else opponent_seat(game, i, names[i], lesson.opponent)
                 for i in range(lesson.players))


def lesson_match(game: Game, lesson: Lesson, run: LessonRun, **kwargs: Any) -> Match:
    """The lesson's game: its options, seats and seed, its chance outcomes forced by ``run``."""
    try:
        options = game.options_from_dict({**lesson.options, "players": lesson.players})
    except CellwarsError as exc:
        raise LessonError(f"{lesson.path}: {exc}") from None
    match = Match(game, options, lesson_seats(game, lesson), lesson.seed, chance=run.chance_for,
                  **kwargs)
    match.lesson = game.id  # (its save says so: the Resume list marks it)
    return match


@dataclass(frozen=True)
class PanelInfo:
    """All the lesson panel shows (the screen draws it; nothing here decides anything)."""

    title: str
    number: int  # the step the player is at, counting the steps that stop for them
    total: int
    heading: str
    told: tuple[str, ...]  # what the lesson played since the player's last action
    text: str
    feedback: str  # why the last action was not played ("" after a right one)
    keys: tuple[str, ...]
    marks: tuple[str, ...]
    notes: tuple[str, ...]
    reading: bool  # the step waits for Enter
    expected: str  # the action the lesson waits for, in the game's notation ("" for none)
    done: bool  # the lesson is over: the game goes on against the bot
    stopped: str  # why the lesson stopped before its end ("" if it did not)
    minutes: int = 0  # about how long the whole lesson takes


class LessonRun:
    """Where a player is in a lesson. ``strict``: a chance node the lesson does not script is an
    error (:func:`play_through`); at the table it is drawn as in any game."""

    def __init__(self, game: Game, lesson: Lesson, *, strict: bool = False) -> None:
        self.game = game
        self.lesson = lesson
        self.strict = strict
        self.index = 0
        self.feedback = ""
        self.told: list[str] = []
        self.stopped = ""
        self.playing = -1  # the step whose action is being applied (messages name it)
        stops = [s for s in lesson.steps if s.kind in (READ, DO, CLOCK)]
        self._stop_numbers = {s.number: i + 1 for i, s in enumerate(stops)}
        self._stops = len(stops)

    # -- where the player is -------------------------------------------------------------------
    @property
    def step(self) -> Step | None:
        if self.stopped or self.index >= len(self.lesson.steps):
            return None
        return self.lesson.steps[self.index]

    @property
    def over(self) -> bool:
        """The lesson has nothing more to play (finished, or stopped early)."""
        return self.step is None

    @property
    def finished(self) -> bool:
        """Every step was played (the lesson counts as done)."""
        return not self.stopped and self.index >= len(self.lesson.steps)

    @property
    def reading(self) -> bool:
        step = self.step
        return step is not None and step.kind == READ

    def expects(self, kind: str) -> bool:
        step = self.step
        return step is not None and step.kind == kind

    # -- moving on -----------------------------------------------------------------------------
    def go_on(self) -> bool:
        """The player read a read step: the next one (False when the step is not a read step)."""
        if not self.reading:
            return False
        self._pass()
        self.told = []
        return True

    def begin(self) -> Step:
        """The current step's action is about to be applied: the lesson moves past it first
        (chance steps right after it are then the current ones). Returns the step."""
        step = self.step
        assert step is not None and step.action is not None
        self.playing = step.number
        self._pass()
        if step.kind in (DO, CLOCK):  # (their text was shown while the lesson waited)
            self.told = []
            self.feedback = ""
        elif step.text:
            self.told.append(step.text)
        return step

    def take_back(self, step: Step) -> None:
        """``step``'s action could not be applied after :meth:`begin` (the table refused it)."""
        self.index = self.lesson.steps.index(step)

    def stop(self, why: str) -> None:
        """End the lesson early (the game went somewhere the lesson cannot follow)."""
        if not self.over:
            self.stopped = why

    def _pass(self) -> None:
        self.index += 1

    # -- the player's actions ------------------------------------------------------------------
    def check(self, state: Any, seat: int, action: Action) -> str | None:
        """None when ``action`` is the lesson's move now; else, kindly, why it is not played."""
        step = self.step
        if step is None:
            return None
        game = self.game
        if step.kind == DO and seat == step.seat and action == step.action:
            return None
        if not game.is_legal(state, seat, action):
            try:
                game.apply(state, seat, action)
            except IllegalAction as exc:
                return f"Not allowed by the rules: {exc}."
            return "Not allowed by the rules now."
        said = game.action_words(state, action)
        if step.kind == READ:
            return f"Not yet ({said}): read the lesson first, then press Enter to go on."
        if step.kind == CLOCK:
            return f"Not now ({said}): this step waits for the round's clock to run out."
        if step.kind != DO:
            return f"Not now ({said}): wait for the lesson's next step."
        why = step.wrong or "it is a fine move, but this lesson goes another way."
        return f"{said} is legal, but not the lesson's move: {why}"

    def refused(self, why: str) -> None:
        self.feedback = why

    # -- chance --------------------------------------------------------------------------------
    def chance_for(self, state: Any) -> Action | None:
        """The match's chance source: the outcome the lesson forces now (None: draw one)."""
        step = self.step
        if step is None:
            return None
        if step.kind != CHANCE_STEP:
            if self.strict:
                raise self.lesson.problem(step, "the game rolls, draws or shuffles before this "
                                          "step: the lesson must say what (a chance step)")
            return None
        self.begin()
        return step.action

    # -- the panel -----------------------------------------------------------------------------
    def panel(self) -> PanelInfo:
        step = self.step
        lesson = self.lesson
        if step is None:
            text = self.stopped or lesson.end
            return PanelInfo(lesson.title, self._stops, self._stops, "", tuple(self.told), text,
                             self.feedback, (), (), (), False, "", True, self.stopped)
        number = self._stop_numbers.get(step.number, 0)
        expected = step.notation if step.kind == DO else ""
        return PanelInfo(lesson.title, number, self._stops, step.title, tuple(self.told),
                         step.text, self.feedback, step.keys, step.marks, step.notes,
                         step.kind == READ, expected, False, "", lesson.minutes)


def play_through(game: Game, lesson: Lesson) -> Match:
    """Play ``lesson`` with its expected actions; LessonError (one line, naming the step) at
    the first that does not fit. Returns the match at the lesson's end, which must go on."""
    run = LessonRun(game, lesson, strict=True)
    match = lesson_match(game, lesson, run, clock=lambda: 0.0)
    while not run.over:
        step = run.step
        assert step is not None
        if step.kind == READ:
            run.go_on()
            continue
        if step.kind == CHANCE_STEP:
            raise lesson.problem(step, "nothing is rolled, drawn or shuffled here")
        seat = CHANCE if step.kind == CLOCK else step.seat
        assert step.action is not None
        if step.kind == CLOCK and game.to_act(match.state) == (CHANCE,):
            raise lesson.problem(step, "the clock cannot run out before a chance step")
        if step.kind == DO:
            why = run.check(match.state, seat, step.action)
            if why is not None:
                raise lesson.problem(step, why)
        run.begin()
        try:
            match.play(seat, step.action)
        except IllegalAction as exc:
            raise lesson.problem(lesson.steps[run.playing - 1], str(exc)) from None
    if match.is_over():
        raise lesson.problem(None, "the lesson ends the game: it must end in a position to "
                             "play on from")
    return match


_CHECKED: dict[str, Lesson] = {}


def checked_lesson(game: Game) -> Lesson:
    """``game``'s lesson, read and played through once (a file whose expected actions do not
    fit the rules is a LessonError naming the step, before anyone starts it)."""
    lesson = _CHECKED.get(game.id)
    if lesson is None:
        lesson = load_lesson(game)
        play_through(game, lesson)
        _CHECKED[game.id] = lesson
    return lesson
