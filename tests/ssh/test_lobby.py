"""The lobby's lists word seats as every other list does (ui/naming.py's seat_text)."""

from __future__ import annotations


from cellwars_tui.online import protocol as p
from cellwars_tui.online.client import HubClient
from cellwars_tui.ssh.lobby import (
    HubLink, LobbyScreen, TableScreen, players_label, seat_line, table_line,
)
from cellwars_tui.ui.game_screen import GameScreen
from cellwars_tui.ui.host import Host

from ..online.test_hub import hub, join, table_where, two_at_a_table  # noqa: F401
from ..online.test_remote import TYPING

SEATS = (
    p.SeatInfo(kind="human", name="ann", connected=True),
    p.SeatInfo(kind="bot", name="Yellow", bot="mcts"),
    p.SeatInfo(kind="bot", name="ben", bot="random"),
    p.SeatInfo(kind="human", name="cat", connected=False),
    p.SeatInfo(),
)


def test_the_lobby_names_seats_the_way_every_list_does():
    lines = [seat_line(i, s, you=0) for i, s in enumerate(SEATS)]
    assert lines == ["1. ann  ← you", "2. Yellow (search bot)", "3. ben (random bot)",
                     "4. cat (away)", "5. (free)"]
    info = p.TableInfo(code="ABCD", game="toy-race", title="Toy race", seats=SEATS)
    assert table_line(info).endswith(
        "ann, Yellow (search bot), ben (random bot), cat, free")
    assert "(bot)" not in " ".join(lines) + table_line(info)


