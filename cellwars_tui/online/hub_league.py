"""What the hub adds for a server people come back to: rated tables, chat, rematches, results
kept with their ratings, leaderboards and profiles (issue 33). The hub (:mod:`.hub`) holds one
:class:`League` and each of its tables one :class:`TableLeague`; the rules themselves live in
:mod:`.chat` (the chat's) and :mod:`.ratings` (what is rated and how).

* **Rated or casual** is chosen when a table is made. A rated table seats keyed players only
  (no guests, no bots) and one player one seat. One person with two keys is two identities to
  the server; what it can see is where they connect from: at a rated table, two seats may not
  be held by sessions from the same network address (:func:`same_address`), loopback aside
  (the server's own machine: its operator's own players). It does not catch one person on two
  networks, and it keeps two people behind one address (a family, a campus NAT) to casual
  games with each other. A hub behind a proxy that hides the players' addresses turns the
  check off (``Hub(rated_any_address=True)``); the SSH server gives each session's address.
* **Results.** When a game ends, its result goes to the store with the rating update in one
  transaction (:meth:`~.league.LeagueStore.record_result`); the table remembers that it did
  (``result_kept``, saved with it), and a table restored after a crash tells its result again:
  the store keeps it once.
* **Chat.** One line at a time to where the player is (the table's chat, or the lobby's),
  cleaned and limited by :mod:`.chat`. A table's chat is kept with it (and with the finished
  game's result: it replays with it). The lobby's is kept in the store (its last
  :data:`~.chat.KEPT` lines): a line is shown once it is kept, and a server reads them at its
  start, so a restart loses none and every server sharing the store shows the same. Every line
  read back (from the store, from another server) is cleaned again (:func:`.chat.kept_line`).
  A game may close its table's chat (``Game.chat_closed``: Virus Fight while programs are
  written in secret).
* **Mutes.** ``/mute NAME`` hides a name from that player until they unmute it. A keyed
  player's mutes are kept in the store (read when they connect, at any server, after any
  restart); a guest's are kept by this server under their guest identity, so they come back
  with their reconnect code here (when it brings them back to a seat), until the server
  restarts (a guest's identity is not meant to last: nothing of it is written to the store).
* **The host** may send a player away from a casual table that has not started; that player
  may not sit there again (they may still watch).
* **Rematch.** At a finished table any seated player offers a rematch (``r``); when every
  player has accepted, a new table is made with the same game, options and kind (rated or
  casual), every seat moved one place on (bots stay at casual tables), and its game starts.
  Everyone who was watching the old table is taken to the new one.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from . import chat as C
from . import protocol as p
from .league import (
    GameResult, LeagueStore, RatingChange, ResultSeat, StoredLeague, make_result, rating_problem,
)
from .names import name_key
from .ratings import NEW, Rating, shown_change, unrated_reason
from .store_errors import StoreError

if TYPE_CHECKING:
    from .hub import Client

log = logging.getLogger("cellwars_tui.online.hub")


class LeagueRefused(Exception):
    """A request refused (its text is told to the player, in one line)."""


def same_address(a: str, b: str) -> bool:
    """Two sessions come from one network address (loopback and unknown addresses aside)."""
    if not a or not b or a == "?" or a != b:
        return False
    try:
        return not ipaddress.ip_address(a).is_loopback
    except ValueError:
        return a not in ("localhost", "unix")


class LeagueTable(Protocol):
    """What the league reads of a hub table."""

    code: str
    game: Any
    options: Any
    think: float
    slots: list[Any]
    host_identity: str
    host_name: str
    watchers: set[Client]
    league: TableLeague

    @property
    def match(self) -> Any: ...

    def note(self, text: str, seat: int | None = None) -> None: ...

    def seat_of(self, identity: str) -> int | None: ...

    def save(self) -> None: ...


class LeagueHub(Protocol):
    """What the league asks of the hub."""

    clients: set[Client]

    def changed(self, table: Any) -> None:
        """Tell ``table``'s watchers and the lobby that it changed."""
        ...

    def here(self, client: Client) -> Any:
        """``client``'s table (HubError: they are at none)."""
        ...

    def send_away(self, table: Any, identity: str) -> None:
        """``identity``'s seat at ``table`` is freed and their sessions go to the lobby."""
        ...

    def rematch_table(self, table: Any, seats: list[Any]) -> Any:
        """A new table like ``table`` with ``seats`` (Slot values, in order), its game started;
        the old table's watchers are taken to it."""
        ...


