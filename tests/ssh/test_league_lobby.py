"""The league from the lobby, as a player meets it: a session's app over a real hub (its Unix
socket, the session layer every SSH or browser session uses), keys pressed in the pilot. The
leaderboard and profile reached from the lobby (your place, a bot's level), the lobby's chat and
a table's (cleaned, closed while a secret is written), a rated table made from the lobby, and a
rematch at game over."""

from __future__ import annotations

from textual.widgets import DataTable, RichLog, Select, Static

from cellwars_tui.online import protocol as p
from cellwars_tui.online.client import HubClient
from cellwars_tui.ssh.chat_pane import ChatPane
from cellwars_tui.ssh.leaderboard import LeaderboardScreen
from cellwars_tui.ssh.lobby import HubLink, LobbyScreen, TableScreen
from cellwars_tui.ssh.profile import ProfileScreen

from ..online.test_hub import hub, join, table_where  # noqa: F401
from ..online.test_league_chat import QuietSecret  # noqa: F401  (registers secret-quiet)
from ..online.test_league_hub import ANN, BEN, next_of, play_secret, rated_pair
from .test_lobby import OnlineApp, until


def chat_text(screen, pane_id: str) -> str:
    return "\n".join(s.text for s in screen.query_one(f"#{pane_id} #chat-lines", RichLog).lines)


async def app_for(hub, identity: str, name: str):  # noqa: F811
    token = f"app-{identity}-{len(hub.tokens)}"
    hub.admit(token, identity, name)
    client = HubClient(str(hub.socket_path), token)
    return OnlineApp(client), client


async def test_leaderboard_profile_and_lobby_chat_from_the_lobby(hub):  # noqa: F811
    ann, ben, code = await rated_pair(hub)
    await play_secret(ann, ben)  # ann wins a rated game
    await table_where(ann, lambda t: bool(t.changes))
    ben.send(p.Leave())
    await ben.next(p.Left)
    app, client = await app_for(hub, ANN, "ann")
    async with app.run_test(size=(110, 36)) as pilot:
        await until(pilot, lambda: client.lobby is not None, "the lobby")
        await pilot.pause()
        lobby = app.screen
        lobby.query_one("#game", Select).value = "secret-pick"
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen)
                    and app.screen.board is not None, "the leaderboard")
        board = app.screen
        table = board.query_one("#board", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert [r[1] for r in rows] == ["ann ★", "ben"] and rows[0][3] == "1"
        assert str(board.query_one("#board-you", Static).render()).startswith("You: 1st of 2")
        await pilot.press("y")  # your profile, from the board
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen)
                    and app.screen.profile is not None, "ann's profile")
        head = str(app.screen.query_one("#profile-head", Static).render())
        assert head.startswith("Profile · ann")
        recent = app.screen.query_one("#profile-recent", DataTable)
        assert recent.row_count == 1 and str(recent.get_row_at(0)[3]).startswith("+")
        await pilot.press("escape", "escape")
        await until(pilot, lambda: app.screen is lobby, "back in the lobby")
        # the lobby's chat: typed in the pilot, read by ben; ben's escapes never reach ann
        await pilot.press("c", *"hello lobby", "enter")
        heard = await next_of(ben, p.ChatLines, lambda c: c.where == "lobby" and bool(c.lines))
        assert [(x.name, x.text) for x in heard.lines] == [("ann", "hello lobby")]
        ben.send(p.Say(text="hi \x1b[2J\x1b]52;c;ZXZpbA==\x07ann\x00"))
        await until(pilot, lambda: "ben: hi ann" in chat_text(lobby, "lobby-chat"), "ben's line")
        assert "\x1b" not in chat_text(lobby, "lobby-chat")
        # out of the chat box, to the leaderboard and back: the lobby's keys still work (the
        # focus came back to the tables, not to the hidden nickname box, which took the keys)
        await pilot.press("escape", "l")
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "the board")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby, "back in the lobby")
        assert lobby.focused is lobby.query_one("#tables")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen), "ann's profile")
    for c in (ann, ben):
        await c.close()


