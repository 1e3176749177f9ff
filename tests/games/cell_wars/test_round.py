"""The system round and the ten steps of an individual round (attacks are in test_attack.py)."""

import pytest

from cellwars_tui.core import IllegalAction
from cellwars_tui.games.cell_wars.cards import card_id
from cellwars_tui.games.cell_wars.rules import (AttackResult, BiomassChanged, CardPlayed, Drew,
                                                Moved, PreDrawn, Relapsed, Reshuffled, Rolled,
                                                TurnSkipped, WallsCollected)

from .helpers import (CHANCE, GAME, B, Ca, Cb, Cg, Ia, Ib, Ig, R, T, act, give, legal, panel,
                      put, replace, standard, tiles, turn, where)


def end_of_round(s):
    """Cancer gamma is last: ending its round closes the full round."""
    return turn(s, Cg, R.SPECIAL)


# -- system round ------------------------------------------------------------------------------
def test_round_marker_advances_after_every_full_round():
    s = act(end_of_round(standard()), "end")
    assert (s.round, s.panel) == (2, Ia)


def test_card_signs_reload_every_third_round_and_start_inactive():
    s = standard()
    reloaded = []
    for rnd in range(1, 16):
        s = replace(end_of_round(s), round=rnd, card_signs=(False,) * 4)
        s = act(s, "end")
        if s.card_signs == (True,) * 4:
            reloaded.append(s.round)
    assert reloaded == [3, 6, 9, 12, 15]


def test_wall_factory_makes_one_wall_each_round():
    s = standard()
    assert s.factory == 1
    s = act(end_of_round(s), "end")
    assert s.factory == 2


# -- the ten steps, in order ---------------------------------------------------------------------------
def kinds(events):
    """The events as short labels, to compare their order."""
    out = []
    for e in events:
        if isinstance(e, Moved):
            out.append(f"moved {e.how}")
        elif isinstance(e, Rolled):
            out.append(f"rolled {e.why}")
        elif isinstance(e, Drew):
            out.append(f"Drew {e.how}")
        elif isinstance(e, BiomassChanged):
            out.append(f"BiomassChanged {e.why}")
        elif isinstance(e, (Relapsed, PreDrawn, WallsCollected, CardPlayed, AttackResult)):
            out.append(type(e).__name__)
    return out


def test_individual_round_steps_4_to_10_come_in_the_seed_order():
    """Vessel transfer, card drawing, play cards, (no special action,) movement, attack, recovery."""
    s = standard()
    signs = list(s.signs)
    signs[R.GENERATOR] = T["G3"]  # the generator where Immune alpha's walk ends
    s = panel(put(replace(s, signs=tuple(signs)), Ia="C6"), Ia, vessel=True, free_draws=1,
              biomass=3)
    s = act(turn(s, Cg), "end", "draw adjuvant", "end", "play adjuvant", "roll", "die 1",
            "step E", "attack Ca", "die 4", events=(ev := []))
    assert kinds(ev) == ["moved vessel", "Drew free", "CardPlayed", "rolled move", "moved step",
                         "rolled attack", "AttackResult", "BiomassChanged attack",
                         "moved repel", "BiomassChanged generator"]
    assert s.panel == Ca


def test_individual_round_steps_1_to_3_come_in_the_seed_order():
    """A relapse comes first; the pre-draw and the wall collection then see the new tile."""
    s = tiles(put(standard(), Cb="dead"), solid=["A1"])
    s = replace(turn(s, Ca), card_signs=(True,) * 4)
    s = act(s, "end", "relapse A1", events=(ev := []))
    assert kinds(ev) == ["Relapsed", "PreDrawn"] and s.draws == 1  # drawn at step 5, this round
    s = replace(tiles(put(standard(), Cb="dead"), solid=["E1"]), factory=2)  # E1: Wall factory
    s = act(turn(s, Ca), "end", "relapse E1", events=(ev := []))
    assert kinds(ev) == ["Relapsed", "WallsCollected"] and s.panels[Cb].walls == 2


