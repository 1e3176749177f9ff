"""Rules editions: the fifth edition (issue 15's balance) is the default; the first four stay
playable for their records, chosen by the record; the New game dialog asks only "as played here"
(the fifth) or "as printed" (the second, issue 29: test_layouts.py has the choice's tests)."""

from __future__ import annotations

import msgspec
import pytest

from cellwars_tui.core.errors import BadOptions
from cellwars_tui.games.cell_wars import clarifications as C
from cellwars_tui.ui.request import option_fields

from .helpers import GAME, Ca, Cb, Cg, Ia, Ib, Ig, R, T, act, give, put, standard, turn


def _two_claims_on_one_tile(**options):
    """Cb claims G4 once, then Ca (on the same tile) solidifies it with three claims."""
    s = put(standard(**options), Cb="G4")
    s = act(turn(s, Cb), "solidify")
    assert s.panels[Cb].solid == 1
    for _ in range(3):
        s = act(turn(s, Ca), "solidify")
    assert s.tiles[T["G4"]] == R.SOLID_T
    return s


def test_a_claim_ends_when_another_cell_solidifies_its_tile():
    """Regression (issue 15): the other cell kept its count and, after a relapse, could solidify
    the tile again with one claim; check_invariants failed in 18 of 1,000 random games."""
    s = _two_claims_on_one_tile()
    assert s.panels[Cb].solid == 0
    GAME.check_invariants(s)


def test_every_claim_on_a_tile_ends_when_a_relapse_turns_it_back_into_cancer_tissue():
    s = _two_claims_on_one_tile()
    s = act(turn(s, Cb), "end")  # Cb stays on the solidified tile with no claim
    assert s.panels[Cb].solid == 0
    s = put(s, Ca="dead")
    s = act(turn(s, Ca, R.RELAPSE), "relapse G4")
    assert s.tiles[T["G4"]] == R.CANCER_T and s.panels[Cb].solid == 0
    GAME.check_invariants(s)


def test_the_first_edition_keeps_the_other_cells_count_as_it_did():
    s = _two_claims_on_one_tile(rules_edition=1)
    assert s.panels[Cb].solid == 1  # records of that edition replay exactly
    GAME.check_invariants(s)


def test_the_current_edition_is_the_default_and_the_rules_version_is_six():
    """Rules version 6 brought the ready layouts; the rules of play stay the fifth edition's."""
    assert GAME.initial_state(GAME.options_type()).edition == C.CURRENT_EDITION == 5
    assert GAME.rules_version == 6


def test_a_rules_version_one_record_opens_under_the_first_edition():
    options = GAME.options_from_record({"players": 3, "cancer_tissue": 7}, 1)
    assert options.rules_edition == 1 and options.players == 3


def test_a_rules_version_two_record_opens_under_the_second_edition():
    assert GAME.options_from_record({"players": 3, "rules_edition": 2}, 2).rules_edition == 2
    assert GAME.options_from_record({"players": 3}, 2).rules_edition == 2  # (field left out)


def test_a_rules_version_three_record_opens_under_the_third_edition():
    assert GAME.options_from_record({"players": 3, "rules_edition": 3}, 3).rules_edition == 3
    assert GAME.options_from_record({"players": 3}, 3).rules_edition == 3  # (field left out)
    assert GAME.options_from_record({"players": 3}, 4).rules_edition == 4


def test_a_rules_version_four_record_opens_under_the_fourth_edition():
    assert GAME.options_from_record({"players": 4, "rules_edition": 4}, 4).rules_edition == 4
    assert GAME.options_from_record({"players": 4}, 4).rules_edition == 4  # (field left out)
    assert GAME.options_from_record({"players": 4}, 5).rules_edition == 5


def test_a_rules_version_five_record_opens_under_the_fifth_edition_placed_by_hand():
    options = GAME.options_from_record({"players": 4, "rules_edition": 5, "cancer_tissue": 7}, 5)
    assert options.rules_edition == 5 and options.layout == C.LAYOUT_PLACE
    assert options.rules == C.RULES_HERE


def _leaders(players, edition):
    """The seat to act in each panel's individual round, in turn order."""
    s = standard(players=players, rules_edition=edition)
    return tuple(GAME.to_act(turn(s, q))[0] for q in (Ia, Ca, Cb, Ib, Ig, Cg))


def test_four_players_fifth_edition_p1_ia_ig_p2_ca_p3_cb_cg_p4_ib():
    assert _leaders(4, 5) == (0, 1, 2, 3, 0, 2)
    assert C.panel_owners(4, 5) == C.PANEL_OWNERS[4] == (0, 1, 2, 3, 0, 2)


@pytest.mark.parametrize("edition", [1, 2, 3, 4])
def test_four_players_earlier_editions_p1_ia_ig_p2_ca_cg_p3_cb_p4_ib(edition):
    assert _leaders(4, edition) == (0, 1, 2, 3, 0, 1)


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_other_player_counts_lead_the_same_panels_in_every_edition(players):
    assert {_leaders(players, e) for e in C.EDITIONS} == {C.PANEL_OWNERS[players]}


def test_a_four_player_seat_sees_the_hands_of_the_panels_its_edition_gives_it():
    s = give(standard(players=4), Cg, "dodge", "maltose")
    assert R.seat_panels(s, 2) == (Cb, Cg)
    assert R.seat_panels(standard(players=4, rules_edition=4), 2) == (Cb,)
    assert GAME.view(s, 2).panels[Cg].hand == s.panels[Cg].hand != ()
    assert GAME.view(s, 1).panels[Cg].hand == (-1, -1)  # Player 2 leads Ca only now


def test_balanced_diet_regenerates_each_round_then_never_then_every_third_round():
    assert {e: (ed.regen, ed.regen_every) for e, ed in C.EDITIONS.items()} == {
        1: (True, 1), 2: (True, 1), 3: (False, 1), 4: (True, 3), 5: (True, 3)}


def test_the_edition_is_not_asked_for_in_the_new_game_dialog_its_rules_are():
    assert [f.name for f in option_fields(GAME)] == ["layout", "rules", "cancer_tissue"]


def test_an_unknown_edition_is_refused_in_one_line():
    with pytest.raises(BadOptions, match="rules_edition must be one of 1, 2, 3, 4, 5, not 6"):
        GAME.options_from_dict({"players": 2, "rules_edition": 6})


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_the_fifth_edition_plays_other_player_counts_as_the_fourth_did(players):
    """Only the four-player split changed: the same seeds give the same games, move for move."""
    import random

    from cellwars_tui.core import CHANCE

    def play(edition):
        rng = random.Random(players)
        s = GAME.initial_state(GAME.options_type(players=players, rules_edition=edition))
        moves = []
        while GAME.to_act(s):
            seat = GAME.to_act(s)[0]
            a = (GAME.sample_chance(s, rng) if seat == CHANCE
                 else rng.choice(GAME.legal_actions(s, seat)))
            moves.append((seat, GAME.action_to_str(a)))
            s, _ = GAME.apply(s, seat, a)
        return moves, msgspec.structs.replace(s, edition=0)

    assert play(4) == play(5)
