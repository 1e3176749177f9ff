"""Pilot tests of the replay viewer's bar over the toy race (every registered game's own screen is
run as a viewer in test_replay_games.py, the Replays page in test_replay_list.py)."""

from __future__ import annotations

import time

from textual.widgets import Input

from cellwars_tui.replay import Replay
from cellwars_tui.ui.replay import (
    ReplayListScreen, ReplayScreen, Scrubber, open_replay,
)
from cellwars_tui.ui.host import Host as ShellHost
from cellwars_tui.ui.screens import screen_class
from cellwars_tui.table.local import LocalTable
from tests.replay.helpers import save_toy, toy_match

SIZE = (110, 34)


class Host(ShellHost):  # start_match is a hook of the shell
    """A bare app that opens one replay (the real app's launcher is tested by the UI shell)."""

    def __init__(self, source) -> None:
        super().__init__()
        self.source = source
        self.started = []

    def on_mount(self) -> None:
        open_replay(self, self.source)

    def start_match(self, match):
        self.started.append(match)
        screen = screen_class(match.game)(LocalTable(match))
        screen.table.save()
        self.push_screen(screen)
        return screen


async def test_autoplay_runs_to_the_end_at_x8(tmp_path, monkeypatch):
    monkeypatch.setattr("cellwars_tui.replay.model.TURN_DELAY", 50.0)
    monkeypatch.setattr("cellwars_tui.replay.model.CHANCE_DELAY", 50.0)
    match, path = save_toy(tmp_path, moves=40)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("space")  # at the end: starts again from the start
        assert screen.playing and screen.replay.cursor == 0
        monkeypatch.setattr("cellwars_tui.replay.model.TURN_DELAY", 0.04)
        monkeypatch.setattr("cellwars_tui.replay.model.CHANCE_DELAY", 0.02)
        await pilot.press("plus", "plus", "plus", "plus")
        assert screen.speed == 8 and "x8" in str(screen.query_one("#rb-info").content)
        deadline = time.monotonic() + 60  # (a guard against a hang: a loaded machine repaints slowly)
        while screen.playing and time.monotonic() < deadline:
            await pilot.pause(0.02)
        assert not screen.playing and screen.replay.at_end
        # space pauses (long waits here, so a slow machine cannot reach the end first, where
        # space would start it again)
        monkeypatch.setattr("cellwars_tui.replay.model.TURN_DELAY", 1000.0)
        monkeypatch.setattr("cellwars_tui.replay.model.CHANCE_DELAY", 1000.0)
        await pilot.press("end", "left", "left", "left", "space")
        assert screen.playing and screen.replay.cursor == len(match.steps) - 3
        await pilot.press("space")
        stopped = screen.replay.cursor
        await pilot.pause(0.1)
        assert not screen.playing and screen.replay.cursor == stopped


