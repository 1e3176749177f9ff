"""A resize that reaches a game screen whose widgets are not there (being composed, or being
taken down as the app closes) changes nothing and raises nothing: under load one reached Virus
Fight's screen as a test's app closed, and its NoMatches ended the app with a traceback."""

from __future__ import annotations

import pytest
from textual import events
from textual.geometry import Size

from cellwars_tui.core import Match, Seat, all_games
from cellwars_tui.table.local import LocalTable
from cellwars_tui.ui.screens import screen_class

# every game whose screen fits itself to the window (an on_resize of its own)
GAMES = sorted(g.id for g in all_games() if "on_resize" in vars(screen_class(g)))


def test_the_screens_that_fit_themselves_are_the_five_games():
    assert GAMES == ["cell-management", "cell-wars", "cellulis-bellum", "infection",
                     "virus-fight"]


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=["80x24", "160x50"])
def test_a_resize_before_the_widgets_are_there_is_ignored(game_id, size):
    game = next(g for g in all_games() if g.id == game_id)
    players = max(game.min_players, min(2, game.max_players))
    match = Match(game, game.options_type(players=players),
                  [Seat(name=f"P{i + 1}") for i in range(players)], 1)
    screen = screen_class(game)(LocalTable(match, autosave=False))
    screen.on_resize(events.Resize(Size(*size), Size(*size)))
