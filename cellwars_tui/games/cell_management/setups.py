"""Cell Management's setups: the species' names, the shuffle (the ``Setup`` chance action), its
validation, and the shareable codes and puzzle numbers.

A setup code lists the hideouts clockwise, the hostile species and the cells clockwise
(``N3245A-234-4A32N5``); a puzzle number (``#1234``, ``4#12``) is a setup's rank among every setup
the seed's procedure builds. The daily puzzle, which must be solvable, is in :mod:`.daily`.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...core import Action
from ...core.errors import BadNotation
from .clarifications import hostile_count

if TYPE_CHECKING:  # types.py imports this module
    from .types import CMOptions

SYMBOLS = ("N", "A", "2", "3", "4", "5")
NAMES = ("Null", "Ace", "2", "3", "4", "5")
SPECIES_CHOICES = (4, 5, 6)


class Setup(Action, frozen=True, tag="setup"):
    """The shuffle: hideout species clockwise, hostile species (sorted), cell species clockwise.
    ``daily`` is the ISO date when the ship is that date's daily puzzle (recorded, so a replay on
    another day rebuilds the same ship)."""

    hideouts: tuple[int, ...]
    hostile: tuple[int, ...]
    cells: tuple[int, ...]
    daily: str = ""


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


def requested_code(options: CMOptions) -> str:
    """The setup code the options ask for ("" for a shuffle or the daily puzzle)."""
    species = options.species
    code = options.code
    if code:
        return setup_code(setup_from_code(code, species))
    if options.puzzle == "number":
        return setup_code(setup_from_number(options.number, species))
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


def symbol_value(text: str) -> int | None:
    """The species a symbol names (N or 0, A or 1, 2 ... 5), None for anything else."""
    return _SYMBOL_VALUES.get(text.upper())


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
