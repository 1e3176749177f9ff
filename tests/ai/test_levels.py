"""Bot levels (ai/levels.py): the names, the words for them, and that every level of every game
plays legal moves to the end. No strength here: the ladder is measured by ``cellwars balance GAME
--ladder`` and printed on the rules pages (tests never depend on the machine's speed)."""

from __future__ import annotations

import random

import msgspec
import pytest

from cellwars_tui.ai import levels as L
from cellwars_tui.ai.bots import MCTSBot, RandomBot
from cellwars_tui.core import CHANCE, BotLevel, Match, Seat
from cellwars_tui.core.errors import CellwarsError
from cellwars_tui.core.registry import all_games, get_game
from cellwars_tui.record.format import load_match, save_match
from cellwars_tui.table.local import LocalTable

TURN_BASED = [g.id for g in all_games() if g.max_players > 1 and not g.real_time]


def test_four_levels_weakest_first_and_normal_by_default():
    assert L.LEVEL_NAMES == ("random", "easy", "normal", "hard")
    assert L.DEFAULT_LEVEL == "normal"
    budgets = [L.LEVELS[n].playouts for n in ("easy", "normal", "hard")]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3
    assert L.LEVELS["random"].noise == 1.0 and L.LEVELS["hard"].noise == 0.0


def test_words_for_a_new_seat_and_seats_recorded_before_levels():
    assert [L.level_name(w) for w in ("easy", " Hard ", "bot", "MCTS", "random")] == \
        ["easy", "hard", "normal", "hard", "random"]
    with pytest.raises(L.UnknownLevel) as err:
        L.level_name("expert")
    assert str(err.value) == "unknown bot level 'expert' (levels: random, easy, normal, hard)"
    assert isinstance(err.value, CellwarsError)
    # a seat written before levels keeps the search it was played with
    assert L.seat_bot(Seat(name="B", kind="bot", bot="mcts")) == "mcts"
    assert L.seat_bot(Seat(name="B", kind="bot")) == "mcts"
    assert L.seat_level(Seat(name="B", kind="bot", bot="mcts")) == "normal"
    with pytest.raises(L.UnknownLevel, match="B: unknown bot level 'expert'"):
        L.seat_bot(Seat(name="B", kind="bot", bot="expert"))
    with pytest.raises(L.UnknownLevel):
        L.seat_bot(Seat(name="B", kind="bot", bot="bot"))  # a word for new seats, never recorded


def test_make_bot_gives_each_level_its_bot():
    assert type(L.make_bot("random")) is RandomBot
    assert {L.make_bot(n).id for n in ("easy", "normal", "hard")} == {"easy", "normal", "hard"}
    legacy = L.make_bot("mcts")  # the timed search of old records
    assert isinstance(legacy, MCTSBot) and legacy.max_playouts is None
    with pytest.raises(L.UnknownLevel):
        L.make_bot("expert")


def test_a_game_declares_its_own_numbers_for_a_level():
    infection = get_game("infection")
    assert L.level_for(infection, "easy") == BotLevel(name="easy")  # a pace, not a search
    assert L.level_for(infection, "random") == L.LEVELS["random"]
    for game in all_games():
        for tuned in game.meta.bot_levels:
            assert tuned.name in L.LEVELS, (game.id, tuned.name)
            assert tuned.playouts >= 0 and 0.0 <= tuned.noise <= 1.0