async def test_a_rated_table_made_from_the_lobby_chats_plays_and_rematches(hub):  # noqa: F811
    app, client = await app_for(hub, ANN, "ann")
    ben = await join(hub, BEN, "ben")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: client.lobby is not None, "the lobby")
        await pilot.pause()
        app.screen.query_one("#game", Select).value = "secret-quiet"
        await pilot.pause()
        app.screen.query_one("#kind", Select).value = "rated"
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        page = app.screen
        code = page.code
        assert client.table.info.rated
        ben.send(p.Join(code=code))
        ben.send(p.Sit(seat=1))
        await until(pilot, lambda: client.table.info.seats[1].kind == "human"
                    and client.table.ratings == ("1500?", "1500?"), "ben seated, rated")
        await pilot.pause()
        seats = page.query_one("#seats")
        assert "ben 1500?" in str(seats.get_option_at_index(1).prompt)
        await pilot.press("c", *"good luck", "enter")
        line = await next_of(ben, p.ChatLines, lambda c: c.where == code and bool(c.lines))
        assert line.lines[-1].text == "good luck" and line.lines[-1].seat == 0
        await pilot.press("escape")  # out of the chat box, still at the table
        assert app.screen is page
        await pilot.press("s")  # the host starts: the chat closes while numbers are picked
        await until(pilot, lambda: page.query_one("#table-chat", ChatPane).closed != "",
                    "the chat closed")
        await until(pilot, lambda: page.game_screen is not None and app.screen is page.game_screen
                    and page.game_screen.is_mounted, "the game's screen, mounted")
        await pilot.pause()  # (its on_mount has run: escape below pops a whole screen)
        link = HubLink.of(app)
        link.send(p.Play(step=0, action="pick2"))
        state = await table_where(ben, lambda t: t.step == 1)
        ben.send(p.Play(step=state.step, action="pick1"))
        await until(pilot, lambda: client.table.changes != (), "the ratings moved")
        await pilot.press("escape")  # from the game's own screen back to the table page
        await until(pilot, lambda: app.screen is page, "back at the table page")
        await pilot.pause()
        bar = str(page.query_one("#rematch").render())
        assert bar.startswith("Ratings: ann ") and "r: offer the same players a rematch" in bar
        await pilot.press("r")
        offer = await table_where(ben, lambda t: t.rematch == (0,))
        ben.send(p.Rematch())
        await until(pilot, lambda: client.table is not None and client.table.info.code != code
                    and bool(client.table.view), "the rematch started")
        assert [s.name for s in client.table.info.seats] == ["ben", "ann"]
        new_code = client.table.info.code
        await until(pilot, lambda: any(isinstance(x, TableScreen) and x.code == new_code
                                       for x in app.screen_stack), "the new table's page")
        assert not any(isinstance(x, TableScreen) and x.code == code for x in app.screen_stack)
        new_page = next(x for x in app.screen_stack if isinstance(x, TableScreen))
        await until(pilot, lambda: new_page.game_screen is not None
                    and new_page.game_screen.is_mounted, "the new game's screen")
        await pilot.pause()
        assert offer.info.rated
    await ben.close()


async def test_a_bots_seat_shows_its_level_as_its_profile(hub):  # noqa: F811
    app, client = await app_for(hub, ANN, "ann")
    async with app.run_test(size=(110, 36)) as pilot:
        await until(pilot, lambda: client.lobby is not None, "the lobby")
        link = HubLink.of(app)
        link.send(p.CreateTable(game="secret-pick", players=2))
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        link.send(p.SetBot(seat=1, bot="hard"))
        await until(pilot, lambda: client.table.info.seats[1].kind == "bot", "the bot")
        await pilot.pause()
        app.screen.query_one("#seats").highlighted = 1
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen), "the bot's profile")
        await until(pilot, lambda: "is a bot, level" in str(
            app.screen.query_one("#profile-ratings", Static).render()), "its level")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "back at the table")
        assert isinstance(app.screen_stack[-2], LobbyScreen)
