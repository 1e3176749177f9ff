"""Every game's lesson plays through with its expected actions, and a lesson file that does not
fit its game (bad TOML, a bad field, an illegal expected action, an unscripted roll) is a one-line
error naming the file and the step."""

from __future__ import annotations

import pytest

from cellwars_tui.cli import main
from cellwars_tui.core import get_game
from cellwars_tui.core.registry import all_games
from cellwars_tui.learn import LessonError, has_lesson, load_lesson, play_through
from cellwars_tui.learn import lesson as lesson_module
from cellwars_tui.learn import run as run_module
from cellwars_tui.learn.lesson import BOT, DO, READ, parse_lesson

LESSONS = [g.id for g in all_games() if has_lesson(g)]


def test_the_games_have_lessons():
    assert {"virus-fight", "cell-management", "infection", "cell-wars",
            "cellulis-bellum"} <= set(LESSONS)


@pytest.mark.parametrize("game_id", LESSONS)
def test_every_lesson_plays_through_with_its_expected_actions(game_id):
    game = get_game(game_id)
    lesson = load_lesson(game)
    match = play_through(game, lesson)  # raises LessonError at the first step that does not fit
    assert not match.is_over()  # it ends in a game to play on from
    kinds = {s.kind for s in lesson.steps}
    assert {READ, DO} <= kinds
    for step in lesson.steps:
        assert all(note in lesson.notes for note in step.notes)
        if step.kind in (READ, DO):
            assert step.text, step.number
    assert lesson.notes and lesson.end


@pytest.mark.parametrize("game_id", LESSONS)
def test_a_lesson_whose_expected_action_is_illegal_fails(game_id):
    """Change one expected action of the player's into another legal-looking one that the rules
    refuse there (the first do step's action played twice), and the play-through fails."""
    game = get_game(game_id)
    lesson = load_lesson(game)
    steps = list(lesson.steps)
    first = next(i for i, s in enumerate(steps) if s.kind == DO)
    second = next(i for i, s in enumerate(steps) if s.kind == DO and i > first
                  and s.action != steps[first].action
                  and not _also_legal(game, lesson, i, steps[first].action))
    broken = steps[second].__class__(**{**steps[second].__dict__, "action": steps[first].action,
                                        "notation": steps[first].notation})
    steps[second] = broken
    bad = lesson.__class__(**{**lesson.__dict__, "steps": tuple(steps)})
    with pytest.raises(LessonError) as info:
        play_through(game, bad)
    text = str(info.value)
    assert f"step {broken.number}:" in text and "\n" not in text


def _also_legal(game, lesson, index, action) -> bool:
    """Whether ``action`` happens to be legal for the player at step ``index``."""
    cut = lesson.__class__(**{**lesson.__dict__, "steps": lesson.steps[:index]})
    try:
        match = play_through(game, cut)
    except LessonError:
        return True
    return game.is_legal(match.state, lesson.you, action)


VF = """
title = "t"
players = 2
seed = 3
end = "over"
[notes]
MOVE = "moves"
[[step]]
text = "hello"
[[step]]
bot = "add M1"
[[step]]
bot = "mark 1"
[[step]]
bot = "ready"
[[step]]
do = "add M2"
text = "add"
notes = ["MOVE"]
"""


def vf_lesson(text: str = VF):
    return parse_lesson(get_game("virus-fight"), text, "virus-fight lesson (lesson.toml)")


def test_a_small_lesson_is_read_into_steps():
    lesson = vf_lesson()
    assert [s.kind for s in lesson.steps] == [READ, BOT, BOT, BOT, DO]
    assert lesson.steps[1].seat == 1 and lesson.steps[4].seat == 0
    assert lesson.steps[4].notation == "add M2" and lesson.notes == {"MOVE": "moves"}
    play_through(get_game("virus-fight"), lesson)


@pytest.mark.parametrize("text, words", [
    ("title = ", "not valid TOML"),
    (VF + "colour = 'red'\n", "step 5: unknown field 'colour'"),
    (VF.replace("seed = 3", "seed = 3\nflavour = 1"), "unknown field 'flavour'"),
    (VF.replace('do = "add M2"', 'do = "add Q9"'), "step 5: Virus Fight: cannot read"),
    (VF.replace('do = "add M2"', 'do = "place a1"'), "step 5: place a1 is not legal"),
    (VF.replace('bot = "mark 1"', 'bot = "mark 3"'), "step 3: mark 3 is not legal"),
    (VF.replace('text = "add"', ''), "step 5: needs a text"),
    (VF.replace('notes = ["MOVE"]', 'notes = ["WRITE"]'), "step 5: no note 'WRITE'"),
    (VF.replace("players = 2", "players = 7"), "players must be 2 to 4"),
    (VF.replace('do = "add M2"', 'do = "add M2"\nbot = "add M3"'), "step 5: one of do, bot"),
    (VF.replace('bot = "add M1"', 'bot = "add M1"\nseat = 1'), "step 2: a bot plays a seat"),
    (VF.replace('text = "add"', 'text = "add"\nwind = 3'), "real-time game's clock"),
    (VF.replace('[[step]]\ntext = "hello"', '[[step]]\nchance = "first 1"'),
     "step 1: nothing is rolled"),
    ('title = "t"\n', "at least one [[step]]"),
    (VF.replace("seed = 3", "seed = 3\nopponent = 'expert'"), "opponent: unknown bot level 'expert'"),
])
def test_a_damaged_lesson_is_a_one_line_error(text, words):
    with pytest.raises(LessonError) as info:
        play_through(get_game("virus-fight"), vf_lesson(text))
    message = str(info.value)
    assert words in message, message
    assert "\n" not in message
    assert message.startswith("virus-fight lesson (lesson.toml): ")