def kept_mutes(identity: str) -> bool:
    """Whether ``identity``'s mutes are kept in the store: a keyed player's are."""
    return identity.startswith("key:")


def chat_closed(table: LeagueTable) -> str:
    """Why ``table``'s chat is closed now ("" when it is open): ``Game.chat_closed``."""
    m = table.match
    if m is None or m.is_over():
        return ""
    try:
        return str(table.game.chat_closed(m.state))
    except Exception:  # a game's bug must not stop the table's chat being safe: closed
        return "the game cannot say whether chat is safe now"


class TableLeague:
    """A table's part of the league: rated or not, its chat, a rematch offer, players the host
    sent away, the ratings shown at it, and whether its result was kept."""

    def __init__(self, rated: bool = False) -> None:
        self.rated = rated
        self.chat: deque[C.ChatLine] = deque(maxlen=C.KEPT)
        self.rematch: set[int] = set()  # seats that offered or accepted a rematch
        self.rematch_code = ""  # the table the rematch is played at, once made
        self.removed: set[str] = set()  # identities the host sent away (may not sit again)
        self.shown: dict[str, Rating] = {}  # seated players' ratings in this game (rated)
        self.changes: tuple[RatingChange, ...] = ()  # the finished rated game's changes
        self.result_kept = False  # the finished game's result is in the store (saved with it)
        self.started_at = 0.0  # when the game started (its result says how long it took)
        self.keeping = False  # the result is on its way to the store (never saved: a table
        # saved meanwhile and restored after a crash tells its result again)

    def stored(self) -> StoredLeague:
        return StoredLeague(rated=self.rated, chat=tuple(self.chat),
                            removed=tuple(sorted(self.removed)), changes=self.changes,
                            result_kept=self.result_kept, rematch_code=self.rematch_code,
                            rematch=tuple(sorted(self.rematch)), started_at=self.started_at)

    @classmethod
    def from_stored(cls, s: StoredLeague | None) -> TableLeague:
        league = cls()
        if s is not None:
            league.rated = s.rated
            league.chat.extend(C.kept_lines(s.chat))  # (whatever the row holds: cleaned)
            league.removed = set(s.removed)
            league.changes = s.changes
            league.result_kept = s.result_kept
            league.rematch_code = s.rematch_code
            league.rematch = set(s.rematch)
            league.started_at = s.started_at
        return league

    def state_fields(self, table: LeagueTable) -> dict[str, Any]:
        """The table state's league fields (ratings shown, changes, rematch offers)."""
        out: dict[str, Any] = {"chat_closed": chat_closed(table)}
        if self.rated:
            out["ratings"] = tuple(self.shown.get(s.identity, NEW).text() if s.identity else ""
                                   for s in table.slots)
        if self.changes:
            by_seat = {c.seat: c for c in self.changes}
            out["changes"] = tuple(shown_change(by_seat[i].before, by_seat[i].after)
                                   if i in by_seat else "" for i in range(len(table.slots)))
            out["ratings"] = tuple(by_seat[i].after.text() if i in by_seat else ""
                                   for i in range(len(table.slots)))
        if self.rematch:
            out["rematch"] = tuple(sorted(self.rematch))
        return out


