"""One test per card, plus the decks, the card types and the continuous duration."""

import pytest

from cellwars_tui.games.cell_wars.cards import (CANCER, CARDS, CONTINUOUS, DECKS, IMMEDIATE,
                                                IMMUNE, NORMAL, card_id)
from cellwars_tui.games.cell_wars.rules import CardExpired, Dodged

from .helpers import (GAME, B, Ca, Cb, Cg, Ia, Ib, Ig, R, T, act, give, legal, panel, put,
                      replace, standard, tiles, turn, where)

SEED_COUNTS = {
    IMMUNE: {"Diapedesis": 4, "Chemotaxis": 2, "Glucose": 5, "Maltose": 3, "Balanced diet": 3,
             "Precise recognition": 3, "Complement activation": 3, "Cytokine": 3,
             "Excalibur": 2, "Adjuvant": 2, "VEGF": 2, "Neutrophil": 1, "Teleporting": 2,
             "Translocation": 1, "Humoral immunity": 1, "Circuit Engineering": 1,
             "SynNotch": 1, "New drug": 1},
    CANCER: {"Detachment": 4, "Invasion": 2, "Glucose": 5, "Maltose": 3, "Balanced diet": 3,
             "Dodge": 3, "Nuclear radiation": 2, "Blood seller": 2, "Architect": 2,
             "Card assistance": 2, "VEGF": 2, "Metastasis": 1, "Teleporting": 2,
             "Translocation": 2, "Canceration": 2, "Infinitive division": 2,
             "Aladdin's lamp": 1},
}


def cid(slug):
    return card_id(slug)


def playing(q, *slugs, s=None, **where_):
    """Panel ``q`` in its play-cards step holding ``slugs``."""
    s = put(s or standard(), **where_) if where_ else (s or standard())
    return give(turn(s, q, R.CARDS_STEP), q, *slugs)


def on_panel(s, q, slug, left=3):
    pn = s.panels[q]
    return panel(s, q, active=pn.active + ((cid(slug), left),))


def test_both_decks_hold_forty_cards_with_the_seed_counts():
    for camp, counts in SEED_COUNTS.items():
        got = {c.name: DECKS[camp][i] for i, c in enumerate(CARDS) if DECKS[camp][i]}
        assert got == counts and sum(got.values()) == 40


def test_every_card_has_a_type_and_its_own_text():
    assert {c.kind for c in CARDS} == {IMMEDIATE, NORMAL, CONTINUOUS}
    assert len({c.text for c in CARDS}) == len(CARDS)
    assert all(c.text.endswith(".") and len(c.text) > 20 for c in CARDS)


def test_continuous_card_stays_on_the_panel_round_after_round():
    s = act(playing(Ia, "cytokine"), "play cytokine", "end")
    for _ in range(10):
        s = act(turn(s, Ia), "end")
    assert s.panels[Ia].active == ((cid("cytokine"), 0),) and R.range_of(s, Ia) == 1
    GAME.check_invariants(s)


def test_first_edition_continuous_card_works_for_three_of_its_owners_rounds_then_is_used():
    s = act(playing(Ia, "cytokine", s=standard(rules_edition=1)), "play cytokine", "end")
    assert s.panels[Ia].active == ((cid("cytokine"), 2),)
    s = act(turn(s, Ia), "end")
    assert s.panels[Ia].active == ((cid("cytokine"), 1),)
    s = act(turn(s, Ia), "end", events=(ev := []))
    assert s.panels[Ia].active == () and CardExpired(Ia, cid("cytokine")) in ev
    assert s.used[IMMUNE][cid("cytokine")] == 1


def test_immediate_cards_are_never_kept_in_hand():
    s = act(turn(standard(), Ia, R.DRAW), "charge", "draw neutrophil")
    assert s.panels[Ia].hand == ()