# -- 1. relapse ------------------------------------------------------------------------------------
def test_dead_cell_round_is_skipped():
    s = put(standard(), Ca="dead")
    s = act(turn(s, Ia), "end", events=(ev := []))
    assert s.panel == Cb and any(isinstance(e, TurnSkipped) and e.panel == Ca for e in ev)


def test_dead_immune_cell_never_relapses():
    s = tiles(put(standard(), Ib="dead"), solid=["E3"])
    s = act(turn(s, Cb), "end")
    assert s.panel == Ig


def test_dead_cancer_cell_may_relapse_onto_solidified_tissue():
    s = tiles(put(standard(), Cb="dead"), solid=["E3", "B2"])
    s = act(turn(s, Ca), "end")
    assert (s.panel, s.step) == (Cb, R.RELAPSE)
    assert legal(s) == ["relapse B2", "relapse E3", "stay"]
    s = act(s, "relapse E3")
    assert where(s, Cb) == "E3" and s.tiles[T["E3"]] == R.CANCER_T
    assert (s.panel, s.step) == (Cb, R.SPECIAL)  # the rest of its round follows


def test_relapsed_cell_has_one_biomass_and_a_limit_one_lower():
    s = tiles(put(standard(), Cb="dead"), solid=["E3"])
    s = act(turn(s, Ca), "end", "relapse E3")
    assert (s.panels[Cb].biomass, s.panels[Cb].limit) == (1, 4)


def test_dead_cancer_cell_may_stay_off_the_board():
    s = tiles(put(standard(), Cb="dead"), solid=["E3"])
    s = act(turn(s, Ca), "end", "stay")
    assert s.panel == Ib and where(s, Cb) == "dead"


def test_no_relapse_without_solidified_tissue_or_when_the_limit_would_drop_below_one():
    s = put(standard(), Cb="dead")
    assert act(turn(s, Ca), "end").panel == Ib
    s = panel(tiles(s, solid=["E3"]), Cb, limit=1)
    assert act(turn(s, Ca), "end").panel == Ib


# -- 2. pre-draw ---------------------------------------------------------------------------------
def test_predraw_on_an_active_card_sign_gives_a_free_draw_and_deactivates_it():
    s = put(standard(), Ca="A1")
    s = replace(turn(s, Ia), card_signs=(True,) * 4)
    s = act(s, "end", events=(ev := []))
    assert any(isinstance(e, PreDrawn) and e.panel == Ca for e in ev)
    assert s.card_signs == (False, True, True, True)
    assert s.draws == 1 and GAME.to_act(s) == (CHANCE,)  # the free draw at step 5
    s = act(s, "draw invasion", events=(ev := []))
    assert any(isinstance(e, Drew) and e.how == "free" for e in ev)
    assert s.panels[Ca].hand == (card_id("invasion"),)


def test_predraw_on_an_inactive_sign_gives_nothing():
    s = act(turn(put(standard(), Ca="A1"), Ia), "end")
    assert s.draws == 0 and s.step == R.DRAW


def test_predraw_dice_off_when_several_cells_share_the_sign():
    s = put(standard(), Ca="A1", Ib="A1")
    s = replace(turn(s, Ia), card_signs=(True,) * 4)
    s = act(s, "end")
    assert s.chance == R.C_DICEOFF
    assert legal(s) == ["diceoff Ca", "diceoff Ib"]
    assert [p for _, p in GAME.chance_outcomes(s)] == [0.5, 0.5]
    s = act(s, "diceoff Ib")
    assert s.panels[Ib].free_draws == 1 and s.panels[Ca].free_draws == 0
    assert s.draws == 0  # Immune beta draws it in its own round


def test_a_free_draw_is_lost_when_its_cell_dies_before_drawing():
    s = panel(give(put(standard(), Ca="A1", Ib="A1"), Ca, "blood-seller"), Ib, biomass=1)
    s = replace(turn(s, Ia), card_signs=(True,) * 4)
    s = act(s, "end", "diceoff Ib")
    assert s.panels[Ib].free_draws == 1
    s = act(s, "end", "play blood-seller Ib")  # Ca's draw step, then its play step
    assert where(s, Ib) == "dead" and s.panels[Ib].free_draws == 0