def test_a_roll_the_lesson_does_not_script_is_an_error():
    """Two programs of the same size, pips and marked pips: the first player is drawn (a chance
    step) and the lesson must say who."""
    text = VF.replace('bot = "add M1"', 'bot = "add M2"').replace(
        'text = "add"', 'text = "add"\n[[step]]\ndo = "mark 1"\ntext = "m"\n'
                        '[[step]]\ndo = "ready"\ntext = "r"')
    with pytest.raises(LessonError, match="step 8: the game rolls, draws or shuffles"):
        play_through(get_game("virus-fight"), vf_lesson(text + '[[step]]\ntext = "who?"\n'))
    # after the lesson's last step a roll is drawn, as in any game
    assert play_through(get_game("virus-fight"), vf_lesson(text)).state.first in (0, 1)
    forced = text + '[[step]]\nchance = "first 2"\n[[step]]\ntext = "Blue goes first"\n'
    match = play_through(get_game("virus-fight"), vf_lesson(forced))
    assert match.state.first == 1


def test_a_lesson_that_ends_the_game_is_refused():
    game = get_game("cell-management")
    text = ('players = 1\n[[step]]\nchance = "setup N3245A-234-4A32N5"\n'
            '[[step]]\ndo = "give-up"\ntext = "Give up."\n')
    with pytest.raises(LessonError, match="the lesson ends the game: it must end in a position"):
        play_through(game, parse_lesson(game, text))


def test_cellwars_learn_an_unknown_game_or_a_damaged_lesson_is_one_line_exit_2(
        capsys, monkeypatch, tmp_path):
    assert main(["learn", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cellwars: unknown game 'nope'") and err.count("\n") == 1
    broken = tmp_path / "lesson.toml"
    broken.write_text(VF.replace('do = "add M2"', 'do = "place a1"'), encoding="utf-8")
    monkeypatch.setattr(lesson_module, "lesson_path", lambda game: broken)
    monkeypatch.setattr(run_module, "_CHECKED", {})
    assert main(["learn", "virus-fight"]) == 2
    err = capsys.readouterr().err
    assert err == ("cellwars: virus-fight lesson (lesson.toml): step 5: place a1 is not legal "
                   "for Red now\n")
    broken.write_bytes(b"\xff\xfe")
    assert main(["learn", "virus-fight"]) == 2
    assert capsys.readouterr().err == "cellwars: virus-fight lesson (lesson.toml): not UTF-8 text\n"


def test_after_a_lesson_the_other_seats_are_easy_bots():
    from cellwars_tui.learn.run import lesson_seats

    game = get_game("virus-fight")
    seats = lesson_seats(game, vf_lesson())
    assert not seats[0].is_bot
    assert all(s.is_bot and s.bot == "easy" for s in seats[1:])


def test_the_virus_fight_lesson_shows_both_programs_when_it_says_they_are_revealed():
    """During the lesson its panel stands where the log would say "Programs revealed": the
    step itself names both programs, as the match has them."""
    from cellwars_tui.games.virus_fight.engine import piece_name
    from cellwars_tui.learn.table import LessonTable

    game = get_game("virus-fight")
    table = LessonTable(game, load_lesson(game))
    while table.run.step.title != "Who goes first":
        step = table.run.step
        if step.kind == READ:
            table.go_on()
        else:
            table.submit(table.lesson.you, step.action)
    text = " ".join(table.run.step.text.split())
    for seat in (0, 1):
        program = " ".join(piece_name(c) for c in table.state().programs[seat])
        assert program in text, (seat, program)


def test_the_cell_wars_lesson_names_the_glyph_and_tile_of_every_special_spot():
    """"Setting up" lists the special spots the lesson placed: each with the glyph the board
    draws for it and its tile, so a newcomer finds them on the board."""
    from cellwars_tui.games.cell_wars import board as B
    from cellwars_tui.games.cell_wars.hex_board import spot_of
    from cellwars_tui.learn.table import LessonTable

    game = get_game("cell-wars")
    table = LessonTable(game, load_lesson(game))
    while table.run.step.title != "Setting up":
        step = table.run.step
        if step.kind == READ:
            table.go_on()
        else:
            table.submit(table.lesson.you, step.action)
    text = " ".join(table.run.step.text.split())
    s = table.state()
    assert len(s.signs) == 8
    for tile in s.signs:
        glyph, _ = spot_of(s, tile)
        name = B.NAMES[tile]
        assert f" {glyph} (" in text and name in text, (glyph, name)
        # the glyph comes before the tile's name
        assert text.index(f" {glyph} (") < text.index(name)
