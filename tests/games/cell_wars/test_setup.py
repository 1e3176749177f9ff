"""Camps, seats, turn orders and the three setup phases."""

import pytest

from cellwars_tui.core import BadOptions, IllegalAction
from cellwars_tui.games.cell_wars import clarifications as C

from .helpers import (CANCER, CANCER_TILES, GAME, IMMUNE, PIECES, PLACED, SIGNS, B, R, T, act, legal,
                      standard)
from cellwars_tui.games.cell_wars.rules import CellWarsOptions


def test_six_panels_in_the_recommended_three_against_three_turn_order():
    assert C.PANEL_CAMPS == (IMMUNE, CANCER, CANCER, IMMUNE, IMMUNE, CANCER)
    assert C.PANEL_TITLES[0] == "Immune alpha" and C.PANEL_TITLES[5] == "Cancer gamma"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_turn_order_and_seats_for_every_player_count(players):
    owners = C.PANEL_OWNERS[players]
    assert sorted(set(owners)) == list(range(players))
    # seats are numbered in the order they first act, and each seat keeps to one camp
    firsts = [owners.index(seat) for seat in range(players)]
    assert firsts == sorted(firsts)
    for seat in range(players):
        camps = {C.PANEL_CAMPS[p] for p, o in enumerate(owners) if o == seat}
        assert len(camps) == 1
    if players == 6:
        assert owners == (0, 1, 2, 3, 4, 5)


def test_panels_start_with_their_camp_biomass_attack_and_zero_range():
    s = standard()
    for p in range(6):
        pn = s.panels[p]
        if R.PANEL_CAMPS[p] == IMMUNE:
            assert (pn.biomass, pn.limit, R.attack_of(s, p)) == (4, 4, 1)
        else:
            assert (pn.biomass, pn.limit, R.attack_of(s, p)) == (5, 5, 0)
        assert R.range_of(s, p) == 0


def test_immune_camp_places_the_eight_signs_one_per_tile_taking_turns():
    s = GAME.initial_state(CellWarsOptions(layout=PLACED, players=6))
    seats = []
    for name in SIGNS:
        seats.append(GAME.to_act(s)[0])
        s = act(s, f"sign {name}")
        assert f"sign {name}" not in legal(s) or s.phase != R.SIGNS
    assert seats == [0, 3, 4, 0, 3, 4, 0, 3]
    assert [B.NAMES[t] for t in s.signs] == list(SIGNS)
    assert s.phase == R.TISSUE


def test_signs_never_overlap():
    s = GAME.initial_state(CellWarsOptions(layout=PLACED, players=2))
    s = act(s, "sign E5")
    with pytest.raises(IllegalAction):
        act(s, "sign E5")


def test_cancer_camp_chooses_seven_cancer_tiles_by_default():
    s = GAME.initial_state(CellWarsOptions(layout=PLACED, players=6))
    s = act(s, *(f"sign {n}" for n in SIGNS))
    seats = []
    for name in CANCER_TILES:
        seats.append(GAME.to_act(s)[0])
        s = act(s, f"tissue {name}")
    assert seats == [1, 2, 5, 1, 2, 5, 1]
    assert R.cancer_count(s) == 7 and s.tiles.count(R.NORMAL_T) == 54
    assert s.phase == R.PIECES


def test_cancer_tissue_count_is_an_option():
    s = standard(cancer_tissue=5)
    assert R.cancer_count(s) == 5


@pytest.mark.parametrize("bad", [3, 22, -1])
def test_absurd_cancer_tissue_option_is_refused(bad):
    with pytest.raises(BadOptions):
        GAME.initial_state(CellWarsOptions(layout=PLACED, players=2, cancer_tissue=bad))
    with pytest.raises(BadOptions):
        GAME.options_from_dict({"players": 2, "cancer_tissue": bad})


@pytest.mark.parametrize("n", [10, 13, 21])
def test_cancer_tissue_outside_the_range_that_plays_is_refused_naming_the_range(n):
    lo, hi = C.EDITIONS[C.CURRENT_EDITION].cancer_tissue_range
    with pytest.raises(BadOptions, match=f"cancer_tissue must be between {lo} and {hi}, not {n}"):
        GAME.options_from_dict({"players": 2, "cancer_tissue": n})
    # the first edition's records (4 to 21) still open
    assert GAME.options_from_record({"players": 2, "cancer_tissue": n}, 1).cancer_tissue == n


def test_pieces_are_placed_in_turn_order():
    s = GAME.initial_state(CellWarsOptions(layout=PLACED, players=4))
    s = act(s, *(f"sign {n}" for n in SIGNS), *(f"tissue {n}" for n in CANCER_TILES))
    seats = []
    for name in PIECES:
        seats.append(GAME.to_act(s)[0])
        s = act(s, f"place {name}")
    assert seats == list(C.PANEL_OWNERS[4])
    assert [B.NAMES[pn.tile] for pn in s.panels] == list(PIECES)


def test_cancer_pieces_start_on_cancer_tissue_and_immune_on_normal():
    s = GAME.initial_state(CellWarsOptions(layout=PLACED, players=2))
    s = act(s, *(f"sign {n}" for n in SIGNS), *(f"tissue {n}" for n in CANCER_TILES))
    assert "place G4" not in legal(s)  # Ia is immune: G4 is cancer tissue
    s = act(s, "place C2")
    assert all(s.tiles[T[m.split()[1]]] == R.CANCER_T for m in legal(s))


def test_no_piece_starts_on_or_next_to_a_sign():
    s = GAME.initial_state(CellWarsOptions(layout=PLACED, players=2))
    s = act(s, *(f"sign {n}" for n in SIGNS), *(f"tissue {n}" for n in CANCER_TILES))
    starts = {T[m.split()[1]] for m in legal(s)}
    for sign in s.signs:
        assert not starts & set(B.within(sign, 1))


def test_start_restriction_is_lifted_when_no_tile_fits():
    # cancer tiles all next to the generator: cancer pieces may then start on any of them
    s = GAME.initial_state(CellWarsOptions(layout=PLACED, players=2, cancer_tissue=5))
    s = act(s, *(f"sign {n}" for n in SIGNS))
    s = act(s, "tissue E4", "tissue E6", "tissue D4", "tissue D5", "tissue F4", "place C2")
    assert sorted(legal(s)) == ["place D4", "place D5", "place E4", "place E6", "place F4"]


def test_round_one_starts_after_setup_with_inactive_card_signs_and_no_walls():
    s = standard()
    assert (s.phase, s.round, s.panel) == (R.PLAY, 1, 0)
    assert s.card_signs == (False,) * 4
    assert s.walls == () and all(pn.walls == 0 for pn in s.panels)
    assert s.factory == 1  # made in round 1's system round
