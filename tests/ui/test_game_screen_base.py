"""The game-screen base and LocalTable: focus of the banner, late bot answers, the log, the seat
panel, the hot-seat cover hook, system actions, undo across chance, subscriptions, the end."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import ComposeResult
from rich.text import Text
from textual.widgets import Button, Static

from cellwars_tui.core.api import CHANCE, Options, Outcome
from cellwars_tui.core.errors import IllegalAction
from cellwars_tui.core.match import Match, Seat
from cellwars_tui.ui.dialogs import HandOff
from cellwars_tui.ui.game_screen import GameScreen
from cellwars_tui.ui.generic_screen import GenericScreen
from cellwars_tui.ui.host import Host as ShellHost
from cellwars_tui.table.local import LocalTable
from tests.toy_game import TOY, Die, Hold, Roll
from tests.ui.helpers import settle, toy_match
from tests.ui.toy_secret import SECRET, Pick


class PlainScreen(GameScreen):
    """A board with nothing focusable (like a screen driven by its bindings only)."""

    def compose_board(self) -> ComposeResult:
        yield Static("board", id="plain-board")

    def on_mount(self) -> None:
        super().on_mount()  # the base's on_mount runs again after this one (Textual calls both)


class OnceScreen(GameScreen):
    """No on_mount of its own: one subscription even without the fix for two."""

    def compose_board(self) -> ComposeResult:
        yield Static("board", id="plain-board")


class Host(ShellHost):  # play_again is a hook of the shell
    def __init__(self, screen: GameScreen) -> None:
        super().__init__()
        self.game_screen = screen
        self.again = 0

    def on_mount(self) -> None:
        self.push_screen(self.game_screen)

    def play_again(self, screen: GameScreen) -> None:
        self.again += 1


def two_humans(seed: int = 4) -> LocalTable:
    seats = [Seat(name="Ann"), Seat(name="Bob")]
    return LocalTable(Match(TOY, Options(players=2), seats, seed), autosave=False)


def finish(table: LocalTable) -> None:
    while not table.is_over():
        seat = table.humans_to_act()[0]
        table.submit(seat, Hold() if table.state().pending >= 12 else Roll())


# -- 1. the banner's buttons ---------------------------------------------------------------------
async def test_hidden_banner_buttons_take_no_focus_and_enter_starts_no_new_game():
    table = two_humans()
    app = Host(PlainScreen(table))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        for button in screen.query("#gs-banner Button"):
            assert not button.focusable
        assert not isinstance(screen.focused, Button)
        await pilot.press("tab", "enter")
        await pilot.pause()
        assert app.again == 0 and not table.is_over()
        finish(table)
        await pilot.pause()
        assert screen.query_one("#gs-banner").has_class("over")
        assert screen.query_one("#gs-again", Button).focusable
        assert screen.query_one("#gs-back", Button).focusable
        await pilot.click("#gs-again")
        await pilot.pause()
        assert app.again == 1


async def test_auto_focus_picks_the_board_and_the_generic_moves_list():
    app = Host(GenericScreen(two_humans()))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.game_screen.focused is app.game_screen.query_one("#generic-moves")


# -- 2. late results -------------------------------------------------------------------------------
class GatedBot:
    """A thinker whose answers wait at a gate (a threading.Event) until the test opens it."""

    def __init__(self, answer=None, fail: Exception | None = None) -> None:
        import threading

        self.gate = threading.Event()
        self.answer = answer
        self.fail = fail
        self.asked = 0

    def choose(self, turn):
        import asyncio

        self.asked += 1

        def think():
            self.gate.wait(60)
            if self.fail is not None:
                raise self.fail
            return self.answer or turn.game.legal_actions(turn.view, turn.seat)[0]

        return asyncio.get_running_loop().run_in_executor(None, think)


def gated(table: LocalTable, bot: GatedBot) -> LocalTable:
    table.thinker = bot
    return table


async def test_a_table_change_or_bot_answer_after_the_screen_closed_is_dropped():
    table = LocalTable(toy_match(seed=3), autosave=False)
    bot = GatedBot()
    gated(table, bot)
    screen = PlainScreen(table)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seat = table.to_act()[0]
        if seat == 0:  # Ann holds: the bot is to act
            table.submit(0, Hold())
        await until_thinking(pilot, table)
        app.pop_screen()
        await pilot.pause()
        assert not screen.is_attached and not table.thinking  # leaving stops the table's bots
        revision = table.revision
        bot.gate.set()  # the answer comes: nobody plays it
        await pilot.pause(0.05)
        screen.refresh_table()  # no NoMatches
        screen._table_changed()
        screen.say("late message")
        assert table.revision == revision


async def test_a_bot_answer_while_the_app_shuts_down_is_not_played():
    # (once: a bot's answer reached a screen whose widgets the closing app was taking apart)
    table = LocalTable(toy_match(seed=3), autosave=False)
    bot = GatedBot()
    gated(table, bot)
    app = Host(PlainScreen(table))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if table.to_act()[0] == 0:
            table.submit(0, Hold())
        await until_thinking(pilot, table)
        step = table.step()
    bot.gate.set()  # the app has closed: the screen left and stopped the table's bots
    assert table.step() == step and not table.thinking


async def test_a_bots_trouble_names_the_seat_as_every_list_does():
    table = LocalTable(toy_match(seed=3), autosave=False)
    bot = GatedBot(fail=RuntimeError("boom"))
    gated(table, bot)
    screen = PlainScreen(table)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if table.to_act()[0] == 0:
            table.submit(0, Hold())
        step = table.step()
        bot.gate.set()
        await settle(pilot)
        assert table.step() > step  # it played a random move instead
        said = [text for _, _, text in table.events()]
        assert "Bot (random bot)'s bot failed (boom); it plays a random move." in said


async def until_thinking(pilot, table: LocalTable) -> None:
    import time

    deadline = time.monotonic() + 60
    while not table.thinking:
        assert time.monotonic() < deadline, "the bot never started thinking"
        await pilot.pause(0.01)


# -- 3. the log keeps the newest line in view ----------------------------------------------------
def shown(log: Static) -> str:
    """The rows the log panel draws (not its whole content), whitespace dropped (rows wrap)."""
    return "".join("".join(log.render_line(y).text.split()) for y in range(log.size.height))


def entry(event: tuple[int, int | None, str]) -> str:
    return "".join(f"{event[0]} {event[2]}".split())


async def test_the_log_shows_the_newest_entries_when_they_do_not_all_fit_and_scrolls_back():
    table = two_humans(seed=9)
    for _ in range(14):  # rolls and holds: more lines than the panel's rows
        seat = table.humans_to_act()[0]
        table.submit(seat, Hold() if table.state().pending >= 6 else Roll())
    assert not table.is_over()
    app = Host(PlainScreen(table))
    async with app.run_test(size=(80, 16)) as pilot:
        await pilot.pause()
        log = app.game_screen.query_one("#gs-log", Static)
        entries = table.events(last=40)
        newest, oldest = entries[-1], entries[0]
        assert log.size.height < len(entries)
        assert entry(newest) in shown(log)
        assert entry(oldest) not in shown(log)
        # the wheel scrolls back to the oldest line, and a change goes to the end again
        for _ in range(3 * len(entries)):
            log.post_message(events.MouseScrollUp(log, 1, 1, 0, -1, 0, False, False, False))
        await pilot.pause()
        assert entry(oldest) in shown(log)
        assert entry(newest) not in shown(log)
        table.submit(table.humans_to_act()[0], Roll())
        await pilot.pause()
        newest = table.events()[-1]
        assert entry(newest) in shown(log)
        # a smaller window: the newest still shows
        await pilot.resize_terminal(80, 12)
        await pilot.pause()
        assert entry(newest) in shown(log)


async def test_a_log_entry_wrapping_over_several_rows_keeps_the_newest_row_in_view():
    app = Host(PlainScreen(two_humans()))
    async with app.run_test(size=(80, 14)) as pilot:
        await pilot.pause()
        log = app.game_screen.query_one("#gs-log", Static)
        log.update(Text("\n".join(f"entry {i} " + "long words " * 6 for i in range(12)) + "\nLAST"))
        await pilot.pause()
        assert shown(log).endswith("LAST")


# -- 4. seat lines do not wrap ---------------------------------------------------------------------
async def test_seat_lines_are_cut_not_wrapped():
    seats = [Seat(name="Annabella Longname-Of-Many-Words"), Seat(name="Bob")]
    table = LocalTable(Match(TOY, Options(players=2), seats, 1), autosave=False)
    app = Host(PlainScreen(table))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        seats_widget = app.game_screen.query_one("#gs-seats", Static)
        assert seats_widget.styles.text_wrap == "nowrap"
        assert seats_widget.styles.text_overflow == "ellipsis"
        assert seats_widget.size.height <= 3  # two seat lines (and the trailing newline)


# -- 5. the hot-seat cover hook --------------------------------------------------------------------
class NoCoverScreen(GenericScreen):
    def needs_cover(self, view, seat):
        return False


async def test_needs_cover_default_covers_and_an_override_can_skip_the_cover():
    def secret_table() -> LocalTable:
        match = Match(SECRET, Options(players=2), [Seat(name="Ann"), Seat(name="Bob")], 1)
        return LocalTable(match, autosave=False)

    app = Host(GenericScreen(secret_table()))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandOff)

    table = secret_table()
    app = Host(NoCoverScreen(table))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.screen is app.game_screen
        assert app.game_screen.needs_cover(table.public_view(), 0) is False
        assert GenericScreen.needs_cover(app.game_screen, table.public_view(), 1) is True


# -- 6. system actions -----------------------------------------------------------------------------
def test_submit_system_plays_for_chance_and_tells_the_listeners():
    seats = [Seat(name="Ann"), Seat(name="Bob")]
    match = Match(TOY, Options(players=2), seats, 1, auto_chance=False)
    table = LocalTable(match, autosave=False)
    calls = []
    table.subscribe(lambda: calls.append(table.revision))
    assert table.to_act() == (CHANCE,)  # the first roll
    table.submit_system(Die(4))
    assert match.steps[-1].seat == CHANCE and match.steps[-1].action == Die(4)
    assert table.to_act() == (0,) and calls == [1]
    with pytest.raises(IllegalAction):
        table.submit_system(Die(4))  # not chance's turn
    table.submit(0, Roll())
    table.submit_system(Die(3))
    assert table.state().pending == 7 and calls == [1, 2, 3]
    with pytest.raises(IllegalAction):
        LocalTable(match, read_only=True).submit_system(Die(2))


# -- 7. undo never goes back past a die roll when the game says so -------------------------------
def test_undo_keeps_chance_when_the_game_says_so(monkeypatch):
    table = LocalTable(toy_match(seed=5), autosave=False)
    before = table.match.cursor
    table.submit(0, Roll())  # a die roll follows
    assert table.match.steps[-1].seat == CHANCE
    assert table.can_undo()
    monkeypatch.setattr(type(TOY), "undo_keeps_chance", True)
    assert not table.can_undo()
    cursor = table.match.cursor
    assert table.undo() is False and table.match.cursor == cursor
    monkeypatch.setattr(type(TOY), "undo_keeps_chance", False)
    assert table.undo() and table.match.cursor == before


def test_the_private_undo_target_alias_is_gone():
    assert not hasattr(Match, "_undo_target")


# -- 8. one subscription per screen ---------------------------------------------------------------
def test_subscribe_ignores_a_listener_already_subscribed():
    table = two_humans()
    calls = []

    def listener() -> None:
        calls.append(1)

    table.subscribe(listener)
    table.subscribe(listener)
    table.submit(0, Roll())
    assert calls == [1]
    table.unsubscribe(listener)
    table.submit(table.humans_to_act()[0], Hold())
    assert calls == [1]


async def test_a_subclass_calling_super_on_mount_subscribes_once_and_unsubscribes():
    table = two_humans()
    screen = PlainScreen(table)
    app = Host(screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert len(table._listeners) == 1
        painted = []
        original = screen.show
        screen.show = lambda *a: (painted.append(1), original(*a))  # type: ignore[method-assign]
        table.submit(0, Roll())
        await pilot.pause()
        assert painted == [1]
        app.pop_screen()
        await pilot.pause()
        assert table._listeners == []


# -- 9. the end ------------------------------------------------------------------------------------
async def test_status_says_game_over_at_the_end_not_the_last_message():
    table = two_humans()
    app = Host(OnceScreen(table))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.game_screen
        while not table.is_over():
            screen.say("a hint about the last move")
            seat = table.humans_to_act()[0]
            table.submit(seat, Hold() if table.state().pending >= 12 else Roll())
        await pilot.pause()
        status = str(screen.query_one("#gs-status", Static).render())
        assert status.startswith("Game over:") and "hint" not in status


def test_a_solitaire_banner_reads_well(monkeypatch):
    table = two_humans()
    monkeypatch.setattr(table, "players", 1)
    monkeypatch.setattr(table, "names", lambda: ["Player"])
    monkeypatch.setattr(table, "outcome", lambda: Outcome((0,), "escaped in 3 rounds"))
    assert table.outcome_text() == "Player wins (escaped in 3 rounds)"
    monkeypatch.setattr(table, "outcome", lambda: Outcome((), "gave up after 2 rounds"))
    assert table.outcome_text() == "Player loses (gave up after 2 rounds)"
    monkeypatch.setattr(table, "outcome", lambda: Outcome((0,), "solved", (12,)))
    assert table.outcome_text() == "Player wins (solved) - score 12"


def test_every_table_kind_shares_one_listener_contract():
    # local, replay and online tables: subscribing twice is one subscription, revision counts changes
    from cellwars_tui.table.replay import ReplayTable
    from cellwars_tui.online.remote import RemoteTable
    from cellwars_tui.table.listeners import ChangeListeners
    from cellwars_tui.table.local import LocalTable

    for kind in (LocalTable, ReplayTable, RemoteTable):
        assert issubclass(kind, ChangeListeners)
    table = ChangeListeners()
    table._listeners = []
    calls = []
    listener = lambda: calls.append(table.revision)  # noqa: E731
    table.subscribe(listener)
    table.subscribe(listener)
    table._tell_listeners()
    table.unsubscribe(listener)
    table.unsubscribe(listener)
    table._tell_listeners()
    assert calls == [1] and table.revision == 2
