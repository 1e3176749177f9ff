"""``o Online`` is offered only where there is a hub (issue 28, point 8): a ``cellwars web`` tab
showed it in the launcher's and the Replays page's footers, where it only said that online
tables do not exist here."""

from __future__ import annotations

from cellwars_tui.ssh.session_app import OnlineApp
from cellwars_tui.ui.replay_list import ReplayListScreen

from .test_lobby import until


def shown_actions(app) -> set[str]:
    return {binding.action for _, binding, enabled, _ in app.screen.active_bindings.values()
            if binding.show and enabled}


async def test_no_online_key_in_the_launcher_nor_the_replays_without_a_hub():
    app = OnlineApp(online=False, one_widget_footer=True)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        assert "replays" in shown_actions(app) and "online" not in shown_actions(app)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, ReplayListScreen), "the Replays page")
        assert "back" in shown_actions(app) and "online" not in shown_actions(app)
        await pilot.press("o")  # and the key does nothing
        await pilot.pause()
        assert isinstance(app.screen, ReplayListScreen) and not app._notifications


def test_the_online_key_is_there_in_a_session_of_a_server():
    app = OnlineApp(online=True)
    assert app.check_action("online", ()) is True
    assert OnlineApp(online=False).check_action("online", ()) is False