def test_arriving_on_a_card_sign_draws_only_in_a_later_round():
    s = replace(turn(put(standard(), Ca="B1"), Ca, R.SPECIAL), card_signs=(True,) * 4)
    s = act(s, "roll", "die 1", "step NE")
    assert where(s, Ca) == "A1" and s.panels[Ca].free_draws == 0
    assert s.card_signs[0]


# -- 3. collect walls ------------------------------------------------------------------------------
def test_cancer_cell_on_the_factory_collects_at_most_two_walls():
    s = replace(turn(put(standard(), Ca="E1"), Ia), factory=3)
    s = act(s, "end")
    assert (s.panels[Ca].walls, s.factory) == (2, 1)


def test_immune_cell_on_the_factory_collects_nothing():
    s = replace(turn(put(standard(), Ib="E1"), Cb), factory=3)
    s = act(s, "end")
    assert (s.panels[Ib].walls, s.factory) == (0, 3)


def test_passing_the_wall_factory_gives_nothing():
    s = replace(turn(put(standard(), Ca="E2"), Ca), factory=3)
    s = act(s, "roll", "die 4", "step W", "step NE")  # over the factory on E1, on to D1
    assert where(s, Ca) == "D1" and (s.panels[Ca].walls, s.factory) == (0, 3)


# -- 4. blood vessels --------------------------------------------------------------------------------
def test_cell_that_stayed_on_a_blood_vessel_moves_to_the_other():
    s = act(turn(put(standard(), Ca="C6"), Ca), "end")  # Ca ends its round on the vessel
    assert s.panels[Ca].vessel
    s = act(turn(s, Ia), "end")
    assert where(s, Ca) == "G2" and not s.panels[Ca].vessel


def test_cell_pushed_off_since_its_last_round_is_not_transferred():
    s = act(turn(put(standard(), Ca="C6"), Ca), "end")  # Ca ends its round on the vessel
    assert s.panels[Ca].vessel
    s = turn(put(s, Ib="C7"), Ib)
    s = act(s, "roll", "die 1", "step W", "attack Ca", "die 4", "end")  # pushed W off the vessel
    assert where(s, Ca) == "C5" and not s.panels[Ca].vessel
    s = act(turn(s, Ia), "end")
    assert where(s, Ca) == "C5"
    s = put(s, Ca="C6")  # back on the vessel by other means: still no transfer next round
    s = act(turn(s, Ia), "end")
    assert where(s, Ca) == "C6"


def test_passing_a_blood_vessel_gives_nothing():
    s = turn(put(standard(), Ca="C7"), Ca)
    s = act(s, "roll", "die 4", "step W", "step W")
    assert where(s, Ca) == "C5" and not s.panels[Ca].vessel


# -- 5. card drawing -------------------------------------------------------------------------------
def test_charge_drawing_costs_two_biomass_and_needs_more_than_two():
    s = turn(standard(), Ia, R.DRAW)
    s = act(s, "charge")
    assert s.panels[Ia].biomass == 2 and s.draws == 1
    s = act(s, "draw diapedesis")
    assert s.panels[Ia].hand == (card_id("diapedesis"),)
    s = panel(turn(s, Ia, R.DRAW), Ia, biomass=2)
    assert "charge" not in legal(s)


def test_charge_drawing_again_while_the_biomass_is_above_two():
    s = act(turn(standard(), Cb, R.DRAW), "charge", "draw architect")
    assert s.panels[Cb].biomass == 3 and "charge" in legal(s)
    s = act(s, "charge", "draw dodge")
    assert s.panels[Cb].biomass == 1 and "charge" not in legal(s)


def test_mutational_drawing_again_while_the_biomass_is_above_one():
    s = act(turn(standard(), Ca, R.DRAW), "mutate", "die 1")
    assert "mutate" in legal(s)