async def test_dragging_the_scrubber_seeks(tmp_path):
    match, path = save_toy(tmp_path, moves=60, hold_every=0)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert not screen.query_one("#rb-note").display  # nothing to note on a sound record
        scrubber = screen.query_one(Scrubber)
        width = scrubber.content_size.width
        await pilot.mouse_down(Scrubber, offset=(0, 0))
        assert screen.replay.cursor == 0
        await pilot.hover(Scrubber, offset=(width // 2, 0))
        await pilot.mouse_up(Scrubber, offset=(width // 2, 0))
        await pilot.pause()
        middle = screen.replay.cursor
        assert 0 < middle < len(match.steps)
        assert abs(middle - len(match.steps) / 2) <= len(match.steps) / width + 1
        assert screen.replay.state == match.states[middle]


async def test_next_and_previous_turn_follow_the_chosen_seat(tmp_path):
    match, path = save_toy(tmp_path, moves=40)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("home", "t")  # turns of the second seat
        assert screen.turn_seat == 1
        await pilot.press("right_square_bracket")  # ] (n and N: the analysis' judged moves)
        first = screen.replay.cursor
        assert match.steps[first].seat == 1
        await pilot.press("right_square_bracket", "left_square_bracket")
        assert screen.replay.cursor == first
        await pilot.press("g", "1", "2", "enter")
        assert screen.replay.cursor == 12 and screen.replay.state == match.states[12]
        await pilot.press("g", "9", "9", "9", "enter")
        assert screen.replay.cursor == len(match.steps)


async def test_a_damaged_record_opens_as_far_as_valid_and_says_why(tmp_path):
    match, path = save_toy(tmp_path, moves=40)
    text = path.read_text()
    path.write_text(text.replace('["hold"', '["teleport"').replace(
        '{"kind":"hold"}', '{"kind":"teleport"}', 1))
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.replay.problem and screen.replay.problem.startswith("valid up to step")
        assert len(screen.replay) < len(match.steps)
        info = str(screen.query_one("#rb-note").content)
        assert "valid up to step" in info


async def test_a_file_that_is_no_record_is_a_message_not_a_crash(tmp_path):
    path = tmp_path / "junk.cellwars.json"
    path.write_bytes(b"\x00garbage")
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, ReplayScreen)
        assert any("not a readable record" in n.message for n in app._notifications)


async def test_the_move_list_exports_and_imports_back(tmp_path):
    match, path = save_toy(tmp_path, moves=30)
    out = tmp_path / "moves.txt"
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        field = app.screen.query_one(Input)
        field.value = str(out)
        await pilot.press("enter")
        await pilot.pause()
        assert out.read_text().startswith("# cellwars move list")
        app.push_screen(ReplayListScreen())
        await pilot.pause()
        await pilot.press("i")
        await pilot.pause()
        app.screen.query_one(Input).value = str(out)
        await pilot.press("enter")
        await pilot.pause()
        imported = app.screen
        assert isinstance(imported, ReplayScreen)
        assert imported.replay.state == match.state and len(imported.replay) == len(match.steps)
        assert imported.replay.path.exists()  # kept as a saved game


async def test_a_replay_screen_takes_an_open_replay_too(tmp_path):
    replay = Replay.from_match(toy_match(4, 20))
    app = Host(replay)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.replay is replay


async def test_a_truncated_file_opens_in_the_app_up_to_where_it_stops_and_says_why(tmp_path):
    from cellwars_tui.ui.app import CellwarsApp

    match, path = save_toy(tmp_path, moves=40)
    path.write_bytes(path.read_bytes()[:-120])
    app = CellwarsApp(replay=path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        n = len(screen.replay)
        assert 0 < n < len(match.steps) and screen.replay.state == match.states[n]
        info = str(screen.query_one("#rb-note").content)
        assert f"valid up to step {n}" in info and "cut short" in info
        assert screen.query_one("#rb-note").display and len(info) <= SIZE[0] - 2  # all of it shows
        assert any("damaged" in note.message for note in app._notifications)
        await pilot.press("home", "j", "end")
        assert screen.replay.cursor == n


async def test_a_record_of_a_newer_format_opens_with_a_note(tmp_path):
    match, path = save_toy(tmp_path, moves=20)
    path.write_text(path.read_text().replace('"format_version":1', '"format_version":3'))
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and len(screen.replay) == len(match.steps)
        assert "record format 3 is newer" in str(screen.query_one("#rb-note").content)


async def test_a_screen_that_cannot_draw_a_position_is_a_message_not_a_crash(tmp_path, monkeypatch):
    from cellwars_tui.ui.generic_screen import GenericScreen

    match, path = save_toy(tmp_path, moves=30)
    real_show = GenericScreen.show

    def show(self, view, seat, legal):
        if getattr(self, "replay", None) is not None and self.replay.cursor == 3:
            raise ValueError("no picture for this")
        real_show(self, view, seat, legal)

    monkeypatch.setattr(GenericScreen, "show", show)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("home", "j", "j", "j")
        await pilot.pause()
        assert screen.replay.cursor == 3
        assert screen.draw_problem == "Toy race's screen cannot draw step 3: ValueError: no picture for this"
        assert "cannot draw step 3" in str(screen.query_one("#gs-status").content)
        assert "Step 3/" in str(screen.query_one("#rb-info").content)  # the bar still follows
        await pilot.press("j")
        await pilot.pause()
        assert screen.draw_problem is None and app.is_running


async def test_the_step_line_and_log_hide_what_the_chosen_seat_did_not_see(tmp_path, monkeypatch):
    from tests.toy_game import TOY

    match, path = save_toy(tmp_path, moves=30)
    # a game's optional view_event hook: seat 0 never learns the dice
    monkeypatch.setattr(TOY, "view_event", lambda event, seat: None if seat == 0 else event,
                        raising=False)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        die = next(i for i, s in enumerate(match.steps, 1) if s.seat == -1 and match.events[i - 1])
        screen.seek(die)
        screen.set_view(None)
        await pilot.pause()
        revealed = screen.table.events()
        assert str(screen.query_one("#rb-step").content).count("—") == 1
        screen.set_view(0)
        await pilot.pause()
        hidden = screen.table.events()
        assert len(hidden) < len(revealed)
        assert "—" not in str(screen.query_one("#rb-step").content)
        screen.set_view(1)
        assert screen.table.events() == revealed


async def test_the_step_line_always_names_what_happened(monkeypatch):
    """Issue 29: a step the chosen seat did not see, and that told it nothing, read "2. Bob"
    alone; it says that a move was made that this seat does not see."""
    from cellwars_tui.core import Match, Seat
    from tests.ui.toy_secret import SECRET, Pick

    match = Match(SECRET, SECRET.options_type(players=2), [Seat(name="Ann"), Seat(name="Bob")], 1)
    match.play(0, Pick(2))
    match.play(1, Pick(3))
    monkeypatch.setattr(SECRET, "view_event", lambda event, seat: None, raising=False)
    app = Host(Replay.from_match(match))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        screen.seek(2)
        screen.set_view(0)
        await pilot.pause()
        line = str(screen.query_one("#rb-step").content)
        assert line == "2. Bob: a move Ann does not see (V shows everything)"
        screen.set_view(None)
        await pilot.pause()
        assert str(screen.query_one("#rb-step").content) == "2. Bob: pick3 — Bob has picked"


async def test_enter_in_the_play_on_dialog_plays(tmp_path):
    """Issue 29: the play-on dialog opened with the first seat's name focused; Play now has the
    focus (Enter plays at once) and stands apart from Cancel."""
    from textual.widgets import Button

    from cellwars_tui.ui.replay import SeatsDialog
    from tests.ui.helpers import until

    _, path = save_toy(tmp_path, moves=20)
    app = Host(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.screen.seek(10)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, SeatsDialog), "the seats dialog")
        dialog = app.screen
        await until(pilot, lambda: dialog.focused is not None, "the focus")
        play, cancel = dialog.query_one("#seats-play", Button), dialog.query_one("#seats-cancel")
        assert dialog.focused is play
        assert cancel.region.x - play.region.right >= 1  # a gap between them
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.started), "the game played on")
        assert app.started[-1].cursor == 10


async def test_the_game_screens_own_css_applies_in_the_replay(tmp_path):
    """Textual takes CSS from the first base class only; the replay class is (ReplayScreen,
    game screen), so the game screen's DEFAULT_CSS and type selectors must be put back."""
    from cellwars_tui.ui.generic_screen import GenericScreen

    match, path = save_toy(tmp_path, moves=20)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GenericScreen)
        assert {"GenericScreen", "ReplayScreen", "GameScreen"} <= screen._css_type_names
        moves = screen.query_one("#generic-moves")
        assert moves.styles.height.value == 8  # "GenericScreen #generic-moves { height: 8 }"
        assert screen.query_one("#gs-title").styles.height.value == 1  # GameScreen's CSS
        assert screen.query_one("#replay-bar").styles.border_top[0] == "solid"  # the bar's CSS


