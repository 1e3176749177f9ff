"""The online lobby and table screens, shown in a session of ``cellwars serve``.

* :class:`HubLink` owns the session's hub connection and hands every message to the screens
  that want it (any screen with a ``hub_message(msg)`` method). ``HubLink.of(app)`` makes or
  finds the link of an app, so the app shell only has to push :class:`LobbyScreen`.
* :class:`LobbyScreen`: the open tables (game, seats, spectators, status, rated or casual),
  join by room code, create a table (rated or casual); guests pick a nickname first (and are
  given a reconnect code), or type the reconnect code they were given to come back to their
  seats. The lobby's chat is under the tables (c); ``l`` opens the leaderboards
  (:mod:`.leaderboard`), ``y`` your profile (:mod:`.profile`).
* :class:`TableScreen`: seats (sit, bots, start) and then the game. Each player sees only its
  seat's view. The table itself is followed headless by a :class:`~cellwars_tui.online.seat.
  TableSeat` (it owns the seat's ``RemoteTable`` and routes the hub's answers); the screen only
  draws. Once the game starts, the game's own screen (``ui.screens.screen_class``) is pushed
  over it, driven by that remote table; leaving that screen comes back here, where a plain view
  (the seat's state and its legal moves in the game's notation) also plays any game.
  The table's chat is beside the seats (c); at game over ``r`` offers (or accepts) a rematch
  and the bar over the log says where it stands and how the ratings moved (:mod:`.rematch`);
  ``i`` shows the highlighted seat's profile (a bot's level), and the host of a casual table
  that has not started sends the highlighted player away with ``k``.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from ..ai.levels import DEFAULT_LEVEL
from ..core.errors import CellwarsError
from ..core.registry import all_games, get_game
from ..ui.footer import Footer  # one widget for every key in SSH sessions (app.one_widget_footer)
from ..ui.host import Host
from ..online import protocol as p
from ..online.client import ENV_RECORDS, HubClient
from ..online.remote import RemoteTable, seat_words
from ..online.seat import LEFT, STATE, TableSeat
from .chat_pane import ChatPane
from .hub_listener import HubListener
from .leaderboard import LeaderboardScreen
from .profile import ProfileScreen
from .rematch import RematchBar

TITLE = "cellwars online"


def game_screen_for(table: RemoteTable) -> Screen | None:
    """The game's own screen over ``table`` (None when the app shell has no game screens)."""
    try:
        from ..ui.screens import screen_class
    except ImportError:
        return None
    return screen_class(table.game)(table, read_only=table.read_only)


# each app's hub link (HubLink.of), forgotten with the app
_LINKS: weakref.WeakKeyDictionary[App, HubLink] = weakref.WeakKeyDictionary()


class HubLink:
    """The session's hub connection, shared by the screens of one app."""

    def __init__(self, app: App, client: HubClient | None = None) -> None:
        self.app = app
        self.client = client or HubClient.from_env()
        self.started = False
        self.closed = False

    @classmethod
    def of(cls, app: App) -> HubLink:
        """The app's link (made from the session's environment the first time)."""
        link = _LINKS.get(app)
        if link is None:
            link = _LINKS[app] = cls(app)
        return link

    @classmethod
    def attach(cls, app: App, client: HubClient) -> HubLink:
        """Give ``app`` a link over ``client`` (instead of the environment's)."""
        link = _LINKS[app] = cls(app, client)
        return link

    def start(self) -> None:
        if not self.started:
            self.started = True
            self.app.run_worker(self._listen(), name="hub", group="hub", exclusive=True)

    async def _listen(self) -> None:
        try:
            await self.client.connect()
        except CellwarsError as exc:
            self.app.notify(str(exc), severity="error", timeout=10)
            self.closed = True
            return
        async for msg in self.client.messages():
            for screen in list(self.app.screen_stack):
                if isinstance(screen, HubListener):
                    screen.hub_message(msg)
            if isinstance(self.app, HubListener):
                self.app.hub_message(msg)
        self.closed = True
        self.app.notify("the lobby closed the connection", severity="error", timeout=10)

    def send(self, msg: p.Msg) -> None:
        try:
            self.client.send(msg)
        except CellwarsError as exc:
            self.app.notify(str(exc), severity="error")


# The host's b on a bot's seat before the start: the levels in turn, then the seat is free again.
LEVEL_CYCLE = ("normal", "easy", "hard", "random", "")


