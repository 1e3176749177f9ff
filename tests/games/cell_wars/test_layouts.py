"""Ready layouts and the rules choice (issue 29): a new game starts from the standard layout (or a
random legal one, or is placed by hand as before), and plays by our rules or as printed."""

from __future__ import annotations

import random

import pytest

from cellwars_tui.core import CHANCE, BadOptions
from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.cell_wars import clarifications as C
from cellwars_tui.games.cell_wars.cards import card_id
from cellwars_tui.games.cell_wars.options import standard_layout
from cellwars_tui.record import decode_record, encode_record, match_to_record, record_to_match
from cellwars_tui.ui.request import new_game_request

from .helpers import GAME, PLACED, B, R, T

HERE_RANGE = C.EDITIONS[C.CURRENT_EDITION].cancer_tissue_range
PRINTED_RANGE = C.EDITIONS[C.PRINTED_EDITION].cancer_tissue_range


def _options(**kw):
    return GAME.options_from_dict({"players": 2, **kw})


def _placed_by_hand(actions, **kw):
    """The state after playing ``actions`` as the set-up's own legal moves."""
    s = GAME.initial_state(_options(layout=PLACED, **kw))
    for a in actions:
        s, _ = GAME.apply(s, GAME.to_act(s)[0], a)
    return s


def test_a_new_game_starts_from_the_standard_layout_at_its_first_decision():
    assert GAME.options_type().layout == C.LAYOUT_STANDARD == C.LAYOUT_DEFAULT
    s = GAME.initial_state(GAME.options_type())
    assert (s.phase, s.round, s.panel, s.step) == (R.PLAY, 1, 0, R.DRAW)
    assert GAME.to_act(s) == (0,) and GAME.legal_actions(s, 0)
    assert [B.NAMES[t] for t in s.signs] == list(C.STANDARD_SIGNS)
    assert {B.NAMES[t] for t in range(B.N_TILES) if s.tiles[t]} == set(C.STANDARD_TISSUE[:7])
    assert [B.NAMES[pn.tile] for pn in s.panels] == list(C.STANDARD_PIECES)


@pytest.mark.parametrize("n", range(PRINTED_RANGE[0], PRINTED_RANGE[1] + 1))
def test_the_standard_layout_is_a_legal_set_up_for_every_count_of_cancer_tiles(n):
    """Each placement is one the players could have made (apply checks it), at any count."""
    s = _placed_by_hand(standard_layout(n), rules="as printed", cancer_tissue=n)
    assert s == GAME.initial_state(_options(rules="as printed", cancer_tissue=n))
    assert R.cancer_count(s) == n and s.phase == R.PLAY
    GAME.check_invariants(s)


def _turn(tile: int) -> int:
    """The tile a third of a turn about E5 away (the turn that takes E6 to D4)."""
    q, r = B.COORDS[tile]
    return B.INDEX[(r, -q - r)]


def _mirror(tile: int) -> int:
    """The tile mirrored about row E."""
    q, r = B.COORDS[tile]
    return B.INDEX[(q + r, -r)]


def test_the_standard_layout_is_symmetric_as_the_rules_page_says():
    signs = {T[n] for n in C.STANDARD_SIGNS}
    tumour = {T[n] for n in C.STANDARD_TISSUE[:7]}
    ia, ca, cb, ib, ig, cg = (T[n] for n in C.STANDARD_PIECES)
    assert [_turn(t) for t in (ca, cb, cg)] == [cb, cg, ca]
    assert {_turn(t) for t in (ia, ib, ig)} == {ia, ib, ig}
    assert {_turn(t) for t in tumour} == tumour
    assert {_mirror(t) for t in signs} == signs and {_mirror(t) for t in tumour} == tumour
    assert {_mirror(t) for t in (ia, ib, ig)} == {ia, ib, ig}
    # each cancer cell three tiles from two immune cells, every spot at least two from a cell
    for c in (ca, cb, cg):
        assert sorted(B.DIST[c][i] for i in (ia, ib, ig)) == [3, 3, 4]
    assert min(B.DIST[x][p] for x in signs for p in (ia, ca, cb, ib, ig, cg)) >= 2
    # the tissue list grows the tumour a third of a turn at a time
    rest = [T[n] for n in C.STANDARD_TISSUE[7:19]]
    for i in range(0, 12, 3):
        a, b, c = rest[i:i + 3]
        assert {_turn(a), _turn(b), _turn(c)} == {a, b, c}


def test_a_random_layout_is_placed_by_chance_legally_and_differs_from_seed_to_seed():
    options = _options(layout="random")
    s = GAME.initial_state(options)
    assert s.phase == R.SIGNS and GAME.to_act(s) == (CHANCE,)
    outcomes = GAME.chance_outcomes(s)
    assert len(outcomes) == B.N_TILES and {p for _, p in outcomes} == {1 / B.N_TILES}
    layouts = set()
    for seed in range(4):
        m = Match(GAME, options, [Seat(name="A"), Seat(name="B")], seed)
        s = m.state
        assert (s.phase, s.round, s.step) == (R.PLAY, 1, R.DRAW) and GAME.to_act(s) == (0,)
        assert all(st.seat == CHANCE for st in m.steps)  # 8 spots, 7 tiles, 6 cells
        assert [type(st.action) for st in m.steps] == [R.Sign] * 8 + [R.Tissue] * 7 + [R.Place] * 6
        GAME.check_invariants(s)
        for p, pn in enumerate(s.panels):  # the start rules hold (no spot on or next to a cell)
            want = R.NORMAL_T if R.PANEL_CAMPS[p] == R.IMMUNE else R.CANCER_T
            assert s.tiles[pn.tile] == want
        layouts.add((s.signs, s.tiles, tuple(pn.tile for pn in s.panels)))
        again = record_to_match(decode_record(encode_record(match_to_record(m))))
        assert again.state == s
    assert len(layouts) == 4


