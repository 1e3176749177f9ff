"""Issue 29 at the Cell Wars table: keys typed under the board never act as moves unseen (a
letter that is no key opens the move list with it typed; space does not act), an attack step that
passes says why, a card's boost shows in the Att column, a dead cell's line says what it means."""

from __future__ import annotations

from cellwars_tui.games.cell_wars import rules as R
from cellwars_tui.games.cell_wars.side_panel import attack_line, dead_words, round_boost, \
    seat_figures
from cellwars_tui.ui.dialogs import MovesPicker

from .helpers import GAME, PLACED, Ca, Ia, act, give, panel, put, standard, turn
from .test_screen_decisions import _text, opened


async def test_typing_a_move_under_the_board_opens_the_move_list_and_places_nothing():
    """Typing "place C4" without m placed a cell: the space acted on the cursor's tile."""
    s = GAME.initial_state(R.CellWarsOptions(layout=PLACED, players=2))
    async with opened(s, human=0, size=(80, 24)) as (pilot, app, screen):
        await pilot.press("space")
        await pilot.pause()
        assert screen.table.step() == 0 and "Enter acts" in _text(screen, "#gs-status")
        await pilot.press("p", "l", "a", "c", "e", "space", "C", "4")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, MovesPicker)
        assert picker.query_one("#moves-filter").value == "place C4"
        assert screen.table.step() == 0  # nothing was placed
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("s", "i", "g", "n", "space", "E", "5", "enter")  # typed, then played
        await pilot.pause()
        assert app.screen is screen and screen.table.state().signs == (R.B.BY_NAME["E5"],)


async def test_the_keys_that_act_still_act_and_a_letter_never_opens_the_list_in_a_replay():
    s = turn(standard(), Ia, step=R.SPECIAL)
    async with opened(s, human=0, size=(80, 24)) as (pilot, app, screen):
        await pilot.press("k")  # a key of the screen: the keys panel, not the move list
        await pilot.pause()
        assert not isinstance(app.screen, MovesPicker) and "type a move" in \
            str(app.screen.query_one("#keys-text").render())
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("0")  # roll to move: a numbered choice of the bar
        await pilot.pause()
        assert screen.table.state().rolled
    screen.read_only = True
    assert not screen._typing(type("K", (), {"character": "p", "key": "p"})())


def test_an_immune_cell_that_rolled_with_nothing_in_range_is_told_no_attack():
    s = turn(standard(), Ia, step=R.SPECIAL)
    events: list = []
    s = act(s, "roll", "die 1", events=events)
    s = act(s, "end", events=events)
    no = [e for e in events if isinstance(e, R.NoAttack)]
    assert no == [R.NoAttack(Ia)]
    assert R.describe(no[0]) == "Immune alpha: no cancer cell in range, no attack"
    assert attack_line(no, s) == "Ia: no cancer cell in range, no attack"
    # a cell that attacked, or chose no attack, or did not roll, is told nothing
    events = []
    act(turn(put(standard(), Ca="C2"), Ia, step=R.ATTACK, rolled=True), "end", events=events)
    assert not any(isinstance(e, R.NoAttack) for e in events)
    events = []
    act(turn(standard(), Ia, step=R.SPECIAL), "end", events=events)
    assert not any(isinstance(e, R.NoAttack) for e in events)


def test_a_boost_for_this_round_shows_in_att_and_rng_and_names_itself():
    s = turn(give(standard(), Ia, "adjuvant", "precise-recognition"), Ia, step=R.CARDS_STEP)
    assert seat_figures(s, Ia, False).split() == ["4/4", "1", "0", "2"] and not round_boost(s, Ia)
    s = act(s, "play adjuvant", "play precise-recognition")
    assert seat_figures(s, Ia, False).split() == ["4/4", "2+", "1+", "0"]
    assert seat_figures(s, Ia, True) == "Bio 4/4 Att 2+ Rng 1+ Cards 0"
    assert round_boost(s, Ia) == "this round: Att +1 Rng +1 rolls of 2-3 hit"
    assert round_boost(s, Ca) == ""


def test_a_dead_cell_says_whether_and_how_it_can_come_back():
    s = put(standard(), Ia="dead", Ca="dead")
    assert dead_words(s, Ia) == "dead for good"
    assert dead_words(s, Ca) == "dead, relapse 1/4" == seat_figures(s, Ca, False)
    assert dead_words(panel(s, Ca, limit=1), Ca) == "dead for good"


async def test_the_status_line_says_why_an_attack_step_passed_in_the_log():
    s = turn(standard(), Ia, step=R.SPECIAL)
    async with opened(s, human=0, size=(80, 24)) as (pilot, app, screen):
        screen.table.submit(0, R.Roll())
        await pilot.pause()
        if screen.table.state().step == R.MOVE:
            await pilot.press("0")  # stop: nothing in range
            await pilot.pause()
        log = _text(screen, "#gs-log")
        assert "no cancer cell in range, no attack" in log.replace("\n    ", " ")