def _positions(game, seed: int, count: int):
    """``count`` positions of a random game (a seat to act in each), spread along it."""
    rng = random.Random(seed)
    state = game.initial_state(game.options_from_dict({}))
    seen = []
    for _ in range(5000):
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        if seat == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            seen.append((state, seat))
            action = rng.choice(list(game.legal_actions(state, seat)))
        state, _ = game.apply(state, seat, action)
    step = max(1, len(seen) // count)
    return seen[::step][:count]


@pytest.mark.parametrize("game_id", TURN_BASED)
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_each_level_chooses_legal_actions_seeing_only_its_view(game_id, level):
    game = get_game(game_id)
    bot = L.make_bot(level)
    for i, (state, seat) in enumerate(_positions(game, 3, 3)):
        action = bot.choose(game, game.view(state, seat), seat, random.Random(i), 60.0)
        assert game.is_legal(state, seat, action), (game_id, level, action)


def _play_to_the_end(game, bots: dict[int, str], seed: int):
    from cellwars_tui.bench.balance import play_game

    return play_game(game.id, {}, [bots[q] for q in sorted(bots)], 0, seed)


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_easy_and_random_play_legal_moves_to_the_end(game_id):
    game = get_game(game_id)
    result = _play_to_the_end(game, {0: "easy", 1: "random"}, 5)  # (play_game applies with checks)
    assert "safety stop" not in result.termination


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_normal_and_hard_play_to_the_end_on_a_small_budget(game_id, monkeypatch):
    """The whole game through the same code as the real levels, on a budget a test can afford."""
    game = get_game(game_id)
    for name in ("normal", "hard"):
        monkeypatch.setitem(L.LEVELS, name, msgspec.structs.replace(L.LEVELS[name], playouts=2))
    monkeypatch.setattr(type(game), "meta", msgspec.structs.replace(game.meta, bot_levels=()))
    result = _play_to_the_end(game, {0: "hard", 1: "normal"}, 6)
    assert "safety stop" not in result.termination


def test_infection_levels_are_the_teammate_at_a_pace():
    game = get_game("infection")
    opts = game.options_type(players=2)
    assert opts.paces == ""  # each bot's level sets its pace
    waits = {level: sum(game.bot_wait(opts, 1, random.Random(k), level) for k in range(50))
             for level in ("easy", "normal", "hard")}
    assert waits["easy"] > waits["normal"] > waits["hard"]
    state = game.initial_state(opts)
    rng = random.Random(1)
    while game.to_act(state) == (CHANCE,):
        state, _ = game.apply(state, CHANCE, game.sample_chance(state, rng))
    for level in L.LEVEL_NAMES:
        action = L.make_bot(level).choose(game, game.view(state, 0), 0, random.Random(2), 0.02)
        assert game.is_legal(state, 0, action)


def test_a_record_naming_an_unknown_level_is_refused_in_one_line(tmp_path):
    game = get_game("virus-fight")
    seats = [Seat(name="Ann"), Seat(name="Blue", kind="bot", bot="expert")]
    match = Match(game, game.options_from_dict({}), seats, 4)
    path = tmp_path / "odd.cellwars.json"
    save_match(match, path)
    loaded = load_match(path)  # it reads (and replays), but nobody can play it on
    with pytest.raises(CellwarsError) as err:
        LocalTable(loaded, autosave=False)
    assert str(err.value) == "Blue: unknown bot level 'expert' (levels: random, easy, normal, hard)"
    LocalTable(loaded, read_only=True, autosave=False)  # a replay needs no bot


def test_a_record_from_before_levels_resumes_with_its_timed_search(tmp_path):
    game = get_game("virus-fight")
    seats = [Seat(name="Ann"), Seat(name="Blue", kind="bot", bot="mcts", think=0.05)]
    match = Match(game, game.options_from_dict({}), seats, 4)
    path = tmp_path / "old.cellwars.json"
    save_match(match, path)
    table = LocalTable(load_match(path), autosave=False)
    bot = table.threads.bot(1, table.seats[1])  # (the bot its thread thinker makes)
    assert isinstance(bot, MCTSBot) and bot.max_playouts is None  # thinks its 0.05 s, as before
    assert table.seat_kind(1) == "search bot 0.05s"
    new = LocalTable(Match(game, game.options_from_dict({}),
                           [Seat(name="Ann"), Seat(name="Blue", kind="bot", bot="easy")], 4),
                     autosave=False)
    assert new.threads.bot(1, new.seats[1]).id == "easy" and new.seat_kind(1) == "easy bot"


def test_a_levels_random_move_never_loses_at_once_when_another_move_does_not():
    """The position at the end of Virus Fight's lesson: Blue (the easy bot) may move its own
    program out and lose on the spot. A level's random share (easy: one move in four) skips
    such a move while another exists; the random level still plays any legal move."""
    from cellwars_tui.learn.lesson import load_lesson
    from cellwars_tui.learn.run import play_through

    game = get_game("virus-fight")
    match = play_through(game, load_lesson(game))
    state = match.state
    (seat,) = game.to_act(state)
    actions = list(game.legal_actions(state, seat))
    losing = [a for a in actions if L.loses_at_once(game, state, seat, a)]
    assert losing and len(losing) < len(actions)  # the trap is there, and a way round it
    view = game.view(state, seat)
    picked = {L.random_move(game, view, seat, random.Random(i)) for i in range(200)}
    assert not picked & set(losing)
    assert set(losing) & {RandomBot().choose(game, view, seat, random.Random(i), 1.0)
                          for i in range(400)}


def test_a_levels_random_move_is_legal_and_falls_back_when_every_move_loses(monkeypatch):
    game = get_game("virus-fight")
    state = game.initial_state(game.options_from_dict({}))
    rng = random.Random(3)
    for _ in range(300):  # a whole game: each random move is one of the legal actions
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0]
        if seat == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = L.random_move(game, game.view(state, seat), seat, rng)
            assert action in game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, action)
    monkeypatch.setattr(L, "loses_at_once", lambda *args: True)  # every move loses: play one
    state = game.initial_state(game.options_from_dict({}))
    seat = game.to_act(state)[0]
    assert L.random_move(game, state, seat, rng) in game.legal_actions(state, seat)


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_every_game_s_levels_rise_by_budget(game_id):
    """random < easy < normal < hard as each game plays them (its own numbers or the defaults)."""
    game = get_game(game_id)
    levels = [L.level_for(game, name) for name in L.LEVEL_NAMES]
    assert levels[0] == L.LEVELS["random"]
    budgets = [lv.playouts for lv in levels[1:]]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3, (game_id, budgets)
    noise = [lv.noise for lv in levels]
    assert noise == sorted(noise, reverse=True) and noise[-1] == 0.0, (game_id, noise)


