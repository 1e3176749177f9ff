"""The seed's sample game, on the one ship that fits its narrative."""

from __future__ import annotations

import itertools

from cellwars_tui.games.cell_management import rules as R
from cellwars_tui.games.cell_management.rules import Escape, Examine, Search, Setup, Start

from .helpers import SAMPLE, events_of, play, ship

N, A, TWO, THREE, FOUR, FIVE = range(6)


def _narrative_holds(state) -> bool:
    """Round one from cell 4 as the seed tells it."""
    events = events_of(state, FOUR)
    examined = [(e.cell, e.hostile, e.occupied, e.attempt) for e in events if isinstance(e, Examine)]
    escapes = [(e.species, e.to) for e in events if isinstance(e, Escape)]
    found = [e.hideout for e in events if isinstance(e, Search) and e.found]
    return (
        [c for c, *_ in examined] == [FOUR, A, THREE, TWO, N, FIVE]
        and examined[0] == (FOUR, False, False, False)  # friendly and empty: nothing
        and examined[1][1:] == (True, False, True)  # Ace: hostile and empty
        and examined[2][1:] == (True, False, True) and examined[3][1:] == (True, False, True)
        and not examined[4][3]  # nothing in cell Null
        and examined[5][1:] == (False, True, True)  # 5: friendly (Ace) and occupied
        and escapes == [(A, "hideout"), (THREE, "hideout"),
                                                 (TWO, "hideout"), (FIVE, "hideout")]
        and found == [A]
    )


def test_sample_game_round_one_from_cell_four():
    s = ship()
    events = events_of(s, FOUR)
    text = [R.describe(e) for e in events]
    assert text[0].startswith("Round 1: cell 1 (species 4)")  # cells named by position, as keyed
    assert text[1].startswith("Cell 1 (species 4): the Null hideout beside it is friendly")
    assert any(t.startswith("Cell 2 (species A): the 3 hideout") for t in text)  # case kept
    assert Examine(5, FIVE, A, False, True, True) in events  # Ace hideout friendly and occupied
    assert Search(5, A, True) in events  # the Ace is found and returned
    after = play(s, Start(FOUR))
    assert after.in_hideout == (False, False, True, True, False, True)  # 2, 3 and 5 hide
    assert after.in_cell == (2, 2, 1, 1, 2, 1)  # the Ace is back in its cell
    assert not any(after.in_center) and after.round == 1
    assert _narrative_holds(s)


def test_sample_ship_is_the_only_one_fitting_the_narrative():
    # The narrative fixes the cells clockwise from cell 4 (4, A, 3, 2, N, 5) and the seed's
    # Figure 1 text starts the chain N -> 4 -> 2; try every such chain and every hostile set.
    # (Without the figure's chain, eight ships fit the narrative.)
    cells = (FOUR, A, THREE, TWO, N, FIVE)
    fits = []
    for rest in itertools.permutations([A, THREE, FIVE]):
        chain = [N, FOUR, TWO, *rest]
        succ = {chain[i]: chain[(i + 1) % 6] for i in range(6)}
        pred = {v: k for k, v in succ.items()}
        hideouts = tuple(pred[c] for c in cells)
        for hostile in itertools.combinations(range(6), 3):
            setup = Setup(hideouts, hostile, cells)
            if R.setup_problem(setup, 6) is None and _narrative_holds(R.initial_position(setup)):
                fits.append(setup)
    assert fits == [SAMPLE]


def _ships_fitting_round_one() -> list[Setup]:
    """Every ship (cells 4, A, 3, 2, N, 5 clockwise from cell 4, any hideouts and hostile set)
    on which round one from cell 4 goes as the seed tells it."""
    cells = (FOUR, A, THREE, TWO, N, FIVE)
    fits = []
    for hideouts in itertools.permutations(range(6)):
        for hostile in itertools.combinations(range(6), 3):
            setup = Setup(hideouts, hostile, cells)
            if R.setup_problem(setup, 6) is None and _narrative_holds(R.initial_position(setup)):
                fits.append(setup)
    return fits


def test_sample_game_round_two_from_cell_null_frees_no_two_on_any_fitting_ship():
    # The seed's round two (a 2 in the centre) cannot happen, whichever ship fits round one.
    fits = _ships_fitting_round_one()
    assert len(fits) == 8 and SAMPLE in fits
    for setup in fits:
        after = play(R.initial_position(setup), Start(FOUR))
        assert after.phase == R.START  # nobody is free: no return to prison to decide
        after = play(after, Start(N))
        assert not after.in_center[TWO], R.setup_code(setup)
    # on the sample ship the 2 hideout is searched just before the 2 cell is examined
    events = events_of(play(ship(), Start(FOUR)), N)
    searched = next(i for i, e in enumerate(events) if isinstance(e, Search) and e.hideout == TWO)
    examined = next(i for i, e in enumerate(events) if isinstance(e, Examine) and e.cell == TWO)
    assert searched < examined
