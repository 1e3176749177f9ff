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
import hashlib
import itertools
import math
import random
from collections.abc import Iterator, Sequence
from typing import Literal, Union

import msgspec

from ...core import CHANCE, Action, Event, Game, Options, Outcome, register
from ...core.api import parse_error
from ...core.errors import BadNotation, BadOptions

# ----------------------------------------------------------------------------------------------
# Species, names, variants
# ----------------------------------------------------------------------------------------------

SYMBOLS = ("N", "A", "2", "3", "4", "5")
NAMES = ("Null", "Ace", "2", "3", "4", "5")
SPECIES_CHOICES = (4, 5, 6)

# Phases of a state.
SETUP, START, RETURN, WON, GAVE_UP, OUT_OF_ROUNDS = (
    "setup", "start", "return", "won", "gave-up", "out-of-rounds")


def _rounds(n: int) -> str:
    return "1 round" if n == 1 else f"{n} rounds"
OVER = frozenset({WON, GAVE_UP, OUT_OF_ROUNDS})

# ----------------------------------------------------------------------------------------------
# Clarifications: every point the seed leaves open, decided once (rules.md repeats them)
# ----------------------------------------------------------------------------------------------

RETURNS_PER_ROUND = 1  # at most one escaped captive goes back to prison after each walk
DEFAULT_MAX_ROUNDS = 100  # the puzzle is lost when this many rounds pass without a win
MAX_ROUNDS_LIMIT = 10_000


def hostile_count(species: int) -> int:
    """Three hostile hideouts with six species; two in the four- and five-species variants."""
    return 3 if species == 6 else 2


CLARIFICATIONS: tuple[tuple[str, str], ...] = (
    ("choose any member of an escaped species",
     "After each walk you may send back at most one escaped captive, or choose \"done\" to send "
     "none. A captive may go back only while its species' hideout is empty, since a hideout holds "
     "a single captive. When no escaped captive can go back, this choice is skipped."),
    ("one captive will try to escape",
     "If the examined cell is empty when its escape condition holds, nobody tries: nothing moves, "
     "and the guards go on to search the hideout next to that cell as usual."),
    ("if the adjacent Secret Hideout is Friendly AND Occupied",
     "The condition is judged at the moment the guards reach each cell, on the ship as it is "
     "then: captives that moved earlier in the same walk count (the sample game's 5 escapes "
     "because the Ace reached its hideout a moment before)."),
    ("the captive is instead placed in the middle",
     "When a captive reaches its hideout and finds it taken, one captive of that species ends in "
     "the centre and one stays in the hideout (both are the same species, so it makes no "
     "difference which one). The one in the hideout can still be found by a later search."),
    ("look at the hideout location adjacent to this cell",
     "At each position the guards first examine the cell, then search the hideout beside it (the "
     "same hideout that decided the escape). A captive found there goes back to its own cell."),
    ("Repeat these steps until",
     "The puzzle is won the moment the last missing species reaches the centre; the guards stop "
     "there. It is lost if you give up, or after a round limit (100 rounds unless set otherwise) "
     "passes without a win, so that every game ends."),
    ("which of the species will make a disturbance first",
     "You may start the guards at any cell, even an empty one: the cell still draws them, and "
     "the walk then goes once round the ship from there as usual."),
    ("Set aside the null Moon tile",
     "The setup follows the seed's chain: the first cell drawn goes beside the Null hideout, each "
     "next cell beside the hideout of the previous cell's species, and the Null cell closes the "
     "chain. So following 'hideout -> the cell beside it -> that species' hideout' visits every "
     "position in one loop. The whole shuffle is one recorded chance step."),
    ("only making two of the hideouts hostile",
     "The four-species variant uses N, A, 2 and 3, the five-species one N, A, 2, 3 and 4; both "
     "have two hostile hideouts. The full game has six species and three hostile hideouts."),
    ("a 2 has managed to escape all the way",
     "The seed's round two cannot be reproduced: eight ships fit its round one (one of them "
     "follows the printed chain Null, 4, 2), and on none of them does a walk from cell Null free "
     "a 2 (on the sample ship it searches hideout 2 just before it examines cell 2). Round one "
     "is reproduced exactly."),
)


