"""A game screen on a table that cannot take moves back (over SSH) or that is being watched."""

from __future__ import annotations

from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.generic_screen import GenericScreen
from cellwars_tui.table.local import LocalTable
from tests.ui.helpers import settle, toy_match


class NoUndoTable(LocalTable):
    """Stands for ssh/remote.py's RemoteTable: the hub keeps the game, undo means nothing."""

    supports_undo = False


class WatchedTable(NoUndoTable):
    spectator = True


def footer_words(screen) -> set[str]:
    return {getattr(key, "description", "") for key in screen.query("FooterKey")}


async def _open(table_type, *, read_only=False):
    app = CellwarsApp(games=[])
    table = table_type(toy_match(seed=5), read_only=read_only)
    return app, table


async def test_a_table_without_undo_hides_undo_and_redo_but_plays():
    app, table = await _open(NoUndoTable)
    async with app.run_test(size=(100, 24)) as pilot:
        screen = GenericScreen(table)
        app.push_screen(screen)
        await settle(pilot)
        await pilot.pause()
        assert screen.check_action("undo", ()) is False
        assert screen.check_action("redo", ()) is False
        assert screen.check_action("moves", ()) is True
        words = footer_words(screen)
        assert "Undo" not in words and "Redo" not in words and "Moves" in words
        titles = [t for t, _h, _c in screen.palette_commands()]
        assert "Undo" not in titles and "Moves" in titles
        await pilot.press("enter")  # still plays
        await settle(pilot)
        assert table.match.cursor > 0
        before = table.match.cursor
        await pilot.press("u")  # the key does nothing
        await settle(pilot)
        assert table.match.cursor >= before


async def test_a_local_table_keeps_undo_and_redo_in_the_footer():
    app, table = await _open(LocalTable)
    async with app.run_test(size=(100, 24)) as pilot:
        screen = GenericScreen(table)
        app.push_screen(screen)
        await settle(pilot)
        await pilot.pause()
        assert {"Undo", "Redo"} <= footer_words(screen)


async def test_a_spectator_is_told_they_are_watching_not_that_it_is_a_replay():
    app, table = await _open(WatchedTable, read_only=True)
    async with app.run_test(size=(100, 24)) as pilot:
        screen = GenericScreen(table)
        app.push_screen(screen)
        await settle(pilot)
        assert screen.play(table.legal(0)[0] if table.legal(0) else None) is False
        await pilot.pause()
        status = str(screen.query_one("#gs-status").render())
        assert "You are watching" in status and "replay" not in status.lower()
        assert "Undo" not in footer_words(screen)


async def test_a_replay_still_says_it_is_a_replay():
    app, table = await _open(LocalTable, read_only=True)
    async with app.run_test(size=(100, 24)) as pilot:
        screen = GenericScreen(table, read_only=True)
        app.push_screen(screen)
        await settle(pilot)
        assert screen.play(None) is False
        await pilot.pause()
        assert "This is a replay" in str(screen.query_one("#gs-status").render())
