"""Virus Fight at a table of the hub (a RemoteTable: no undo, the hub's state as this seat may
see it): while programs are written in secret, nothing on the screen counts a rival's
instructions, as at a local table."""

from __future__ import annotations

import pytest

from cellwars_tui.core.match import Match, Seat
from cellwars_tui.games.virus_fight import engine as E
from cellwars_tui.games.virus_fight import rules as R
from cellwars_tui.games.virus_fight.screen import VirusFightScreen
from cellwars_tui.online import protocol as p
from cellwars_tui.online.remote import RemoteTable
from cellwars_tui.ui.app import CellwarsApp
from tests.ui.helpers import until_footer_whole

from .screen_helpers import log_text, screen_text, widget_text

NAMES = ("ann", "ben")


def hub_state(m: Match, you: int | None) -> p.TableState:
    """What the hub sends seat ``you`` for match ``m`` (its view, legal moves and log)."""
    game = m.game
    info = p.TableInfo(code="ABCD", game=game.meta.id, title=game.meta.title, status="playing",
                       seats=tuple(p.SeatInfo(kind="human", name=n, connected=True)
                                   for n in NAMES))
    log = tuple(p.LogLine(i + 1, step.seat, game.describe_event(shown, list(NAMES)))
                for i, step in enumerate(m.history) for ev in m.events[i]
                if (shown := game.view_event(ev, you)) is not None)
    return p.TableState(info=info, you=you, step=m.cursor, view=game.encode_state(m.view(you)),
                        to_act=m.to_act(), log=log,
                        legal=() if you is None else
                        tuple(game.action_to_str(a) for a in m.legal_actions(you)))


@pytest.mark.parametrize("you", [1, None], ids=["rival", "spectator"])
async def test_online_a_rivals_secret_instructions_show_no_step_number_nor_anything_else(you):
    m = Match(R.GAME, R.VirusFightOptions(players=2), [Seat(name=n) for n in NAMES], 3)
    table = RemoteTable(hub_state(m, you), lambda msg: None)
    assert not table.supports_undo and table.spectator == (you is None)
    app = CellwarsApp()
    async with app.run_test(size=(100, 32)) as pilot:
        await app.push_screen(VirusFightScreen(table, read_only=table.read_only))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, VirusFightScreen) and screen.table is table
        title = screen.query_one("#gs-title")
        assert "step" not in widget_text(title) and "ann, ben to act" in widget_text(title)
        await until_footer_whole(pilot)  # painted a frame later: not a change a rival made
        before = screen_text(app)
        for code in (E.code(0, 1), E.code(1, 2), E.code(2, 3)):  # ann writes three in secret
            m.play(0, R.Add(code))
            table.update(hub_state(m, you))  # (the hub sends no such state now; an older one did)
            await pilot.pause()
            assert screen_text(app) == before
        m.play(0, R.Mark(0))
        m.play(0, R.Ready())  # ann's ready is public; her program's length stays secret
        table.update(hub_state(m, you))
        await pilot.pause()
        assert "step" not in widget_text(title) and "ben to act" in widget_text(title)
        assert "ann has a program ready" in log_text(screen)
        assert not any(ch.isdigit() for ch in log_text(screen))
        m.play(1, R.Add(E.code(3, 1)))
        m.play(1, R.Mark(0))
        m.play(1, R.Ready())  # the reveal: programs are public, and so are the step numbers
        table.update(hub_state(m, you))
        await pilot.pause()
        assert f"step {m.cursor}" in widget_text(title)
        assert "5 ann has a program ready" in log_text(screen)