def next_level(bot: str) -> str:
    """The bot a seat gets when the host presses b on it again ("" frees it)."""
    if bot not in LEVEL_CYCLE:
        return LEVEL_CYCLE[0]
    return LEVEL_CYCLE[(LEVEL_CYCLE.index(bot) + 1) % len(LEVEL_CYCLE)]


def seat_line(i: int, seat: p.SeatInfo, you: int | None = None, rating: str = "") -> str:
    """A seat in the table page's list ("1. ann 1532?  ← you" at a rated table)."""
    if seat.kind == "free":
        who = "(free)"
    else:
        who = seat_words(seat, f"seat {i + 1}")  # "ann", "Blue (normal bot)": table/naming.py
        if seat.kind == "human" and not seat.connected:
            who += " (away)"
        if rating:
            who += f" {rating}"
    mark = "  ← you" if i == you else ""
    return f"{i + 1}. {who}{mark}"


def table_line(t: p.TableInfo, mine: bool = False) -> str:
    seats = ", ".join(seat_words(s, f"seat {i + 1}") for i, s in enumerate(t.seats))
    watch = f" · {t.spectators} watching" if t.spectators else ""
    star = " ★ your seat" if mine else ""
    kind = "rated " if t.rated else "casual"
    return f"{t.code}  {t.title:<16} {t.status:<8} {kind} {seats}{watch}{star}"


def players_label(n: int) -> str:
    return f"{n} player{'' if n == 1 else 's'}"