def test_a_normal_card_may_be_kept_in_hand_and_played_in_a_later_round():
    s = act(turn(standard(), Ca, R.DRAW), "charge", "draw maltose", "end")
    assert s.step == R.CARDS_STEP and "play maltose" in legal(s)
    s = act(s, "end", "end")  # keep it: leave the play step, then the special-action step
    assert s.panel == Cb and s.panels[Ca].hand == (cid("maltose"),)
    s = act(turn(s, Ca, R.CARDS_STEP), "play maltose")
    assert s.panels[Ca].hand == () and s.panels[Ca].biomass == 5


def test_every_card_has_a_test_named_after_it():
    names = set(globals())
    for c in CARDS:
        prefix = f"test_card_{c.slug.replace('-', '_')}_"
        assert any(n.startswith(prefix) for n in names), c.slug


# -- cards in both decks ---------------------------------------------------------------------------
def test_card_glucose_immediately_restores_two_biomass():
    s = panel(turn(standard(), Ia, R.DRAW), Ia, biomass=4)
    s = act(s, "charge", "draw glucose")
    assert s.panels[Ia].biomass == 4  # 4 - 2 + 2


def test_card_maltose_restores_three_biomass_up_to_the_limit():
    s = act(panel(playing(Ca, "maltose", "maltose"), Ca, biomass=1), "play maltose")
    assert s.panels[Ca].biomass == 4
    s = act(s, "play maltose")
    assert s.panels[Ca].biomass == 5


def test_card_maltose_cannot_be_played_at_full_biomass():
    s = playing(Ca, "maltose")
    assert not [m for m in legal(s) if m.startswith("play")]


def test_card_balanced_diet_raises_the_limit_and_stays():
    s = act(panel(playing(Ca, "balanced-diet"), Ca, biomass=3), "play balanced-diet")
    assert R.effective_limit(s.panels[Ca]) == 6
    for rnd in (1, 2, 4, 5, 7, 16):
        s = act(turn(s, Ca, round=rnd), "end")
    assert R.effective_limit(s.panels[Ca]) == 6
    assert [c for c, _ in s.panels[Ca].active] == [R._card_id("balanced-diet")]


def test_card_balanced_diet_regenerates_one_biomass_in_every_third_round_only():
    """Fourth edition: 1 Biomass back at the end of its owner's rounds in rounds 3, 6, 9, 12, 15
    (the rounds the CARD signs turn active), never above the limit."""
    s = act(panel(playing(Ca, "balanced-diet"), Ca, biomass=3), "play balanced-diet")
    s = act(s, "end")  # round 1: nothing
    assert s.panels[Ca].biomass == 3
    for rnd, biomass in ((2, 3), (3, 4), (4, 4), (5, 4), (6, 5), (9, 6), (12, 6)):
        s = act(turn(s, Ca, round=rnd), "end")
        assert (rnd, s.panels[Ca].biomass) == (rnd, biomass)


def test_third_edition_balanced_diet_regenerates_nothing():
    s = standard(rules_edition=3)
    s = act(panel(playing(Ca, "balanced-diet", s=s), Ca, biomass=4), "play balanced-diet")
    assert R.effective_limit(s.panels[Ca]) == 6
    for rnd in (1, 2, 3, 6):
        s = act(turn(s, Ca, round=rnd), "end")  # special step: do nothing; the round ends
    assert s.panels[Ca].biomass == 4 and R.effective_limit(s.panels[Ca]) == 6


def test_second_edition_balanced_diet_also_regenerates_each_round():
    s = standard(rules_edition=2)
    s = act(panel(playing(Ca, "balanced-diet", s=s), Ca, biomass=4), "play balanced-diet")
    assert R.effective_limit(s.panels[Ca]) == 6
    s = act(s, "end")  # special step: do nothing; end of round regenerates
    assert s.panels[Ca].biomass == 5
    s = act(turn(s, Ca), "end")
    s = act(turn(s, Ca), "end")
    assert s.panels[Ca].biomass == 6 and R.effective_limit(s.panels[Ca]) == 6


