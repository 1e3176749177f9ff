"""A game's declared hooks and metadata (issue 18): defaults on ``Game``, one ``GameType`` value,
games found by the registry, and no code that probes a game with ``getattr`` for a hook."""

from __future__ import annotations

import random
import re
from pathlib import Path

import msgspec
import pytest

import cellwars_tui
from cellwars_tui.ai.bots import candidate_actions, random_playout
from cellwars_tui.core import GameType, all_games, get_game
from cellwars_tui.core.registry import game_modules, game_package_ids
from tests.toy_game import TOY, Die, Rolled, ToyRace

HOOKS = ("bot_actions", "heuristic", "random_playout", "num_players", "view_event", "tools",
         "perft_cli", "solve_cli", "study_cli")


def test_the_defaults_leave_a_game_generic():
    state = TOY.initial_state(TOY.options_type())
    state, _ = TOY.apply(state, -1, Die(4))
    seat = TOY.to_act(state)[0]
    assert list(TOY.bot_actions(state, seat)) == list(TOY.legal_actions(state, seat))
    assert list(candidate_actions(TOY, state, seat)) == list(TOY.legal_actions(state, seat))
    assert TOY.heuristic(state) is None
    assert TOY.random_playout(state, random.Random(1)) is None
    values = random_playout(TOY, state, random.Random(1))  # the generic playout runs instead
    assert values is not None and len(values) == TOY.num_players(state) == 2
    event = Rolled(6)
    assert TOY.view_event(event, 0) is event and TOY.view_event(event, None) is event
    assert TOY.tools() == ()


def test_metadata_is_one_value_read_through_the_game():
    game = get_game("virus-fight")
    assert isinstance(game.meta, GameType)
    assert (game.id, game.title, game.min_players, game.max_players) == (
        game.meta.id, game.meta.title, game.meta.min_players, game.meta.max_players)
    assert msgspec.json.decode(msgspec.json.encode(game.meta), type=GameType) == game.meta


def test_a_game_declaring_metadata_as_loose_class_attributes_is_refused():
    with pytest.raises(TypeError, match="declare title in its meta"):
        class Loose(ToyRace):  # noqa: F841
            title = "Loose"


def test_every_game_package_is_found_and_the_launcher_order_is_declared():
    assert game_package_ids() == sorted(game_package_ids())
    assert {m.split(".")[2] for m in game_modules()} == {
        "cell_management", "cell_wars", "cellulis_bellum", "infection", "virus_fight"}
    shipped = [g for g in all_games() if g.id.replace("-", "_") in
               {m.split(".")[2] for m in game_modules()}]
    assert [g.id for g in shipped] == ["virus-fight", "cell-management", "cellulis-bellum",
                                       "cell-wars", "infection"]
    assert len({g.meta.order for g in shipped}) == len(shipped)


def test_games_offer_their_tools_and_the_command_line_knows_no_game_words():
    tools = {(g.id, t.name) for g in all_games() for t in g.tools()}
    assert {("virus-fight", "perft"), ("cell-management", "solve"),
            ("cell-management", "study")} <= tools
    cli = (Path(cellwars_tui.__file__).parent / "cli.py").read_text(encoding="utf-8")
    for word in ("perft", "solve", "study", "--species", "--depth", "--code", "_cli"):
        assert word not in cli, word


def test_no_code_probes_a_game_for_a_declared_hook_with_getattr():
    pattern = re.compile(r"getattr\([^)]*[\"'](%s)[\"']" % "|".join(HOOKS))
    root = Path(cellwars_tui.__file__).parent
    found = [f"{path.relative_to(root)}:{n}" for path in root.rglob("*.py")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert not found, found


def test_a_tool_for_a_game_that_has_none_is_a_one_line_error(capsys):
    from cellwars_tui.cli import main

    try:
        code = main(["perft", "cell-wars"])
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1
    assert "invalid choice: 'cell-wars'" in err[0] and "virus-fight" in err[0]


def test_a_game_reads_its_own_options_from_a_plain_options_value():
    from cellwars_tui.core import Options

    for game in (get_game("infection"), get_game("virus-fight"), get_game("cell-management")):
        plain = Options(players=game.min_players)
        own = game.own_options(plain)
        assert type(own) is game.options_type and own == game.options_type(players=plain.players)
        mine = game.options_type(players=game.min_players)
        assert game.own_options(mine) is mine
        game.check_options(plain)  # a plain value is checked with the game's defaults
        assert game.initial_state(plain) == game.initial_state(mine)