class LobbyScreen(HubListener, Screen):
    """Open tables; join by code; create a table."""

    TITLE = TITLE
    CSS_PATH = "lobby.tcss"
    # back on this screen with nothing focused (Escape left the chat box, then a board or a
    # table was opened and closed): the tables, never Textual's first focusable widget, which
    # is the hidden nickname box (it took every key after, the lobby's letters included)
    AUTO_FOCUS = "#tables"
    BINDINGS = [
        Binding("n", "create", "New table"),
        Binding("j", "focus_code", "Join by code"),
        Binding("g", "focus_create", "Game"),
        Binding("l", "leaderboard", "Leaderboard"),
        Binding("y", "profile", "Profile"),
        Binding("c", "chat", "Chat"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.codes: list[str] = []
        self.ready = False

    def compose(self) -> ComposeResult:
        # every game, Cell Management too: a solitaire played here counts in your profile's record
        games = list(all_games())
        yield Static("Connecting to the lobby…", id="who")
        naming = Horizontal(id="naming", classes="row")
        naming.display = False
        with naming:
            yield Label("Pick a nickname: ")
            yield Input(placeholder="nickname", id="nick", max_length=20)
            yield Button("OK", id="nick-ok")
        rejoining = Horizontal(id="rejoining", classes="row")
        rejoining.display = False
        with rejoining:
            yield Label("Back to your seat? Your reconnect code: ")
            yield Input(placeholder="ABCDE-FGH23", id="rejoin", max_length=16)
            yield Button("Back", id="rejoin-ok")
        yield OptionList(id="tables")
        with Horizontal(classes="row"):
            yield Input(placeholder="room code", id="code", max_length=8)
            yield Button("Join", id="join")
        with Horizontal(classes="row"):
            yield Select([(g.title, g.id) for g in games], prompt="game", id="game",
                         value=games[0].id if games else Select.BLANK, allow_blank=not games)
            yield Select([], prompt="players", id="players")
            yield Select([("casual", "casual"), ("rated", "rated")], value="casual",
                         allow_blank=False, id="kind")
            yield Button("New table", id="create", variant="primary")
        yield ChatPane(HubLink.of(self.app).send, id="lobby-chat")
        yield Footer()

    def on_mount(self) -> None:
        self.ready = True
        link = HubLink.of(self.app)
        link.start()
        self._fill_players()
        self.query_one("#tables", OptionList).focus()
        client = link.client
        if client.welcome is not None:
            self.hub_message(client.welcome)
        if client.lobby is not None:
            self.hub_message(client.lobby)
        if "lobby" in client.chats:
            self.hub_message(client.chats["lobby"])

    # hub -> screen -------------------------------------------------------------------------
    def hub_message(self, msg: p.Msg) -> None:
        if not self.ready:
            return
        if isinstance(msg, p.Welcome):
            naming = self.query_one("#naming")
            naming.display = msg.need_name
            self.query_one("#rejoining").display = msg.need_name
            who = "you are a guest: pick a nickname" if msg.need_name else f"you are {msg.name}"
            if msg.code:
                who += f" · your reconnect code: {msg.code} (it gives your seats back)"
            self.query_one("#who", Static).update(f"{TITLE} · {who}")
            if msg.need_name:
                nick = self.query_one("#nick", Input)
                nick.focus()
                if msg.suggest and not nick.value:
                    nick.value = msg.suggest  # the login name, offered: Enter takes it,
                    nick.select_all()  # and typing replaces it
            elif self.focused is None or not self.focused.display or (
                    self.focused.parent is not None and not self.focused.parent.display):
                self.query_one("#tables", OptionList).focus()  # not the hidden nickname box
        elif isinstance(msg, p.Lobby):
            self._show_tables(msg)
        elif isinstance(msg, p.ChatLines) and msg.where == "lobby":
            self.query_one("#lobby-chat", ChatPane).show(msg)
        elif isinstance(msg, p.Left) and msg.reason:
            self.notify(msg.reason, severity="warning")
        elif isinstance(msg, p.TableState) and self.app.screen is self:
            self.app.push_screen(TableScreen(msg.info.code))
        elif isinstance(msg, p.Error) and self.app.screen is self:
            self.notify(msg.message, severity="warning")

    def _show_tables(self, lobby: p.Lobby) -> None:
        tables = self.query_one("#tables", OptionList)
        highlighted = tables.highlighted
        tables.clear_options()
        self.codes = [t.code for t in lobby.tables]
        if not lobby.tables:
            tables.add_option(Option("No tables yet: start one below (n).", disabled=True))
            return
        tables.add_options(Option(table_line(t, t.code in lobby.mine), id=t.code)
                           for t in lobby.tables)
        # keep the player's place; with none yet, the first table, so Enter joins it at once
        tables.highlighted = highlighted if highlighted is not None and highlighted < len(
            self.codes) else 0

    def _fill_players(self) -> None:
        game_id = self.query_one("#game", Select).value
        players = self.query_one("#players", Select)
        if not isinstance(game_id, str):
            players.set_options([])
            return
        game = get_game(game_id)
        counts = range(game.min_players, game.max_players + 1)
        players.set_options([(players_label(n), n) for n in counts])
        players.value = min(game.max_players, max(2, game.min_players))  # online: two or more

    # screen -> hub -------------------------------------------------------------------------
    @on(Select.Changed, "#game")
    def _game_changed(self) -> None:
        self._fill_players()

    @on(OptionList.OptionSelected, "#tables")
    def _pick_table(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            HubLink.of(self.app).send(p.Join(code=event.option.id))

    @on(Button.Pressed, "#join")
    @on(Input.Submitted, "#code")
    def _join(self) -> None:
        code = self.query_one("#code", Input).value.strip()
        if code:
            HubLink.of(self.app).send(p.Join(code=code))

    @on(Button.Pressed, "#nick-ok")
    @on(Input.Submitted, "#nick")
    def _nick(self) -> None:
        name = self.query_one("#nick", Input).value
        HubLink.of(self.app).send(p.SetName(name=name))

    @on(Button.Pressed, "#rejoin-ok")
    @on(Input.Submitted, "#rejoin")
    def _rejoin(self) -> None:
        code = self.query_one("#rejoin", Input).value.strip()
        if code:
            HubLink.of(self.app).send(p.SetName(name="", code=code))

    @on(Button.Pressed, "#create")
    def action_create(self) -> None:
        """A new table of the game and player count chosen below (Virus Fight, 2 players unless
        changed): one key from the list, no detour through the form."""
        game = self.query_one("#game", Select).value
        players = self.query_one("#players", Select).value
        if not isinstance(game, str) or not isinstance(players, int):
            self.notify("pick a game and a number of players", severity="warning")
            return
        rated = self.query_one("#kind", Select).value == "rated"
        HubLink.of(self.app).send(p.CreateTable(game=game, players=players, rated=rated))

    def _identity(self) -> str:
        welcome = HubLink.of(self.app).client.welcome
        return welcome.identity if welcome is not None else ""

    def action_leaderboard(self) -> None:
        """The leaderboard of the game chosen below (if it is rated)."""
        game = self.query_one("#game", Select).value
        self.app.push_screen(LeaderboardScreen(HubLink.of(self.app).send,
                                               game=game if isinstance(game, str) else "",
                                               you=self._identity()))

    def action_profile(self) -> None:
        you = self._identity()
        if not you.startswith("key:"):
            self.notify("Guests have no profile: come back with an SSH key to be rated.")
            return
        self.app.push_screen(ProfileScreen(HubLink.of(self.app).send, identity=you))

    def action_chat(self) -> None:
        self.query_one("#lobby-chat", ChatPane).focus_input()

    def action_focus_create(self) -> None:
        self.query_one("#game", Select).focus()

    def action_focus_code(self) -> None:
        self.query_one("#code", Input).focus()

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()  # back to the launcher
        else:
            self.app.exit()


class TableScreen(HubListener, Screen):
    """One table: seats before the start, then the game from this player's seat."""

    TITLE = TITLE
    CSS_PATH = "lobby.tcss"
    BINDINGS = [
        Binding("s", "start", "Start"),
        Binding("b", "bot", "Bot in seat"),
        Binding("g", "game", "Game screen"),
        Binding("p", "replay", "Replay"),
        Binding("escape", "leave", "Leave table"),
        Binding("c", "chat", "Chat"),
        Binding("i", "seat_profile", "Profile"),
        Binding("r", "rematch", "Rematch", show=False),  # (the rematch bar says so at game over)
        Binding("k", "send_away", "Send away", show=False),
    ]

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code
        self.seat: TableSeat | None = None  # made on mount (it sends through the app's link)
        self.moves: list[str] = []
        self.ready = False  # messages before the first mount are read from the client later
        self.game_screen: Screen | None = None
        self.opened_game = False  # the game screen opens by itself once, at the start
        self.told_over = False  # the game's end was told on the game screen
        self._head = f"Table {code}"  # the head line before the clock (set by each TableState)

    def compose(self) -> ComposeResult:
        yield Static(f"Table {self.code}", id="head")
        with Horizontal(id="body"):
            with Vertical(id="side"):
                yield OptionList(id="seats")
                yield ChatPane(HubLink.of(self.app).send, seats=0, id="table-chat")
            with Vertical():
                with VerticalScroll(id="game"):
                    yield Static("Waiting for the host to start…", id="view")
                yield OptionList(id="moves")
        yield RematchBar(id="rematch")
        yield Static("", id="log")
        yield Footer()

    @property
    def state(self) -> p.TableState | None:
        return self.seat.state if self.seat is not None else None

    @property
    def remote(self) -> RemoteTable | None:
        return self.seat.remote if self.seat is not None else None

    def on_mount(self) -> None:
        self.ready = True
        self.seat = TableSeat(self.code, HubLink.of(self.app).send, notify=self._notice)
        self.query_one("#seats", OptionList).focus()
        self.set_interval(1.0, self._tick)  # a real-time game's shared timer counts down here
        client = HubLink.of(self.app).client
        if client.table is not None and client.table.info.code == self.code:
            self.hub_message(client.table)
        if self.code in client.chats:
            self.hub_message(client.chats[self.code])

    def hub_message(self, msg: p.Msg) -> None:
        if not self.ready or self.seat is None:
            return
        what = self.seat.hub_message(msg)  # the seat follows the table; the screen draws
        if what == STATE and self.seat.state is not None:
            if self.remote is not None and not self.opened_game and self.app.screen is self:
                self.opened_game = True
                self.action_game()
            over = self.seat.state.outcome is not None
            if over and not self.told_over and self.game_screen is not None \
                    and self.app.screen is self.game_screen and self.seat.state.you is not None:
                self.app.notify("Game over. Escape goes back to the table: r there offers a "
                                "rematch, and the chat is beside the seats.", timeout=8)
            self.told_over = over
            self._show(self.seat.state)
        elif isinstance(msg, p.ChatLines) and msg.where == self.code:
            self.query_one("#table-chat", ChatPane).show(msg)
        elif what == LEFT:
            self._close_game_screen()
            if self.app.screen is self:
                self.app.pop_screen()
        elif isinstance(msg, p.Error) and self._on_top():
            self.app.notify(msg.message, severity="warning")

    def _tick(self) -> None:
        head = self._head
        left = self.remote.time_left() if self.remote is not None else None
        if left is not None and self.state is not None and self.state.outcome is None:
            from ..timer import format_clock

            running = self.remote is not None and self.remote.timer_running()
            head += f" · ⏳ {format_clock(left)}" + ("" if running else " (stopped)")
        for widget in self.query("#head").results(Static):  # none once the screen is taken down
            widget.update(head)

    def _on_top(self) -> bool:
        top = self.app.screen
        return top is self or (self.game_screen is not None and top is self.game_screen)

    # the game's own screen ---------------------------------------------------------------------
    def _notice(self, text: str) -> None:
        if self._on_top():
            self.app.notify(text, severity="warning")

    def action_game(self) -> None:
        """Show the game on its own screen (g); q or escape there comes back to this table."""
        if self.remote is None:
            self.notify("The game has not started.")
            return
        if self.game_screen is not None and self.game_screen.is_attached:
            return
        try:
            screen = game_screen_for(self.remote)
        except Exception as exc:  # a game screen that cannot draw this table: the plain view stays
            self.notify(f"the game screen failed: {exc}", severity="error")
            return
        if screen is None:
            return
        self.game_screen = screen
        self.app.push_screen(screen)

    def _close_game_screen(self) -> None:
        screen = self.game_screen
        self.game_screen = None
        if screen is not None and self.app.screen is screen:
            self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The host's keys (start, a bot in a seat) show only to the host of a table not yet
        started; Replay once the game is over."""
        t = self.state
        if action in ("start", "bot"):
            return t is not None and t.host and t.info.status == "open"
        if action == "replay":
            return t is not None and t.outcome is not None
        return True

    # drawing -------------------------------------------------------------------------------
    def _show(self, t: p.TableState) -> None:
        self.refresh_bindings()
        info = t.info
        role = "watching" if t.you is None else f"seat {t.you + 1}"
        host = " · host" if t.host else ""
        kind = "rated" if info.rated else "casual"
        self._head = (f"Table {info.code} · {info.title} · {kind} · {info.status} · "
                      f"you: {role}{host}")
        welcome = HubLink.of(self.app).client.welcome
        if t.you is not None and welcome is not None and welcome.code:
            self._head += f" · your code {welcome.code}"
        self._tick()
        seats = self.query_one("#seats", OptionList)
        at = seats.highlighted
        seats.clear_options()
        ratings = t.ratings if len(t.ratings) == len(info.seats) else ("",) * len(info.seats)
        seats.add_options(Option(seat_line(i, s, t.you, ratings[i]), id=str(i))
                          for i, s in enumerate(info.seats))
        chat = self.query_one("#table-chat", ChatPane)
        chat.seats = len(info.seats)
        chat.set_closed(t.chat_closed)
        self.query_one("#rematch", RematchBar).show(t)
        free = [i for i, s in enumerate(info.seats) if s.kind == "free"]
        if at is None and free:
            at = free[0]  # Enter sits down, b (host) seats a bot there
        elif at is None and info.seats:  # (never nothing highlighted: an arrow key would only
            at = t.you if t.you is not None else 0  # highlight the first seat, a key lost)
        if at is not None and info.seats:
            seats.highlighted = min(at, len(info.seats) - 1)
        self.query_one("#log", Static).update("\n".join(line.text for line in t.log[-4:]))
        game = get_game(info.game)
        view_widget = self.query_one("#view", Static)
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        self.moves = []
        if not t.view:
            hint = "Pick a free seat (enter)." if t.you is None else "Waiting for the start."
            if t.host:
                hint += (" As host: b puts a normal bot in the highlighted seat (b again: easy, "
                         "hard, random, free), s starts.")
                if not info.rated:
                    hint += " k sends the highlighted player away."
            view_widget.update(hint)
            return
        view = game.decode_state(t.view)
        view_widget.update(describe_view(game, view, t))
        if t.legal and t.outcome is None:
            self.moves = list(t.legal)
            moves.add_options(Option(m, id=str(i)) for i, m in enumerate(self.moves))
            moves.border_title = "your move"
        else:
            moves.border_title = t.paused or ("waiting" if t.outcome is None else "game over: p replays it")

    # actions -------------------------------------------------------------------------------
    @on(OptionList.OptionSelected, "#seats")
    def _sit(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            HubLink.of(self.app).send(p.Sit(seat=int(event.option.id)))

    @on(OptionList.OptionSelected, "#moves")
    def _move(self, event: OptionList.OptionSelected) -> None:
        if self.state is None or event.option.id is None:
            return
        HubLink.of(self.app).send(p.Play(step=self.state.step, action=self.moves[int(event.option.id)]))

    def action_start(self) -> None:
        HubLink.of(self.app).send(p.Start())

    def action_bot(self) -> None:
        seat = self.query_one("#seats", OptionList).highlighted
        if self.state is None:
            return
        seats = self.state.info.seats
        if seat is None or seats[seat].kind == "human":
            # nothing (or a person) highlighted: the first free seat gets the bot
            seat = next((i for i, s in enumerate(seats) if s.kind == "free"), None)
            if seat is None:
                self.notify("Every seat is taken: highlight a bot's seat to free it.")
                return
        current = seats[seat]
        if current.kind == "bot" and self.state.view == b"":
            bot = next_level(current.bot)  # b again: the next level, then a free seat
        else:
            bot = DEFAULT_LEVEL
        HubLink.of(self.app).send(p.SetBot(seat=seat, bot=bot))

    def action_replay(self) -> None:
        """Replay this table's game from the server's record (every player and spectator may)."""
        t = self.state
        if t is None or not t.record or t.outcome is None:
            self.notify("The game can be replayed once it is over.")
            return
        path = finished_record(t.record)
        if path is None or not path.is_file():
            self.notify("The record of this game is gone.", severity="warning")
            return
        if not isinstance(self.app, Host):
            self.notify("Replays are not available here.", severity="warning")
            return
        self.app.open_replay(path, -1 if t.you is None else t.you)  # (your seat: "you")

    def action_leave(self) -> None:
        HubLink.of(self.app).send(p.Leave())

    def action_rematch(self) -> None:
        """At game over: offer the same players a rematch, or accept one (r again: take your
        offer back)."""
        t = self.state
        if t is None or t.outcome is None:
            self.notify("A rematch is offered once the game is over.")
            return
        HubLink.of(self.app).send(p.Rematch(on=t.you is None or t.you not in t.rematch))

    def action_chat(self) -> None:
        self.query_one("#table-chat", ChatPane).focus_input()

    def _highlighted_seat(self) -> int | None:
        seat = self.query_one("#seats", OptionList).highlighted
        t = self.state
        if t is None or seat is None or not 0 <= seat < len(t.info.seats):
            return None
        return seat

    def action_seat_profile(self) -> None:
        """The highlighted seat's profile (a bot's: its level)."""
        seat = self._highlighted_seat()
        if seat is None or self.state is None or self.state.info.seats[seat].kind == "free":
            self.notify("Highlight a taken seat to see who sits there.")
            return
        name = self.state.info.seats[seat].name
        self.app.push_screen(ProfileScreen(HubLink.of(self.app).send, seat=seat, name=name))

    def action_send_away(self) -> None:
        """The host sends the highlighted player away (a casual table not yet started)."""
        seat = self._highlighted_seat()
        if seat is not None:
            HubLink.of(self.app).send(p.Remove(seat=seat))


def finished_record(name: str) -> Path | None:
    """A finished online game's record, by the file name the hub gives (in the server's tables
    folder, named to the session in its environment); None for anything but a plain name."""
    folder = os.environ.get(ENV_RECORDS, "")
    if not folder or not name or Path(name).name != name or name.startswith("."):
        return None
    return Path(folder) / name


def describe_view(game, view, t: p.TableState) -> str:
    """The table page's panel once the game has started, in words: how the game stands (over,
    your move, whom it waits for), the round, and where the game itself is (its own screen, g).
    The seats are in the list beside it and the moves below it; never the raw state."""
    names = [s.name for s in t.info.seats]
    if t.outcome is not None:
        lines = [f"Game over: {t.outcome.text(names, t.you, team=game.meta.cooperative)}."]
    elif t.paused:
        lines = [f"The game is {t.paused}."]
    elif t.you is not None and t.you in t.to_act:
        lines = ["Your move."]
    else:
        waiting = [names[s] for s in t.to_act if 0 <= s < len(names)]
        lines = ["Waiting for " + (", ".join(waiting) or "the table") + "."]
    try:
        round_no = game.round_figures(view)[0]
    except Exception:  # a game's hook that cannot read a seat's view: no round shown
        round_no = 0
    if round_no:
        lines.append(f"Round {round_no}.")
    lines.append("")
    lines.append("The board, and all this seat may see, is on the game's own screen: g shows it.")
    if t.legal and t.outcome is None:
        lines.append("Or pick your move below, in the game's notation.")
    return "\n".join(lines)
