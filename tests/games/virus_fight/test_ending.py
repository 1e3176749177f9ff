"""The end: last program running, the round limit and stalemate scoring."""

from __future__ import annotations

from cellwars_tui.games.virus_fight.rules import (GAME, OVER, Agree, Decline, GameOver, Offer,
                                                  StalemateDeclined, action_turn)

from .helpers import play, pos



def test_the_game_ends_in_stalemate_after_the_round_limit():
    s = pos("...J1J2/...../...../...../J1J2...", "a1,e5", queue="2", rnd="5/5")
    s = play(s, "jump d5")
    assert s.phase == OVER
    assert GAME.outcome(s).termination == "stalemate at the round limit: most spares"


def test_stalemate_is_won_by_more_spare_instructions():
    s = pos("...J1J2/...../...../...../J1J2...", "a1,e5", spares=("M1M2", "*"), queue="2",
            rnd="5/5")
    s = play(s, "jump d5")
    out = GAME.outcome(s)
    assert out.winners == (1,) and out.scores[1] > out.scores[0]
    assert out.text(["Ann", "Bob"]).startswith("Bob wins (stalemate at the round limit: most "
                                               "spares)")


def test_stalemate_with_equal_spares_is_won_by_the_higher_pip_total():
    ranks = "...J1J2/...../...../...../J1J2..."
    s = pos(ranks, "a1,e5", spares=("M1M1M2W1W2W3J3E1E2E3", "M2M3M3W1W2W3J3E1E2E3"),
            queue="2", rnd="5/5")
    assert len(s.spares[0]) == len(s.spares[1])
    s = play(s, "jump d5")
    assert GAME.outcome(s).winners == (1,)  # 23 pips beat 19
    assert GAME.outcome(s).termination.endswith(": most spares, then pips")


def test_stalemate_with_equal_spares_and_pips_is_shared():
    ranks = "...J1J2/...../...../...../J1J2..."
    s = pos(ranks, "a1,e5", spares=("M1M2W1W2W3J3E1E2E3M3", "M1M2W1W2W3J3E1E2E3M3"),
            queue="2", rnd="5/5")
    s = play(s, "jump d5")
    out = GAME.outcome(s)
    assert out.winners == (0, 1) and out.returns(2) == (0.0, 0.0)
    assert out.termination.endswith(": equal spares and pips")


def test_eliminated_players_take_no_part_in_the_stalemate_count():
    ranks = "J3J2..J2J3/....../....../....../....../......"
    south = "M1M2M3W1W2W3J1J1E1E2E3M1M2M3W1W2W3E1E2E3"
    s = pos(ranks, "-,a6,f6", spares=(south, "*", "-"), queue="3", first=2, rnd="5/5")
    s = play(s, "jump e6")
    out = GAME.outcome(s)
    assert out.termination == ("stalemate at the round limit: most spares among the players "
                               "still running")
    assert out.winners == (1,)


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
            a = rng.choice(GAME.legal_actions(s, seat))
            steps += action_turn(s, a) is not None  # offers and answers are not turns
            s, _ = GAME.apply(s, seat, a)
        assert s.round <= 5 and steps <= 5 * 4


RANKS = "...J1J2/...../...../...../J1J2..."


def test_a_stalemate_offer_agreed_by_the_other_player_ends_the_game():
    s = pos(RANKS, "a1,e5", spares=("M1M2", "*"), queue="12", rnd="3/50")
    assert Offer() in GAME.legal_actions(s, 0)
    s, events = GAME.apply(s, 0, Offer())
    assert GAME.to_act(s) == (1,) and GAME.legal_actions(s, 1) == [Agree(), Decline()]
    assert GAME.legal_actions(s, 0) == [] and not GAME.is_legal(s, 0, GAME.action_from_str(
        "jump b1"))
    s, events = GAME.apply(s, 1, Agree())
    out = GAME.outcome(s)
    assert s.phase == OVER and out.termination == "agreed stalemate: most spares"
    assert out.winners == (1,)  # more spares
    assert isinstance(events[-1], GameOver)


def test_a_declined_offer_leaves_the_turn_to_play_and_no_second_offer():
    s = pos(RANKS, "a1,e5", queue="12", rnd="3/50")
    s, _ = GAME.apply(s, 0, Offer())
    s, events = GAME.apply(s, 1, Decline())
    assert isinstance(events[0], StalemateDeclined) and events[0].offer == 0
    assert GAME.to_act(s) == (0,) and s.offer == -1 and s.declined
    assert Offer() not in GAME.legal_actions(s, 0)
    s = play(s, "jump b1")
    assert not s.declined and Offer() in GAME.legal_actions(s, 1)


def test_with_three_players_every_other_running_player_must_agree():
    ranks = "J3E1..M2J2/....../....../....../....../J1M1...."
    s = pos(ranks, "a1,a6,f6", queue="123", rnd="2/50")
    s, _ = GAME.apply(s, 0, Offer())
    assert GAME.to_act(s) == (1, 2)
    s, _ = GAME.apply(s, 2, Agree())
    assert GAME.to_act(s) == (1,) and s.phase != OVER
    s, _ = GAME.apply(s, 1, Decline())
    assert s.phase != OVER and GAME.to_act(s) == (0,)


def test_bots_never_offer_but_may_answer():
    s = pos(RANKS, "a1,e5", queue="12", rnd="3/50")
    assert Offer() not in GAME.bot_actions(s, 0)
    s, _ = GAME.apply(s, 0, Offer())
    assert GAME.bot_actions(s, 1) == [Agree(), Decline()]
    assert len(GAME.random_playout(s, __import__("random").Random(1))) == 2


def test_after_round_50_bots_agree_to_any_stalemate_offer():
    ranks = "J3E1..M2J2/....../....../....../....../J1M1...."
    s = pos(ranks, "a1,a6,f6", queue="123", rnd="51/150")
    s, _ = GAME.apply(s, 0, Offer())  # South, a person, offers
    assert GAME.bot_actions(s, 1) == [Agree()] and GAME.bot_actions(s, 2) == [Agree()]
    assert Offer() not in GAME.bot_actions(pos(ranks, "a1,a6,f6", queue="123", rnd="51/150"), 0)
    s = pos(ranks, "a1,a6,f6", queue="123", rnd="50/150")
    s, _ = GAME.apply(s, 0, Offer())
    assert GAME.bot_actions(s, 1) == [Agree(), Decline()]  # until then, by their search