def test_first_edition_balanced_diet_runs_out_after_three_rounds():
    s = standard(rules_edition=1)
    s = act(panel(playing(Ca, "balanced-diet", s=s), Ca, biomass=5), "play balanced-diet")
    assert R.effective_limit(s.panels[Ca]) == 6
    s = act(s, "end")  # special step: do nothing; end of round regenerates
    assert s.panels[Ca].biomass == 6
    s = act(turn(s, Ca), "end")
    s = act(turn(s, Ca), "end")  # third round: the card runs out, the limit drops back
    assert s.panels[Ca].active == () and s.panels[Ca].biomass == 5


def test_card_vegf_brings_a_blood_vessel_under_the_cell():
    s = playing(Ia, "vegf", Ia="D2")
    assert legal(s)[:2] == ["play vegf C6", "play vegf G2"]
    s = act(s, "play vegf G2")
    assert R.vessel_tiles(s) == (T["C6"], T["D2"])
    assert "play vegf" not in " ".join(legal(playing(Ia, "vegf", Ia="E5")))


def test_card_teleporting_jumps_onto_a_special_spot():
    s = playing(Ca, "teleporting")
    plays = [m for m in legal(s) if m.startswith("play")]
    assert len(plays) == 8
    s = act(s, "play teleporting E5")
    assert where(s, Ca) == "E5" and s.panels[Ca].last_dir == -1


def test_card_translocation_swaps_places_with_a_cell_up_to_three_tiles_away():
    s = playing(Ca, "translocation", Ia="G1")  # G1 is 3 tiles from G4
    plays = [m for m in legal(s) if m.startswith("play")]
    assert "play translocation Ia" in plays and "play translocation Ib" not in plays
    s = act(s, "play translocation Ia")
    assert where(s, Ca) == "G1" and where(s, Ia) == "G4"


# -- immune deck -------------------------------------------------------------------------------------
def test_card_diapedesis_moves_two_steps_even_across_walls():
    s = playing(Ia, "diapedesis", Ia="E3")
    s = replace(s, walls=(B.edge_between(T["E3"], T["E4"]),))
    s = act(s, "play diapedesis")
    assert s.step == R.CARDMOVE and "step E" in legal(s)
    s = act(s, "step E", "step E")
    assert where(s, Ia) == "E5" and s.step == R.SPECIAL  # back to playing, no card left


def test_card_diapedesis_move_may_stop_early():
    s = act(playing(Ia, "diapedesis", Ia="E3"), "play diapedesis", "step E", "end")
    assert where(s, Ia) == "E4" and s.step == R.SPECIAL


def test_card_chemotaxis_moves_up_to_three_steps_each_closer_to_a_cancer_cell():
    s = act(playing(Ia, "chemotaxis", Ia="C2"), "play chemotaxis")
    for _ in range(3):
        here = s.panels[Ia].tile
        d0 = R.nearest_enemy_distance(s, Ia, here)
        for m in legal(s):
            if m.startswith("step"):
                dest = B.step(here, B.parse_direction(m.split()[1]))
                assert R.nearest_enemy_distance(s, Ia, dest) < d0
        s = act(s, next(m for m in legal(s) if m.startswith("step")))
    assert B.distance(s.panels[Ia].tile, T["G4"]) <= B.distance(T["C2"], T["G4"]) - 3


def test_card_precise_recognition_makes_rolls_of_2_and_3_hit_this_round():
    s = act(playing(Ia, "precise-recognition", Ia="E3", Ca="E4"), "play precise-recognition",
            "roll", "die 1", "step E", "attack Ca", "die 2")
    assert s.panels[Ca].biomass == 4 and where(s, Ca) == "E5"


def test_card_precise_recognition_leaves_a_roll_of_1_a_miss():
    s = act(playing(Ia, "precise-recognition", Ia="E3", Ca="E4"), "play precise-recognition",
            "roll", "die 1", "step E", "attack Ca", "die 1")
    assert s.panels[Ca].biomass == 5 and where(s, Ia) == "E3"


def test_card_complement_activation_hits_an_adjacent_cancer_cell_without_push():
    s = playing(Ia, "complement-activation", Ia="E3", Ca="E4")
    s = act(s, "play complement-activation Ca")
    assert s.panels[Ca].biomass == 4 and where(s, Ca) == "E4"
    s = playing(Ia, "complement-activation", Ia="E2", Ca="E4")
    assert not [m for m in legal(s) if m.startswith("play")]


