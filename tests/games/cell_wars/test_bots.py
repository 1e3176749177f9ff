"""The bot hooks: candidate moves, position values, playouts, and bots filling every seat."""

import random

import pytest

from cellwars_tui.ai.bots import MCTSBot, RandomBot
from cellwars_tui.core import CHANCE
from cellwars_tui.games.cell_wars import bot as BOT
from cellwars_tui.games.cell_wars.rules import GAME, CellWarsOptions

from .helpers import PLACED, B, Ca, Ia, R, T, act, give, panel, put, standard, tiles, turn


def play(players, bots, seed, states=None):
    """A whole game, ``bots[seat]`` choosing from the seat's view; returns the final state."""
    rng = random.Random(seed)
    s = GAME.initial_state(CellWarsOptions(layout=PLACED, players=players))
    while GAME.to_act(s):
        seat = GAME.to_act(s)[0]
        if seat == CHANCE:
            a = GAME.sample_chance(s, rng)
        else:
            a = bots[seat].choose(GAME, GAME.view(s, seat), seat, rng, 60.0)
            if states is not None:
                states.append((s, seat))
        s, _ = GAME.apply(s, seat, a)
    return s


@pytest.mark.parametrize("players", range(2, 7))
def test_bot_actions_are_a_few_legal_moves_never_none(players):
    states = []
    play(players, [RandomBot()] * players, players, states)
    for s, seat in states[::3]:
        picks = GAME.bot_actions(GAME.view(s, seat), seat)
        legal = GAME.legal_actions(s, seat)
        assert picks and all(a in legal for a in picks)
        assert len(picks) <= 5


def test_heuristic_gives_the_camps_opposite_values_within_minus_one_and_one():
    s = tiles(standard(players=4), cancer=["A1", "A2", "A3", "A4", "A5", "B1", "B2"])
    values = GAME.heuristic(s)
    assert len(values) == 4 and all(-1 <= v <= 1 for v in values)
    # players 1 and 4 lead immune panels, 2 and 3 cancer ones
    assert values[0] == values[3] == -values[1] == -values[2] and values[1] > 0


def test_heuristic_prefers_the_cancer_camp_as_its_tissue_grows():
    s = standard()
    grown = tiles(s, cancer=["A1", "A2", "A3", "A4", "A5"])
    assert GAME.heuristic(grown)[1] > GAME.heuristic(s)[1]


def test_playout_hook_gives_a_value_per_seat():
    values = GAME.random_playout(standard(players=3), random.Random(1), 400)
    assert len(values) == 3 and all(-1 <= v <= 1 for v in values)


def test_a_playout_ends_with_the_individual_round_it_starts_in():
    s = turn(put(standard(), Ia="E5", Ca="A1"), Ia)
    end = BOT._play_turn(GAME, s, (s.round, s.panel), random.Random(1), 400)
    assert (end.round, end.panel) == (s.round, Ca)


@pytest.mark.parametrize(("mover", "ends_before"), [("Ca", "Ig"), ("Cb", "Ig"), ("Cg", "Ca")])
def test_a_cancer_cells_playout_goes_on_until_the_next_immune_cell_has_answered(mover,
                                                                               ends_before):
    """A cancer cell's move is judged after the next immune panel's round (Ca: Cb and Ib play
    too; Cb: Ib; Cg: the next round's Ia), so the search sees the hunt its move invites."""
    p = R.C.PANEL_NAMES.index(mover)
    s = turn(put(standard(), Ia="E5", Ca="A1", Cb="A2", Cg="A3"), p)
    end = BOT._play_turn(GAME, s, (s.round, s.panel), random.Random(1), 400)
    assert end.panel == R.C.PANEL_NAMES.index(ends_before)
    assert end.round == s.round + (mover == "Cg")


def test_a_playout_averages_the_six_faces_of_its_first_die():
    """An attack roll is the last chance of the attacker's round: whatever the playout's random
    numbers, its value is the mean of the six outcomes."""
    s = act(turn(put(standard(), Ia="E5", Ca="E5"), Ia), "roll", "die 4", "end", "attack Ca")
    assert s.chance == R.C_ATTACK
    faces = [GAME.heuristic(BOT._play_turn(GAME, act(s, f"die {f}"), (s.round, s.panel),
                                            random.Random(0), 400)) for f in range(1, 7)]
    mean = sum(v[0] for v in faces) / 6
    for seed in range(3):
        assert GAME.random_playout(s, random.Random(seed), 400)[0] == pytest.approx(mean)


def test_the_learned_value_rewards_each_camp_for_what_wins_it():
    from cellwars_tui.games.cell_wars.value import NAMES, features, value

    s = standard()
    assert len(features(s)) == len(NAMES) and -1 <= value(s) <= 1
    grown = tiles(s, cancer=["A1", "A2", "A3", "A4", "A5"])
    assert value(grown) > value(s)  # more cancer tissue
    assert value(put(s, Ca="dead")) < value(s)  # a cancer cell fewer
    assert value(panel(s, Ca, biomass=1)) < value(s)  # a weaker cancer cell
    assert value(put(s, Ia="dead")) > value(s)  # an immune cell fewer
    armed = panel(s, Ia, active=((R._card_id("excalibur"), 0),))
    assert value(armed) < value(s)  # a sharper immune cell


