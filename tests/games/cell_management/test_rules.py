"""One test per rule clause of Cell Management (and per clarification)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cellwars_tui.core import CHANCE, BadNotation, BadOptions, IllegalAction, Match, Seat
from cellwars_tui.games.cell_management import rules as R
from cellwars_tui.games.cell_management.rules import (
    GAME, CMOptions, Done, Escape, Examine, GiveUp, Return, Search, Start, Won,
)

from .helpers import SAMPLE, events_of, play, ship, with_captives

N, A, TWO, THREE, FOUR, FIVE = range(6)
# The sample ship N3245A-234-4A32N5, position by position (hideout / cell beside it):
# p0 N/4  p1 3/A  p2 2/3  p3 4/2  p4 5/N  p5 A/5; hostile hideouts 2, 3 and 4.


def walk_states(state, cell):
    return list(R.walk(state, cell))


# -- setup ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("species", [4, 5, 6])
def test_setup_chains_every_cell_from_the_null_hideout(species):
    rng = random.Random(species)
    for _ in range(200):
        setup = R.shuffle_setup(species, rng)
        assert R.setup_problem(setup, species) is None
        chain = R.cycle_of(setup)
        seen, s = [], N
        for _ in range(species):
            s = chain[s]
            seen.append(s)
        assert sorted(seen) == list(range(species)) and seen[-1] == N


def test_setup_puts_the_first_drawn_cell_beside_the_null_hideout():
    class Tiles(random.Random):
        def shuffle(self, x):  # the Moon tiles come up 4, 2, ... as in the seed's figure
            if len(x) == 5:
                x[:] = [4, 2, 1, 3, 5]

    setup = R.shuffle_setup(6, Tiles(1))
    p_null = setup.hideouts.index(N)
    assert setup.cells[p_null] == FOUR
    assert setup.cells[setup.hideouts.index(FOUR)] == TWO
    assert setup.cells[setup.hideouts.index(FIVE)] == N  # the Null cell closes the chain


def test_three_hostile_hideouts_with_six_species():
    assert R.hostile_count(6) == 3
    assert len(R.shuffle_setup(6, random.Random(3)).hostile) == 3


@pytest.mark.parametrize("species", [4, 5])
def test_variants_use_four_or_five_species_with_two_hostile_hideouts(species):
    match = Match(GAME, CMOptions(species=species), [Seat(name="me")], 5)
    s = match.state
    assert s.species == species and len(s.hostile) == 2
    assert sorted(s.cells) == sorted(s.hideouts) == list(range(species))


def test_every_cell_starts_with_two_captives():
    s = ship()
    assert s.in_cell == (2,) * 6 and not any(s.in_hideout) and not any(s.in_center)


def test_the_shuffle_is_one_recorded_chance_step():
    s = GAME.initial_state(CMOptions())
    assert GAME.to_act(s) == (CHANCE,)
    after, _ = GAME.apply(s, CHANCE, SAMPLE)
    assert after.phase == R.START and after.setup == SAMPLE
    with pytest.raises(IllegalAction):
        GAME.apply(s, CHANCE, R.Setup((0, 1, 2, 3, 4, 5), (2, 3, 4), (1, 0, 3, 2, 5, 4)))


# -- attract the guards ----------------------------------------------------------------------------


def test_guards_start_at_the_chosen_cell_and_walk_clockwise_once():
    events = events_of(ship(), N)  # cell N is at position 4
    positions = [e.position for e in events if isinstance(e, Examine)]
    assert positions == [4, 5, 0, 1, 2, 3]
    assert [e.position for e in events if isinstance(e, Search)] == positions


def test_any_cell_may_attract_the_guards_even_an_empty_one():
    s = with_captives(ship(), hideout={A}, center={A})  # cell A is empty
    assert Start(A) in GAME.legal_actions(s, 0)
    after = play(s, Start(A))
    assert after.round == 1


# -- examine a cell --------------------------------------------------------------------------------


def test_friendly_and_occupied_hideout_makes_a_captive_try_to_escape():
    s = with_captives(ship(), hideout={FIVE})  # hideout 5 (friendly) beside cell N
    first = events_of(s, N)[1]
    assert first == Examine(4, N, FIVE, False, True, True)


def test_hostile_and_empty_hideout_makes_a_captive_try_to_escape():
    first = events_of(ship(), A)[1]  # cell A beside hostile hideout 3
    assert first == Examine(1, A, THREE, True, False, True)


def test_friendly_and_empty_hideout_makes_nobody_try():
    events = events_of(ship(), FOUR)  # cell 4 beside friendly hideout N
    assert events[1] == Examine(0, FOUR, N, False, False, False)
    assert isinstance(events[2], Search)


def test_hostile_and_occupied_hideout_makes_nobody_try():
    s = with_captives(ship(), hideout={THREE})
    events = events_of(s, A)
    assert events[1] == Examine(1, A, THREE, True, True, False)
    assert isinstance(events[2], Search)


def test_only_one_captive_tries_per_examined_cell():
    steps = walk_states(ship(), A)
    after_escape = next(st for e, st in steps if isinstance(e, Escape))
    assert after_escape.in_cell[A] == 1


# -- trying to escape ------------------------------------------------------------------------------


def test_escaping_captive_hides_in_its_own_species_hideout():
    steps = walk_states(ship(), A)
    event, after = steps[2]
    assert event == Escape(A, "hideout")
    assert after.in_hideout[A] and not after.in_hideout[THREE]


def test_captive_finding_its_hideout_taken_escapes_to_the_centre():
    s = with_captives(ship(), hideout={A})
    steps = walk_states(s, A)
    event, after = steps[2]
    assert event == Escape(A, "center")
    assert after.in_center[A] and after.in_hideout[A] and after.in_cell[A] == 0


def test_empty_cell_releases_nobody_when_its_condition_holds():
    s = with_captives(ship(), hideout={A}, center={A})
    steps = walk_states(s, A)
    event, after = steps[2]
    assert event == Escape(A, "nobody")
    assert after.in_cell == s.in_cell and after.in_center == s.in_center


def test_occupancy_is_judged_when_the_guards_reach_each_cell():
    # In one walk from cell 4 the Ace hides (position 1) and so makes the 5 try (position 5).
    events = events_of(ship(), FOUR)
    assert Examine(5, FIVE, A, False, True, True) in events
    assert Escape(FIVE, "hideout") in events


# -- searching hideouts ----------------------------------------------------------------------------


def test_search_returns_a_hidden_captive_to_its_own_cell():
    s = with_captives(ship(), hideout={THREE})
    steps = walk_states(s, A)  # position 1: hideout 3
    event, after = steps[2]
    assert event == Search(1, THREE, True)
    assert not after.in_hideout[THREE] and after.in_cell[THREE] == 2


def test_search_of_a_hideout_follows_the_examination_of_the_cell_beside_it():
    kinds = [type(e).__name__ for e in events_of(ship(), FOUR)]
    pattern = "Arrive(Examine(Escape)?Search){6}Leave"
    assert re.fullmatch(pattern, "".join(kinds))


def test_captive_hiding_behind_the_guards_stays_hidden_for_the_round():
    after = play(ship(), Start(FOUR))  # the 3 and the 2 hide in hideouts already searched
    assert after.in_hideout[THREE] and after.in_hideout[TWO] and after.in_hideout[FIVE]


# -- return to prison ------------------------------------------------------------------------------


def _escaped_ace():
    """A ship where the next walk frees an Ace (one Ace already hides in its hideout)."""
    s = with_captives(ship(), hideout={A})
    return play(s, Start(A))


def test_return_to_prison_sends_an_escaped_captive_to_its_hideout():
    s = _escaped_ace()
    assert s.in_center[A] and s.phase == R.RETURN
    after = play(s, Return(A))
    assert after.in_hideout[A] and not after.in_center[A] and after.in_cell[A] == 1
    assert after.phase == R.START


def test_return_to_prison_is_optional():
    s = _escaped_ace()
    after = play(s, Done())
    assert after.in_center[A] and after.phase == R.START
    _, events = GAME.apply(s, 0, Done())  # the log says what "done" did (it read "Player: done")
    assert [GAME.describe_event(e) for e in events] == [
        "Nobody is sent back: every escaped captive stays free."]


def test_at_most_one_captive_returns_per_round():
    s = with_captives(ship(), center={A, THREE})
    s = msgspec.structs.replace(s, phase=R.RETURN)
    after = play(s, Return(A))
    assert after.phase == R.START
    with pytest.raises(IllegalAction):
        GAME.apply(after, 0, Return(THREE))


def test_a_captive_returns_only_while_its_hideout_is_empty():
    s = with_captives(ship(), hideout={A}, center={A, THREE})
    s = msgspec.structs.replace(s, phase=R.RETURN)
    assert s.returnable() == (THREE,)
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, Return(A))


def test_return_choice_is_skipped_when_nobody_can_go_back():
    after = play(ship(), Start(FOUR))
    assert not any(after.in_center) and after.phase == R.START


def test_returned_captive_is_found_by_the_next_search():
    s = play(_escaped_ace(), Return(A))
    events = events_of(s, FIVE)  # cell 5 sits beside hideout A (position 5)
    assert events[1] == Examine(5, FIVE, A, False, True, True)
    assert Search(5, A, True) in events


# -- end of the game -------------------------------------------------------------------------------


def test_puzzle_is_won_when_every_species_has_one_captive_in_the_centre():
    s = with_captives(ship(), hideout={A}, center={N, TWO, THREE, FOUR, FIVE})
    events = events_of(s, A)
    assert events[-1] == Won(1)
    after = play(s, Start(A))
    assert after.phase == R.WON and all(after.in_center)
    assert GAME.outcome(after).winners == (0,) and GAME.legal_actions(after, 0) == []


def test_the_guards_stop_the_moment_the_puzzle_is_won():
    s = with_captives(ship(), hideout={A}, center={N, TWO, THREE, FOUR, FIVE})
    events = events_of(s, A)
    assert not any(isinstance(e, Search) for e in events)


def test_round_limit_ends_the_puzzle_unsolved():
    s = ship(max_rounds=2)
    s = play(s, Start(FOUR), Start(FOUR))
    assert s.phase == R.OUT_OF_ROUNDS
    assert GAME.outcome(s).winners == ()


def test_the_log_tells_a_round_limit_from_giving_up():
    _, limit = GAME.apply(ship(max_rounds=1), 0, Start(FOUR))
    _, gave_up = GAME.apply(ship(), 0, GiveUp())
    assert R.describe(limit[-1]) == "The round limit is reached; the ship arrives home."
    assert R.describe(gave_up[-1]) == "You give up; the ship flies on."


def test_giving_up_ends_the_puzzle_unsolved():
    s = play(ship(), GiveUp())
    assert GAME.outcome(s).termination == "gave up after 0 rounds"


def test_the_outcome_of_a_solitaire_has_no_score_list():
    # The banner ("Player wins (escaped in 1 round)") must not end in "- Player 1": the rounds
    # are in the termination text, not in per-seat scores.
    s = play(with_captives(ship(), hideout={A}, center={N, TWO, THREE, FOUR, FIVE}), Start(A))
    out = GAME.outcome(s)
    assert out.scores == () and out.termination == "escaped in 1 round"
    lost = play(ship(max_rounds=2), Start(FOUR), Start(FOUR))
    assert GAME.outcome(lost).scores == ()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([4, 5, 6]))
def test_two_captives_of_one_species_never_both_escape(seed, species):
    rng = random.Random(seed)
    s = R.initial_position(R.shuffle_setup(species, rng))
    for _ in range(40):
        if s.phase in R.OVER:
            break
        GAME.check_invariants(s)
        assert all(c + h + m == 2 for c, h, m in zip(s.in_cell, s.in_hideout, s.in_center))
        action = rng.choice([a for a in GAME.legal_actions(s, 0) if not isinstance(a, GiveUp)])
        s, _ = GAME.apply(s, 0, action)


# -- options and notation --------------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {"species": 7}, {"species": 3}, {"max_rounds": 0}, {"code": "nonsense"},
    {"puzzle": "number", "number": 0}, {"puzzle": "number", "number": 10**9},
    {"puzzle": "weekly"}, {"players": 2},
])
def test_absurd_options_are_refused_with_one_line(options):
    with pytest.raises(BadOptions) as info:
        GAME.options_from_dict(options)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("text", ["", "start", "start 9", "return X", "fly", "setup N-N-N",
                                  "setup NA23-NA-A23N daily yesterday", "done now"])
def test_bad_notation_is_refused_with_one_line(text):
    with pytest.raises(BadNotation) as info:
        GAME.action_from_str(text)
    assert "\n" not in str(info.value)


def test_notation_round_trips_every_kind_of_action():
    daily = R.daily_setup(R._dt.date(2026, 1, 2))
    for action in (Start(N), Start(FIVE), Return(TWO), Done(), GiveUp(), SAMPLE, daily):
        assert GAME.action_from_str(GAME.action_to_str(action)) == action


# -- the rules page --------------------------------------------------------------------------------

SEED = Path(__file__).resolve().parents[4] / "shared" / "seeds" / "cell-management.txt"
RULES_MD = Path(R.__file__).with_name("rules.md")


def _flat(text: str) -> str:
    return " ".join(text.replace("*", "").split()).lower()


def test_every_clarification_quotes_the_seed_and_is_on_the_rules_page():
    page = _flat(RULES_MD.read_text())
    assert "## clarifications" in page
    seed = _flat(SEED.read_text()) if SEED.exists() else None
    for fragment, _decision in R.CLARIFICATIONS:
        assert f'"{fragment.lower()}"' in page, fragment
        if seed is not None:
            assert fragment.lower() in seed, fragment


def test_the_rules_page_has_no_developer_notes():
    page = _flat(RULES_MD.read_text())
    for note in ("see the tests", "the tests", "pytest", "todo", "fixme", "developer"):
        assert note not in page, note


def test_the_rules_page_names_cells_as_the_screen_does():
    page = RULES_MD.read_text()
    assert "cell 1 (species 4)" in page and "starts at cell 4" not in page
