"""The Cell Wars decision builder without a screen: what each tile and each numbered choice does
in every kind of step, a card picked then its target, a wall built tile by tile, and the cursor."""

from __future__ import annotations

import msgspec

from cellwars_tui.games.cell_wars import board as B
from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.cards import CARDS, card_id
from cellwars_tui.games.cell_wars.decisions import (Back, Decision, PickCard, Picking, PickFrom,
                                                    passed_reason,
                                                    StartBuild, decide, move_cursor,
                                                    skipped_note)
from cellwars_tui.games.cell_wars.labels import KEY_OF_DIRECTION

from .helpers import GAME, PLACED, Ca, Ia, Ib, T, give, panel, standard, turn


def legal(s):
    return GAME.legal_actions(s, GAME.to_act(s)[0])


def decision(s, picking=None) -> Decision:
    return decide(s, legal(s), picking or Picking(), GAME.action_to_str)


def keys(d: Decision) -> dict[str, str]:
    return {o.key: o.label for o in d.options}


def test_setup_spots_are_tiles_with_the_spot_named_in_the_prompt():
    s = GAME.initial_state(R.CellWarsOptions(layout=PLACED, players=2))
    d = decision(s)
    assert d.prompt.startswith("Place the CARD sign 1 of 4")
    assert set(d.tiles) == {a.tile for a in legal(s)} and not d.options
    assert all(a == R.Sign(t) for t, (a,) in d.tiles.items())


def test_draw_step_numbers_its_choices_and_zero_ends():
    d = decision(standard())
    assert keys(d) == {"1": "charge (pay 2, draw)", "0": "no more"}
    assert isinstance(d.options[0].do, R.Charge) and isinstance(d.options[-1].do, R.End)
    assert "draw cards?" in d.prompt and not d.tiles


def test_steps_are_tiles_and_direction_keys():
    s = turn(standard(), Ia, step=R.MOVE, moves=2)
    d = decision(s)
    steps = [a for a in legal(s) if isinstance(a, R.Step)]
    here = s.panels[Ia].tile
    assert set(d.tiles) == {B.NEIGHBOUR[here][a.dir] for a in steps}
    directions = {o.key: o for o in d.options if o.key != "0"}
    assert set(directions) == {KEY_OF_DIRECTION[a.dir] for a in steps}
    # the second edition lets a cell that rolled stay put: 0 stops before the first step
    assert keys(d)["0"] == "stop" and isinstance(d.options[-1].do, R.End)
    assert "2 steps left" in d.prompt


def test_a_card_is_picked_then_its_target_then_back():
    s = give(turn(standard(), Ia, step=R.CARDS_STEP), Ia, "vegf", "translocation")
    d = decision(s)
    picks = {o.do.slug: o for o in d.options if isinstance(o.do, PickCard)}
    assert set(picks) == {"vegf", "translocation"}
    assert picks["vegf"].hint == CARDS[card_id("vegf")].text
    assert keys(d)["0"] == "no card"
    picking = Picking(card="vegf")
    d = decision(s, picking)
    assert set(d.tiles) == {T["C6"], T["G2"]}
    assert d.prompt == "VEGF: which Blood vessel comes to your tile? 1-2 or a highlighted tile"
    assert keys(d) == {"1": "C6 vessel", "2": "G2 vessel", "0": "back"}
    assert isinstance(d.options[-1].do, Back)
    assert [o.do for o in d.options[:2]] == [R.Play("vegf", tile=T["C6"]),
                                            R.Play("vegf", tile=T["G2"])]
    d = decision(s, Picking(card="translocation"))  # a target cell: a tile and a choice
    play = next(a for a in legal(s) if isinstance(a, R.Play) and a.card == "translocation")
    assert d.tiles[s.panels[Ib].tile] == [play]
    assert d.options[0].do == play and d.options[0].label.startswith("on Ib")


def test_a_picked_card_no_longer_playable_is_put_down():
    s = give(turn(standard(), Ia, step=R.CARDS_STEP), Ia, "vegf")
    picking = Picking(card="translocation")
    d = decision(s, picking)
    assert picking.card is None
    assert any(isinstance(o.do, PickCard) for o in d.options) and keys(d)["0"] == "no card"


def test_a_target_card_says_what_to_do_and_lists_its_targets_by_number():
    """Issue 19: VEGF offered only '[0] back' and a text that never said what to do."""
    s = give(turn(standard(), Ia, step=R.CARDS_STEP), Ia, "teleporting")
    d = decision(s, Picking(card="teleporting"))
    numbered = [o for o in d.options if o.key != "0"]
    assert {o.do.tile for o in numbered} == set(d.tiles) == set(s.signs) - {s.panels[Ia].tile}
    assert all(o.key.isdigit() and o.label.split()[0] in T for o in numbered)
    assert d.prompt.startswith("Teleporting: which special spot to jump to? 1-")
    assert len(d.prompt) <= 78  # (the status line of an 80-column window)
    # more targets than numbers: the tiles alone, and the prompt says how many
    s = give(turn(standard(), Ca, step=R.CARDS_STEP), Ca, "metastasis")
    d = decision(s, Picking(card="metastasis"))
    assert len(d.tiles) > 9 and keys(d) == {"0": "back"}
    assert f"one of the {len(d.tiles)} highlighted tiles" in d.prompt