def test_placing_it_yourself_starts_with_the_special_spots_as_before():
    s = GAME.initial_state(_options(layout=PLACED))
    assert s.phase == R.SIGNS and GAME.to_act(s) == (0,) and not s.random_setup


def test_a_record_before_rules_version_6_opens_placed_by_hand_and_a_new_one_keeps_its_layout():
    for version in range(1, 6):
        assert GAME.options_from_record({"players": 2}, version).layout == PLACED
    assert GAME.options_from_record({"players": 2, "layout": "random"}, 6).layout == "random"
    assert GAME.options_from_record({"players": 2}, 6).layout == C.LAYOUT_STANDARD


def test_the_layout_is_chosen_on_the_command_line_and_a_wrong_one_is_one_line():
    request = new_game_request("cell-wars", options={"layout": "random"})
    assert request.options.layout == "random"
    with pytest.raises(BadOptions, match="Cell Wars has no layout 'ready' "
                                         r"\(layouts: 'standard', 'random', 'place it yourself'\)"):
        new_game_request("cell-wars", options={"layout": "ready"})


# -- the rules: as played here, or as printed ---------------------------------------------------
def test_as_played_here_is_the_current_edition_and_as_printed_the_second():
    assert _options().rules == C.RULES_HERE and _options().rules_edition == C.CURRENT_EDITION
    printed = new_game_request("cell-wars", options={"rules": "as printed"}).options
    assert printed.rules_edition == C.PRINTED_EDITION == 2
    assert GAME.initial_state(printed).edition == 2


def test_an_edition_names_its_rules_whatever_the_rules_field_says():
    assert _options(rules_edition=2).rules == C.RULES_PRINTED
    assert _options(rules_edition="2").rules == C.RULES_PRINTED  # (-o rules_edition=2)
    assert _options(rules_edition=4).rules == C.RULES_HERE
    assert _options(rules="as played here", rules_edition=2).rules == C.RULES_PRINTED
    with pytest.raises(BadOptions, match="Cell Wars has no rules 'house'"):
        _options(rules="house")


def test_as_printed_lifts_the_cap_on_starting_cancer_tissue_to_what_the_ending_allows():
    assert HERE_RANGE == (4, 9) and PRINTED_RANGE == (4, 21)
    assert _options(rules="as printed", cancer_tissue=21).cancer_tissue == 21
    with pytest.raises(BadOptions, match="cancer_tissue must be between 4 and 9, not 10"):
        _options(cancer_tissue=10)
    with pytest.raises(BadOptions, match="cancer_tissue must be between 4 and 21, not 22"):
        _options(rules="as printed", cancer_tissue=22)


def test_a_game_as_printed_plays_by_the_second_edition():
    """The second edition's own decisions: Balanced diet heals every round, four players split
    P2 Ca Cg (the fifth edition: every third round, P3 Cb Cg)."""
    ed = C.EDITIONS[C.PRINTED_EDITION]
    assert (ed.regen, ed.regen_every, ed.continuous_rounds, ed.must_step) == (True, 1, 0, False)
    s = GAME.initial_state(GAME.options_from_dict({"players": 4, "rules": "as printed"}))
    assert R.seat_panels(s, 1) == (1, 5) and R.seat_panels(s, 2) == (2,)


def test_random_play_as_printed_with_many_tiles_ends_legally():
    rng = random.Random(29)
    s = GAME.initial_state(_options(rules="as printed", cancer_tissue=18, layout="random"))
    while GAME.to_act(s):
        GAME.check_invariants(s)
        seat = GAME.to_act(s)[0]
        a = (GAME.sample_chance(s, rng) if seat == CHANCE
             else rng.choice(GAME.legal_actions(s, seat)))
        s, _ = GAME.apply(s, seat, a)
    assert GAME.outcome(s) is not None


def test_balanced_diet_says_how_it_heals_under_the_rules_chosen():
    diet = card_id("balanced-diet")
    here = GAME.initial_state(_options())
    printed = GAME.initial_state(_options(rules="as printed"))
    assert "rounds 3, 6, 9, 12 and 15" in R.card_text(here, diet)
    assert R.card_text(printed, diet).endswith("at the end of each of your rounds you regain 1 "
                                                "Biomass.")
    third = GAME.initial_state(_options(rules_edition=3))
    assert R.card_text(third, diet) == "While on your panel: your Biomass limit is 1 higher."
    assert R.card_text(here, card_id("maltose")) == R.CARDS[card_id("maltose")].text
