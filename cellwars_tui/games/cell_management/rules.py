"""Cell Management: the pure rules of the one-player escape puzzle.

The ship has ``n`` ring positions (4, 5 or 6), numbered clockwise from 0 (the screen shows them as
keys 1..n). Position ``p`` holds a secret hideout (``hideouts[p]``, a species) on the inner ring and,
just outside it, a containment cell (``cells[p]``, the species locked in it). The hostile hideouts
are listed by species in ``hostile``. Species are numbered 0..n-1 and shown as N, A, 2, 3, 4, 5
(the piecepack Null and Ace, then numbers).

Each species has two captives; every captive is in its own cell, in its own hideout (at most one),
or in the escape area in the centre (at most one). A state records, per species, how many sit in
the cell and whether one sits in the hideout or in the centre.

Flow::

    setup (chance: the shuffle) -> start (the player picks the cell that attracts the guards;
    the guards walk the ring) -> return (optional: one escaped captive goes back to its hideout,
    or "done") -> start -> ... until every species has one captive in the centre.

The walk is :func:`walk`: it yields one event per step together with the state after that step,
so a screen can narrate and animate it; ``_apply`` uses the same function. Every decision where the
seed is silent is listed once in ``CLARIFICATIONS`` below and in rules.md.
"""

from __future__ import annotations

import datetime as _dt
import random
from collections.abc import Sequence

import msgspec

from ...core import CHANCE, Action, Event, Game, GameTool, GameType, Options, Outcome, register
from ...core.api import parse_error
from ...core.errors import BadNotation, BadOptions
from . import tools as T
from .clarifications import (CLARIFICATIONS, DEFAULT_MAX_ROUNDS, MAX_ROUNDS_LIMIT,
                             RETURNS_PER_ROUND, hostile_count)
from .daily import daily_number, daily_setup, is_daily
from .moves import apply_move, initial_position, is_legal_move, is_solved, legal_moves, walk
from .setups import (NAMES, SPECIES_CHOICES, SYMBOLS, Setup, cycle_of, number_text, parse_species,
                     requested_code, setup_code, setup_count, setup_from_code, setup_from_number,
                     setup_number, setup_problem, shuffle_setup, symbol_value)
from .types import (GAVE_UP, OUT_OF_ROUNDS, OVER, RETURN, SETUP, START, WON, Arrive, CMAction,
                    CMEvent, CMOptions, CMState, Done, Ended, Escape, Examine, GiveUp, Kept,
                    Leave, Return, Returned, Search, SetUp, Start, Won, rounds_text)


