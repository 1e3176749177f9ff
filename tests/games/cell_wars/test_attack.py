"""Step 9: attacks, the three dice bands, step back, repel, double attack, border rebound."""

import pytest

from cellwars_tui.games.cell_wars.rules import AttackResult, DoubleAttack

from .helpers import (GAME, B, Ca, Cb, Cg, Ia, Ib, Ig, R, T, act, give, legal, panel, put,
                      replace, standard, tiles, turn, where)


def approach(**where_):
    """Ia walks one step east from E3 onto E4 with Ca waiting there (plus any other pieces)."""
    spots = dict(Ia="E3", Ca="E4")
    spots.update(where_)
    s = put(standard(), **spots)
    return act(turn(s, Ia), "roll", "die 1", "step E")


def test_attack_needs_a_roll_for_movement_this_round():
    s = turn(put(standard(), Ia="E4", Ca="E4"), Ia)
    s = act(s, "end")
    assert s.panel == Ca  # no attack step without rolling
    s = approach()
    assert s.step == R.ATTACK and legal(s) == ["attack Ca", "end"]


def test_cancer_cells_never_attack():
    s = act(turn(put(standard(), Ca="E3", Ia="E4"), Ca), "roll", "die 1", "step E")
    assert s.panel == Cb


def test_attack_range_zero_needs_the_same_tile():
    s = act(turn(put(standard(), Ia="E2", Ca="E4"), Ia), "roll", "die 1", "step E")
    assert s.panel == Ca  # E3 is next to E4, but range 0 reaches only E3


def test_attacks_are_optional():
    s = act(approach(), "end")
    assert s.panel == Ca and s.panels[Ca].biomass == 5


@pytest.mark.parametrize("face", [4, 5, 6])
def test_roll_of_4_to_6_deals_the_attack_and_repels_along_the_attackers_direction(face):
    s = act(approach(), "attack Ca", f"die {face}")
    assert s.panels[Ca].biomass == 4 and where(s, Ca) == "E5" and where(s, Ia) == "E4"


@pytest.mark.parametrize("face", [2, 3])
def test_roll_of_2_or_3_makes_the_immune_cell_step_back(face):
    s = act(approach(), "attack Ca", f"die {face}")
    assert where(s, Ia) == "E3" and where(s, Ca) == "E4" and s.panels[Ca].biomass == 5
    assert s.tiles[T["E4"]] == R.NORMAL_T


def test_roll_of_1_steps_back_and_turns_the_target_tile_cancerous_when_normal():
    s = act(approach(), "attack Ca", "die 1")
    assert where(s, Ia) == "E3" and s.tiles[T["E4"]] == R.CANCER_T


def test_roll_of_1_turns_the_normal_tile_closest_to_the_target_in_reading_order():
    # Ca stands on cancer tile G4: its nearest normal neighbours are F4, F5 and G3; F4 reads first
    s = put(standard(), Ia="G3", Ca="G4")
    s = act(turn(s, Ia), "roll", "die 1", "step E", "attack Ca", "die 1")
    assert s.tiles[T["F4"]] == R.CANCER_T and s.tiles[T["G3"]] == R.NORMAL_T
    assert R.closest_normal((R.CANCER_T,) * 61, 0) == -1


def test_step_back_that_would_cross_a_wall_does_not_happen():
    s = approach()
    s = replace(s, walls=(B.edge_between(T["E3"], T["E4"]),))
    s = act(s, "attack Ca", "die 2")
    assert where(s, Ia) == "E4"


def test_step_back_that_would_leave_the_board_does_not_happen():
    # Ia last stepped east and stands on the west border: its step back would leave the board
    s = panel(put(standard(), Ia="E1", Ca="E1"), Ia, last_dir=0)
    s = act(turn(s, Ia, R.ATTACK, rolled=True), "attack Ca", "die 3")
    assert where(s, Ia) == "E1"


def test_cell_that_never_moved_does_not_step_back_or_push():
    s = put(standard(), Ia="E4", Ca="E4")
    s = act(turn(s, Ia, R.ATTACK, rolled=True), "attack Ca", "die 6")
    assert where(s, Ca) == "E4" and s.panels[Ca].biomass == 4


def test_each_cancer_cell_in_range_is_attacked_at_most_once_in_the_chosen_order():
    s = approach(Cb="E4")
    assert legal(s) == ["attack Ca", "attack Cb", "end"]
    s = act(s, "attack Cb", "die 4")
    assert legal(s) == ["attack Ca", "end"]
    s = act(s, "attack Ca", "die 4")
    assert s.panel == Ca  # nothing left to attack: the round is over