# ----------------------------------------------------------------------------------------------
# Options, actions, events, state
# ----------------------------------------------------------------------------------------------


class CMOptions(Options, frozen=True, kw_only=True):
    players: int = 1
    species: Literal[4, 5, 6] = 6
    # "shuffle": a fresh random ship; "daily": today's puzzle (the same for everyone on a date);
    # "number": the puzzle with this number (see :func:`setup_from_number`), shareable.
    puzzle: Literal["shuffle", "daily", "number"] = "shuffle"
    number: int = 1
    code: str = ""  # a setup code or "#number"; when set it wins over ``puzzle``
    max_rounds: int = DEFAULT_MAX_ROUNDS


class Setup(Action, frozen=True, tag="setup"):
    """The shuffle: hideout species clockwise, hostile species (sorted), cell species clockwise.
    ``daily`` is the ISO date when the ship is that date's daily puzzle (recorded, so a replay on
    another day rebuilds the same ship)."""

    hideouts: tuple[int, ...]
    hostile: tuple[int, ...]
    cells: tuple[int, ...]
    daily: str = ""


class Start(Action, frozen=True, tag="start"):
    """The cell (named by its species) that attracts the guards this round."""

    cell: int


class Return(Action, frozen=True, tag="return"):
    """Send the escaped captive of this species back to its hideout."""

    species: int


class Done(Action, frozen=True, tag="done"):
    """Send nobody back this round."""


class GiveUp(Action, frozen=True, tag="give-up"):
    pass


CMAction = Union[Setup, Start, Return, Done, GiveUp]


class SetUp(Event, frozen=True, tag="set-up"):
    code: str
    daily: str = ""


class Arrive(Event, frozen=True, tag="arrive"):
    round: int
    cell: int
    position: int


class Examine(Event, frozen=True, tag="examine"):
    position: int
    cell: int
    hideout: int
    hostile: bool
    occupied: bool
    attempt: bool


class Escape(Event, frozen=True, tag="escape"):
    species: int
    to: str  # "hideout" | "center" | "nobody" (the cell was empty)


class Search(Event, frozen=True, tag="search"):
    position: int
    hideout: int
    found: bool


class Leave(Event, frozen=True, tag="leave"):
    round: int


class Returned(Event, frozen=True, tag="returned"):
    species: int


class Won(Event, frozen=True, tag="won"):
    rounds: int


class Ended(Event, frozen=True, tag="ended"):
    why: str  # "gave-up" | "out-of-rounds"


CMEvent = Union[SetUp, Arrive, Examine, Escape, Search, Leave, Returned, Won, Ended]


class CMState(msgspec.Struct, frozen=True, kw_only=True):
    players: int = 1
    species: int = 6
    max_rounds: int = DEFAULT_MAX_ROUNDS
    code: str = ""  # the requested setup (empty: any shuffle)
    daily: bool = False  # the daily puzzle was requested (the date comes with the setup)
    date: str = ""  # the daily puzzle's date, once set up
    phase: str = SETUP
    hideouts: tuple[int, ...] = ()
    hostile: tuple[int, ...] = ()
    cells: tuple[int, ...] = ()
    in_cell: tuple[int, ...] = ()
    in_hideout: tuple[bool, ...] = ()
    in_center: tuple[bool, ...] = ()
    round: int = 0  # walks completed

    # -- reading helpers ---------------------------------------------------------------------
    def position_of_cell(self, species: int) -> int:
        return self.cells.index(species)

    def position_of_hideout(self, species: int) -> int:
        return self.hideouts.index(species)

    def is_hostile(self, species: int) -> bool:
        return species in self.hostile

    def escaped(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.species) if self.in_center[s])

    def returnable(self) -> tuple[int, ...]:
        """Escaped species that may go back (their hideout is empty)."""
        return tuple(s for s in range(self.species) if self.in_center[s] and not self.in_hideout[s])

    @property
    def setup(self) -> Setup:
        return Setup(self.hideouts, self.hostile, self.cells)

    @property
    def number(self) -> str:
        """The shareable puzzle number, e.g. "#1234" or "4#12" (empty before the setup)."""
        return number_text(self.setup) if self.cells else ""


