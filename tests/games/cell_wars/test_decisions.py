"""The Cell Wars decision builder without a screen: what each tile and each numbered choice does
in every kind of step, a card picked then its target, a wall built tile by tile, and the cursor."""

from __future__ import annotations

import msgspec

from cellwars_tui.games.cell_wars import board as B
from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.cards import CARDS, card_id
from cellwars_tui.games.cell_wars.decisions import (Back, Decision, PickCard, Picking, PickFrom,
                                                    StartBuild, decide, move_cursor)
from cellwars_tui.games.cell_wars.labels import KEY_OF_DIRECTION

from .helpers import GAME, Ca, Ia, Ib, T, give, panel, standard, turn


def legal(s):
    return GAME.legal_actions(s, GAME.to_act(s)[0])


def decision(s, picking=None) -> Decision:
    return decide(s, legal(s), picking or Picking(), GAME.action_to_str)


def keys(d: Decision) -> dict[str, str]:
    return {o.key: o.label for o in d.options}


def test_setup_spots_are_tiles_with_the_spot_named_in_the_prompt():
    s = GAME.initial_state(R.CellWarsOptions(players=2))
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
    assert set(d.tiles) == {T["C6"], T["G2"]} and "pick a highlighted tile" in d.prompt
    assert keys(d) == {"0": "back"} and isinstance(d.options[0].do, Back)
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


def test_a_wall_is_built_from_a_tile_to_a_neighbour():
    s = turn(panel(standard(), Ca, walls=2), Ca, step=R.SPECIAL)
    d = decision(s)
    assert any(isinstance(o.do, StartBuild) and o.label == "build wall (2)" for o in d.options)
    assert keys(d)["0"] == "end round"
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


def test_a_finished_game_only_says_so():
    over = msgspec.structs.replace(standard(), phase=R.OVER, result="Immune wins")
    d = decide(over, [], Picking(), GAME.action_to_str)
    assert d.prompt == "Game over: Immune wins" and not d.tiles and not d.options


def test_the_cursor_moves_by_arrows_and_comes_back():
    centre = T["E5"]
    for there, back in (("left", "right"), ("right", "left"), ("up", "down"), ("down", "up")):
        moved = move_cursor(centre, there)
        assert moved != centre and move_cursor(moved, back) == centre
    corner = T["A1"]
    assert move_cursor(corner, "left") in (corner, *B.NEIGHBOURS[corner])