class CellManagement(Game[CMState, Action]):
    meta = GameType(
        id="cell-management",
        title="Cell Management",
        blurb="Solitaire: lead one captive of each species out of the alien ship.",
        min_players=1,
        max_players=1,
        order=2,
        has_chance=True,
        chance_text="a shuffled ship",
    )
    options_type = CMOptions
    state_type = CMState
    action_type = CMAction
    event_type = CMEvent
    seat_names = ("Player",)

    # -- options ---------------------------------------------------------------------------
    def check_options(self, options: Options) -> None:
        super().check_options(options)
        own = self.own_options(options)
        species = own.species
        if species not in SPECIES_CHOICES:
            raise BadOptions(f"Cell Management plays with 4, 5 or 6 species, not {species}")
        max_rounds = own.max_rounds
        if not 1 <= max_rounds <= MAX_ROUNDS_LIMIT:
            raise BadOptions(f"the round limit must be between 1 and {MAX_ROUNDS_LIMIT}")
        try:
            requested_code(own)
        except BadNotation as exc:
            raise BadOptions(str(exc)) from None

    # -- the rules -------------------------------------------------------------------------
    def initial_state(self, options: Options) -> CMState:
        own = self.own_options(options)
        code = requested_code(own)
        daily = not code and own.puzzle == "daily"
        return CMState(species=own.species, code=code, daily=daily, max_rounds=own.max_rounds)

    def to_act(self, s: CMState) -> tuple[int, ...]:
        if s.phase == SETUP:
            return (CHANCE,)
        if s.phase in OVER:
            return ()
        return (0,)

    def legal_actions(self, s: CMState, seat: int) -> list[Action]:
        if seat not in self.to_act(s):
            return []
        if seat == CHANCE:
            # A fixed code has one outcome; a free shuffle has too many to list (see is_legal).
            return [setup_from_code(s.code, s.species)] if s.code else []
        return legal_moves(s)

    def is_legal(self, s: CMState, seat: int, action: Action) -> bool:
        if seat not in self.to_act(s):
            return False
        if seat == CHANCE:
            if not isinstance(action, Setup) or setup_problem(action, s.species) is not None:
                return False
            if s.code:
                return setup_code(action) == s.code and not action.daily
            if s.daily:
                return is_daily(action, s.species)
            return not action.daily
        return is_legal_move(s, action)

    def chance_outcomes(self, s: CMState) -> list[tuple[Action, float]]:
        if s.code:
            return [(setup_from_code(s.code, s.species), 1.0)]
        raise NotImplementedError("a free shuffle is sampled, not listed")

    def sample_chance(self, s: CMState, rng: random.Random) -> Action:
        if s.code:
            return setup_from_code(s.code, s.species)
        if s.daily:
            return daily_setup(_dt.date.today(), s.species)
        return shuffle_setup(s.species, rng)

    def _apply(self, s: CMState, seat: int, a: Action) -> tuple[CMState, tuple[Event, ...]]:
        match a:
            case Setup():
                new = initial_position(a, max_rounds=s.max_rounds, code=s.code, daily=s.daily,
                                       date=a.daily)
                return new, (SetUp(setup_code(a), a.daily),)
            case _:
                return apply_move(s, a)

    def outcome(self, s: CMState) -> Outcome | None:
        if s.phase == WON:
            return Outcome((0,), f"escaped in {rounds_text(s.round)}")
        if s.phase == GAVE_UP:
            return Outcome((), f"gave up after {rounds_text(s.round)}")
        if s.phase == OUT_OF_ROUNDS:
            return Outcome((), f"no escape within {rounds_text(s.max_rounds)}")
        return None

    # -- bot hooks -------------------------------------------------------------------------
    def record_title(self, s: CMState) -> str:
        """The puzzle's number (and the day of a daily puzzle): two saved puzzles in the Resume
        list are told apart by it."""
        if not s.cells:
            return ""
        return f"puzzle {s.number}" + (f", daily {s.date}" if s.date else "")

    def bot_actions(self, s: CMState, seat: int) -> list[Action]:
        return [a for a in self.legal_actions(s, seat) if not isinstance(a, GiveUp)]

    def heuristic(self, s: CMState) -> tuple[float, ...]:
        if not s.in_center:
            return (0.0,)
        return (2.0 * sum(s.in_center) / s.species - 1.0,)

    # -- command line (cellwars solve / study) ---------------------------------------------
    def tools(self) -> tuple[GameTool, ...]:
        return T.TOOLS

    # -- notation ----------------------------------------------------------------------------
    def action_words(self, state: CMState, action: Action) -> str:
        """By ring position, as the keys and the ship's boxes number them: the notation's
        "start 4" (the cell of species 4) is "cell 1 (species 4)" when that cell is first."""
        match action:
            case Start(cell=c) if state.cells:
                return f"starting at cell {state.position_of_cell(c) + 1} (species {SYMBOLS[c]})"
            case Return(species=x) if state.cells:
                return (f"sending the {NAMES[x]} back (hideout "
                        f"{state.position_of_hideout(x) + 1})")
        return self.action_to_str(action)

    def action_to_str(self, a: Action) -> str:
        match a:
            case Setup(daily=day) if day:
                return f"setup {setup_code(a)} daily {day}"
            case Setup():
                return f"setup {setup_code(a)}"
            case Start(cell=c):
                return f"start {SYMBOLS[c]}"
            case Return(species=x):
                return f"return {SYMBOLS[x]}"
            case Done():
                return "done"
            case GiveUp():
                return "give-up"
        raise AssertionError(a)

    def action_from_str(self, text: str) -> Action:
        words = text.split()
        if not words:
            raise parse_error(self, text, "empty action")
        head, rest = words[0].lower(), words[1:]
        if head == "done" and not rest:
            return Done()
        if head in ("give-up", "giveup", "resign") and not rest:
            return GiveUp()
        if head == "setup" and len(rest) == 1:
            return setup_from_code(rest[0])
        if head == "setup" and len(rest) == 3 and rest[1].lower() == "daily":
            try:
                day = _dt.date.fromisoformat(rest[2])
            except ValueError:
                raise parse_error(self, text, "the daily date must look like 2026-11-23") from None
            return msgspec.structs.replace(setup_from_code(rest[0]), daily=day.isoformat())
        if head in ("start", "return") and len(rest) == 1:
            value = symbol_value(rest[0])
            if value is None:
                raise parse_error(self, text, "name the species: N, A, 2, 3, 4 or 5")
            return Start(value) if head == "start" else Return(value)
        raise parse_error(self, text, "expected start X, return X, done, give-up or setup CODE")

    def describe_event(self, e: Event, names: Sequence[str] = ()) -> str:
        return describe(e)

    # -- invariants ----------------------------------------------------------------------------
    def check_invariants(self, s: CMState) -> None:
        assert s.players == 1 and s.species in SPECIES_CHOICES
        if s.phase == SETUP:
            assert not s.cells and s.round == 0
            return
        n = s.species
        assert setup_problem(s.setup, n) is None
        assert len(s.in_cell) == len(s.in_hideout) == len(s.in_center) == n
        for x in range(n):
            assert s.in_cell[x] + s.in_hideout[x] + s.in_center[x] == 2, (x, s)
            assert 0 <= s.in_cell[x] <= 2
        assert 0 <= s.round <= s.max_rounds
        assert s.phase != RETURN or s.returnable()
        assert (s.phase == WON) == is_solved(s)