def test_first_edition_charge_and_mutation_at_most_once_per_round():
    s = act(turn(standard(rules_edition=1), Cb, R.DRAW), "charge", "draw architect")
    assert "charge" not in legal(s)
    s = act(turn(standard(rules_edition=1), Ca, R.DRAW), "mutate", "die 1")
    assert "mutate" not in legal(s)


def test_mutational_drawing_loses_one_biomass_and_rolls():
    s = act(turn(standard(), Ca, R.DRAW), "mutate")
    assert s.panels[Ca].biomass == 4 and s.chance == R.C_MUTATE


@pytest.mark.parametrize(("face", "biomass", "draws"), [(1, 4, 0), (2, 4, 0), (3, 5, 0),
                                                        (4, 5, 0), (5, 4, 1), (6, 4, 1)])
def test_mutational_drawing_bands(face, biomass, draws):
    s = act(turn(standard(), Ca, R.DRAW), "mutate", f"die {face}")
    assert (s.panels[Ca].biomass, s.draws) == (biomass, draws)


def test_mutational_drawing_only_for_cancer_with_more_than_one_biomass():
    assert "mutate" not in legal(turn(standard(), Ia, R.DRAW))
    s = panel(turn(standard(), Ca, R.DRAW), Ca, biomass=1)
    assert "mutate" not in legal(s)


def test_immediate_card_takes_effect_when_drawn():
    s = panel(turn(standard(), Ca, R.DRAW), Ca, biomass=3)
    s = act(s, "charge", "draw glucose", events=(ev := []))
    assert s.panels[Ca].biomass == 3 and s.panels[Ca].hand == ()
    assert any(isinstance(e, CardPlayed) for e in ev)
    assert s.used[1][card_id("glucose")] == 1


def test_used_cards_are_reshuffled_when_the_deck_runs_out():
    s = turn(standard(), Ca, R.DRAW)
    deck, used = list(s.deck), list(s.used)
    deck[1], used[1] = (0,) * len(deck[1]), tuple(s.deck[1])
    s = replace(s, deck=tuple(deck), used=tuple(used))
    s = act(s, "charge", events=(ev := []))
    assert any(isinstance(e, Reshuffled) for e in ev)
    assert sum(s.deck[1]) == 40 and sum(s.used[1]) == 0


def test_a_card_is_always_left_to_draw_since_immediate_cards_are_never_held():
    s = turn(standard(), Ca, R.DRAW)
    held = [c.slug for c in R.CARDS for _ in range(c.cancer) if c.kind != R.IMMEDIATE]
    s = give(s, Cb, *held)
    assert R.cards_available(s, 1) and "charge" in legal(s)
    s = act(s, "charge")
    assert {GAME.action_to_str(a) for a, _ in GAME.chance_outcomes(s)} == {
        "draw glucose", "draw nuclear-radiation"}


# -- 6. play cards ---------------------------------------------------------------------------------
def test_cards_are_played_only_in_the_play_step_in_any_number():
    s = give(turn(standard(), Cb, R.DRAW), Cb, "architect", "architect")
    assert not [m for m in legal(s) if m.startswith("play")]
    s = act(s, "end")
    assert s.step == R.CARDS_STEP
    s = act(s, "play architect", "play architect")
    assert s.panels[Cb].walls == 4 and s.step == R.SPECIAL
    assert not [m for m in legal(s) if m.startswith("play")]


def test_play_step_is_skipped_when_no_card_can_be_played():
    s = act(turn(standard(), Cb, R.DRAW), "end")
    assert s.step == R.SPECIAL


# -- 7. special actions ------------------------------------------------------------------------------
def test_special_action_ends_the_round_without_movement():
    s = act(turn(put(standard(), Ia="G4"), Ia), "purify")
    assert s.panel == Ca


def test_purification_turns_the_cancer_tile_under_an_immune_cell_normal():
    s = act(turn(put(standard(), Ia="G4"), Ia), "purify")
    assert s.tiles[T["G4"]] == R.NORMAL_T


