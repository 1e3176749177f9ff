"""The lesson table: plays the lesson's own steps, refuses any other move kindly without playing
it, forces the lesson's chance outcomes, remembers a finished lesson, and then goes on as a
normal game (saved, undoable back to the lesson's end, the bot playing the other seat)."""

from __future__ import annotations

import pytest

from cellwars_tui.core import get_game
from cellwars_tui.learn import finished_lessons, load_lesson, mark_finished
from cellwars_tui.learn.lesson import CHANCE_STEP, DO, READ
from cellwars_tui.learn.table import LessonTable, NotTheLesson
from cellwars_tui.locations import settings_file
from cellwars_tui.settings import load_settings


def vf_table(**kw) -> LessonTable:
    game = get_game("virus-fight")
    return LessonTable(game, load_lesson(game), **kw)


def play_lesson(table: LessonTable) -> None:
    """Follow the lesson to its end, as the player would (Enter, or the expected move)."""
    while table.active:
        step = table.run.step
        if step.kind == READ:
            assert table.reading and table.go_on()
        else:
            assert step.kind == DO, step
            table.submit(table.lesson.you, step.action)


def test_a_read_step_waits_for_enter_and_refuses_moves_kindly():
    table = vf_table()
    assert table.active and table.reading
    assert table.panel().reading and table.panel().number == 1
    changes = []
    table.subscribe(lambda: changes.append(1))
    before = table.step()
    with pytest.raises(NotTheLesson, match="read the lesson first"):
        table.submit(0, table.legal(0)[0])
    assert table.step() == before and changes  # nothing played; the panel was told
    assert "read the lesson first" in table.panel().feedback
    assert table.go_on()
    # Blue's scripted program was played at once; now the player's first step
    assert table.run.step.kind == DO and table.run.step.notation == "add W2"
    assert table.step() == before + 6 and table.panel().told == ("Blue writes its program in secret.",)
    assert not table.go_on()  # nothing to read: Enter does nothing


def test_a_legal_move_that_is_not_the_lessons_is_explained_and_not_played():
    game = get_game("virus-fight")
    table = vf_table()
    table.go_on()
    before = table.step()
    wrong = game.action_from_str("add E2")
    with pytest.raises(NotTheLesson) as info:
        table.submit(0, wrong)
    assert str(info.value) == ("add E2 is legal, but not the lesson's move: this lesson's program "
                               "is W2 M3 J1 E1, in that order.")
    assert table.step() == before
    table.submit(0, game.action_from_str("add W2"))
    assert table.step() == before + 1 and table.panel().feedback == ""
    assert table.run.step.notation == "add M3"


def test_an_illegal_move_gives_the_rules_reason():
    game = get_game("virus-fight")
    table = vf_table()
    table.go_on()
    with pytest.raises(NotTheLesson, match="Not allowed by the rules: place a1 is not legal"):
        table.submit(0, game.action_from_str("place a1"))


def test_the_lesson_finishes_is_remembered_then_a_normal_game_goes_on():
    table = vf_table()
    assert not table.autosave_enabled and table.bot_to_move() is None
    assert "virus-fight" not in finished_lessons()
    play_lesson(table)
    assert not table.active and table.run.finished
    assert "virus-fight" in finished_lessons()
    assert load_settings()["lessons-finished"] == ["virus-fight"]
    assert table.panel().done and "normal game" in table.panel().text
    assert table.autosave_enabled and table.match.path is not None  # saved from here on
    assert table.bot_to_move() == 1  # the easy bot plays Blue now
    assert table.seats[1].is_bot and table.seat_kind(1) == "easy bot"
    assert not table.can_undo()  # not back into the lesson
    table.submit(1, table.bot_step(1))
    if table.match.is_over():  # the easy bot's random share may throw its program out at once
        return
    assert table.humans_to_act() == (0,)
    table.submit(0, table.legal(0)[0])
    assert table.can_undo()
    table.undo()
    assert not table.can_undo()


def test_nothing_is_taken_back_during_the_lesson():
    table = vf_table()
    table.go_on()
    table.submit(0, table.run.step.action)
    assert not table.can_undo() and not table.undo()