def test_target_must_still_be_in_range_before_each_attack():
    s = act(approach(Cb="E4"), "attack Ca", "die 2")  # Ia steps back to E3
    assert s.panel == Ca


def test_a_hit_that_kills_does_not_repel():
    s = act(panel(approach(), Ca, biomass=1), "attack Ca", "die 6")
    assert where(s, Ca) == "dead" and s.panels[Ca].biomass == 0


def test_double_attack_when_pushed_into_another_immune_cells_range():
    s = act(approach(Ib="E5"), "attack Ca", "die 4", events=(ev := []))
    assert [e for e in ev if isinstance(e, DoubleAttack)] == [DoubleAttack(Ib, Ca)]
    assert s.panels[Ca].biomass == 3 and where(s, Ca) == "E6"


def test_double_attack_is_never_triggered_by_a_double_attack():
    s = act(approach(Ib="E5", Ig="E6"), "attack Ca", "die 4", events=(ev := []))
    assert sum(isinstance(e, DoubleAttack) for e in ev) == 1
    assert s.panels[Ca].biomass == 3 and where(s, Ca) == "E6"


def test_double_attack_by_the_strongest_other_immune_cell():
    s = approach(Ib="E5", Ig="E5")
    s = panel(s, Ig, active=((R.CARDS.index(next(c for c in R.CARDS if c.slug == "excalibur")), 3),))
    s = act(s, "attack Ca", "die 5", events=(ev := []))
    assert [e for e in ev if isinstance(e, DoubleAttack)] == [DoubleAttack(Ig, Ca)]
    assert s.panels[Ca].biomass == 2


def test_double_attack_push_at_the_border_leaves_the_cancer_cell_in_place():
    s = put(standard(), Ia="E6", Ca="E7", Ib="E8")
    s = act(turn(s, Ia), "roll", "die 1", "step E", "attack Ca", "die 4")
    assert where(s, Ca) == "E9" and s.panels[Ca].biomass == 3
    s = put(standard(), Ia="E7", Ca="E8", Ib="E9")
    s = act(turn(s, Ia), "roll", "die 1", "step E", "attack Ca", "die 4")
    assert where(s, Ca) == "E9" and where(s, Ia) == "E8" and where(s, Ib) == "E9"


def test_cancer_cell_on_the_border_is_not_repelled_and_the_immune_cell_rebounds():
    s = put(standard(), Ia="E8", Ca="E9")
    s = act(turn(s, Ia), "roll", "die 1", "step E", "attack Ca", "die 6")
    assert where(s, Ca) == "E9" and s.panels[Ca].biomass == 4 and where(s, Ia) == "E8"


def test_repel_ignores_walls_for_the_cancer_cell():
    s = replace(approach(), walls=(B.edge_between(T["E4"], T["E5"]),))
    s = act(s, "attack Ca", "die 4")
    assert where(s, Ca) == "E5"


def test_being_pushed_interrupts_solidification_and_vessel_transfer():
    s = panel(put(standard(), Ia="E3", Ca="E4"), Ca, solid=0, vessel=True)
    s = tiles(s, cancer=["E4"])
    s = panel(s, Ca, solid=2)
    s = act(turn(s, Ia), "roll", "die 1", "step E", "attack Ca", "die 4")
    assert s.panels[Ca].solid == 0 and not s.panels[Ca].vessel


def test_attack_results_are_reported():
    s = act(approach(), "attack Ca", "die 4", events=(ev := []))
    assert AttackResult(Ia, Ca, 4, "hit") in ev
    assert GAME.describe_event(AttackResult(Ia, Ca, 4, "hit"), []) == \
        "Immune alpha attacks Cancer alpha: roll 4, hit"


def test_death_at_zero_biomass_removes_the_cell_and_sends_its_cards_to_the_used_pile():
    s = give(approach(), Ca, "dodge", "architect")
    s = panel(s, Ca, biomass=1)
    s = act(s, "attack Ca", "die 4")
    assert s.panels[Ca].hand == ()  # Dodge in hand (not on the panel) does not protect
    assert where(s, Ca) == "dead"
    assert sum(s.used[1]) == 2


def test_repel_and_step_back_follow_the_attackers_last_step_after_a_turn():
    s = put(standard(), Ia="E3", Ca="D4", Ib="I3")
    walk = act(turn(s, Ia), "roll", "die 4", "step E", "step NE")  # E3 -> E4 -> D4
    hit = act(walk, "attack Ca", "die 4")
    assert where(hit, Ca) == "C4" and where(hit, Ia) == "D4"  # pushed on to the north-east
    miss = act(walk, "attack Ca", "die 2")
    assert where(miss, Ia) == "E4" and where(miss, Ca) == "D4"  # back south-west, not to E3
