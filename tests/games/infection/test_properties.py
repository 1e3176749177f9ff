"""Property tests: random play (any seat, any legal action, time-up at random moments) keeps every
invariant; snapshots and notation round-trip; a record replays to the same state; views hide the
order of the decks and nothing else; the chance odds are a distribution that covers every sample."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cellwars_tui.core import CHANCE
from cellwars_tui.games.infection import cards as K
from cellwars_tui.games.infection.bot import choose
from cellwars_tui.games.infection.rules import GAME, TimeUp


def random_game(seed: int, players: int, max_steps: int = 600, bot_share: float = 0.5):
    """(states, steps): random legal play, the pace bot's choice half the time."""
    rng = random.Random(seed)
    s = GAME.initial_state(GAME.options_type(players=players))
    states, steps = [s], []
    for _ in range(max_steps):
        seats = GAME.to_act(s)
        if not seats:
            break
        if seats == (CHANCE,):
            seat, a = CHANCE, GAME.sample_chance(s, rng)
        elif rng.random() < 0.01:
            seat, a = CHANCE, TimeUp(s.round)
        else:
            seat = rng.choice(seats)
            a = (choose(s, seat) if rng.random() < bot_share
                 else rng.choice(GAME.legal_actions(s, seat)))
        s, _ = GAME.apply(s, seat, a)
        states.append(s)
        steps.append((seat, a))
    return states, steps


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([1, 2, 3, 4]))
def test_random_play_keeps_every_invariant(seed, players):
    states, steps = random_game(seed, players)
    for s in states:
        GAME.check_invariants(s)
        assert GAME.decode_state(GAME.encode_state(s)) == s
    for seat, a in steps:
        assert GAME.action_from_str(GAME.action_to_str(a)) == a
        assert GAME.decode_action(GAME.encode_action(a)) == a


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([1, 2, 3, 4]))
def test_a_record_of_the_steps_replays_to_the_same_state(seed, players):
    states, steps = random_game(seed, players, max_steps=300)
    s = GAME.initial_state(GAME.options_type(players=players))
    for seat, a in steps:
        text = GAME.action_to_str(a)
        s, _ = GAME.apply(s, seat, GAME.action_from_str(text))
    assert s == states[-1]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([1, 2, 3, 4]))
def test_views_hide_the_deck_order_and_nothing_else(seed, players):
    states, _ = random_game(seed, players, max_steps=200)
    rng = random.Random(seed)
    for s in states[4::7]:
        v = GAME.view(s, rng.randrange(players))
        assert [len(d) for d in v.decks] == [len(d) for d in s.decks]
        assert all(c == -1 for d in v.decks for c in d)
        assert (v.columns, v.seats, v.round, v.result) == (s.columns, s.seats, s.round, s.result)
        full = GAME.determinize(v, 0, rng)
        GAME.check_invariants(full)
        assert full.columns == s.columns and full.seats == s.seats


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([1, 2, 3, 4]))
def test_chance_odds_are_a_distribution_covering_every_sample(seed, players):
    rng = random.Random(seed)
    states, _ = random_game(seed, players, max_steps=150)
    for s in states:
        if GAME.to_act(s) != (CHANCE,) or s.shuffled < 3:
            continue
        odds = GAME.chance_outcomes(s)
        assert abs(sum(p for _, p in odds) - 1) < 1e-9
        actions = {a for a, _ in odds}
        assert GAME.sample_chance(s, rng) in actions
        assert all(GAME.is_legal(s, CHANCE, a) for a in actions)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([1, 2, 3, 4]))
def test_no_seat_acts_while_a_roll_waits_and_every_listed_action_is_legal(seed, players):
    states, _ = random_game(seed, players, max_steps=200)
    for s in states[::3]:
        seats = GAME.to_act(s)
        if seats == (CHANCE,):
            assert all(GAME.legal_actions(s, i) == [] for i in range(players))
            continue
        for seat in seats:
            for a in GAME.legal_actions(s, seat):
                assert GAME.is_legal(s, seat, a)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([1, 2, 3, 4]))
def test_cards_only_leave_the_virus_into_a_players_hand(seed, players):
    states, _ = random_game(seed, players)
    for before, after in zip(states, states[1:]):
        if before.shuffled < 3:
            continue
        taken = sum(len(p.cards) for p in after.seats) - sum(len(p.cards) for p in before.seats)
        in_virus = (sum(len(c) for c in after.columns) - sum(len(c) for c in before.columns))
        new = sum(len(d) for d in before.decks) - sum(len(d) for d in after.decks)
        assert taken >= 0 and in_virus == new - taken
        assert all(len(p.cards) <= K.N_CARDS for p in after.seats)
