"""The hub: lobby, tables, seats, hidden views, reconnecting, bots and records."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from cellwars_tui.core import Action, Event, Game, GameType, Options, Outcome, register
from cellwars_tui.core.api import parse_error
from cellwars_tui.record.format import read_record_file
from cellwars_tui.online import protocol as p
from cellwars_tui.online.client import HubClient
from cellwars_tui.online.hub import Hub
from cellwars_tui.online.remote import seat_words

from .. import toy_game  # noqa: F401  (registers toy-race)


# -- a tiny hidden-information game: both seats pick a secret number at once, then both are shown
class Pick(Action, frozen=True, tag="pick"):
    n: int


class Picked(Event, frozen=True, tag="picked"):
    seat: int
    n: int


class SecretState(msgspec.Struct, frozen=True):
    players: int
    picks: tuple[int, ...]  # -1: not picked yet; -2: picked but hidden from this view


class Secret(Game[SecretState, Pick]):
    meta = GameType(
        id="secret-pick",
        title="Secret pick",
        blurb="test only",
        min_players=2,
        max_players=2,
        hidden_information=True,
    )
    state_type = SecretState
    action_type = Pick
    event_type = Picked

    def initial_state(self, options: Options) -> SecretState:
        return SecretState(options.players, (-1,) * options.players)

    def to_act(self, s):
        return tuple(i for i, v in enumerate(s.picks) if v == -1)

    def legal_actions(self, s, seat):
        return [Pick(n) for n in range(3)] if seat in self.to_act(s) else []

    def _apply(self, s, seat, a):
        picks = list(s.picks)
        picks[seat] = a.n
        return SecretState(s.players, tuple(picks)), (Picked(seat, a.n),)

    def describe_event(self, e, names):
        return f"{names[e.seat]} picks {e.n}" if e.n >= 0 else f"{names[e.seat]} picks in secret"

    def view_event(self, e, seat):
        return e if seat == e.seat else Picked(e.seat, -1)

    def outcome(self, s):
        if -1 in s.picks:
            return None
        best = max(s.picks)
        return Outcome(tuple(i for i, v in enumerate(s.picks) if v == best), "picked")

    def view(self, s, seat):
        if not self.to_act(s):
            return s
        return SecretState(s.players, tuple(v if i == seat or v == -1 else -2
                                            for i, v in enumerate(s.picks)))

    def action_to_str(self, a):
        return f"pick{a.n}"

    def action_from_str(self, text):
        if text.startswith("pick") and text[4:].isdigit():
            return Pick(int(text[4:]))
        raise parse_error(self, text, "expected pickN")


SECRET = register(Secret())


class RealTimeSecret(Secret):
    meta = msgspec.structs.replace(
        Secret.meta,
        id="secret-pick-live",
        title="Secret pick, live",
        real_time=True,
    )


register(RealTimeSecret())


def homes_in(homes):
    """A hub's ``home_for``: each keyed player's own folder under ``homes`` (guests have none)."""

    def home_for(identity: str):
        if not identity.startswith("key:"):
            return None
        path = homes / identity.replace(":", "_").replace("/", "_")
        path.mkdir(parents=True, exist_ok=True)
        return path

    return home_for


@pytest.fixture
async def hub(tmp_path):
    hub = Hub(tmp_path / "tables", home_for=homes_in(tmp_path / "homes"), sweep_interval=3600)
    await hub.start()
    yield hub
    await hub.close()


async def join(hub: Hub, identity: str, name: str = "") -> HubClient:
    token = f"token-{identity}-{len(hub.tokens)}"
    hub.admit(token, identity, name or identity.split(":")[-1])
    client = HubClient(str(hub.socket_path), token)
    await client.connect()
    await client.next(p.Welcome)
    await client.next(p.Lobby)
    return client


async def table_where(client: HubClient, pred, timeout: float = 60.0) -> p.TableState:
    async def find():
        while True:
            msg = await client.next((p.TableState, p.Error), timeout)
            if isinstance(msg, p.Error):
                raise AssertionError(msg.message)
            if pred(msg):
                return msg

    return await asyncio.wait_for(find(), timeout)


async def watch_then_sit(client: HubClient, code: str, seat: int) -> None:
    """``client`` joins table ``code`` (watching until seated), then asks for ``seat`` (the
    answer, a seat or a refusal, is the caller's to wait for)."""
    client.send(p.Join(code=code))
    await table_where(client, lambda t: t.you is None)
    client.send(p.Sit(seat=seat))


async def two_at_a_table(hub: Hub, game: str = "toy-race") -> tuple[HubClient, HubClient, str]:
    ann = await join(hub, "key:ann", "ann")
    ben = await join(hub, "key:ben", "ben")
    ann.send(p.CreateTable(game=game, players=2))
    state = await table_where(ann, lambda t: t.you == 0)
    code = state.info.code
    while code not in [t.code for t in (await ben.next(p.Lobby)).tables]:
        pass
    await watch_then_sit(ben, code.lower(), 1)  # watching until seated
    await table_where(ben, lambda t: t.you == 1)
    return ann, ben, code


async def test_two_players_at_one_table_play_to_the_end(hub):
    ann, ben, code = await two_at_a_table(hub)
    ann.send(p.Start())
    clients = {0: ann, 1: ben}
    state = await table_where(ann, lambda t: t.step > 0)
    for _ in range(400):
        if state.outcome is not None:
            break
        (seat,) = state.to_act
        me = clients[seat]
        seen = me.table if me.table.step == state.step else await table_where(
            me, lambda t, s=state.step: t.step == s)
        assert seen.you == seat
        me.send(p.Play(step=state.step, action="hold" if seen.step % 3 else "roll"))
        state = await table_where(ann, lambda t, s=state.step: t.step > s)
    assert state.outcome is not None
    last = await table_where(ben, lambda t: t.outcome is not None and bool(t.record))
    assert last.info.status == "over"  # (the record is named once it is written)
    record = read_record_file(hub.tables_dir / last.record)  # a name: no server path is sent
    assert record.header.result is not None
    assert [s.identity for s in record.header.seats] == ["key:ann", "key:ben"]
    # a finished game is also in each keyed player's own saved games
    for who in ("key_ann", "key_ben"):
        assert list((hub.tables_dir.parent / "homes" / who / "data" / "games").iterdir())
    await ann.close()
    await ben.close()


async def test_each_seat_sees_only_its_own_secret(hub):
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    await table_where(ben, lambda t: bool(t.view))
    ann.send(p.Play(step=0, action="pick2"))
    a = await table_where(ann, lambda t: t.step == 1)
    b = await table_where(ben, lambda t: t.step == 1)
    assert SECRET.decode_state(a.view).picks == (2, -1)
    assert SECRET.decode_state(b.view).picks == (-2, -1)  # ben cannot see ann's pick
    spectator = await join(hub, "key:cat")
    spectator.send(p.Join(code=code))
    s = await table_where(spectator, lambda t: t.step == 1)
    assert s.you is None and SECRET.decode_state(s.view).picks == (-2, -1)
    ben.send(p.Play(step=1, action="pick1"))
    b = await table_where(ben, lambda t: t.outcome is not None)
    assert SECRET.decode_state(b.view).picks == (2, 1)
    assert b.outcome.winners == (0,)
    for c in (ann, ben, spectator):
        await c.close()


async def test_a_move_from_another_seat_or_a_stale_view_is_refused(hub):
    ann, ben, code = await two_at_a_table(hub)
    ann.send(p.Start())
    state = await table_where(ann, lambda t: t.step > 0)
    (seat,) = state.to_act
    other = ben if seat == 0 else ann
    other.send(p.Play(step=state.step, action="hold"))
    name = "ben" if seat == 0 else "ann"
    assert (await other.next(p.Error)).message == f"it is not {name}'s turn"
    mover = ann if seat == 0 else ben
    mover.send(p.Play(step=state.step - 1, action="hold"))
    assert "moved on" in (await mover.next(p.Error)).message
    await ann.close()
    await ben.close()


async def test_a_dropped_connection_keeps_its_seat(hub):
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    await table_where(ann, lambda t: bool(t.view))
    await ben.close()
    state = await table_where(ann, lambda t: not t.info.seats[1].connected)
    assert state.info.seats[1].kind == "human" and state.info.seats[1].name == "ben"
    ben = await join(hub, "key:ben", "ben")
    assert code in ben.lobby.mine
    ben.send(p.Join(code=code))
    back = await table_where(ben, lambda t: t.you == 1)
    ben.send(p.Play(step=back.step, action="pick0"))
    await table_where(ben, lambda t: t.step == back.step + 1)
    await ann.close()
    await ben.close()


async def test_the_host_can_hand_a_dropped_seat_to_a_bot(hub):
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    await table_where(ann, lambda t: bool(t.view))
    ann.send(p.SetBot(seat=1, bot="random"))
    assert "player who left" in (await ann.next(p.Error)).message  # ben is still here
    await ben.close()
    await table_where(ann, lambda t: not t.info.seats[1].connected)
    ann.send(p.SetBot(seat=1, bot="random"))
    state = await table_where(ann, lambda t: 1 not in t.to_act)
    assert state.info.seats[1].kind == "bot"
    assert seat_words(state.info.seats[1], "seat 2") == "ben (random bot)"  # as everywhere
    assert "ben's seat goes to a random bot." in [line.text for line in state.log]
    await ann.close()


async def test_bots_fill_seats_and_play(hub):
    ann = await join(hub, "key:ann")
    ann.send(p.CreateTable(game="toy-race", players=2, think=0.01))
    state = await table_where(ann, lambda t: t.you == 0)
    ann.send(p.Start())
    assert "fill every seat" in (await ann.next(p.Error)).message
    ann.send(p.SetBot(seat=1, bot="random"))
    state = await table_where(ann, lambda t: t.info.seats[1].kind == "bot")
    assert seat_words(state.info.seats[1], "seat 2") == "Blue (random bot)"  # the game's label
    ann.send(p.Start())
    for _ in range(500):
        state = await table_where(ann, lambda t: t.outcome is not None or 0 in t.to_act)
        if state.outcome is not None:
            break
        ann.send(p.Play(step=state.step, action="hold"))
    assert state.outcome is not None
    await ann.close()


async def test_bot_seats_are_levels_normal_by_default(hub):
    from cellwars_tui.ssh.lobby import LEVEL_CYCLE, next_level

    ann = await join(hub, "key:ann")
    ann.send(p.CreateTable(game="toy-race", players=2))
    await table_where(ann, lambda t: t.you == 0)
    ann.send(p.SetBot(seat=1))  # the default bot: the normal level
    state = await table_where(ann, lambda t: t.info.seats[1].kind == "bot")
    assert state.info.seats[1].bot == "normal"
    assert seat_words(state.info.seats[1], "seat 2") == "Blue (normal bot)"
    ann.send(p.SetBot(seat=1, bot="mcts"))  # the older word: hard
    state = await table_where(ann, lambda t: t.info.seats[1].bot == "hard")
    ann.send(p.SetBot(seat=1, bot="expert"))
    assert (await ann.next(p.Error)).message == \
        "unknown bot level 'expert' (levels: random, easy, normal, hard)"
    # the host's b cycles the levels, then frees the seat
    assert [next_level(b) for b in ("normal", "easy", "hard", "random")] == \
        ["easy", "hard", "random", ""]
    assert set(LEVEL_CYCLE) - {""} == {"random", "easy", "normal", "hard"}
    await ann.close()


async def test_only_the_host_starts_or_seats_bots(hub):
    ann, ben, code = await two_at_a_table(hub)
    ben.send(p.Start())
    assert "host" in (await ben.next(p.Error)).message
    ben.send(p.SetBot(seat=0, bot="random"))
    assert "host" in (await ben.next(p.Error)).message
    ben.send(p.Sit(seat=0))
    assert "taken" in (await ben.next(p.Error)).message
    await ann.close()
    await ben.close()


async def test_a_guest_picks_a_free_nickname_before_playing(hub):
    guest = await join(hub, "guest")
    assert guest.welcome.need_name
    guest.send(p.CreateTable(game="toy-race", players=2))
    assert "nickname" in (await guest.next(p.Error)).message
    guest.send(p.SetName(name="Zed"))
    assert (await guest.next(p.Welcome)).name == "Zed"  # its identity is a secret, not the name
    other = await join(hub, "guest")
    other.send(p.SetName(name="zed"))
    assert "in use" in (await other.next(p.Error)).message
    other.send(p.SetName(name="bad<name>"))
    assert "letters" in (await other.next(p.Error)).message
    await guest.close()
    await other.close()


async def test_a_guest_is_offered_the_name_they_logged_in_with(hub):
    """``ssh ann@host`` as a guest: "ann" is offered as the nickname (not taken until confirmed);
    a login that says nothing ("guest"), is not a valid name, or is a reconnect code is not."""
    ann = await join(hub, "guest", "ann")
    assert ann.welcome.need_name and ann.welcome.suggest == "ann"
    assert ann.welcome.name != "ann"  # only offered
    for login in ("guest", "Anonymous", "bad<name>", "x" * 40, ""):
        other = await join(hub, "guest", login or " ")
        assert other.welcome.suggest == "", login
        await other.close()
    keyed = await join(hub, "key:bob")
    assert not keyed.welcome.need_name and keyed.welcome.suggest == ""
    ann.send(p.SetName(name=ann.welcome.suggest))
    assert (await ann.next(p.Welcome)).name == "ann"
    await ann.close()
    await keyed.close()


async def test_a_session_with_a_bad_token_or_garbage_is_dropped_alone(hub):
    ann = await join(hub, "key:ann")
    reader, writer = await asyncio.open_unix_connection(str(hub.socket_path))
    writer.write(p.frame(p.Hello(token="forged")))
    body = await p.read_frame(reader)
    assert "not a session" in p.decode_down(body).message
    assert await reader.read() == b""
    reader, writer = await asyncio.open_unix_connection(str(hub.socket_path))
    writer.write(b"\xff\xff\xff\xffgarbage")
    assert await reader.read() == b""
    ann.send(p.CreateTable(game="toy-race", players=2))  # ann is unaffected
    await table_where(ann, lambda t: t.you == 0)
    await ann.close()


async def test_unknown_games_and_absurd_options_are_refused_in_one_line(hub):
    ann = await join(hub, "key:ann")
    ann.send(p.CreateTable(game="chess", players=2))
    assert "unknown game" in (await ann.next(p.Error)).message
    ann.send(p.CreateTable(game="toy-race", players=9))
    assert "players" in (await ann.next(p.Error)).message
    ann.send(p.Join(code="ZZZZ"))
    assert "no table" in (await ann.next(p.Error)).message
    await ann.close()


async def test_empty_tables_close_after_a_while(hub):
    ann = await join(hub, "key:ann")
    ann.send(p.CreateTable(game="toy-race", players=2))
    state = await table_where(ann, lambda t: t.you == 0)
    ann.send(p.Leave())
    await ann.next(p.Left)
    hub.sweep()
    assert state.info.code in hub.tables  # not yet
    hub.sweep(now=hub.clock() + hub.idle_table_seconds + 1)
    assert not hub.tables
    while (await ann.next(p.Lobby)).tables:
        pass
    await ann.close()


async def test_a_seat_reads_in_the_log_only_the_events_it_may_know_of(hub):
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    await table_where(ben, lambda t: bool(t.view))
    ann.send(p.Play(step=0, action="pick2"))
    a = await table_where(ann, lambda t: t.step == 1)
    b = await table_where(ben, lambda t: t.step == 1)
    assert [line.text for line in a.log][-1] == "ann picks 2"
    assert [line.text for line in b.log][-1] == "ann picks in secret"
    assert a.log[-1].seat == 0 and a.log[-1].step == 1
    assert b.legal == ("pick0", "pick1", "pick2") and a.legal == ()  # the hub says what is legal
    await ann.close()
    await ben.close()


async def test_a_returning_player_is_taken_straight_back_to_the_table(hub):
    ann, ben, code = await two_at_a_table(hub, "secret-pick")
    ann.send(p.Start())
    await table_where(ann, lambda t: bool(t.view))
    await ben.close()
    away = await table_where(ann, lambda t: not t.info.seats[1].connected)
    assert "ben lost the connection; the seat waits." in [line.text for line in away.log]
    token = "token-ben-again"
    hub.admit(token, "key:ben", "ben")
    ben = HubClient(str(hub.socket_path), token)
    await ben.connect()
    back = await table_where(ben, lambda t: t.you == 1)  # no Join needed
    assert back.legal
    state = await table_where(ann, lambda t: t.info.seats[1].connected)
    assert "ben is back." in [line.text for line in state.log]
    await ann.close()
    await ben.close()


async def test_a_real_time_game_pauses_while_a_player_is_away(hub):
    ann, ben, code = await two_at_a_table(hub, "secret-pick-live")
    ann.send(p.Start())
    await table_where(ann, lambda t: bool(t.view) and not t.paused)
    await ben.close()
    state = await table_where(ann, lambda t: bool(t.paused))
    assert state.paused == "paused: waiting for ben to come back" and state.legal == ()
    ann.send(p.Play(step=state.step, action="pick1"))
    assert "paused" in (await ann.next(p.Error)).message
    ben = await join(hub, "key:ben", "ben")
    state = await table_where(ann, lambda t: not t.paused)
    assert state.legal
    ann.send(p.Play(step=state.step, action="pick1"))
    await table_where(ann, lambda t: t.step == 1)
    await ann.close()
    await ben.close()
