"""The designed components: dice, protein values, the 36 cards and their powers."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from cellwars_tui.games.infection import cards as K
from cellwars_tui.games.infection import clarifications as C


def test_four_dice_per_player_one_white_two_blue_one_yellow():
    # the white die is separate (a microscope count); the coloured dice are blue, blue, yellow
    assert K.DICE == (K.BLUE_FACES, K.BLUE_FACES, K.YELLOW_FACES)
    assert len(K.WHITE_FACES) == 6 and set(K.WHITE_FACES) == {0, 1, 2}
    for faces in K.DICE:
        assert len(faces) == 6 and K.MICROSCOPE in faces
        assert set(faces) <= set(K.PROTEINS) | {K.MICROSCOPE, K.BLANK}


def test_every_protein_shows_on_some_die_and_rarer_proteins_are_worth_more():
    per_face = Counter(f for faces in K.DICE for f in faces if f in K.PROTEINS)
    assert set(per_face) == set(K.PROTEINS)
    for a in K.PROTEINS:
        for b in K.PROTEINS:
            if per_face[a] > per_face[b]:
                assert K.PROTEIN_VP[a] <= K.PROTEIN_VP[b]


def test_protein_values_match_the_seed_example_two_blue_one_green_is_five():
    assert 2 * K.PROTEIN_VP["B"] + K.PROTEIN_VP["G"] == 5


def test_36_cards_in_three_levels_of_12():
    assert K.N_CARDS == 36
    assert [len(d) for d in K.DECK_IDS] == [12, 12, 12]
    assert len(set(K.CARD_CODE)) == 36


@pytest.mark.parametrize("card", range(36), ids=lambda c: K.CARD_CODE[c])
def test_each_card_has_2_or_3_proteins_worth_their_values_and_can_be_rolled(card):
    proteins = K.CARD_PROTEINS[card]
    assert len(proteins) in (2, 3)
    assert K.CARD_VP[card] == sum(K.PROTEIN_VP[p] for p in proteins)
    assert K.completable(proteins)  # no card needs a power


def test_higher_levels_need_more_proteins_and_are_worth_more():
    mean = [sum(K.CARD_VP[c] for c in d) / 12 for d in K.DECK_IDS]
    assert mean[0] < mean[1] < mean[2]
    assert all(len(K.CARD_PROTEINS[c]) == 3 for c in K.DECK_IDS[1] + K.DECK_IDS[2])


def test_every_power_of_the_seed_appears_on_some_card():
    kinds = Counter(K.power_kind(c) for c in range(36) if K.CARD_POWER[c])
    assert set(kinds) == {K.SUB, K.RAT, K.DOUBLE, K.WILD, K.ANY, K.REWHITE, K.MOVE}
    assert all(K.power_label(c) for c in range(36) if K.CARD_POWER[c])
    assert K.power_label(K.CODE_TO_CARD["I-1"]) == ""


def test_completable_respects_which_die_can_show_what():
    assert K.completable("PY") is False  # purple and yellow are both only on the yellow die
    assert K.completable("RRP") is True
    assert K.completable("RRR") is False  # only two blue dice show red
    assert K.completable("GG", (2,)) is False  # one die cannot show two proteins


def test_face_odds_sum_to_one():
    for faces in (K.WHITE_FACES, *K.DICE):
        assert sum(p for _, p in K.face_odds(faces)) == pytest.approx(1)


# -- the rules page ----------------------------------------------------------------------------
RULES_MD = Path(K.__file__).with_name("rules.md").read_text(encoding="utf-8")
LESSON = Path(K.__file__).with_name("lesson.toml")


def test_the_rules_page_quotes_every_clarification():
    section = RULES_MD.split("## Clarifications", 1)[1]
    for fragment, _ in C.CLARIFICATIONS:
        assert f"*\"{fragment}\"*" in section, fragment


def test_the_rules_page_lists_every_card_as_designed():
    for c in range(36):
        names = " ".join(K.PROTEIN_NAMES[p] for p in K.CARD_PROTEINS[c])
        row = f"{K.CARD_CODE[c]} {names}, {K.CARD_VP[c]}"
        if K.CARD_POWER[c]:
            row += f" · *{K.power_label(c)}*"
        assert row in RULES_MD, row


def test_the_rules_page_states_the_die_faces_and_protein_values():
    assert "green **1**, blue **2**, yellow **3**, red **3**, purple **4**" in RULES_MD
    for name, vp in K.PROTEIN_VP.items():
        assert f"{K.PROTEIN_NAMES[name]} **{vp}**" in RULES_MD
    assert "a microscope, green, blue, red, and two blank faces" in RULES_MD
    assert "a microscope, yellow, purple, green, blue and one blank face" in RULES_MD


def test_what_the_rules_page_and_lesson_say_of_rarity_and_value_is_true_on_our_dice():
    """Issue 29: "the rarer, the more it is worth" was false (green and blue are as common and
    worth 1 and 2). What the page says now: rarer is never worth less, and the face counts."""
    faces = Counter(face for die in K.DICE for face in die)
    said = {"G": 3, "B": 3, "R": 2, "Y": 1, "P": 1}
    assert {p: faces[p] for p in K.PROTEIN_VP} == said and sum(faces.values()) == 18
    for a in K.PROTEIN_VP:
        for b in K.PROTEIN_VP:
            if faces[a] < faces[b]:
                assert K.PROTEIN_VP[a] >= K.PROTEIN_VP[b], (a, b)  # rarer never worth less
    assert K.PROTEIN_VP["G"] != K.PROTEIN_VP["B"] and K.PROTEIN_VP["Y"] != K.PROTEIN_VP["P"]
    text = " ".join(RULES_MD.split())
    assert "A rarer protein is never worth less than a commoner one" in text
    assert "The rarer it is on the dice, the more it is worth" not in text
    assert "the more it is worth" not in LESSON.read_text(encoding="utf-8")


def test_bot_paces_option_one_for_all_or_one_per_seat():
    assert C.parse_paces("hard", 3) == ("hard",) * 3
    assert C.parse_paces("fast, easy", 3) == ("hard", "easy", "easy")  # fast: hard's older name
    assert C.parse_paces("", 2) == (C.PACE_DEFAULT,) * 2
    for bad in ("sleepy", "fast,fast,fast"):
        with pytest.raises(ValueError):
            C.parse_paces(bad, 2)


def test_an_empty_paces_option_gives_each_bot_its_levels_pace():
    assert [C.seat_pace("", 2, 1, level) for level in ("random", "easy", "normal", "hard")] == \
        ["normal", "easy", "normal", "hard"]
    assert C.seat_pace("easy,fast", 2, 1, "easy") == "hard"  # the option, when set, decides
    assert C.PACES["easy"] > C.PACES["normal"] > C.PACES["hard"]
