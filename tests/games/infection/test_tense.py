"""The tense team game option: shorter rounds by team size, every rule of the seed kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cellwars_tui.core.errors import BadOptions
from cellwars_tui.games.infection import clarifications as C
from cellwars_tui.games.infection.rules import GAME, InfectionOptions
from cellwars_tui.timer import format_clock
from cellwars_tui.ui.request import new_game_request

from .helpers import start

RULES_MD = Path(C.__file__).with_name("rules.md").read_text(encoding="utf-8")


def test_the_option_is_off_by_default_and_rounds_last_the_seeds_three_minutes():
    for players in (1, 2, 3, 4):
        opts = GAME.options_from_dict({"players": players})
        assert opts.tense_team_game is False
        assert opts.round_seconds == C.ROUND_SECONDS_DEFAULT == 180


@pytest.mark.parametrize("players, seconds", [(1, 180), (2, 135), (3, 120), (4, 110)])
def test_a_tense_team_game_plays_the_round_length_of_its_team_size(players, seconds):
    assert C.tense_round_seconds(players) == seconds
    opts = GAME.options_from_dict({"players": players, "tense_team_game": True})
    assert opts.round_seconds == seconds


def test_the_option_is_one_switch_in_the_new_game_request_and_on_the_command_line():
    request = new_game_request("infection", players=3, options={"tense-team-game": "yes"})
    assert request.options.tense_team_game is True
    assert request.options.round_seconds == C.TENSE_ROUND_SECONDS[3]
    off = new_game_request("infection", players=3, options={"tense_team_game": "off"})
    assert off.options.round_seconds == C.ROUND_SECONDS_DEFAULT


def test_a_tense_team_game_refuses_a_round_length_chosen_by_hand():
    with pytest.raises(BadOptions, match="tense team game sets its own round length"):
        GAME.options_from_dict({"players": 2, "tense_team_game": True, "round_seconds": 60})
    # the seed's default and the tense length itself are not a conflict (a saved game reloads)
    for secs in (C.ROUND_SECONDS_DEFAULT, C.TENSE_ROUND_SECONDS[2]):
        opts = GAME.options_from_dict({"players": 2, "tense_team_game": True,
                                       "round_seconds": secs})
        assert opts.round_seconds == C.TENSE_ROUND_SECONDS[2]


def test_a_saved_tense_game_keeps_its_round_length():
    from cellwars_tui.core.match import Match, Seat
    from cellwars_tui.record.format import (decode_record, encode_record, match_to_record,
                                            record_to_match)

    opts = InfectionOptions(players=4, tense_team_game=True)
    match = Match(GAME, opts, [Seat(name=f"P{i + 1}") for i in range(4)], 3)
    again = record_to_match(decode_record(encode_record(match_to_record(match))))
    assert again.options == opts and again.options.round_seconds == 110


def test_a_tense_team_game_changes_no_rule_only_the_round_length():
    for players in (2, 3, 4):
        tense = start(players, tense_team_game=True)
        assert tense == start(players)  # same deal (3, 5, 7 or 9 per column), dice, rounds


def test_the_tense_round_lengths_shrink_as_the_team_grows_and_solo_keeps_the_seeds():
    lengths = [C.TENSE_ROUND_SECONDS[n] for n in (1, 2, 3, 4)]
    assert lengths[0] == C.ROUND_SECONDS_DEFAULT
    assert lengths == sorted(lengths, reverse=True)
    assert all(C.ROUND_SECONDS_MIN <= secs <= C.ROUND_SECONDS_MAX for secs in lengths)


def test_the_rules_page_states_the_tense_round_lengths_and_the_seed_passage_they_settle():
    assert "*\"Players have only nine minutes\"*" in RULES_MD
    assert "3, 5, 7 or 9 cards per column" in RULES_MD
    tense = {n: format_clock(C.TENSE_ROUND_SECONDS[n]) for n in (1, 2, 3, 4)}
    clarification = (f"{tense[2]} for two players, {tense[3]} for three, {tense[4]} for four "
                     f"(solo keeps {tense[1]})")
    assert clarification in " ".join(RULES_MD.split())
    section = RULES_MD.split("## A tense team game", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| (\d) \| (\d+:\d\d) \|", section, re.M))
    assert rows == {str(n): format_clock(C.TENSE_ROUND_SECONDS[n]) for n in (1, 2, 3, 4)}
    words = " ".join(section.split())
    assert "**Tense team game**" in words  # the option's name in the New game dialog
    assert "tense-team-game=yes" in words  # and on the command line


def test_an_online_table_times_a_tense_team_game_by_its_shorter_rounds():
    from cellwars_tui.online.hub import round_seconds

    # the hub builds a table's options from the lobby's dict and times its rounds from them
    opts = GAME.options_from_dict({"players": 4, "tense_team_game": True})
    assert round_seconds(GAME, opts) == C.TENSE_ROUND_SECONDS[4]


async def test_the_new_game_dialog_shows_the_option_as_one_no_yes_choice_that_shortens_the_rounds():
    from textual.widgets import Label, Select

    from cellwars_tui.games.infection.screen import FPS, InfectionScreen
    from cellwars_tui.timer import FakeClock
    from cellwars_tui.ui.app import CellwarsApp
    from cellwars_tui.ui.setup import NewGameScreen

    InfectionScreen.clock, InfectionScreen.fps = FakeClock(), 2  # nothing runs on the real clock
    try:
        app = CellwarsApp(games=[GAME])
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, NewGameScreen)
            switch = dialog.query_one("#opt-tense_team_game", Select)
            assert switch.value is False  # the seed's three minutes by default
            labels = [str(w.render()) for w in dialog.query(Label)]
            assert "Tense team game" in labels
            dialog.query_one("#setup-players").value = 3
            switch.value = True
            await pilot.press("ctrl+s")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, InfectionScreen)
            assert screen.table.match.options.round_seconds == C.TENSE_ROUND_SECONDS[3]
            assert screen.query_one("#inf-clock").value == "2:00"
    finally:
        InfectionScreen.clock, InfectionScreen.fps = None, FPS