# ----------------------------------------------------------------------------------------------
# Setups: validation, the shuffle, codes and numbers
# ----------------------------------------------------------------------------------------------


def cycle_of(setup: Setup) -> dict[int, int]:
    """The chain 'hideout species -> species of the cell beside it'."""
    return {h: c for h, c in zip(setup.hideouts, setup.cells)}


def setup_problem(setup: Setup, species: int | None = None) -> str | None:
    """Why ``setup`` cannot come from the setup procedure (None if it can)."""
    n = len(setup.hideouts)
    if species is not None and n != species:
        return f"it has {n} hideouts, not {species}"
    if n not in SPECIES_CHOICES:
        return f"a ship has 4, 5 or 6 positions, not {n}"
    if len(setup.cells) != n:
        return "hideouts and cells differ in number"
    if sorted(setup.hideouts) != list(range(n)):
        return "each species needs exactly one hideout"
    if sorted(setup.cells) != list(range(n)):
        return "each species needs exactly one cell"
    k = hostile_count(n)
    if len(setup.hostile) != k or sorted(set(setup.hostile)) != list(setup.hostile):
        return f"it needs {k} different hostile hideouts, listed once"
    if any(not 0 <= h < n for h in setup.hostile):
        return "a hostile hideout names an unknown species"
    chain = cycle_of(setup)
    s, steps = 0, 0
    while True:
        s = chain[s]
        steps += 1
        if s == 0:
            break
    if steps != n:
        return "the cells do not form one chain around the ship (the setup never builds that)"
    return None


def shuffle_setup(species: int, rng: random.Random) -> Setup:
    """The seed's setup procedure, step by step, with ``rng`` as the shuffled tiles."""
    hideouts = list(range(species))
    rng.shuffle(hideouts)  # Sun tiles shuffled face down into a ring
    crowns = list(range(species))
    rng.shuffle(crowns)  # Crown tiles shuffled; the first k flipped become hostile
    hostile = tuple(sorted(crowns[: hostile_count(species)]))
    moons = list(range(1, species))
    rng.shuffle(moons)  # Moon tiles without the Null one
    cells = [-1] * species
    last = 0  # the first Moon tile goes beside the Null hideout
    for m in moons:
        cells[hideouts.index(last)] = m
        last = m
    cells[hideouts.index(last)] = 0  # the Null Moon tile fills the last space
    return Setup(tuple(hideouts), hostile, tuple(cells))


def requested_code(options: Options) -> str:
    """The setup code the options ask for ("" for a shuffle or the daily puzzle)."""
    species = getattr(options, "species", 6)
    code = getattr(options, "code", "")
    if code:
        return setup_code(setup_from_code(code, species))
    if getattr(options, "puzzle", "shuffle") == "number":
        return setup_code(setup_from_number(getattr(options, "number", 1), species))
    return ""


def _sym(s: int) -> str:
    return SYMBOLS[s]


def setup_code(setup: Setup) -> str:
    """Shareable text: hideouts clockwise, hostile species, cells clockwise, e.g. N3245A-234-4A32N5."""
    return "-".join((
        "".join(map(_sym, setup.hideouts)),
        "".join(map(_sym, setup.hostile)),
        "".join(map(_sym, setup.cells)),
    ))


_SYMBOL_VALUES = {"N": 0, "0": 0, "A": 1, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5}


def parse_species(text: str) -> int:
    """One species symbol (N or 0, A or 1, 2..5) -> its number; BadNotation otherwise."""
    value = _SYMBOL_VALUES.get(text.strip().upper())
    if value is None:
        raise BadNotation(f"Cell Management: {text!r} is not a species (use N, A, 2, 3, 4 or 5)")
    return value