def test_purification_cannot_touch_solidified_tissue():
    s = tiles(turn(put(standard(), Ia="G4"), Ia), solid=["G4"])
    assert "purify" not in legal(s)


def test_demolition_removes_a_wall_on_a_side_of_the_immune_tile():
    e = B.edge_between(T["C2"], T["C3"])
    far = B.edge_between(T["E2"], T["E3"])
    s = replace(turn(standard(), Ia), walls=tuple(sorted((e, far))))
    assert [m for m in legal(s) if m.startswith("demolish")] == ["demolish C2-C3"]
    s = act(s, "demolish C2-C3")
    assert s.walls == (far,)


def test_degradation_turns_the_normal_tile_under_a_cancer_cell_cancerous():
    s = act(turn(put(standard(), Ca="E3"), Ca), "degrade")
    assert s.tiles[T["E3"]] == R.CANCER_T and s.panel == Cb


def test_solidification_after_three_claims_in_consecutive_rounds():
    s = turn(standard(), Ca)
    for n in (1, 2):
        s = act(turn(s, Ca), "solidify")
        assert s.panels[Ca].solid == n and s.tiles[T["G4"]] == R.CANCER_T
    s = act(turn(s, Ca), "solidify")
    assert s.tiles[T["G4"]] == R.SOLID_T and s.panels[Ca].solid == 0
    assert "solidify" not in legal(turn(s, Ca)) and "degrade" not in legal(turn(s, Ca))


def test_solidification_is_interrupted_by_a_change_of_tile():
    s = act(turn(standard(), Ca), "solidify")
    s = act(turn(s, Ca), "roll", "die 1", "step E")
    assert s.panels[Ca].solid == 0


def test_solidification_is_interrupted_when_the_tile_is_purified():
    s = act(turn(standard(), Ca), "solidify", "end")  # Ca claims once on G4, Cb passes
    assert s.panels[Ca].solid == 1
    s = act(turn(put(s, Ib="G4"), Ib), "purify")
    assert s.tiles[T["G4"]] == R.NORMAL_T and s.panels[Ca].solid == 0
    assert "solidify" not in legal(turn(s, Ca)) and "degrade" in legal(turn(s, Ca))


def test_solidification_is_interrupted_by_skipping_a_claim():
    s = act(turn(standard(), Ca), "solidify")
    s = act(turn(s, Ca), "end")
    assert s.panels[Ca].solid == 0


def test_solidification_survives_drawing_and_playing_cards():
    s = act(turn(standard(), Ca), "solidify")
    s = give(turn(s, Ca, R.DRAW), Ca, "architect")
    s = act(s, "charge", "draw dodge", "end", "play architect", "play dodge", "solidify")
    assert s.panels[Ca].solid == 2


def test_solidified_tissue_counts_as_cancer_tissue():
    s = tiles(standard(), solid=["E3"])
    assert R.cancer_count(s) == 8


def test_construction_builds_a_wall_anywhere_from_the_stock():
    s = panel(turn(standard(), Ca), Ca, walls=1)
    builds = [m for m in legal(s) if m.startswith("build")]
    assert len(builds) == B.N_EDGES
    s = act(s, "build A1-A2")
    assert s.walls == (B.parse_edge("A1-A2"),) and s.panels[Ca].walls == 0
    assert not [m for m in legal(turn(s, Ca)) if m.startswith("build")]


def test_only_one_special_action_per_round():
    s = act(turn(put(standard(), Ca="E3"), Ca), "degrade")
    assert s.panel == Cb


# -- 8. movement -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("face", "steps"), [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3)])
def test_movement_die_bands(face, steps):
    s = act(turn(put(standard(), Ia="E3"), Ia), "roll", f"die {face}")
    assert s.moves == steps and s.step == R.MOVE


def test_movement_may_change_direction_between_steps():
    s = act(turn(put(standard(), Ia="E3"), Ia), "roll", "die 6", "step E", "step NE", "step W")
    assert where(s, Ia) == "D3"


