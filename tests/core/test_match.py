"""The match controller: chance resolution, undo/redo, seek, determinism of chance per step."""

from __future__ import annotations

import pytest

from cellwars_tui.core import CHANCE, IllegalAction, Match, Outcome, Seat
from tests.toy_game import TOY, Die, Hold, Roll


def make(seed=7, **kw):
    return Match(TOY, TOY.options_type(players=2), [Seat(name="a"), Seat(name="b")], seed, **kw)


def test_chance_is_resolved_and_recorded():
    m = make()
    assert m.steps[0].seat == CHANCE and isinstance(m.steps[0].action, Die)
    assert m.to_act() in ((0,), (1,))


def test_same_seed_same_rolls_and_undo_never_rerolls():
    a, b = make(), make()
    assert a.steps == b.steps or [s.action for s in a.steps] == [s.action for s in b.steps]
    seat = a.to_act()[0]
    a.play(seat, Roll())
    rolled = [s.action for s in a.steps]
    a.undo()
    a.play(a.to_act()[0], Roll())
    assert [s.action for s in a.steps] == rolled


def test_undo_redo_restore_exact_states():
    m = make()
    states = [m.state]
    for _ in range(6):
        if m.is_over():
            break
        m.play(m.to_act()[0], Hold())
        states.append(m.state)
    while m.undo():
        pass
    assert m.state == m.states[m.cursor]
    while m.redo():
        pass
    assert m.state == states[-1]


def test_new_action_after_undo_drops_redo_branch():
    m = make(seed=3)
    m.play(m.to_act()[0], Hold())
    m.undo()
    assert m.can_redo()
    m.play(m.to_act()[0], Roll())
    assert not m.can_redo()


def test_forcing_a_roll_through_the_chance_action():
    m = make(auto_chance=False)
    assert m.to_act() == (CHANCE,)
    m.play(CHANCE, Die(1))
    assert m.state.turn == 1


def test_a_chance_source_names_the_outcome_it_wants_and_none_draws_one():
    """A lesson's forced dice: the match asks its chance source first at every chance node;
    the outcome is applied (validated) and recorded like a drawn one; None draws as usual."""
    wanted = [Die(6), Die(2), None]
    asked = []

    def source(state):
        asked.append(state)
        return wanted.pop(0) if wanted else None

    m = make(chance=source)
    assert m.steps[0] == type(m.steps[0])(CHANCE, Die(6), 0.0)
    m.play(m.to_act()[0], Roll())
    assert m.steps[-1].seat == CHANCE and m.steps[-1].action == Die(2)
    m.play(m.to_act()[0], Roll())  # the source says None: drawn from the seed
    assert m.steps[-1].seat == CHANCE and len(asked) == 3
    bad = make(auto_chance=False, chance=lambda state: Die(9))
    with pytest.raises(IllegalAction):
        bad.resolve_chance()


def test_illegal_actions_are_refused_with_the_projects_error():
    m = make(auto_chance=False)
    with pytest.raises(IllegalAction):
        m.play(0, Hold())
    with pytest.raises(IllegalAction):
        TOY.apply(m.state, CHANCE, Die(9))



def test_set_clock_times_later_steps_from_the_last_recorded_time():
    now = [100.0]
    m = make(clock=lambda: now[0])
    now[0] = 103.0
    m.play(m.to_act()[0], Hold())
    last = m.steps[-1].t
    assert last == pytest.approx(3.0)
    play = [50.0]
    m.set_clock(lambda: play[0])
    play[0] = 52.5
    if not m.is_over():
        m.play(m.to_act()[0], Hold())
        assert m.steps[-1].t == pytest.approx(last + 2.5)


def test_undo_keeping_chance_never_steps_back_across_a_roll():
    m = make()
    seat = m.to_act()[0]
    m.play(seat, Roll())  # the toy's roll is followed by a recorded die
    assert any(s.seat == CHANCE for s in m.steps[1:])
    assert m.undo_stopped_by_chance()
    assert not m.undo(keep_chance=True)
    assert m.undo()  # the engine itself can still go back (analysis, replays)


@pytest.mark.parametrize(("given", "shown"), [
    ("Bob[/]", "Bob(/)"),
    ("[bold red]Evil[/]", "(bold red)Evil(/)"),
    ("tab\tand\nnewline\x1b[2J", "tab and newline (2J"),
    ("x" * 40, "x" * 24),
    ("Ann", "Ann"),
])
def test_a_seat_name_is_one_short_line_of_plain_text(given, shown):
    import msgspec

    assert Seat(name=given).name == shown
    decoded = msgspec.json.decode(msgspec.json.encode({"name": given}), type=Seat)
    assert decoded.name == shown  # hand-edited records are cleaned too


@pytest.mark.parametrize(("outcome", "names", "text"), [
    (Outcome((1,), "eliminated"), ["Ann", "Ben"], "Ben wins (eliminated)"),
    (Outcome((0, 1), "stalemate", (3, 3)), ["Ann", "Ben"], "Tie (stalemate) - Ann 3, Ben 3"),
    (Outcome((0, 1), "tie"), ["Ann", "Ben"], "Tie"),
    (Outcome((0, 2), "", ()), ["A", "B", "C"], "A and C win"),
    (Outcome((), "virus wins"), ["A", "B"], "Nobody wins (virus wins)"),
    (Outcome((), "gave up"), ["Solo"], "Solo loses (gave up)"),
    (Outcome((0,), "escaped", (12,)), ["Solo"], "Solo wins (escaped) - score 12"),
])
def test_an_outcome_reads_as_one_line(outcome, names, text):
    assert outcome.text(names) == text


@pytest.mark.parametrize(("outcome", "reader", "text"), [
    (Outcome((1,), "eliminated", (0, 2)), 1, "You win (eliminated) - Ann 0, Ben 2"),
    (Outcome((1,), "eliminated"), 0, "You lose: Ben wins (eliminated)"),
    (Outcome((0, 1), "stalemate"), 0, "Tie (stalemate)"),
    (Outcome((0, 2), "camp"), 2, "You win with Ann (camp)"),
    (Outcome((0, 2), "camp"), 1, "You lose: Ann and Cy win (camp)"),
    (Outcome((), "virus wins"), 1, "Nobody wins (virus wins)"),
])
def test_an_outcome_reads_plainly_for_the_player_at_the_table(outcome, reader, text):
    names = ["Ann", "Ben", "Cy"][:max(2, max(outcome.winners, default=0) + 1, reader + 1)]
    assert outcome.text(names, reader) == text


def test_a_solitaire_result_speaks_to_its_player():
    assert Outcome((0,), "escaped in 9 rounds").text(["Solo"], 0) == "You win (escaped in 9 rounds)"
    assert Outcome((), "gave up").text(["Solo"], 0) == "You lose (gave up)"


def test_a_cooperative_game_reads_team_wins_never_a_tie():
    """Issue 19: an Infection team win read 'Draw (... everyone wins ...)' and showed as a shared
    win in Replays."""
    won, lost = Outcome((0, 1, 2), "virus cleared"), Outcome((), "the virus survived")
    names = ["Ann", "Ben", "Cy"]
    assert won.text(names, team=True) == "Team wins (virus cleared)"
    assert won.text(names, 1, team=True) == "Team wins (virus cleared)"
    assert lost.text(names, 0, team=True) == "Team loses (the virus survived)"
    assert won.text(["Solo"], 0, team=True) == "You win (virus cleared)"
    from cellwars_tui.core.registry import get_game

    assert get_game("infection").meta.cooperative
    assert not any(get_game(g).meta.cooperative for g in ("virus-fight", "cell-wars"))