# Measured on this table (issue 20): a hard move (400 playouts) takes about 0.3 s of CPU in Cell
# Wars (2 and 4 players) and in Cellulis Bellum. Cellulis Bellum plays the default numbers; Cell
# Wars plays its own normal (fewer playouts and a few random moves: at 64 playouts hard did not beat
# it). Their ladders are on their rules pages.
OWN_SEARCH = ["cell-wars", "cellulis-bellum"]
OWN_NUMBERS = {
    "cell-wars": {"easy": BotLevel(name="easy", playouts=0, noise=0.4),
                  "normal": BotLevel(name="normal", playouts=16, noise=0.2),
                  "hard": BotLevel(name="hard", playouts=400)},
    "cellulis-bellum": {},
}


@pytest.mark.parametrize("game_id", OWN_SEARCH)
def test_each_game_plays_the_levels_its_rules_page_measured(game_id):
    """The numbers the ladder on the rules page was measured with (a change re-measures it)."""
    game = get_game(game_id)
    assert {n: L.level_for(game, n) for n in L.LEVEL_NAMES} == {**L.LEVELS, **OWN_NUMBERS[game_id]}


LADDER_PAGES = ["virus-fight", "cellulis-bellum", "cell-wars"]


@pytest.mark.parametrize("game_id", LADDER_PAGES)
def test_the_rules_page_s_ladder_names_the_levels_the_game_plays(game_id):
    """Each row of the page's "Bot levels" table names the stronger level with the numbers it
    plays (``level_words``, what ``cellwars balance --ladder`` prints): a page never shows a
    ladder of other levels."""
    from cellwars_tui.ai.levels import level_words
    from cellwars_tui.ui.dialogs import rules_path

    game = get_game(game_id)
    text = rules_path(game).read_text(encoding="utf-8")
    section = text.split("## Bot levels", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:3] for line in section.splitlines()
            if line.startswith("| ") and not line.startswith("| stronger")]
    assert [(strong.strip(), weak.strip()) for strong, weak in rows] == [
        (level_words(game, strong), weak)
        for weak, strong in zip(L.LEVEL_NAMES, L.LEVEL_NAMES[1:])]


@pytest.mark.parametrize("game_id", OWN_SEARCH)
def test_a_level_plays_the_game_s_own_search_at_its_budget(game_id, monkeypatch):
    """A level without random moves is the game's search bot (its move list, its playout and
    position value: the bench's ``search`` level) at the level's playouts, not a second, generic
    bot."""
    from cellwars_tui.bench.balance import LEVELS as TOOL

    game = get_game(game_id)
    name, level = min(((n, L.level_for(game, n)) for n in ("normal", "hard")
                       if L.level_for(game, n).noise == 0.0), key=lambda nl: nl[1].playouts)
    own = type(game).random_playout
    calls = []

    def counted(self, state, rng, max_steps=400):
        calls.append(1)
        return own(self, state, rng, max_steps)

    monkeypatch.setattr(type(game), "random_playout", counted)
    (state, seat), = [p for p in _positions(game, 4, 12)
                      if len(game.bot_actions(p[0], p[1])) > 1][:1]
    view = game.view(state, seat)
    action = L.make_bot(name).choose(game, view, seat, random.Random(7), 60.0)
    assert len(calls) == level.playouts  # each playout is the game's own
    assert action in game.bot_actions(state, seat)
    search = TOOL["search"].make(level.playouts)
    assert search.choose(game, view, seat, random.Random(7), 60.0) == action
