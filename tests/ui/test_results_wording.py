"""Issue 19: a result is worded for whoever reads it, with one function (``Outcome.text``):
"You win" / "You lose" at your own table (banner, status line, the log's last line), names in a
replay and in the Replays list, "Tie" for a game everyone draws, "Team wins" for a cooperative
game (never "Draw (... everyone wins ...)" nor a shared win), and in words in a move list."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text

from cellwars_tui.core.api import Outcome
from cellwars_tui.core.match import Seat
from cellwars_tui.record.format import Header
from cellwars_tui.record.store import SavedGame
from cellwars_tui.record.text import export_text
from cellwars_tui.replay.catalog import row
from cellwars_tui.ui.app import CellwarsApp
from tests.replay.helpers import toy_match as recorded_toy
from tests.ui.helpers import settle, toy_match


def _text(widget) -> str:
    rendered = widget.render()
    return rendered.plain if isinstance(rendered, Text) else str(rendered)


async def _play_to_the_end(pilot) -> None:
    table = pilot.app.screen.table
    for _ in range(400):
        await settle(pilot)
        if table.is_over():
            return
        hold = table.state().pending >= 8  # (the toy race: Enter rolls, Down Enter holds)
        await pilot.press(*(("down", "enter") if hold else ("enter",)))
    raise AssertionError("the game did not end")


async def test_the_player_reads_you_win_or_you_lose_in_the_banner_status_and_log():
    app = CellwarsApp(match=toy_match(seed=3))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await _play_to_the_end(pilot)
        await pilot.pause()
        won = screen.table.outcome().winners == (0,)
        expected = "You win" if won else "You lose: Bot wins"
        banner = _text(screen.query_one("#gs-result"))
        status = _text(screen.query_one("#gs-status"))
        assert banner.startswith(expected), banner
        assert status.startswith(f"Game over: {expected}"), status
        assert screen.log_events(5)[-1][2].startswith(expected)
        assert "Ann wins" not in banner and "Bot wins (" not in banner.replace(expected, "")


def _saved(game: str, outcome: Outcome, names: list[str]) -> SavedGame:
    header = Header(game=game, rules_version=1, options={"players": len(names)},
                    seats=[Seat(name=n) for n in names], seed=1,
                    started="2026-01-01T10:00:00+00:00", result=outcome)
    return SavedGame(Path(f"/nowhere/{game}.cellwars.json"), header, 10, 0.0)


def test_the_replays_list_says_tie_and_team_wins_not_shared_wins():
    everyone = Outcome((0, 1), "tie")
    assert row(_saved("cell-wars", everyone, ["Ann", "Ben"])).result == "Tie"
    team = Outcome((0, 1), "virus cleared: everyone wins; Nobel Prize: Ann")
    result = row(_saved("infection", team, ["Ann", "Ben"])).result
    assert result.startswith("Team wins (") and "Draw" not in result
    lost = Outcome((), "the virus survived the third timer: everyone loses")
    assert row(_saved("infection", lost, ["Ann", "Ben"])).result.startswith("Team loses")
    assert row(_saved("virus-fight", Outcome((1,), "eliminated"), ["Ann", "Ben"])).result == \
        "Ben wins (eliminated)"


def test_a_move_list_words_the_result_as_a_replay_does():
    m = recorded_toy(moves=2000, hold_every=2)
    assert m.is_over()
    lines = export_text(m).splitlines()
    result = next(line for line in lines if line.startswith("# result: "))
    assert result == f"# result: {m.outcome().text(['Ann', 'Bob'])}"
    assert result.startswith(("# result: Ann wins", "# result: Bob wins"))