def test_card_cytokine_extends_the_attack_range_by_one():
    s = act(playing(Ia, "cytokine", Ia="E2", Ca="E4"), "play cytokine", "roll", "die 1",
            "step E")
    assert legal(s) == ["attack Ca", "end"]


def test_card_excalibur_raises_attack_by_one():
    s = act(playing(Ia, "excalibur", Ia="E3", Ca="E4"), "play excalibur", "roll", "die 1",
            "step E", "attack Ca", "die 6")
    assert s.panels[Ca].biomass == 3 and R.attack_of(s, Ia) == 2


def test_card_adjuvant_raises_attack_and_range_for_this_round_only():
    s = act(playing(Ia, "adjuvant", Ia="E2", Ca="E4"), "play adjuvant", "roll", "die 1",
            "step E", "attack Ca", "die 6")
    assert s.panels[Ca].biomass == 3
    assert R.attack_of(turn(s, Ia), Ia) == 1 and R.range_of(turn(s, Ia), Ia) == 0


def test_card_neutrophil_immediately_hits_every_cancer_cell_on_or_next_to_the_cell():
    s = put(standard(), Ia="G3", Ca="G4", Cb="G3", Cg="G6")
    s = act(turn(s, Ia, R.DRAW), "charge", "draw neutrophil")
    assert [s.panels[q].biomass for q in (Ca, Cb, Cg)] == [4, 4, 5]


def test_card_humoral_immunity_hits_every_cancer_cell_on_the_board():
    s = act(playing(Ia, "humoral-immunity"), "play humoral-immunity")
    assert [s.panels[q].biomass for q in (Ca, Cb, Cg)] == [4, 4, 4]


def test_card_circuit_engineering_adds_one_to_attack_rolls():
    s = act(playing(Ia, "circuit-engineering", Ia="E3", Ca="E4"), "play circuit-engineering",
            "roll", "die 1", "step E", "attack Ca", "die 3")
    assert s.panels[Ca].biomass == 4  # 3 + 1 = 4 hits


def test_card_synnotch_hits_a_cancer_cell_two_tiles_away_for_the_attack():
    s = on_panel(playing(Ia, "synnotch", Ia="E2", Ca="E4"), Ia, "excalibur")
    s = act(s, "play synnotch Ca")
    assert s.panels[Ca].biomass == 3 and where(s, Ca) == "E4"


def test_card_new_drug_purifies_cancer_tissue_on_and_next_to_the_cell():
    s = tiles(playing(Ia, "new-drug", Ia="G3"), solid=["H3"])
    s = act(s, "play new-drug")
    assert [s.tiles[T[n]] for n in ("G4", "H3", "G5")] == [R.NORMAL_T, R.SOLID_T, R.CANCER_T]
    assert not [m for m in legal(playing(Ia, "new-drug", Ia="B2")) if m.startswith("play")]


# -- cancer deck ---------------------------------------------------------------------------------
def test_card_detachment_moves_two_steps_at_once():
    s = act(playing(Ca, "detachment"), "play detachment", "step N" + "E", "step NE")
    assert where(s, Ca) == "E6"


def test_card_invasion_moves_a_step_and_turns_the_tile_reached_cancerous():
    s = act(playing(Ca, "invasion"), "play invasion", "step W")
    assert where(s, Ca) == "G3" and s.tiles[T["G3"]] == R.CANCER_T
    s = act(playing(Ca, "invasion", Ca="E3"), "play invasion", "end")
    assert s.tiles[T["E3"]] == R.CANCER_T  # staying put invades the tile it stands on


def test_card_dodge_absorbs_the_next_hit_then_is_used():
    s = on_panel(put(standard(), Ia="E3", Ca="E4"), Ca, "dodge")
    s = act(turn(s, Ia), "roll", "die 1", "step E", "attack Ca", "die 6", events=(ev := []))
    assert Dodged(Ca) in ev and s.panels[Ca].biomass == 5 and where(s, Ca) == "E4"
    assert s.panels[Ca].active == () and s.used[CANCER][cid("dodge")] == 1