def test_immune_cells_are_never_told_about_mutating():
    """Issue 19: the draw prompt named 'mutate' to immune cells, which only cancer can do."""
    immune = decision(standard())
    assert "mutate" not in immune.prompt.casefold()
    assert not any("mutate" in o.label for o in immune.options)
    cancer = decision(turn(standard(), Ca, step=R.DRAW))
    assert "mutate" in cancer.prompt and any(o.label.startswith("mutate") for o in cancer.options)


def test_zero_goes_on_to_the_next_step_and_never_ends_a_round_unmoved():
    """Issue 19: 0 meant 'no more cards' in one step and 'end round' (no move) in the next."""
    s = turn(standard(), Ia, step=R.SPECIAL)
    d = decision(s)
    zero = next(o for o in d.options if o.key == "0")
    assert zero.do == R.Roll() and zero.label == "roll to move"
    end = next(o for o in d.options if isinstance(o.do, R.End))
    assert end.key.isdigit() and end.key != "0" and end.label == "end round, no move"
    assert "0 to roll and move" in d.prompt
    for step in (R.DRAW, R.CARDS_STEP, R.MOVE, R.ATTACK):
        zero = [o for o in decision(turn(standard(), Ia, step=step, rolled=True, moves=1)).options
                if o.key == "0"]
        assert all(isinstance(o.do, R.End) for o in zero), step


def test_a_step_that_passed_by_itself_is_announced_with_why_and_what_zero_does_now():
    before = turn(standard(), Ia, step=R.DRAW)
    special = turn(standard(), Ia, step=R.SPECIAL)
    assert skipped_note(before, special, ended=True) == \
        "No card in hand. Now special action; 0 rolls to move."
    cards = turn(standard(), Ia, step=R.CARDS_STEP)
    assert skipped_note(cards, special, ended=False).endswith(
        ". Now special action; 0 rolls to move.")
    assert skipped_note(cards, special, ended=True) == ""  # the player ended it: no news
    assert skipped_note(before, turn(standard(), Ca, step=R.SPECIAL), ended=False) == ""


def test_draws_that_end_by_themselves_say_the_real_reason_not_that_no_card_is_left():
    """Issue 29: after a charge left 2 Biomass the note said "No card to draw: now play cards"."""
    drawing = turn(standard(), Ia, step=R.DRAW)
    cards = give(turn(panel(standard(), Ia, biomass=2), Ia, step=R.CARDS_STEP, charged=True),
                 Ia, "diapedesis")
    assert skipped_note(drawing, cards, ended=False) == \
        "Draws over: a charge needs more than 2 Biomass, you have 2. 0: no card."
    mutant = turn(panel(standard(), Ca, biomass=1), Ca, step=R.SPECIAL)
    assert skipped_note(turn(standard(), Ca, step=R.DRAW), mutant, ended=False) == \
        "Draws over: a mutation needs more than 1 Biomass, you have 1. 0 rolls to move."
    assert all(len(skipped_note(drawing, x, ended=False)) <= 78 for x in (cards, mutant))


def test_every_reason_a_step_passes_by_itself_is_worded():
    s = turn(standard(), Ia, step=R.CARDS_STEP)
    assert passed_reason(R.CARDS_STEP, s) == "No card in hand"
    assert passed_reason(R.CARDS_STEP, give(s, Ia, "maltose")) == \
        "No card in hand can do anything now"
    assert passed_reason(R.MOVE, turn(standard(), Ia, step=R.ATTACK, moves=0)) == "No step left"
    assert passed_reason(R.MOVE, turn(standard(), Ia, step=R.ATTACK, moves=2)) == \
        "Every step is blocked (walls, the edge)"
    once = turn(standard(rules_edition=1), Ia, step=R.CARDS_STEP, charged=True)
    assert passed_reason(R.DRAW, once) == "Draws over: one charge a round"


def test_a_wall_is_built_from_a_tile_to_a_neighbour():
    s = turn(panel(standard(), Ca, walls=2), Ca, step=R.SPECIAL)
    d = decision(s)
    assert any(isinstance(o.do, StartBuild) and o.label == "build wall (2)" for o in d.options)
    assert keys(d)["0"] == "roll to move"
    picking = Picking(building=True)
    d = decision(s, picking)
    assert d.tiles and all(acts == [PickFrom(t)] for t, acts in d.tiles.items())
    assert keys(d) == {"0": "back"}
    first = T["A1"]
    picking.build_from = first
    d = decision(s, picking)
    assert set(d.tiles) <= set(B.NEIGHBOURS[first]) and d.tiles
    for n, (build,) in d.tiles.items():
        assert build == R.Build(B.edge_between(first, n))
    assert "from A1 to which neighbour" in d.prompt


def test_a_finished_game_offers_nothing_and_leaves_the_result_to_the_table():
    over = msgspec.structs.replace(standard(), phase=R.OVER, result="Immune wins")
    d = decide(over, [], Picking(), GAME.action_to_str)
    # (the status line words the result for its reader: "You win", not the camp's sentence)
    assert not d.prompt and not d.tiles and not d.options


def test_the_cursor_moves_by_arrows_and_comes_back():
    centre = T["E5"]
    for there, back in (("left", "right"), ("right", "left"), ("up", "down"), ("down", "up")):
        moved = move_cursor(centre, there)
        assert moved != centre and move_cursor(moved, back) == centre
    corner = T["A1"]
    assert move_cursor(corner, "left") in (corner, *B.NEIGHBOURS[corner])