def name(species: int) -> str:
    return NAMES[species]


def _a(species: int) -> str:
    return f"An {name(species)}" if species == 1 else f"A {name(species)}"


def _cell(position: int, species: int) -> str:
    """A cell as the screen numbers it: its position (the key that starts the guards there),
    then the species locked in it."""
    return f"cell {position + 1} (species {SYMBOLS[species]})"


def describe(e: Event) -> str:
    """One plain sentence per event (the screen's narration line and log). Cells are named by
    their position on the ring (1..n, the keys), as the screen shows them, with their species;
    a hideout is named by the species it shelters ("the 4 hideout")."""
    match e:
        case SetUp(code=code, daily=day) if day:
            return f"Daily puzzle of {day}: the captives are locked in (setup {code})."
        case SetUp(code=code):
            return f"The captives are locked in (setup {code})."
        case Arrive(round=r, cell=c, position=p):
            return f"Round {r}: {_cell(p, c)} makes a noise and the guards come to it."
        case Examine(position=p, cell=c, hideout=h, hostile=hostile, occupied=occ,
                     attempt=attempt):
            kind = "hostile" if hostile else "friendly"
            fill = "occupied" if occ else "empty"
            tail = "a captive tries to escape." if attempt else "nobody stirs."
            return (f"C{_cell(p, c)[1:]}: the {name(h)} hideout beside it is {kind} and "
                    f"{fill}: {tail}")
        case Escape(species=x, to="hideout"):
            return f"{_a(x)} slips out and hides in the {name(x)} hideout."
        case Escape(species=x, to="center"):
            return f"{_a(x)} finds the {name(x)} hideout taken and escapes to the centre!"
        case Escape(species=x):
            return "The cell is empty: nobody can try."
        case Search(hideout=h, found=True):
            return (f"The guards search the {name(h)} hideout and drag the {name(h)} back to its "
                    "cell.")
        case Search(hideout=h):
            return f"The guards search the {name(h)} hideout: nobody there."
        case Leave(round=r):
            return f"The guards leave after round {r}."
        case Returned(species=x):
            return f"The escaped {name(x)} goes back to the {name(x)} hideout to help the others."
        case Kept():
            return "Nobody is sent back: every escaped captive stays free."
        case Won(rounds=r):
            return f"One of every species is free: the ship is yours after {r} rounds!"
        case Ended(why=why) if why == GAVE_UP:  # (a bare name here would capture anything)
            return "You give up; the ship flies on."
        case Ended():
            return "The round limit is reached; the ship arrives home."
    return msgspec.json.encode(e).decode()


GAME = register(CellManagement())

# The sample board: the seed's "Figure 1" chain (Null -> 4 -> 2 ...) fitted to its sample round.
SAMPLE_CODE = "N3245A-234-4A32N5"

__all__ = [
    "GAME", "CellManagement", "SAMPLE_CODE", "name", "describe", "CLARIFICATIONS",
    "DEFAULT_MAX_ROUNDS", "MAX_ROUNDS_LIMIT", "RETURNS_PER_ROUND", "hostile_count",
    "daily_number", "daily_setup", "is_daily", "initial_position", "is_solved", "walk",
    "NAMES", "SPECIES_CHOICES", "SYMBOLS", "Setup", "cycle_of", "number_text", "parse_species",
    "requested_code", "setup_code", "setup_count", "setup_from_code", "setup_from_number",
    "setup_number", "setup_problem", "shuffle_setup", "GAVE_UP", "OUT_OF_ROUNDS", "OVER",
    "RETURN", "SETUP", "START", "WON", "Arrive", "CMAction", "CMEvent", "CMOptions", "CMState",
    "Done", "Ended", "Escape", "Examine", "GiveUp", "Kept", "Leave", "Return", "Returned", "Search",
    "SetUp", "Start", "Won",
]