def test_bot_purifies_the_cancer_tile_under_an_immune_cell_with_no_cancer_cell_near():
    s = tiles(turn(put(standard(), Ia="A2", Ca="I1", Cb="I2", Cg="I3"), Ia), cancer=["A2"])
    assert BOT.bot_actions(GAME, s, 0) == [R.Purify()]


def test_bot_hunts_a_cancer_cell_within_reach_rather_than_purify():
    s = tiles(turn(put(standard(), Ia="E5", Ca="E6"), Ia), cancer=["E5"])
    assert BOT.bot_actions(GAME, s, 0)[0] == R.Roll()
    s = act(s, "roll", "die 1")
    assert BOT.bot_actions(GAME, s, 0)[0] == R.Step(B.direction_between(T["E5"], T["E6"]))


def _tumour_of(size, s):
    """``s`` with cancer tissue on E5 and on the first normal tiles after it, ``size`` in all."""
    s = tiles(s, cancer=["E5"])
    spare = [B.NAMES[t] for t in range(61) if s.tiles[t] == R.NORMAL_T]
    return tiles(s, cancer=spare[: size - sum(1 for t in s.tiles if t)])


def test_search_may_purify_instead_of_hunting_once_the_tumour_is_one_tile_from_winning():
    s = turn(put(standard(), Ia="E5", Ca="E6"), Ia)
    last_stand = BOT.bot_actions(GAME, _tumour_of(21, s), 0)  # 21 tiles: 22 would win
    assert last_stand[0] == R.Roll() and R.Purify() in last_stand  # the policy still hunts
    assert R.Purify() not in BOT.bot_actions(GAME, _tumour_of(20, s), 0)


def test_search_may_weigh_running_from_an_immune_cell_within_two_tiles():
    s = put(standard(), Ca="E5", Ia="E4", Ib="A2", Ig="A3")
    near = act(turn(s, Ca), "roll", "die 1")
    options = BOT.bot_actions(GAME, near, 1)
    flight = options[-1]
    assert options.index(flight) > 0  # the policy's pick stays the step towards normal tissue
    assert BOT._threat(near, Ca, B.NEIGHBOUR[T["E5"]][flight.dir]) == 2  # E4's cell two away
    far = act(turn(put(s, Ia="A1"), Ca), "roll", "die 1")
    assert BOT._flight(far, GAME.legal_actions(far, 1)) is None


def test_bot_rolls_and_stays_to_attack_a_cancer_cell_on_its_tile():
    s = act(turn(put(standard(), Ia="E5", Ca="E5"), Ia), "roll", "die 4")
    assert BOT.bot_actions(GAME, s, 0) == [R.End()]
    assert BOT.bot_actions(GAME, act(s, "end"), 0) == [R.Attack(Ca)]


def test_bot_degrades_the_normal_tile_under_a_cancer_cell():
    s = turn(put(standard(), Ca="E5"), Ca)
    assert BOT.bot_actions(GAME, s, 1) == [R.Degrade()]


def test_bot_steps_towards_the_nearest_target():
    s = act(turn(put(standard(), Ia="E1"), Ia), "roll", "die 1")
    step, *others = BOT.bot_actions(GAME, s, 0)  # the best first; others nearly as good for the search
    assert len(others) <= 2
    here = s.panels[Ia].tile
    cancer = [t for t in range(61) if s.tiles[t] == R.CANCER_T]
    assert min(R.B.DIST[R.B.NEIGHBOUR[here][step.dir]][t] for t in cancer) < \
        min(R.B.DIST[here][t] for t in cancer)


def test_bot_never_pays_for_a_card_down_to_a_fragile_biomass():
    s = panel(turn(standard(), Ca, R.DRAW), Ca, biomass=4)
    assert R.Charge() not in BOT.bot_actions(GAME, s, 1)
    assert R.Mutate() in BOT.bot_actions(GAME, s, 1)


@pytest.mark.parametrize("players", range(2, 7))
def test_search_bot_fills_every_seat_to_the_end(players):
    s = play(players, [MCTSBot(max_playouts=2)] * players, 7)
    assert GAME.outcome(s) is not None


@pytest.mark.parametrize("camp", [R.IMMUNE, R.CANCER])
def test_search_bot_beats_the_random_bot_in_either_camp(camp):
    wins = 0
    for seed in range(3):
        bots = [MCTSBot(max_playouts=6) if R.seat_camp(2, seat) == camp else RandomBot()
                for seat in range(2)]
        wins += play(2, bots, 100 + seed).winner == camp
    assert wins >= 2


def test_bot_plays_vegf_to_escape_an_immune_cell_next_to_a_cancer_cell():
    s = put(standard(), Ca="A4", Ia="A5", Ib="A3", Ig="B2")
    s = give(turn(s, Ca, R.CARDS_STEP), Ca, "vegf")
    assert BOT.bot_actions(GAME, s, 1)[0] == R.Play("vegf", tile=T["C6"])  # carried to G2 next round


def test_bot_starts_solidifying_a_safe_cancer_tile_when_the_camp_has_none():
    s = turn(put(standard(), Ia="A1", Ib="A2", Ig="A3"), Ca)
    assert BOT.bot_actions(GAME, s, 1)[0] == R.Solidify()


def test_bot_builds_a_wall_in_front_of_an_immune_cell_coming_for_it():
    s = panel(turn(put(standard(), Ia="G2"), Ca), Ca, walls=1)
    assert isinstance(BOT.bot_actions(GAME, s, 1)[0], R.Build)
