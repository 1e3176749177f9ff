"""The conformance test every registered game joins by registering (OpenSpiel's games_sim_test).

Random games to the end check that: legal actions apply and illegal ones are refused with the
project's error; states respect the game's invariants; snapshots round-trip through msgspec; undo
restores the exact prior state; a record written during play replays to the exact final state; a
finished game has no legal actions for anyone.
"""

from __future__ import annotations

import random

import pytest

from cellwars_tui.ai.bots import candidate_actions
from cellwars_tui.core import CHANCE, IllegalAction, Match, Seat, all_games
from cellwars_tui.record import decode_record, encode_record, match_to_record, record_to_match

from . import toy_game  # noqa: F401  (registers the toy game)

GAMES = all_games()
CASES = [
    (g.id, n) for g in GAMES for n in range(g.min_players, g.max_players + 1)
]
MAX_STEPS = 3000


def _seats(n: int) -> list[Seat]:
    return [Seat(name=f"P{i + 1}") for i in range(n)]


def play_random(game, players: int, seed: int, *, checks: bool = True) -> Match:
    rng = random.Random(seed)
    options = game.options_type(players=players)
    match = Match(game, options, _seats(players), seed)
    seen: list = []
    for _ in range(MAX_STEPS):
        state = match.state
        if checks:
            game.check_invariants(state)
            assert game.decode_state(game.encode_state(state)) == state
        seats = match.to_act()
        if not seats:
            break
        assert CHANCE not in seats, "chance must be resolved by the match"
        seat = rng.choice(seats)
        actions = list(candidate_actions(game, state, seat)) if rng.random() < 0.5 else list(
            match.legal_actions(seat))
        assert actions, f"{game.id}: seat {seat} is to act but has no legal action"
        action = rng.choice(actions)
        if checks:
            assert game.is_legal(state, seat, action)
            assert game.action_from_str(game.action_to_str(action)) == action
            others = [s for s in range(players) if s not in seats]
            if others:
                with pytest.raises(IllegalAction):
                    game.apply(state, others[0], action)
            legal = set(match.legal_actions(seat))
            stranger = next((a for a in reversed(seen) if a not in legal), None)
            if stranger is not None:
                with pytest.raises(IllegalAction):
                    game.apply(state, seat, stranger)
            seen.append(action)
            del seen[:-50]
        before = match.cursor
        match.play(seat, action)
        if checks and rng.random() < 0.1:
            after = match.state
            match.undo()
            assert match.cursor <= before and match.state == match.states[match.cursor]
            assert match.states[before] == state
            match.seek(before)
            assert match.state == state
            match.play(seat, action)
            assert match.state == after
    else:
        pytest.fail(f"{game.id}: no end after {MAX_STEPS} steps")
    return match


@pytest.mark.slow  # many random games of every game
@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_games_follow_the_contract(game_id, players):
    game = next(g for g in GAMES if g.id == game_id)
    for seed in range(3):
        match = play_random(game, players, seed)
        final = match.state
        assert match.outcome() is not None
        for seat in range(players):
            assert not game.legal_actions(final, seat)
        # the record replays to the exact final state
        data = encode_record(match_to_record(match))
        replayed = record_to_match(decode_record(data))
        assert replayed.state == final
        assert [s.action for s in replayed.history] == [s.action for s in match.history]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_move_list_export_imports_back_to_the_same_game(game_id, players):
    from cellwars_tui.record.text import export_text, import_text

    game = next(g for g in GAMES if g.id == game_id)
    match = play_random(game, players, 11, checks=False)
    for step in match.history:
        assert game.action_from_str(game.action_to_str(step.action)) == step.action
    again = import_text(export_text(match))
    assert again.state == match.state