def test_card_nuclear_radiation_immediately_hits_immune_cells_within_two_tiles():
    s = put(standard(), Ia="G2", Ib="E4", Ig="A3")
    s = act(turn(s, Ca, R.DRAW), "charge", "draw nuclear-radiation")
    assert [s.panels[q].biomass for q in (Ia, Ib, Ig)] == [3, 3, 4]


def test_card_blood_seller_steals_one_biomass_from_an_immune_cell_within_two_tiles():
    s = panel(playing(Ca, "blood-seller", Ia="G2"), Ca, biomass=3)
    s = act(s, "play blood-seller Ia")
    assert (s.panels[Ia].biomass, s.panels[Ca].biomass) == (3, 4)


def test_card_blood_seller_can_kill_an_immune_cell():
    s = panel(playing(Ca, "blood-seller", Ia="G2"), Ia, biomass=1)
    s = act(s, "play blood-seller Ia")
    assert where(s, Ia) == "dead"


def test_card_architect_adds_two_walls_to_the_stock():
    s = act(playing(Ca, "architect"), "play architect")
    assert s.panels[Ca].walls == 2 and "build A1-A2" in legal(s)


def test_card_card_assistance_draws_two_cards():
    s = act(playing(Ca, "card-assistance"), "play card-assistance")
    assert s.draws == 2
    s = act(s, "draw dodge", "draw glucose")
    assert s.panels[Ca].hand == (cid("dodge"),) and s.step == R.CARDS_STEP


def test_card_metastasis_jumps_to_a_normal_tile_without_immune_cell_and_turns_it():
    s = playing(Ca, "metastasis")
    plays = [m for m in legal(s) if m.startswith("play")]
    assert "play metastasis C2" not in plays and len(plays) == 54 - 3
    s = act(s, "play metastasis A3")
    assert where(s, Ca) == "A3" and s.tiles[T["A3"]] == R.CANCER_T


def test_card_canceration_turns_a_normal_tile_on_or_next_to_the_cell_cancerous():
    s = playing(Ca, "canceration")
    plays = [m for m in legal(s) if m.startswith("play")]
    assert plays == ["play canceration F4", "play canceration F5", "play canceration G3"]
    s = act(s, "play canceration F5")
    assert s.tiles[T["F5"]] == R.CANCER_T


def test_card_infinitive_division_spreads_the_nearest_normal_tile_each_round():
    s = act(playing(Ca, "infinitive-division"), "play infinitive-division", "end")
    assert s.tiles[T["F4"]] == R.CANCER_T and R.cancer_count(s) == 8
    s = act(turn(s, Ca), "end")
    assert R.cancer_count(s) == 9


def test_card_aladdins_lamp_grants_full_biomass_a_wall_and_a_card():
    s = panel(playing(Ca, "aladdins-lamp"), Ca, biomass=1)
    s = act(s, "play aladdins-lamp", "draw architect")
    pn = s.panels[Ca]
    assert (pn.biomass, pn.walls, pn.hand) == (5, 1, (cid("architect"),))


@pytest.mark.parametrize("card", [c.slug for c in CARDS if c.kind != IMMEDIATE])
def test_card_played_leaves_the_hand_for_the_used_pile_or_the_panel(card):
    c = CARDS[cid(card)]
    q = Ia if c.immune else Ca
    s = tiles(playing(q, card, Ia="E3", Ca="E4", Cb="E4"), cancer=["E4"])
    s = panel(s, q, biomass=1)
    play = next(m for m in legal(s) if m.startswith(f"play {card}"))
    s = act(s, play)
    camp = R.PANEL_CAMPS[q]
    assert cid(card) not in s.panels[q].hand
    if c.kind == CONTINUOUS:
        assert s.panels[q].active == ((cid(card), 0),)  # it stays (0: no count of rounds)
    else:
        assert s.used[camp][cid(card)] == 1
    GAME.check_invariants(s)
