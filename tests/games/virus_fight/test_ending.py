"""The end: last program running, the round limit and stalemate scoring."""

from __future__ import annotations

from cellwars_tui.games.virus_fight.rules import GAME, OVER

from .helpers import play, pos



def test_the_game_ends_in_stalemate_after_the_round_limit():
    s = pos("...J1J2/...../...../...../J1J2...", "a1,e5", queue="2", rnd="5/5")
    s = play(s, "jump d5")
    assert s.phase == OVER and GAME.outcome(s).termination == "stalemate"


def test_stalemate_is_won_by_more_spare_instructions():
    s = pos("...J1J2/...../...../...../J1J2...", "a1,e5", spares=("M1M2", "*"), queue="2",
            rnd="5/5")
    s = play(s, "jump d5")
    out = GAME.outcome(s)
    assert out.winners == (1,) and out.scores[1] > out.scores[0]


def test_stalemate_with_equal_spares_is_won_by_the_higher_pip_total():
    ranks = "...J1J2/...../...../...../J1J2..."
    s = pos(ranks, "a1,e5", spares=("M1M1M2W1W2W3J3E1E2E3", "M2M3M3W1W2W3J3E1E2E3"),
            queue="2", rnd="5/5")
    assert len(s.spares[0]) == len(s.spares[1])
    s = play(s, "jump d5")
    assert GAME.outcome(s).winners == (1,)  # 23 pips beat 19


def test_stalemate_with_equal_spares_and_pips_is_shared():
    ranks = "...J1J2/...../...../...../J1J2..."
    s = pos(ranks, "a1,e5", spares=("M1M2W1W2W3J3E1E2E3M3", "M1M2W1W2W3J3E1E2E3M3"),
            queue="2", rnd="5/5")
    s = play(s, "jump d5")
    out = GAME.outcome(s)
    assert out.winners == (0, 1) and out.returns(2) == (0.0, 0.0)


def test_eliminated_players_take_no_part_in_the_stalemate_count():
    ranks = "J3J2..J2J3/....../....../....../....../......"
    south = "M1M2M3W1W2W3J1J1E1E2E3M1M2M3W1W2W3E1E2E3"
    s = pos(ranks, "-,a6,f6", spares=(south, "*", "-"), queue="3", first=2, rnd="5/5")
    s = play(s, "jump e6")
    out = GAME.outcome(s)
    assert out.termination == "stalemate" and out.winners == (1,)


def test_random_games_always_end_within_the_round_limit():
    import random

    from cellwars_tui.games.virus_fight.bot import finish_setup

    for seed in range(30):
        rng = random.Random(seed)
        s = finish_setup(GAME, GAME.initial_state(GAME.options_type(players=2 + seed % 3,
                                                                      round_limit=5)), rng)
        steps = 0
        while GAME.to_act(s):
            seat = GAME.to_act(s)[0]
            s, _ = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
            steps += 1
        assert s.round <= 5 and steps <= 5 * 4