class League:
    """The hub's league (see the module's docstring)."""

    def __init__(self, hub: LeagueHub, store: LeagueStore, *,
                 clock: Callable[[], float] = time.monotonic,
                 rated_any_address: bool = False) -> None:
        self.hub = hub
        self.store = store
        self.clock = clock  # the flood guard's (tests: a fake)
        self.rated_any_address = rated_any_address
        self.flood = C.FloodGuard()
        self.said = 0  # chat lines and commands asked for (the flood guard forgets now and then)
        self.mutes: dict[str, set[str]] = {}  # identity -> name keys they muted
        self.mutes_read: weakref.WeakSet[Any] = weakref.WeakSet()  # sessions whose mutes are in
        self.reading: set[str] = set()  # identities whose mutes are being read (no chat yet)
        self.lobby_chat: deque[C.ChatLine] = deque(maxlen=C.KEPT)
        self.tasks: set[asyncio.Task[Any]] = set()
        # a line said here, once kept: where ("" the lobby, or a table's code) and the line
        # (the servers sharing a store tell each other: cluster.py)
        self.on_said: Callable[[str, C.ChatLine], None] = lambda where, line: None

    async def read_lobby_chat(self) -> None:
        """The lobby's chat as the store keeps it, merged with the lines here (the hub's
        start, and a server back after its database was away)."""
        try:
            stored = await self.store.lobby_lines()
        except StoreError as exc:
            log.warning("the lobby's chat could not be read: %s", exc)
            return
        added = [self.add_lobby_line(line) for line in C.kept_lines(stored)]
        if any(added):
            self.send_lobby_chat()

    def add_lobby_line(self, line: C.ChatLine) -> bool:
        """``line`` in the lobby's chat, in time order (lines come from several servers); False
        if it was there already."""
        chat = self.lobby_chat
        if line in chat:
            return False
        if not chat or chat[-1].at <= line.at:
            chat.append(line)
        else:
            lines = sorted([*chat, line], key=lambda x: x.at)[-C.KEPT:]
            chat.clear()
            chat.extend(lines)
        return True

    def request(self, client: Client, msg: p.Msg) -> None:
        """One of the league's requests from ``client`` (LeagueRefused: told in one line)."""
        match msg:
            case p.Say():
                self.say(client, msg.text)
            case p.Remove():
                table = self.hub.here(client)
                self.remove(client, table, msg.seat,
                            lambda who: self.hub.send_away(table, who))
            case p.Rematch():
                self.rematch(client, self.hub.here(client), msg.on)
            case p.AskLeaderboard():
                self.ask_leaderboard(client, msg.game)
            case p.AskProfile():
                self.ask_profile(client, msg.identity, msg.seat)
            case p.AskGame():
                self.ask_game(client, msg.game_id)

    # -- making and sitting ---------------------------------------------------------------------
    def check_new(self, client: Client, game: Any, rated: bool) -> None:
        """A rated table is made by a keyed player, of a rated game."""
        if not rated:
            return
        why = unrated_reason(game)
        if why:
            raise LeagueRefused(why)
        if not client.identity.startswith("key:"):
            raise LeagueRefused("only players who came with an SSH key make rated tables: "
                                "guests play casual ones")

    def check_sit(self, client: Client, table: LeagueTable) -> None:
        """Whether ``client`` may take a seat at ``table``."""
        league = table.league
        if client.identity in league.removed:
            raise LeagueRefused("the host sent you away from this table: you may watch it")
        if not league.rated:
            return
        if not client.identity.startswith("key:"):
            raise LeagueRefused("a rated table seats players who came with an SSH key; "
                                "guests play at casual tables")
        if self.rated_any_address:
            return
        address = client.address
        for slot in table.slots:
            if slot.kind != "human" or slot.identity == client.identity:
                continue
            if any(c.identity == slot.identity and same_address(c.address, address)
                   for c in self.hub.clients):
                raise LeagueRefused("one player, one seat at a rated table: another seat here "
                                    "is held from your network address")

    def check_bot(self, table: LeagueTable) -> None:
        if table.league.rated:
            raise LeagueRefused("bots play at casual tables only: a rated table is played by "
                                "players with a key")

    def check_start(self, table: LeagueTable) -> None:
        """A rated game starts only when its seats can be rated (keyed players, one each)."""
        if not table.league.rated or any(s.kind == "free" for s in table.slots):
            return  # (a free seat: the hub says so)
        seats = [ResultSeat(identity=s.identity, name=s.name, kind=s.kind) for s in table.slots]
        why = rating_problem(table.game, seats)
        if why:
            raise LeagueRefused(why)
        if not self.rated_any_address:
            online = {c.identity: c.address for c in self.hub.clients}
            held = [online.get(s.identity, "") for s in table.slots]
            for i, a in enumerate(held):
                if any(same_address(a, b) for b in held[i + 1:]):
                    raise LeagueRefused("one player, one seat at a rated table: two seats are "
                                        "held from one network address")

    def seated(self, table: LeagueTable) -> None:
        """Someone sat down or stood up at a rated table: fetch the ratings to show."""
        if table.league.rated:
            self._spawn(self._show_ratings(table))

    async def _show_ratings(self, table: LeagueTable) -> None:
        who = [s.identity for s in table.slots if s.kind == "human" and s.identity]
        try:
            table.league.shown = await self.store.ratings_of(table.game.id, who)
        except StoreError as exc:
            log.warning("table %s: ratings could not be read: %s", table.code, exc)
            return
        self.hub.changed(table)

    def remove(self, client: Client, table: LeagueTable, seat: int, leave: Callable[
            [str], None]) -> None:
        """The host sends the player in ``seat`` away from a casual table not yet started."""
        if client.identity != table.host_identity:
            raise LeagueRefused("only the table's host sends a player away")
        if table.league.rated:
            raise LeagueRefused("at a rated table nobody is sent away: the host may make a "
                                "new table")
        if table.match is not None:
            raise LeagueRefused("the game has started: every seat is kept until it ends")
        if not 0 <= seat < len(table.slots):
            raise LeagueRefused(f"this table has seats 1 to {len(table.slots)}")
        slot = table.slots[seat]
        if slot.kind != "human":
            raise LeagueRefused(f"seat {seat + 1} holds no player (b frees a bot's seat)")
        if slot.identity == client.identity:
            raise LeagueRefused("you are the host: stand up (or leave) instead")
        table.league.removed.add(slot.identity)
        table.note(f"{slot.name} was sent away by the host.")
        leave(slot.identity)
        table.save()
        self.hub.changed(table)

    # -- chat -----------------------------------------------------------------------------------
    def say(self, client: Client, text: str) -> None:
        """A line (or a command) from ``client``, to their table's chat or the lobby's."""
        try:
            said = C.parse(text)
        except C.ChatRefused as exc:
            raise LeagueRefused(str(exc)) from None
        if isinstance(said, C.Mute):
            self._mute(client, said)
            return
        table = client.table
        if table is not None:
            closed = self.closed(table)
            if closed:
                raise LeagueRefused(f"the chat is closed: {closed}")
        now = self.clock()
        self.said += 1
        if self.said % 500 == 0:  # players quiet for a minute are forgotten (memory stays small)
            self.flood.forget(now - 60.0)
        try:
            self.flood.check(client.identity, now)
        except C.ChatRefused as exc:
            raise LeagueRefused(str(exc)) from None
        if table is None:
            self._spawn(self._say_in_lobby(client, C.ChatLine(time.time(), 0, client.name,
                                                              said.text)))
            return
        m = table.match
        line = C.ChatLine(time.time(), m.cursor if m is not None else 0, client.name,
                          said.text, table.seat_of(client.identity))
        table.league.chat.append(line)
        table.save()  # the chat is kept with the table
        self.send_table_chat(table)
        self.on_said(table.code, line)

    async def _say_in_lobby(self, client: Client, line: C.ChatLine) -> None:
        """A lobby line is kept in the store, then shown here and announced to the others."""
        try:
            await self.store.keep_lobby_line(line)
        except StoreError as exc:
            log.warning("a lobby chat line could not be kept: %s", exc)
            client.send(p.Error(message="the lobby's chat cannot be kept now (the server's "
                                        "store is away): say it again in a moment"))
            return
        if self.add_lobby_line(line):
            self.send_lobby_chat()
        self.on_said("", line)

    def _mute(self, client: Client, mute: C.Mute) -> None:
        muted = self.mutes.setdefault(client.identity, set())
        if not mute.name:
            names = sorted(muted)
            client.send(p.Notice(message=("You mute: " + ", ".join(names)) if names else
                                 f"You mute nobody. {C.MUTE_HELP}."))
            return
        key = name_key(mute.name)
        if mute.on:
            if key == name_key(client.name):
                raise LeagueRefused("you cannot mute yourself")
            if key not in muted and len(muted) >= C.MAX_MUTES:
                raise LeagueRefused(f"you mute {C.MAX_MUTES} names, the most: /unmute one "
                                    "first")
            muted.add(key)
            client.send(p.Notice(message=f"{mute.name} is muted for you (/unmute "
                                         f"{mute.name} shows them again)."))
        else:
            muted.discard(key)
            client.send(p.Notice(message=f"{mute.name} is no longer muted for you."))
        if kept_mutes(client.identity):
            self._spawn(self._keep_mute(client, key, mute.on))
        self._send_chat(client)

    async def _keep_mute(self, client: Client, key: str, on: bool) -> None:
        try:
            await self.store.set_mute(client.identity, key, on)
        except StoreError as exc:
            log.warning("%s's mutes could not be kept: %s", client.name, exc)
            client.send(p.Notice(message="your mutes could not be kept on the server now: "
                                         "this one holds until you leave"))

    async def _read_mutes(self, client: Client) -> None:
        """A keyed player's mutes as the store keeps them, then the chat where they are."""
        identity = client.identity
        try:
            keys: tuple[str, ...] | None = await self.store.mutes_of(identity)
        except StoreError as exc:
            log.warning("%s's mutes could not be read: %s", client.name, exc)
            keys = None
        finally:
            self.reading.discard(identity)
        if keys is not None:  # (with a mute said meanwhile)
            muted = self.mutes.setdefault(identity, set())
            muted.update(name_key(C.clean_text(k)[:C.MAX_CHARS])
                         for k in keys[:C.MAX_MUTES])
        for c in list(self.hub.clients):
            if c.identity == identity:
                self._send_chat(c)

    def closed(self, table: LeagueTable) -> str:
        return chat_closed(table)

    def chat_for(self, client: Client) -> p.ChatLines:
        muted = self.mutes.get(client.identity, set())
        table = client.table
        if table is None:
            return p.ChatLines(where="lobby",
                               lines=C.visible(self.lobby_chat, muted, name_key))
        return p.ChatLines(where=table.code, closed=self.closed(table),
                           lines=C.visible(table.league.chat, muted, name_key))

    def _send_chat(self, client: Client) -> None:
        if client.identity not in self.reading:  # (else: once their mutes are read)
            client.send(self.chat_for(client))

    def send_table_chat(self, table: LeagueTable) -> None:
        for client in list(table.watchers):
            self._send_chat(client)

    def send_lobby_chat(self) -> None:
        for client in list(self.hub.clients):
            if client.table is None and client.named:
                self._send_chat(client)

    def entered(self, client: Client) -> None:
        """``client`` came to a table or to the lobby: the chat there (a keyed player's mutes
        are read first, once a session)."""
        if not client.named:
            return
        if kept_mutes(client.identity) and client not in self.mutes_read:
            self.mutes_read.add(client)
            self.reading.add(client.identity)
            self._spawn(self._read_mutes(client))
            return
        self._send_chat(client)

    # -- a game's end -------------------------------------------------------------------------
    def game_over(self, table: LeagueTable) -> None:
        """A table's game is over (or was found over at a restart): keep its result once."""
        m = table.match
        league = table.league
        if m is None or not m.is_over() or league.result_kept or league.keeping:
            return
        seats = [ResultSeat(identity=s.identity if s.kind == "human" else "", name=s.name,
                            kind=s.kind, bot=s.bot) for s in table.slots]
        try:
            result = make_result(table.code, m, seats, rated=league.rated,
                                 chat=tuple(league.chat), started_at=league.started_at)
        except Exception as exc:  # a game that cannot say its result: never the server's end
            log.warning("table %s: its result cannot be made: %s", table.code, exc)
            return
        league.keeping = True  # (asked once; a failure below lets the next change retry)
        self._spawn(self._keep(table, result))

    async def _keep(self, table: LeagueTable, result: GameResult) -> None:
        league = table.league
        try:
            kept = await self.store.record_result(result)
        except StoreError as exc:
            log.warning("table %s: its result could not be kept: %s", table.code, exc)
            return
        finally:
            league.keeping = False
        league.result_kept = True
        league.changes = kept.changes
        if kept.new and kept.changes:
            table.note("Ratings: " + ", ".join(
                f"{c.name} {c.after.text()} ({shown_change(c.before, c.after)})"
                for c in kept.changes) + ".")
        table.save()
        self.hub.changed(table)

    # -- rematch --------------------------------------------------------------------------------
    def rematch(self, client: Client, table: LeagueTable, on: bool) -> None:
        m = table.match
        if m is None or not m.is_over():
            raise LeagueRefused("a rematch is offered once the game is over")
        seat = table.seat_of(client.identity)
        if seat is None:
            raise LeagueRefused("only the table's players offer a rematch")
        league = table.league
        if league.rematch_code:
            raise LeagueRefused(f"the rematch is at table {league.rematch_code}")
        humans = [i for i, s in enumerate(table.slots) if s.kind == "human"]
        if not on:
            if seat in league.rematch:
                league.rematch.discard(seat)
                table.note(f"{client.name} takes the rematch offer back.")
                table.save()  # (kept: every server sharing the store shows the offers)
                self.hub.changed(table)
            return
        if seat in league.rematch:
            return
        first = not league.rematch
        league.rematch.add(seat)
        if not set(humans) <= league.rematch:
            table.note(f"{client.name} offers a rematch: r accepts." if first else
                       f"{client.name} accepts the rematch.")
            table.save()
            self.hub.changed(table)
            return
        n = len(table.slots)
        seats = [table.slots[(i - 1) % n] for i in range(n)]  # everyone moves one seat on
        new = self.hub.rematch_table(table, seats)
        league.rematch_code = new.code
        league.rematch.clear()
        table.note(f"The rematch is at table {new.code}.")
        table.save()
        self.hub.changed(table)

    # -- questions ------------------------------------------------------------------------------
    def ask_leaderboard(self, client: Client, game_id: str) -> None:
        store = self.store
        self._spawn(self._answer(client, lambda: store.leaderboard(
            game_id[:40], you=client.identity),
            lambda board: p.LeaderboardView(board=board)))

    def ask_profile(self, client: Client, identity: str, seat: int) -> None:
        store = self.store
        name = ""
        game = ""
        if seat >= 0:
            table = client.table
            if table is None or not 0 <= seat < len(table.slots):
                raise LeagueRefused("no such seat at your table")
            slot = table.slots[seat]
            game = table.game.id
            if slot.kind == "bot":
                client.send(p.ProfileView(name=slot.name, bot=slot.bot, game=game, seat=seat))
                return
            if slot.kind != "human":
                raise LeagueRefused(f"seat {seat + 1} is free")
            name = slot.name
            who = slot.identity
        else:
            who = identity[:200]

        def view(profile: Any) -> p.ProfileView:
            return p.ProfileView(profile=profile, name=name, game=game, identity=identity,
                                 seat=seat)

        self._spawn(self._answer(client, lambda: store.profile(who), view))

    def ask_game(self, client: Client, game_id: str) -> None:
        store = self.store

        def answer(result: GameResult | None) -> p.Msg:
            if result is None:
                return p.Error(message="that game is not kept on this server")
            chat = tuple(C.kept_lines(result.chat))  # (whatever the store holds: cleaned)
            return p.FinishedGame(result=msgspec.structs.replace(result, chat=chat))

        self._spawn(self._answer(client, lambda: store.finished_game(game_id[:80]), answer))

    async def _answer(self, client: Client, ask: Callable[[], Any],
                      reply: Callable[[Any], p.Msg]) -> None:
        try:
            found = await ask()
        except StoreError as exc:
            log.warning("the store could not answer %s: %s", client.name, exc)
            client.send(p.Error(message="the server's store cannot answer now; try again"))
            return
        client.send(reply(found))

    # -- tasks ------------------------------------------------------------------------------
    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close(self) -> None:
        """Wait for results being kept (a result asked for is kept before the hub closes)."""
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