def test_movement_may_stop_at_any_step_even_before_the_first():
    s = act(turn(put(standard(), Ia="E3"), Ia), "roll", "die 6")
    assert "end" in legal(s)
    s = act(s, "step E", "end")
    assert where(s, Ia) == "E4" and s.panel == Ca
    s = act(turn(put(standard(), Ia="E3"), Ia), "roll", "die 6", "end")
    assert where(s, Ia) == "E3" and s.panel == Ca


def test_an_immune_cell_may_roll_and_stay_to_attack_a_cancer_cell_on_its_tile():
    s = act(turn(put(standard(), Ia="E3", Ca="E3"), Ia), "roll", "die 2", "end")
    assert legal(s) == ["attack Ca", "end"]


def test_first_edition_movement_needs_one_step_then_may_stop_early():
    s = act(turn(put(standard(rules_edition=1), Ia="E3"), Ia), "roll", "die 6")
    assert "end" not in legal(s)
    s = act(s, "step E")
    assert "end" in legal(s)
    s = act(s, "end")
    assert where(s, Ia) == "E4" and s.panel == Ca


def test_walls_block_immune_cells_only():
    e = B.edge_between(T["E3"], T["E4"])
    s = replace(turn(put(standard(), Ia="E3", Ca="E3"), Ia), walls=(e,))
    s = act(s, "roll", "die 1")
    assert "step E" not in legal(s)
    s = act(turn(s, Ca), "roll", "die 1")
    assert "step E" in legal(s)


def test_cells_cannot_leave_the_board():
    s = act(turn(put(standard(), Ia="A2"), Ia), "roll", "die 1")
    assert "step NE" not in legal(s) and "step NW" not in legal(s)


def test_cells_may_share_a_tile():
    s = act(turn(put(standard(), Ia="G3"), Ia), "roll", "die 1", "step E")
    assert where(s, Ia) == where(s, Ca) == "G4"


# -- 10. recovery -------------------------------------------------------------------------------------
def test_cell_ending_its_round_on_the_generator_recovers_one_biomass_up_to_its_limit():
    s = panel(turn(put(standard(), Ca="E5"), Ca), Ca, biomass=3)
    s = act(s, "end")
    assert s.panels[Ca].biomass == 4
    s = act(turn(panel(s, Ca, biomass=5), Ca), "end")
    assert s.panels[Ca].biomass == 5


def test_only_the_cell_whose_round_ends_recovers():
    s = panel(turn(put(standard(), Ca="E5"), Ia), Ca, biomass=3)
    s = act(s, "end")
    assert s.panels[Ca].biomass == 3


# -- wrong seat, wrong step ----------------------------------------------------------------------------
def test_actions_from_the_wrong_seat_or_step_are_refused():
    s = turn(standard(), Ia)
    with pytest.raises(IllegalAction):
        GAME.apply(s, 1, GAME.action_from_str("roll"))
    with pytest.raises(IllegalAction):
        GAME.apply(s, 0, GAME.action_from_str("charge"))
    with pytest.raises(IllegalAction):
        GAME.apply(s, CHANCE, GAME.action_from_str("die 3"))


def test_end_says_in_the_log_which_step_it_ended():
    """Issue 29: "end" read "Player: end" in the log; it names the step it ends."""
    def said(s, text):
        events = []
        act(s, text, events=events)
        return [GAME.describe_event(e, ()) for e in events]

    s = turn(put(standard(), Ia="E3", Ca="E5"), Ia)
    assert said(s, "end")[0] == "Immune alpha ends its turn without rolling the die"
    moving = act(s, "roll", "die 4")  # 2 steps
    assert said(act(moving, "step E"), "end")[0] == "Immune alpha stops after 1 of 2 steps"
    at_attack = act(turn(put(standard(), Ia="E3", Ca="E4"), Ia), "roll", "die 1", "step E")
    assert said(at_attack, "end")[0] == "Immune alpha does not attack"
    assert said(turn(s, Ia, R.DRAW), "end")[0] == "Immune alpha is done drawing cards"
    assert said(turn(s, Ia, R.CARDS_STEP), "end")[0] == "Immune alpha is done playing cards"