def test_progress_is_kept_in_the_settings_atomically_beside_other_settings(tmp_path):
    settings_file().write_text('{"theme": "cellwars-light"}', encoding="utf-8")
    assert mark_finished("infection") is None
    assert mark_finished("infection") is None  # (twice: written once)
    assert mark_finished("cell-management") is None
    assert load_settings() == {"theme": "cellwars-light",
                               "lessons-finished": ["cell-management", "infection"]}
    assert finished_lessons() == {"cell-management", "infection"}
    settings_file().write_text('{"lessons-finished": "all"}', encoding="utf-8")
    assert finished_lessons() == frozenset()  # a hand-edited value: nothing finished
    settings_file().write_text("not json", encoding="utf-8")
    assert finished_lessons() == frozenset()
    assert not list(settings_file().parent.glob("*.tmp*"))


def test_a_remembering_failure_is_a_line_not_a_crash():
    table = vf_table(remember=lambda game_id: "could not save settings: disk full")
    play_lesson(table)
    assert table.progress_problem == "could not save settings: disk full"
    assert table.panel().done and table.panel().feedback == table.progress_problem


def test_chance_steps_are_forced_through_the_normal_chance_actions():
    """A lesson with a tied first-player draw: the lesson's chance step decides it, and the
    record holds it as an ordinary chance step."""
    from tests.learn.test_lessons import VF, vf_lesson

    game = get_game("virus-fight")
    text = VF.replace('bot = "add M1"', 'bot = "add M2"') + (
        '[[step]]\ndo = "mark 1"\ntext = "m"\n[[step]]\ndo = "ready"\ntext = "r"\n'
        '[[step]]\nchance = "first 2"\n[[step]]\ntext = "Blue goes first"\n')
    lesson = vf_lesson(text)
    assert any(s.kind == CHANCE_STEP for s in lesson.steps)
    table = LessonTable(game, lesson, remember=lambda g: None)
    play_lesson(table)
    last = table.match.steps[-1]
    assert last.seat == -1 and game.action_to_str(last.action) == "first 2"


def test_auto_steps_are_played_for_the_player_and_told():
    from tests.learn.test_lessons import VF, vf_lesson

    game = get_game("virus-fight")
    text = VF + ('[[step]]\nauto = "mark 1"\ntext = "The lesson puts your marker on M2."\n'
                 '[[step]]\ndo = "ready"\ntext = "Ready: y."\n')
    lesson = vf_lesson(text)
    assert [s.kind for s in lesson.steps][-2:] == ["auto", "do"] and lesson.steps[-2].seat == 0
    table = LessonTable(game, lesson, remember=lambda g: None)
    table.go_on()
    table.submit(0, game.action_from_str("add M2"))
    assert table.run.step.notation == "ready"
    assert table.match.steps[-1].seat == 0 and game.action_to_str(table.match.steps[-1].action) \
        == "mark 1"
    assert table.panel().told == ("The lesson puts your marker on M2.",)


def test_a_move_not_the_lessons_is_named_as_the_player_sees_it():
    """Cell Management's notation names a cell by its species ("start 4"); key 1 chose the
    cell in ring position 1, so the lesson says "cell 1 (species 4)", as the ship shows it."""
    from cellwars_tui.games.cell_management import rules as CR

    game = get_game("cell-management")
    table = LessonTable(game, load_lesson(game))
    while table.run.step.kind == READ:
        table.go_on()
    s = table.state()
    step = table.run.step
    assert step.kind == DO and isinstance(step.action, CR.Start)
    first = CR.Start(s.cells[0])
    assert first != step.action
    with pytest.raises(NotTheLesson) as refused:
        table.submit(table.lesson.you, first)
    assert str(refused.value).startswith(
        f"starting at cell 1 (species {CR.SYMBOLS[s.cells[0]]}) is legal, but not the lesson's")
    assert game.action_words(s, first) != game.action_to_str(first)
    vf = get_game("virus-fight")  # a game without its own words: the notation
    state = vf.initial_state(vf.options_from_dict({}))
    action = vf.legal_actions(state, 0)[0]
    assert vf.action_words(state, action) == vf.action_to_str(action)