def setup_from_code(text: str, species: int | None = None) -> Setup:
    """Parse a setup code (or a puzzle number, see :func:`setup_from_number`)."""
    raw = "".join(str(text).split()).upper()
    if not raw:
        raise BadNotation("Cell Management: empty setup code")
    if raw.startswith("#") or raw[0].isdigit() and "#" in raw or raw.isdigit():
        return _setup_from_number_text(text, raw, species)
    parts = raw.split("-")
    if len(parts) != 3:
        raise _code_error(text, "expected three groups like N3245A-234-4A32N5")
    try:
        groups = [tuple(_SYMBOL_VALUES[ch] for ch in part) for part in parts]
    except KeyError as exc:
        raise _code_error(text, f"{exc.args[0]!r} is not a species symbol") from None
    setup = Setup(groups[0], tuple(sorted(groups[1])), groups[2])
    if len(groups[2]) != len(groups[0]):
        raise _code_error(text, "hideouts and cells differ in number")
    why = setup_problem(setup, species)
    if why:
        raise _code_error(text, why)
    return setup


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _code_error(text: str, why: str) -> BadNotation:
    shown = text if len(text) <= 40 else text[:37] + "..."
    return BadNotation(f"Cell Management: bad setup code {shown!r}: {why}")


# Puzzle numbers: every setup the procedure can build, numbered 1..setup_count(n) (six species:
# "#1234", variants: "4#12"). Order: hideout arrangement, then hostile set, then cell chain.


def setup_count(species: int) -> int:
    k = hostile_count(species)
    return math.factorial(species) * math.comb(species, k) * math.factorial(species - 1)


def _lehmer_index(perm: Sequence[int]) -> int:
    """Lehmer-code index of a permutation (inverse of :func:`_lehmer_perm`)."""
    items = list(range(len(perm)))
    index = 0
    for k, x in enumerate(perm):
        i = items.index(x)
        index = index * (len(perm) - k) + i
        items.pop(i)
    return index


def setup_number(setup: Setup) -> int:
    """The puzzle number of a setup (1-based)."""
    n = len(setup.hideouts)
    combos = list(itertools.combinations(range(n), hostile_count(n)))
    chain = cycle_of(setup)
    order, s = [], 0  # the Moon tiles in the order they were drawn
    for _ in range(n - 1):
        s = chain[s]
        order.append(s)
    moon_index = _lehmer_index([m - 1 for m in order])
    index = _lehmer_index(setup.hideouts)
    index = index * len(combos) + combos.index(tuple(setup.hostile))
    index = index * math.factorial(n - 1) + moon_index
    return index + 1


def setup_from_number(number: int, species: int = 6) -> Setup:
    if species not in SPECIES_CHOICES:
        raise BadNotation(f"Cell Management: {species} species is not a variant (4, 5 or 6)")
    count = setup_count(species)
    if not 1 <= number <= count:
        raise BadNotation(
            f"Cell Management: puzzle numbers for {species} species run from 1 to {count}")
    n = species
    combos = list(itertools.combinations(range(n), hostile_count(n)))
    index = number - 1
    index, moon_index = divmod(index, math.factorial(n - 1))
    perm_index, combo_index = divmod(index, len(combos))
    hideouts = _lehmer_perm(perm_index, n)
    moons = [m + 1 for m in _lehmer_perm(moon_index, n - 1)]
    cells = [-1] * n
    last = 0
    for m in moons:
        cells[hideouts.index(last)] = m
        last = m
    cells[hideouts.index(last)] = 0
    return Setup(hideouts, combos[combo_index], tuple(cells))


def _lehmer_perm(index: int, n: int) -> tuple[int, ...]:
    digits = []
    for radix in range(1, n + 1):
        index, d = divmod(index, radix)
        digits.append(d)
    items = list(range(n))
    return tuple(items.pop(d) for d in reversed(digits))


def number_text(setup: Setup) -> str:
    n = len(setup.hideouts)
    return f"#{setup_number(setup)}" if n == 6 else f"{n}#{setup_number(setup)}"


def _setup_from_number_text(text: str, raw: str, species: int | None) -> Setup:
    head, sep, tail = raw.partition("#")
    if not sep:
        head, tail = "", raw
    if head and not _is_number(head) or not _is_number(tail):  # "#²", "#①": not int()'s digits
        raise _code_error(text, "a puzzle number looks like #1234 (or 4#12 for 4 species)")
    digits = tail.lstrip("0") or "0"
    if len(digits) > 12:  # past every count (and int() takes at most 4,300 digits)
        digits = "9" * 13  # out of range: setup_from_number says what the range is
    if len(head.lstrip("0")) > 1:
        raise _code_error(text, "a puzzle has 4, 5 or 6 species")
    n = int(head) if head else (species or 6)
    setup = setup_from_number(int(digits), n)  # first: a number out of range says so
    if species is not None and n != species:
        raise _code_error(text, f"it is a {n}-species puzzle, not {species}")
    return setup