async def test_a_real_time_game_autoplays_by_its_timestamps(tmp_path, monkeypatch):
    from tests.toy_game import TOY

    monkeypatch.setattr(type(TOY), "real_time", True)
    match, path = save_toy(tmp_path, moves=12)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        delays = []
        real_set_timer = screen.set_timer

        def set_timer(delay, callback, **kw):
            delays.append(round(delay, 6))
            return real_set_timer(0.001, callback, **kw)

        screen.set_timer = set_timer
        await pilot.press("plus")  # x2
        assert f"{match.steps[-1].t:.1f}s ·" in str(screen.query_one("#rb-info").content)
        await pilot.press("space")  # at the end: from the start
        deadline = time.monotonic() + 20  # (a loaded machine runs the 1 ms timers late)
        while screen.playing and time.monotonic() < deadline:
            await pilot.pause(0.02)
        assert screen.replay.at_end
    times = [0.0] + [s.t for s in match.steps]
    expected = [round(max(0.001, min(max(times[n + 1] - times[n], 0.0), 5.0) / 2), 6)
                for n in range(len(match.steps))]
    assert delays == expected


async def test_a_game_screen_that_cannot_be_built_for_a_replay_is_a_message(tmp_path, monkeypatch):
    from cellwars_tui.ui.game_screen import GameScreen

    _, path = save_toy(tmp_path, moves=10)

    def broken(self, table, *, read_only=False):
        raise RuntimeError("needs a live match")

    monkeypatch.setattr(GameScreen, "__init__", broken)
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, ReplayScreen) and app.is_running
        assert any("cannot show a replay (RuntimeError: needs a live match)" in n.message
                   for n in app._notifications)


async def test_a_server_session_exports_only_into_the_players_exports_folder(tmp_path, monkeypatch):
    from cellwars_tui.ui.replay import exports_dir

    monkeypatch.setenv("CELLWARS_SSH_HUB", str(tmp_path / "hub.sock"))
    monkeypatch.setenv("CELLWARS_SSH_TOKEN", "secret")
    match, path = save_toy(tmp_path, moves=15)
    outside = tmp_path / "elsewhere" / "evil.txt"
    app = Host(path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        field = app.screen.query_one(Input)
        assert "/" not in field.value  # a file name only
        field.value = str(outside)
        await pilot.press("enter")
        await pilot.pause()
    assert not outside.exists()
    assert (exports_dir() / "evil.txt").read_text().startswith("# cellwars move list")
