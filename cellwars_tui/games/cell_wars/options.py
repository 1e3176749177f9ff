"""Cell Wars: what a new game is played with, checked (the options' rules, the layout it starts
from, and what older records meant). The engine's option hooks call these; the decisions behind
them are in ``clarifications.py``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core import Action
from ...core.errors import BadOptions
from . import board as B
from . import clarifications as C
from .state import CellWarsOptions, Place, Sign, Tissue


def settle(data: dict[str, Any]) -> dict[str, Any]:
    """Option fields before conversion, with ``rules`` (the players' word) and ``rules_edition``
    (what the game is played by) in step: ``rules`` alone sets the edition, and an edition (a
    record's, or ``-o rules_edition=N``) names its rules, whatever ``rules`` said. BadOptions (one
    line) for rules or a layout the game does not have."""
    data = dict(data)
    rules, edition = data.get("rules"), data.get("rules_edition")
    if isinstance(edition, str) and edition.strip().isdigit():  # (-o rules_edition=2)
        edition = data["rules_edition"] = int(edition)
    if rules is not None and rules not in C.RULES_CHOICES:
        raise BadOptions(f"Cell Wars has no rules {rules!r} (rules: "
                         + ", ".join(repr(r) for r in C.RULES_CHOICES) + ")")
    if edition is None:
        if rules is not None:
            data["rules_edition"] = C.edition_of(rules)
    elif isinstance(edition, int) and edition in C.EDITIONS:
        data["rules"] = C.rules_choice(edition)
    layout = data.get("layout")
    if layout is not None and layout not in C.LAYOUTS:
        raise BadOptions(f"Cell Wars has no layout {layout!r} (layouts: "
                         + ", ".join(repr(x) for x in C.LAYOUTS) + ")")
    return data


def check(options: CellWarsOptions) -> None:
    """BadOptions (one line) for options no game can be played with."""
    if options.rules_edition not in C.EDITIONS:
        raise BadOptions(f"Cell Wars: rules_edition must be one of "
                         f"{', '.join(map(str, C.EDITIONS))}, not {options.rules_edition!r}")
    if options.layout not in C.LAYOUTS:
        raise BadOptions(f"Cell Wars has no layout {options.layout!r}")
    n = options.cancer_tissue
    lo, hi = C.EDITIONS[options.rules_edition].cancer_tissue_range
    if not isinstance(n, int) or not lo <= n <= hi:
        raise BadOptions(f"Cell Wars: cancer_tissue must be between {lo} and {hi}, not {n!r}")


def upgrade(data: dict[str, Any], rules_version: int) -> dict[str, Any]:
    """A record's options as these rules read them. A record of rules version 1 was played under
    the first edition; one of version 2 under the second, of version 3 under the third, of
    version 4 under the fourth (its options name it; a record without the field is taken as its
    version's edition). Every record before version 6 was set up by its players."""
    if rules_version < 2:
        data = {**data, "rules_edition": 1}
    elif rules_version < 5:
        data = {"rules_edition": rules_version, **data}
    if rules_version < C.LAYOUTS_SINCE:
        data = {**data, "layout": C.LAYOUT_PLACE}
    return data


def standard_layout(cancer_tissue: int) -> tuple[Action, ...]:
    """The set-up's placements of the standard layout with ``cancer_tissue`` cancer tiles, in the
    order the set-up takes them (clarifications.STANDARD_*)."""
    def tiles(names: Sequence[str]) -> list[int]:
        return [B.BY_NAME[n] for n in names]
    return (*(Sign(t) for t in tiles(C.STANDARD_SIGNS)),
            *(Tissue(t) for t in tiles(C.STANDARD_TISSUE[:cancer_tissue])),
            *(Place(t) for t in tiles(C.STANDARD_PIECES)))