# -- a pilot at an online table: keys pressed while a move is on its way are not lost -------------
class HeldClient(HubClient):
    """A hub connection whose moves wait (``held``) until the test lets them go."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.held = False
        self.waiting: list[p.Msg] = []
        self.plays: list[str] = []

    def send(self, msg: p.Msg) -> None:
        if isinstance(msg, p.Play):
            self.plays.append(msg.action)
            if self.held:
                self.waiting.append(msg)
                return
        super().send(msg)

    def let_go(self) -> None:
        self.held = False
        for msg in self.waiting:
            super().send(msg)
        self.waiting.clear()


class OnlineApp(Host):
    def __init__(self, client: HubClient) -> None:
        super().__init__()
        self.client = client

    def on_mount(self) -> None:
        HubLink.attach(self, self.client)
        self.push_screen(LobbyScreen())


def app_of(hub, name: str, identity: str = "", app=None, client=HubClient):  # noqa: F811
    """``name`` admitted to ``hub`` (as ``key:NAME``, or ``identity``) with a hub connection
    of ``client``'s class, in an app of ``app``'s (OnlineApp): (the connection, the app)."""
    hub.admit(f"token-{name}", identity or f"key:{name}", name)
    connection = client(str(hub.socket_path), f"token-{name}")
    return connection, (app or OnlineApp)(connection)


async def until(pilot, pred, what: str) -> None:
    for _ in range(500):
        if pred():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def test_keys_pressed_in_the_game_screen_while_a_move_is_on_its_way_are_all_played(hub):  # noqa: F811
    client, app = app_of(hub, "ann", client=HeldClient)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: client.lobby is not None, "the lobby")
        link = HubLink.of(app)
        link.send(p.CreateTable(game=TYPING.id, players=2))
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        table_screen = app.screen
        link.send(p.SetBot(seat=1, bot="random"))
        await until(pilot, lambda: client.table.info.seats[1].kind == "bot", "the bot")
        link.send(p.Start())
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        await pilot.pause()
        client.held = True  # the hub's answers wait: every key below is pressed before one comes
        await pilot.press("enter", "down", "enter", "down", "enter")  # a, then b, then c
        assert client.plays == ["a"]  # one move on its way; b and c wait in the table's queue
        assert table_screen.remote.moves_on_their_way() == 3
        client.let_go()
        await until(pilot, lambda: table_screen.remote.is_over(), "the end of the game")
        assert client.plays == ["a", "b", "c"]
        assert table_screen.remote.view().text == "abc"


class OneWidgetFooterApp(OnlineApp):
    one_widget_footer = True  # as in an SSH session (ssh.session_app.OnlineApp)


async def test_lobby_and_table_screens_draw_their_keys_with_the_one_widget_footer(hub):  # noqa: F811
    """... every key whole or on a page F2 turns to, at 80x24 (issue 29)."""
    from cellwars_tui.ui.footer import Footer
    from tests.ui.helpers import assert_every_footer_key_reachable

    client, app = app_of(hub, "ann", app=OneWidgetFooterApp)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: client.lobby is not None, "the lobby")
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        assert isinstance(app.screen, LobbyScreen) and not footer.children
        await assert_every_footer_key_reachable(pilot)
        HubLink.of(app).send(p.CreateTable(game=TYPING.id, players=2))
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        assert not footer.children  # one widget draws every key: no widget per key
        await assert_every_footer_key_reachable(pilot)


async def test_enter_in_the_lobby_joins_the_first_table_listed(hub):  # noqa: F811
    # (a player's first Enter once did nothing: no table was highlighted)
    ann = await join(hub, "key:ann", "ann")
    ann.send(p.CreateTable(game=TYPING.id, players=2))
    await table_where(ann, lambda t: True)
    ben, app = app_of(hub, "ben")
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: ben.lobby is not None and ben.lobby.tables, "the table listed")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "ben at the table")
        await until(pilot, lambda: app.screen.state is not None, "the table's state")
        await pilot.pause()
        # the host's keys are not offered to someone who is not the host (nor Replay before an
        # ending); the host's own page offers them
        offered = {b.binding.action for b in app.screen.active_bindings.values() if b.enabled}
        assert not offered & {"start", "bot", "replay"} and "leave" in offered
    await ann.close()


async def test_the_host_is_offered_start_and_a_bot_in_a_seat(hub):  # noqa: F811
    ann, app = app_of(hub, "ann")
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: ann.lobby is not None, "the lobby")
        HubLink.of(app).send(p.CreateTable(game=TYPING.id, players=2))
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.screen.state is not None, "ann's table")
        await pilot.pause()
        offered = {b.binding.action for b in app.screen.active_bindings.values() if b.enabled}
        assert {"start", "bot"} <= offered and "replay" not in offered


async def test_p_in_an_online_infection_game_pauses_the_shared_timer_for_everyone_and_p_plays_on(hub):  # noqa: F811
    client, app = app_of(hub, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: client.lobby is not None, "the lobby")
        link = HubLink.of(app)
        link.send(p.CreateTable(game="infection", players=2))
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        link.send(p.SetBot(seat=1, bot="mcts"))
        await until(pilot, lambda: client.table.info.seats[1].kind == "bot", "the bot")
        link.send(p.Start())
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game screen")
        table = next(iter(hub.tables.values()))
        await until(pilot, lambda: table.timer is not None and table.timer.state == "running",
                    "the shared timer")
        await pilot.press("p")
        await until(pilot, lambda: client.table.paused == "paused by ann", "the pause")
        assert table.timer.state == "paused" and table.paused_by == "ann"
        await pilot.press("p")
        await until(pilot, lambda: not client.table.paused, "playing on")
        assert table.timer.state == "running"


async def test_g_picks_the_game_for_a_new_table(hub):  # noqa: F811
    from textual.widgets import Select

    client, app = app_of(hub, "ann")
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: client.lobby is not None, "the lobby")
        await pilot.pause()
        games = app.screen.query_one("#game", Select)
        await pilot.press("g")
        assert app.focused is games
        games.value = "infection"
        await pilot.pause()
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, TableScreen), "the table")
        assert client.table.info.game == "infection"


def test_a_solo_player_count_reads_one_player():
    assert (players_label(1), players_label(2)) == ("1 player", "2 players")


async def test_a_guest_finds_the_login_name_in_the_nickname_box_and_enter_takes_it(hub):  # noqa: F811
    client, app = app_of(hub, "ann", "guest")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                    and app.screen.query_one("#naming").display, "the nickname box")
        nick = app.screen.query_one("#nick")
        assert nick.value == "ann" and nick.has_focus
        await pilot.press("z", "e", "d")  # typing replaces the offered name
        assert nick.value == "zed"
        nick.value = "ann"  # (back to the offer: Enter takes it)
        await pilot.press("enter")
        await until(pilot, lambda: client.welcome is not None and client.welcome.name == "ann"
                    and not client.welcome.need_name, "the nickname taken")


def test_the_table_page_says_how_the_game_stands_in_words_never_the_raw_state():
    import random

    from cellwars_tui.core.match import Match, Seat
    from cellwars_tui.core.registry import get_game
    from cellwars_tui.ssh.lobby import describe_view

    game = get_game("cell-wars")
    m = Match(game, game.options_from_dict({"players": 2}), [Seat(name="ann"), Seat(name="ben")], 3)
    rng = random.Random(3)
    for _ in range(500):  # on to the first round, seat 1 to act
        if game.round_figures(m.state)[0] and 0 in m.to_act():
            break
        m.play(m.to_act()[0], rng.choice(list(m.legal_actions(m.to_act()[0]))))
    seats = (p.SeatInfo(kind="human", name="ann", connected=True),
             p.SeatInfo(kind="human", name="ben", connected=True))
    info = p.TableInfo(code="ABCD", game=game.id, title=game.title, seats=seats, status="playing")
    mine = p.TableState(info=info, you=0, to_act=m.to_act(), legal=("x",),
                        view=game.encode_state(m.view(0)))
    text = describe_view(game, m.view(0), mine)
    assert text.startswith("Your move.\nRound 1.") and "g shows it" in text
    assert "{" not in text and '"' not in text  # no JSON
    theirs = msgspec_replace(mine, you=None, legal=())
    assert describe_view(game, m.view(None), theirs).startswith("Waiting for ann.")


def msgspec_replace(state, **changes):
    import msgspec

    return msgspec.structs.replace(state, **changes)


async def test_a_full_tables_page_opens_with_a_seat_highlighted(hub):  # noqa: F811
    # (the first arrow key on a full table's page once only highlighted the first seat)
    ann, ben, code = await two_at_a_table(hub)
    cat, app = app_of(hub, "cat")
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: cat.lobby is not None and cat.lobby.tables, "the table listed")
        HubLink.of(app).send(p.Join(code=code))
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.screen.state is not None, "cat watching")
        seats = app.screen.query_one("#seats")
        assert seats.highlighted == 0
        await pilot.press("down")
        assert seats.highlighted == 1
    await ann.close()
    await ben.close()


class ReplayingApp(OnlineApp):
    """An online app that notes which replays it is asked to open, and through whose eyes."""

    def __init__(self, client: HubClient) -> None:
        super().__init__(client)
        self.opened: list[tuple[object, object]] = []

    def open_replay(self, path=None, seat=-1) -> bool:
        self.opened.append((path, seat))
        return True


async def test_the_table_pages_replay_opens_through_your_own_seat(hub, monkeypatch):  # noqa: F811
    # (after a rematch had moved the seats, a player's replay marked the other player "you")
    from cellwars_tui.online.client import ENV_RECORDS

    ann = await join(hub, "key:ann", "ann")
    ann.send(p.CreateTable(game="toy-race", players=2))
    code = (await table_where(ann, lambda t: t.you == 0)).info.code
    ben, app = app_of(hub, "ben", app=ReplayingApp)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: ben.lobby is not None and ben.lobby.tables, "the table")
        link = HubLink.of(app)
        link.send(p.Join(code=code))
        await until(pilot, lambda: isinstance(app.screen, TableScreen)
                    and app.screen.state is not None, "ben watching")
        page = app.screen
        link.send(p.Sit(seat=1))
        await table_where(ann, lambda t: t.info.seats[1].name == "ben")
        ann.send(p.Start())
        state = await table_where(ann, lambda t: t.step > 0)
        while state.outcome is None:
            (seat,) = state.to_act
            move = p.Play(step=state.step, action="hold" if state.step % 3 else "roll")
            if seat == 0:
                ann.send(move)
            else:
                await until(pilot, lambda s=state.step: page.state.step == s, "ben's turn")
                link.send(move)
            state = await table_where(ann, lambda t, s=state.step: t.step > s)
        await until(pilot, lambda: bool(page.state.record), "the record named")
        monkeypatch.setenv(ENV_RECORDS, str(hub.tables_dir))
        page.action_replay()
        assert app.opened == [(hub.tables_dir / page.state.record, 1)]
    await ann.close()