def daily_number(date: _dt.date, species: int = 6) -> int:
    """The date's puzzle number (the same for everyone; solvability is checked by the caller)."""
    digest = hashlib.sha256(f"cell-management/{species}/{date.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % setup_count(species) + 1


def daily_setup(date: _dt.date, species: int = 6) -> Setup:
    """The date's puzzle: the setup numbered :func:`daily_number`, or the next solvable one."""
    from .solver import min_rounds

    count = setup_count(species)
    number = daily_number(date, species)
    for i in range(count):
        setup = setup_from_number((number - 1 + i) % count + 1, species)
        if min_rounds(setup) is not None:
            return msgspec.structs.replace(setup, daily=date.isoformat())
    raise BadOptions("no solvable setup exists")  # pragma: no cover


def _is_daily(setup: Setup, species: int) -> bool:
    try:
        day = _dt.date.fromisoformat(setup.daily)
    except ValueError:
        return False
    return daily_setup(day, species) == setup


# ----------------------------------------------------------------------------------------------
# The walk
# ----------------------------------------------------------------------------------------------


def _replace(state: CMState, **changes) -> CMState:
    return msgspec.structs.replace(state, **changes)


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


def is_solved(state: CMState) -> bool:
    return bool(state.in_center) and all(state.in_center)


def walk(state: CMState, cell: int) -> Iterator[tuple[Event, CMState]]:
    """The guards' round from the cell of species ``cell``: one (event, state after it) per step.

    Ends with a ``Leave`` (or a ``Won`` the moment the last species escapes). The states are
    mid-walk snapshots (phase START) except the last one, which is ready for the next decision.
    """
    n = state.species
    start = state.position_of_cell(cell)
    rnd = state.round + 1
    yield Arrive(rnd, cell, start), state
    for i in range(n):
        p = (start + i) % n
        c, h = state.cells[p], state.hideouts[p]
        hostile = h in state.hostile
        occupied = state.in_hideout[h]
        attempt = occupied != hostile  # a friend present, or an enemy absent
        yield Examine(p, c, h, hostile, occupied, attempt), state
        if attempt:
            if state.in_cell[c] == 0:
                yield Escape(c, "nobody"), state
            elif state.in_hideout[c]:
                state = _replace(state, in_cell=_set(state.in_cell, c, state.in_cell[c] - 1),
                                 in_center=_set(state.in_center, c, True))
                if is_solved(state):
                    state = _replace(state, round=rnd, phase=WON)
                    yield Escape(c, "center"), state
                    yield Won(rnd), state
                    return
                yield Escape(c, "center"), state
            else:
                state = _replace(state, in_cell=_set(state.in_cell, c, state.in_cell[c] - 1),
                                 in_hideout=_set(state.in_hideout, c, True))
                yield Escape(c, "hideout"), state
        found = state.in_hideout[h]
        if found:
            state = _replace(state, in_cell=_set(state.in_cell, h, state.in_cell[h] + 1),
                             in_hideout=_set(state.in_hideout, h, False))
        yield Search(p, h, found), state
    if rnd >= state.max_rounds:
        state = _replace(state, round=rnd, phase=OUT_OF_ROUNDS)
        yield Leave(rnd), state
        yield Ended(OUT_OF_ROUNDS), state
        return
    state = _replace(state, round=rnd)
    state = _replace(state, phase=RETURN if state.returnable() else START)
    yield Leave(rnd), state


def initial_position(setup: Setup, **fields) -> CMState:
    """The state right after ``setup`` (two captives in every cell), ready for round one."""
    n = len(setup.hideouts)
    return CMState(
        species=n, phase=START, hideouts=setup.hideouts, hostile=setup.hostile,
        cells=setup.cells, in_cell=(2,) * n, in_hideout=(False,) * n, in_center=(False,) * n,
        **fields,
    )


# ----------------------------------------------------------------------------------------------
# The game
# ----------------------------------------------------------------------------------------------


class CellManagement(Game[CMState, Action]):
    id = "cell-management"
    title = "Cell Management"
    blurb = "Solitaire: lead one captive of each species out of the alien ship."
    min_players = 1
    max_players = 1
    has_chance = True
    chance_text = "a shuffled ship"
    options_type = CMOptions
    state_type = CMState
    action_type = CMAction
    event_type = CMEvent
    seat_names = ("Player",)

    # -- options ---------------------------------------------------------------------------
    def check_options(self, options: Options) -> None:
        super().check_options(options)
        species = getattr(options, "species", 6)
        if species not in SPECIES_CHOICES:
            raise BadOptions(f"Cell Management plays with 4, 5 or 6 species, not {species}")
        max_rounds = getattr(options, "max_rounds", DEFAULT_MAX_ROUNDS)
        if not 1 <= max_rounds <= MAX_ROUNDS_LIMIT:
            raise BadOptions(f"the round limit must be between 1 and {MAX_ROUNDS_LIMIT}")
        try:
            requested_code(options)
        except BadNotation as exc:
            raise BadOptions(str(exc)) from None

    # -- the rules -------------------------------------------------------------------------
    def initial_state(self, options: Options) -> CMState:
        species = getattr(options, "species", 6)
        code = requested_code(options)
        daily = not code and getattr(options, "puzzle", "shuffle") == "daily"
        return CMState(species=species, code=code, daily=daily,
                       max_rounds=getattr(options, "max_rounds", DEFAULT_MAX_ROUNDS))

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
        if s.phase == START:
            return [Start(c) for c in s.cells] + [GiveUp()]
        return [Return(x) for x in s.returnable()] + [Done(), GiveUp()]

    def is_legal(self, s: CMState, seat: int, action: Action) -> bool:
        if seat not in self.to_act(s):
            return False
        if seat == CHANCE:
            if not isinstance(action, Setup) or setup_problem(action, s.species) is not None:
                return False
            if s.code:
                return setup_code(action) == s.code and not action.daily
            if s.daily:
                return _is_daily(action, s.species)
            return not action.daily
        if isinstance(action, GiveUp):
            return True
        if s.phase == START:
            return isinstance(action, Start) and 0 <= action.cell < s.species
        if isinstance(action, Done):
            return True
        return isinstance(action, Return) and action.species in s.returnable()

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
            case Start(cell=cell):
                events = []
                for event, s in walk(s, cell):
                    events.append(event)
                return s, tuple(events)
            case Return(species=x):
                new = _replace(s, phase=START, in_center=_set(s.in_center, x, False),
                               in_hideout=_set(s.in_hideout, x, True))
                return new, (Returned(x),)
            case Done():
                return _replace(s, phase=START), ()
            case GiveUp():
                return _replace(s, phase=GAVE_UP), (Ended(GAVE_UP),)
        raise AssertionError(a)

    def outcome(self, s: CMState) -> Outcome | None:
        if s.phase == WON:
            return Outcome((0,), f"escaped in {_rounds(s.round)}")
        if s.phase == GAVE_UP:
            return Outcome((), f"gave up after {_rounds(s.round)}")
        if s.phase == OUT_OF_ROUNDS:
            return Outcome((), f"no escape within {_rounds(s.max_rounds)}")
        return None

    # -- bot hooks -------------------------------------------------------------------------
    def bot_actions(self, s: CMState, seat: int) -> list[Action]:
        return [a for a in self.legal_actions(s, seat) if not isinstance(a, GiveUp)]

    def heuristic(self, s: CMState) -> tuple[float, ...]:
        if not s.in_center:
            return (0.0,)
        return (2.0 * sum(s.in_center) / s.species - 1.0,)

    # -- command line (cellwars solve / study) ---------------------------------------------
    def solve_cli(self, args) -> int:
        from .solver import solve_cli

        return solve_cli(args)

    def study_cli(self, args) -> int:
        from .solver import study_cli

        return study_cli(args)

    # -- notation ----------------------------------------------------------------------------
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
            value = _SYMBOL_VALUES.get(rest[0].upper())
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
