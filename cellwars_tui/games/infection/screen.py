"""The Infection screen: a real-time table where everyone rolls at once against a big countdown.

Time comes from the shared timer service (``cellwars_tui.timer``): the screen owns one
:class:`~cellwars_tui.timer.Timer` per table, restarted for each round. Its ticks (``FPS``, 40 a
second) repaint the countdown and the tumbling dice; its expiry applies the rules' system action
``time-up N``; its play-time callbacks run the bot teammates at their pace, so pausing the timer
stops every player at once. The match records each action at the timer's play time (pauses
excluded), so a replay shows the rounds exactly as they were played. Time spent at the table
without acting is recorded too, as the rules' no-op ``clock N`` step (on leaving, and every
``clarifications.CLOCK_SECONDS`` without an action; one such step after the last action, moved
on each time), so leaving and resuming never gives time back.

Nothing here decides a rule: legality, set-aside dice, claims and round ends all come from
``rules.py``; the bots' choices from ``bot.py``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Digits, Static

from ...core.api import CHANCE, Action
from ...core.errors import CellwarsError
from ...timer import Clock, Tick, Timer, format_clock
from ...ui.dialogs import MovesPicker
from ...ui.game_screen import SEAT_GLYPHS, GameScreen
from . import cards as K
from . import clarifications as C
from .bot import ROLLS, choose, next_wait
from .rules import (CURE, NO_SEAT, REST, SEARCH, WHITE, Claim, Clock, Double, Hold, InfectionState,
                   Move, Rat, Rest, Rewhite, Roll, RollWhite, RoundOver, Supply, Target, TimeUp,
                   microscopes, missing, top_free, vp)

FPS = 40  # timer ticks a second: headroom over the 30 updates/s the table must keep
NARROW_WIDTH = 100  # below this many columns: compact cards and a narrow side panel
WIDE_WIDTH = 130  # from this many columns on: a wide side panel (whole log lines)
SHORT_HEIGHT = 30  # below this many lines: the countdown's row loses its blank lines
HURRY_SECONDS = 20.0  # the countdown changes its look in the last 20 seconds
POWER_KEYS = "asdfghjkl"
COLUMN_KEYS = "zxc"
PROTEIN_STYLE = {"G": "bold #4FBF5A", "B": "bold #4C8DF0", "Y": "bold #E8D04C",
                 "R": "bold #E0524F", "P": "bold #B070E0", "M": "bold", "X": ""}
FACE_GLYPH = {"M": "🔬", "X": " "}
POWER_SHORT = {K.RAT: "rat", K.DOUBLE: "×2", K.WILD: "wild", K.ANY: "any", K.REWHITE: "⟳W",
               K.MOVE: "move"}


def face_text(face: str) -> str:
    """A die face in two cells: a protein letter, M for a microscope, blank, or '··' unrolled."""
    if face == "":
        return "··"
    if face == K.MICROSCOPE:
        return "M "
    if face == K.BLANK:
        return "  "
    return f"{face} "


def power_short(card: int) -> str:
    power = K.CARD_POWER[card]
    if not power:
        return ""
    return f"→{power}" if power in K.PROTEIN_VP else POWER_SHORT[power]


class CountdownDigits(Digits):
    """The big countdown; a click pauses or resumes."""

    def on_click(self, event: events.Click) -> None:
        screen = self.screen
        if isinstance(screen, InfectionScreen):
            event.stop()
            screen.action_pause()


class ColumnList(Static):
    """One column of the virus: a card per line, top first; a click targets that card."""

    def __init__(self, column: int) -> None:
        super().__init__(id=f"inf-col-{column}", classes="inf-col")
        self.column = column

    def on_click(self, event: events.Click) -> None:
        screen = self.screen
        offset = event.get_content_offset(self)
        if isinstance(screen, InfectionScreen) and offset is not None:
            event.stop()
            screen.clicked_card(self.column, offset.y)


class DieBox(Static):
    """One of your three coloured dice; a click holds or releases it."""

    def __init__(self, die: int) -> None:
        super().__init__(id=f"inf-die-{die}", classes="inf-die")
        self.die = die

    def on_click(self, event: events.Click) -> None:
        screen = self.screen
        if isinstance(screen, InfectionScreen):
            event.stop()
            screen.action_hold(self.die)


class MineLine(Static):
    """Your line beside the dice (what to do next); a click does it: roll the white die, roll
    the free dice, or take the completed card (as space does)."""

    def on_click(self, event: events.Click) -> None:
        screen = self.screen
        if isinstance(screen, InfectionScreen):
            event.stop()
            screen.action_main()


class PowerList(Static):
    """Your unused powers, one per line with its key; a click uses it."""

    def on_click(self, event: events.Click) -> None:
        screen = self.screen
        offset = event.get_content_offset(self)
        if isinstance(screen, InfectionScreen) and offset is not None:
            event.stop()
            screen.action_power(offset.y)


class InfectionScreen(GameScreen):
    """Infection played in real time: your dice by keys and mouse, bot teammates at their pace."""

    AUTO_FOCUS = None  # nothing takes the keys (enter would press the hidden "New game" button)
    clock: ClassVar[Clock | None] = None  # tests put a FakeClock here; None = the real clock
    fps: ClassVar[float] = FPS  # timer ticks (screen updates) per second during a round
    MIN_SIZE = (80, 24)  # three card columns of a 4-player deal, proteins and powers whole

    DEFAULT_CSS = """
    InfectionScreen #inf-top { height: 5; }
    InfectionScreen #inf-clock { width: auto; min-width: 16; padding: 0 1; }
    InfectionScreen #inf-clock.hurry { color: $error; text-style: bold; }
    InfectionScreen #inf-clock.flash { color: $warning; }
    InfectionScreen #inf-clock.paused { color: $text-muted; }
    InfectionScreen #inf-round { width: 1fr; height: 100%; padding: 1 1 0 1; }
    InfectionScreen #inf-virus { height: 1fr; min-height: 6; }
    InfectionScreen .inf-colbox { width: 1fr; height: 100%; border: round $panel; padding: 0 0; }
    InfectionScreen .inf-col { width: 100%; height: 1fr; }
    InfectionScreen #inf-players { height: 4; }
    InfectionScreen #inf-you { height: 3; }
    InfectionScreen .inf-die { width: 6; height: 3; border: round $panel; content-align: center middle; }
    InfectionScreen .inf-die.held { border: heavy $accent; }
    InfectionScreen #inf-mine { width: 1fr; height: 3; padding: 0 1; }
    InfectionScreen #inf-powers { height: auto; max-height: 4; padding: 0 1; }
    InfectionScreen.-narrow #gs-side { width: 22; }
    InfectionScreen.-short #inf-top { height: 3; }
    InfectionScreen.-short #inf-round { padding: 0 1; }
    InfectionScreen.-wide #gs-side { width: 40%; max-width: 72; }
    InfectionScreen #gs-log, InfectionScreen #gs-seats, InfectionScreen .inf-col,
    InfectionScreen #inf-players, InfectionScreen #inf-mine { text-wrap: nowrap;
        text-overflow: ellipsis; }
    """

    BINDINGS = [
        Binding("space", "main", "Roll/claim"),
        Binding("enter", "claim", "Claim", show=False, priority=True),
        Binding("1", "hold(0)", "Hold 1", show=False),
        Binding("2", "hold(1)", "Hold 2", show=False),
        Binding("3", "hold(2)", "Hold 3", show=False),
        Binding("z", "target(0)", "Col I", show=False),
        Binding("x", "target(1)", "Col II", show=False),
        Binding("c", "target(2)", "Col III", show=False),
        *[Binding(k, f"power({i})", f"Power {k}", show=False) for i, k in enumerate(POWER_KEYS)],
        Binding("full_stop", "rest", "Rest", key_display="."),
        Binding("p", "pause", "Pause"),
    ]

    def __init__(self, table: Any, *, read_only: bool = False) -> None:
        super().__init__(table, read_only=read_only)
        opts = self._options()
        self.round_seconds = float(getattr(opts, "round_seconds", C.ROUND_SECONDS_DEFAULT))
        self.tense = bool(getattr(opts, "tense_team_game", False)) and table.players > 1
        players = table.players
        try:
            paces = C.parse_paces(getattr(opts, "paces", C.PACE_DEFAULT), players)
        except ValueError:
            paces = (C.PACE_DEFAULT,) * players
        self.paces = tuple(C.PACES[p] for p in paces)
        self.timer = Timer(self.round_seconds, interval=1 / self.fps, clock=type(self).clock)
        self.user_paused = False
        self._round = 0  # the round the timer is running for
        self._tumble: dict[int, tuple[float, tuple[bool, ...]]] = {}  # seat -> (until, dice rolling)
        self._result_step: dict[int, int] = {}  # seat -> the step whose log lines tell its roll
        self._bot_handles: dict[int, Any] = {}
        self._rng = random.Random(f"infection-screen/{getattr(table, 'revision', 0)}")
        self._shown_clock = ""
        self._drawn: dict[str, Any] = {}  # selector -> the key of what it shows now
        self._state: InfectionState | None = None
        self._started = False

    def _record(self) -> Any:
        """What holds the steps and their times: the match here, the replay in a replay."""
        match = getattr(self.table, "match", None)
        return match if match is not None else getattr(self.table, "replay", None)

    def _options(self) -> Any:
        record = self._record()
        return record.options if record is not None else None

    # -- layout --------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        with Horizontal(id="inf-top"):
            yield CountdownDigits("3:00", id="inf-clock")
            yield Static(id="inf-round")
        with Horizontal(id="inf-virus"):
            for col in range(3):
                with Vertical(classes="inf-colbox", id=f"inf-colbox-{col}") as box:
                    box.border_title = self._column_title(col)
                    yield ColumnList(col)
        yield Static(id="inf-players")
        with Horizontal(id="inf-you"):
            for die in range(3):
                yield DieBox(die)
            yield MineLine(id="inf-mine")
        yield PowerList(id="inf-powers")

    def _column_title(self, col: int) -> str:
        level = K.LEVELS[col] if self.compact else f"Level {K.LEVELS[col]}"
        return f"{level} · {'🔬' * (col + 1)}"

    @property
    def compact(self) -> bool:
        """Narrow terminal (80 columns): short card lines and a narrow side panel."""
        return self.has_class("-narrow")

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width, event.size.height)

    def _fit(self, width: int, height: int) -> None:
        """Lay out for ``width`` columns: at 80 the cards keep every protein, VP and power (the
        side panel narrows), at 130 and more the side panel widens so log lines show whole."""
        narrow, wide = width < NARROW_WIDTH, width >= WIDE_WIDTH
        self.set_class(height < SHORT_HEIGHT, "-short")  # (two more cards show at 24 lines)
        if (narrow, wide) == (self.has_class("-narrow"), self.has_class("-wide")):
            return
        self.set_class(narrow, "-narrow")
        self.set_class(wide, "-wide")
        for col in range(3):
            self.query_one(f"#inf-colbox-{col}").border_title = self._column_title(col)
        self._drawn.clear()  # repaint everything at the new size
        if self._state is not None:
            self.refresh_table()

    # -- timer and table -----------------------------------------------------------------------
    def on_mount(self) -> None:
        self._fit(*self.app.size)
        self.query_one("#inf-players").styles.height = self.table.players
        for i in range(3):
            self.query_one(f"#inf-die-{i}").border_title = str(i + 1)
        self.timer.subscribe(self._on_tick)
        self.timer.on_expire(self._on_expire)
        match = getattr(self.table, "match", None)
        if match is not None and not self.read_only:
            # record every action at the timer's play time (pauses excluded), going on from the
            # last recorded step, a "clock N" one when the player left idle (time spent elsewhere,
            # in menus or between sessions, is not play)
            match.set_clock(self.timer.play_time)
        super().on_mount()
        for button in self.query("#gs-banner Button"):
            button.can_focus = False  # hidden while playing: keys belong to the table
        self.set_focus(None)

    def on_unmount(self) -> None:
        # leaving the table (q, or the app closing): the time played so far stays spent
        self._record_clock(0.0, leaving=True)
        self.timer.close()
        super().on_unmount()

    def _record_clock(self, idle: float, *, leaving: bool = False) -> None:
        """Record a ``clock N`` step (nothing changes but the time) when ``idle`` seconds of play
        have passed since the last recorded step, so a resumed game goes on from the time reached,
        not from its last action (see ``clarifications.CLOCK_SECONDS``). A clock step recorded
        since the last action is replaced (moved on), not followed by another."""
        if not self.owns_time() or not self._round:
            return
        match = self.table.match
        s = match.state
        if s.result or s.shuffled < 3 or s.pending != NO_SEAT or s.round != self._round:
            return
        last = match.steps[match.cursor - 1] if match.cursor else None
        if match.now() - (last.t if last is not None else 0.0) < max(idle, 0.01):
            return
        if last is not None and isinstance(last.action, Clock) and match.cursor == len(match.steps):
            # the time reached moves on: one clock step between two actions, not one every
            # CLOCK_SECONDS (it changes nothing, so dropping the older one replays the same)
            match.seek(match.cursor - 1)
        if leaving:  # saved, but nothing is repainted on a screen going away
            match.play(CHANCE, Clock(s.round))
            self.table.save()
        else:
            self._system(Clock(s.round))

    def _start_bot(self, seat: int) -> None:
        """Bots here act on the timer at their own pace, not in the base class's worker."""

    def _round_start_in_record(self) -> float:
        """Play time at which the current round began, from the record (0 without one)."""
        record = self._record()
        if record is None:
            return 0.0
        for i in range(record.cursor - 1, -1, -1):
            if any(isinstance(e, RoundOver) for e in record.events[i]):
                return record.steps[i].t
        return 0.0

    def _sync_round(self, s: InfectionState) -> None:
        """Start the timer for a new round; stop it when the game is over."""
        if self.read_only:
            return
        if s.result:
            self.timer.stop()
            self._cancel_bots()
            # the timer stops with it: dice still in the air would tumble for ever ("rolling…"
            # on the game-over table); everyone's dice lie as the end left them
            self._tumble.clear()
            self._result_step.clear()
            for button in self.query("#gs-banner Button"):
                button.can_focus = True
            self.refresh_bindings()  # the footer drops the playing keys
            return
        if s.round == self._round:
            return
        first = self._round == 0
        self._round = s.round
        duration = self.round_seconds
        if first:  # a resumed game goes on with the time its round had left
            match = getattr(self.table, "match", None)
            if match is not None and match.cursor:
                played = match.steps[match.cursor - 1].t - self._round_start_in_record()
                duration = min(self.round_seconds, max(1.0, self.round_seconds - played))
        self._tumble.clear()
        self._result_step.clear()
        self.timer.start(duration)
        if self.user_paused or self._remote_pause():
            self.timer.pause()
        if first:
            self._schedule_bots()

    def _remote_pause(self) -> str:
        paused = getattr(self.table, "paused", "")
        return paused if isinstance(paused, str) else ""

    def _on_expire(self) -> None:
        s = self.table.view(None)
        if s.result or not self.owns_time():
            return
        self._system(TimeUp(s.round))

    def _system(self, action: Action) -> None:
        """Apply a system action (time-up, clock) to the table."""
        try:
            self.table.submit_system(action)
        except CellwarsError as exc:
            self.say(f"time-up: {exc}")

    def _on_tick(self, tick: Tick) -> None:
        if self.is_mounted:
            self._record_clock(C.CLOCK_SECONDS)
            self._paint_clock()
            if self._tumble:
                self._paint_seats()
                now = self.timer.play_time()
                landed = [s for s, (until, _) in self._tumble.items() if until <= now]
                for seat in landed:
                    del self._tumble[seat]
                    self._result_step.pop(seat, None)
                if landed and self._state is not None:  # the results show once the dice stop
                    self._paint_you(self._state)
                    self._paint_side(self.table.viewer())

    # -- bots ----------------------------------------------------------------------------------
    def bot_seats(self) -> list[int]:
        humans = getattr(self.table, "humans", frozenset())
        return [i for i, seat in enumerate(self.table.seats) if seat.is_bot and i not in humans]

    def owns_time(self) -> bool:
        """Whether this screen runs the game's clock and bots: a local match does; at a remote
        (SSH) table the hub applies time-up and runs the bots, and this screen only shows them."""
        return not self.read_only and getattr(self.table, "match", None) is not None

    def _schedule_bots(self) -> None:
        if not self.owns_time():
            return
        for seat in self.bot_seats():
            self._schedule_bot(seat, next_wait(self.paces[seat], self._rng))

    def _schedule_bot(self, seat: int, wait: float) -> None:
        old = self._bot_handles.get(seat)
        if old is not None:
            old.cancel()
        self._bot_handles[seat] = self.timer.after(wait, lambda: self._bot_act(seat))

    def _cancel_bots(self) -> None:
        for handle in self._bot_handles.values():
            handle.cancel()
        self._bot_handles.clear()

    def _bot_act(self, seat: int) -> None:
        self._bot_handles.pop(seat, None)
        if not self.is_attached or self.table.is_over():
            return
        wait = next_wait(self.paces[seat], self._rng)
        if self.table.to_act() and seat in self.table.to_act() and not self._busy(seat):
            s = self.table.view(seat)
            action = choose(s, seat)
            try:
                self.table.submit(seat, action)
            except CellwarsError as exc:
                self.say(f"{self.seat_title(seat)}: {exc}")
            else:
                if isinstance(action, ROLLS):
                    self._start_tumble(seat, action, s.seats[seat])
                    wait += C.TUMBLE_SECONDS
        if not self.table.is_over():
            self._schedule_bot(seat, wait)

    # -- tumbling dice (the table's 1.5 s, not a rule) -----------------------------------------
    def _start_tumble(self, seat: int, action: Action, before: Any = None) -> None:
        if isinstance(action, Roll):
            rolling = tuple(not h for h in (before.held if before is not None else (False,) * 3))
        else:
            rolling = (False, False, False)  # the white die
        self._tumble[seat] = (self.timer.play_time() + C.TUMBLE_SECONDS, rolling)
        self._result_step[seat] = self.table.step()  # the chance step that rolled them
        if self.is_mounted and self._state is not None:  # hide what was painted with the result
            self._paint_seats()
            self._paint_you(self._state)
            self._paint_side(self.table.viewer())

    def _busy(self, seat: int) -> bool:
        return self._rolling(seat) is not None

    # -- playing -------------------------------------------------------------------------------
    def play(self, action: Action) -> bool:
        if self.read_only:
            return super().play(action)
        if self.is_paused():
            self.say("Paused: press p to play on.")
            return False
        seat = self.acting_seat()
        if seat is not None and self._busy(seat):
            self.say("Your dice are still rolling…")
            return False
        before = self.table.view(seat).seats[seat] if seat is not None else None
        ok = super().play(action)
        if ok and isinstance(action, ROLLS) and seat is not None:
            self._start_tumble(seat, action, before)
        return ok

    def is_paused(self) -> bool:
        return self.user_paused or bool(self._remote_pause())

    def me(self) -> int | None:
        """The local human's seat (the screen's viewer), if any."""
        viewer = self.table.viewer() if not self.table.is_over() else None
        if viewer is None:
            humans = sorted(getattr(self.table, "humans", ()))
            viewer = humans[0] if humans else None
        return viewer

    def _my_legal(self, kind: type) -> list[Action]:
        return [a for a in self._legal if isinstance(a, kind)]

    def action_main(self) -> None:
        """Space: the obvious next step (white die, take the card, or roll)."""
        seat = self.me()
        if seat is None or self.read_only:
            self.say("Nothing for you to roll.")
            return
        for kind in (RollWhite, Claim, Roll):
            found = self._my_legal(kind)
            if found:
                self.play(found[0])
                return
        p = self.table.view(seat).seats[seat]
        if p.stage == REST:
            self.say("You rest until the next round.")
        elif all(p.held):
            self.say("Every die is held: release one (1, 2, 3) to roll.")
        else:
            self.say("Nothing to roll now.")

    def action_claim(self) -> None:
        found = self._my_legal(Claim)
        if found:
            self.play(found[0])
        else:
            self.say("The molecule still needs proteins.")

    def action_hold(self, die: int) -> None:
        if Hold(die) in self._legal:
            self.play(Hold(die))
        else:
            seat = self.me()
            stage = self.table.view(seat).seats[seat].stage if seat is not None else ""
            self.say("Dice are set aside by themselves once your meeple is on a card."
                     if stage == CURE else "Roll the dice before holding one.")

    def action_target(self, column: int) -> None:
        found = [a for a in self._my_legal(Target) if a.column == column and a.card < 0]
        if found:
            self.play(found[0])
            return
        seat = self.me()
        s = self.table.view(None)
        if seat is None:
            return
        p = s.seats[seat]
        if p.stage == CURE:
            self.say("Your meeple stays on its card until the molecule is destroyed.")
        elif p.stage == SEARCH and microscopes(p) <= column:
            self.say(f"Level {K.LEVELS[column]} needs {column + 1} microscope(s); you have "
                     f"{microscopes(p)}.")
        elif p.stage == SEARCH and top_free(s, column) < 0:
            self.say(f"Column {K.LEVELS[column]} has no free card.")
        else:
            self.say("Roll your white die first (space).")

    def clicked_card(self, column: int, line: int) -> None:
        """A click on the ``line``-th card of ``column``: target it (or move there)."""
        s = self.table.view(None)
        if not 0 <= line < len(s.columns[column]):
            return
        options = [a for a in self._legal if isinstance(a, (Target, Move))
                   and a.column == column and a.pos == line]
        options.sort(key=lambda a: getattr(a, "card", -1))  # a plain target before a power
        if options:
            self.play(options[0])
        else:
            self.action_target(column)

    def my_powers(self) -> list[int]:
        seat = self.me()
        if seat is None:
            return []
        p = self.table.view(None).seats[seat]
        return [c for c in p.cards if c not in p.spent and K.CARD_POWER[c]]

    def action_power(self, index: int) -> None:
        powers = self.my_powers()
        if not 0 <= index < len(powers):
            self.say("No power there.")
            return
        card = powers[index]
        options = [a for a in self._legal if getattr(a, "card", -1) == card
                   and isinstance(a, (Supply, Double, Rat, Rewhite, Move, Target))]
        if not options:
            self.say(f"{K.power_label(card).capitalize()} ({K.CARD_CODE[card]}) cannot be used now.")
            return
        if len(options) == 1:
            self.play(options[0])
            return

        def picked(action: Action | None) -> None:
            if action is not None:
                self.play(action)

        self.app.push_screen(MovesPicker(self.game, options), picked)

    def action_rest(self) -> None:
        if Rest() in self._legal:
            self.play(Rest())
        else:
            self.say("You already rest.")

    def action_pause(self) -> None:
        if self.read_only or self.table.is_over():
            return
        if not self.owns_time():  # an online table: the hub keeps the timer for everyone
            request = getattr(self.table, "request_pause", None)
            if request is None:
                self.say("This table pauses by itself while a seated player is away.")
                return
            on = not self._remote_pause()
            try:
                request(on)
            except CellwarsError as exc:
                self.say(str(exc))
                return
            self.say("Pausing the game for everyone…" if on else "Playing on…")
            return
        self.user_paused = not self.user_paused
        if self.user_paused:
            self.timer.pause()
            self.say("Paused: every player stops. Press p to play on.")
        else:
            self.timer.resume()
            self.say("Play on!")
        self._paint_clock()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "redo"):
            return False  # no undo in real time
        if action in ("main", "claim", "hold", "target", "power", "rest", "pause"):
            # at the end, enter goes back to the banner's buttons
            return not self.read_only and not self.table.is_over()
        return super().check_action(action, parameters)

    # -- drawing -------------------------------------------------------------------------------
    def show(self, view: Any, seat: int | None, legal: list[Action]) -> None:
        s: InfectionState = view
        self._state = s
        if s.shuffled < 3:
            return
        self._sync_round(s)
        self.follow_remote_pause()
        self._paint_clock()
        self._paint_columns(s)
        self._paint_seats()
        self._paint_you(s)

    def follow_remote_pause(self) -> None:
        """Follow a pause decided elsewhere (an SSH player away): stop or restart the timer."""
        if self.read_only:
            return
        remote = bool(self._remote_pause())
        if remote and self.timer.running:
            self.timer.pause()
        elif not remote and not self.user_paused and self.timer.state == "paused":
            self.timer.resume()

    def _put(self, selector: str, key: Any, build: Any, *, layout: bool = False) -> None:
        """Update a widget with ``build()`` only when ``key`` (what it shows) has changed: a
        Static's update re-styles its text, too costly to repeat 30 times a second. Widgets of a
        fixed size skip the layout pass (``layout=False``), which would reflow the whole screen."""
        if self._drawn.get(selector) == key:
            return
        self._drawn[selector] = key
        self.query_one(selector, Static).update(build(), layout=layout)

    def _paint_frame(self, viewer: int | None, bot: int | None) -> None:
        """Title, side panel, banner and status (the base's frame, drawn here with bots acting on
        the timer rather than "thinking", and the log showing its newest lines)."""
        table = self.table
        over = table.is_over()
        acting = [s for s in table.to_act() if s != CHANCE]
        line = "game over" if over else (f"{len(acting)} of {table.players} playing"
                                         if acting else "")
        self._put("#gs-title", (table.step() // 10, line),
                  lambda: Text(f"{self.game.title} · {line}", no_wrap=True))
        self._paint_side(viewer)
        banner = self.query_one("#gs-banner")
        banner.set_class(over, "over")
        if over:
            self._put("#gs-result", table.outcome_text(), lambda: Text(table.outcome_text()))
            if self.read_only:
                self.query_one("#gs-again").display = False
        if self._status:
            status, self._status = self._status, ""
        elif over:
            status = f"Game over: {table.outcome_text()}"
        elif self.read_only:
            status = "Replay"
        elif self.me() is None:
            status = "Watching the bots play · p: pause"
        elif self._legal:
            status = ("space roll/claim · 1 2 3 hold · z x c target · a s d… powers · . rest · "
                      "p pause")
        else:
            status = "Resting until the next round · p: pause"
        problem = getattr(table, "save_problem", None)
        if problem:
            status = problem
        self._put("#gs-status", status, lambda: Text(status, no_wrap=True, overflow="ellipsis"))

    def say(self, text: str) -> None:
        self._drawn.pop("#gs-status", None)
        super().say(text)

    def _paint_side(self, viewer: int | None) -> None:
        """The seats with their pace and VP, and the newest events, one line each."""
        table = self.table
        s = self._state
        bots = set(self.bot_seats())
        scores = tuple(vp(p) for p in s.seats) if s is not None else ()

        def seats() -> Text:
            text = Text(no_wrap=True, overflow="ellipsis")
            for i in range(table.players):
                text.append(f"{SEAT_GLYPHS[i % 6]} {table.seat_name(i)}",
                            style=f"bold {self.seat_colour(i)}")
                if i in bots:
                    pace = next(k for k, v in C.PACES.items() if v == self.paces[i])
                    text.append(f"  bot, {pace}", style=self.colour("muted"))
                elif viewer == i:
                    text.append("  you")
                if i < len(scores):
                    text.append(f"  {scores[i]} VP")
                text.append("\n")
            return text

        self._put("#gs-seats", (viewer, scores), seats, layout=True)
        log_widget = self.query_one("#gs-log", Static)
        lines = max(4, log_widget.size.height or 20)

        # a roll's result is told once its dice stop tumbling
        hidden = frozenset(step for seat, step in self._result_step.items()
                           if self._rolling(seat) is not None)

        def log() -> Text:
            text = Text(no_wrap=True, overflow="ellipsis")
            shown = [e for e in table.events(last=lines + len(hidden) * 4) if e[0] not in hidden]
            for _step, seat, sentence in shown[-lines:]:
                style = self.seat_colour(seat) if seat is not None else ""
                text.append(sentence + "\n", style=style)
            return text

        self._put("#gs-log", (table.step(), lines, hidden), log)

    def remaining(self) -> float:
        """Seconds left in the current round as shown (from the record in a replay)."""
        if self.read_only:
            record = self._record()
            if record is None or not record.cursor:
                return self.round_seconds
            now = record.steps[record.cursor - 1].t
            return max(0.0, self.round_seconds - (now - self._round_start_in_record()))
        if self._state is not None and self._state.result == "overrun":
            return 0.0  # the third timer ran out (or everyone rested through it)
        shared = getattr(self.table, "time_left", None)
        if shared is not None and not self.owns_time():
            left = shared()  # a remote table: the hub's one shared timer
            return self.round_seconds if left is None else left
        if self.timer.state == "idle" and not self._round:
            return self.round_seconds
        return self.timer.remaining()

    def _paint_clock(self) -> None:
        s = self._state
        left = self.remaining()
        over = bool(s is not None and s.result)
        text = format_clock(left)
        digits = self.query_one("#inf-clock", CountdownDigits)
        if text != self._shown_clock:
            digits.update(text)
            self._shown_clock = text
        hurry = not over and left <= HURRY_SECONDS
        flags = (hurry, hurry and not self.is_paused() and int(left * 2) % 2 == 0,
                 self.is_paused())
        if flags != self._drawn.get("clock-flags"):
            self._drawn["clock-flags"] = flags
            digits.set_class(flags[0], "hurry")
            digits.set_class(flags[1], "flash")
            digits.set_class(flags[2], "paused")
        paused = self.is_paused()
        if s is None:
            return
        left_cards = sum(len(c) for c in s.columns)
        key = (s.round, left_cards, tuple(len(d) for d in s.decks), s.result, paused, hurry,
               self._remote_pause())

        def info() -> Text:
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(f"Round {s.round}/{C.ROUNDS}", style="bold")
            if self.tense:  # the rounds are shorter than the seed's: say why
                text.append(" (tense)", style=self.colour("muted"))
            text.append(f" · virus: {left_cards} molecule{'s' if left_cards != 1 else ''}")
            text.append(f" · decks {'/'.join(str(len(d)) for d in s.decks)}\n",
                        style=self.colour("muted"))
            if over:
                won = s.result == "cleared"
                text.append("Virus cleared!" if won else "The virus survived.",
                            style=f"bold {self.colour('highlight' if won else 'danger')}")
            elif paused:
                why = self._remote_pause().removeprefix("paused: ").removeprefix("paused ")
                if not why or why.startswith("by "):
                    why = f"{why} · p plays on" if why else "press p to play on"
                text.append(f"⏸ PAUSED ({why})", style=f"bold {self.colour('target')}")
            elif hurry:
                text.append("Hurry! The timer is running out!",
                            style=f"bold {self.colour('danger')}")
            else:
                text.append("Roll!", style=self.colour("muted"))
            return text

        self._put("#inf-round", key, info)

    def _paint_columns(self, s: InfectionState) -> None:
        meeples = {p.target: i for i, p in enumerate(s.seats) if p.target >= 0}
        me = self.me()
        for col in range(3):
            cards = s.columns[col]
            free = top_free(s, col)
            key = (cards, tuple((c, meeples[c]) for c in cards if c in meeples), me, free,
                   self.compact)
            self._put(f"#inf-col-{col}", key,
                      lambda cards=cards, free=free: self._column_text(cards, free, meeples, me))

    def _column_text(self, cards: tuple[int, ...], free: int, meeples: dict[int, int],
                     me: int | None) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for pos, card in enumerate(cards):
            who = meeples.get(card)
            if who is not None:
                text.append(SEAT_GLYPHS[who % 6], style=f"bold {self.seat_colour(who)}")
            elif pos == free:
                text.append("▸", style=self.colour("highlight"))
            else:
                text.append(" ")
            mine = "bold" if who is not None and who == me else ""
            if self.compact:  # the column tells the level: "I-2" shows as " 2"
                text.append(f"{K.CARD_CODE[card].split('-')[1]:>2} ", style=mine)
            else:
                text.append(f"{K.CARD_CODE[card]:<7}", style=mine)
            for prot in K.CARD_PROTEINS[card]:
                text.append(prot, style=PROTEIN_STYLE[prot])
            text.append(" " * (3 - len(K.CARD_PROTEINS[card])))
            text.append(f"{K.CARD_VP[card]:>3}", style=self.colour("muted"))
            short = power_short(card)
            if short:
                text.append(f" {short}", style=self.colour("target"))
            text.append("\n")
        if not cards:
            text.append(" (cleared)", style=self.colour("muted"))
        return text

    def _rolling(self, seat: int) -> tuple[bool, ...] | None:
        """Which of ``seat``'s dice are tumbling now ((False,)*3: the white die), or None."""
        t = self._tumble.get(seat)
        return t[1] if t is not None and t[0] > self.timer.play_time() else None

    def _frame(self) -> int:
        """The tumbling dice change faces 12 times a second."""
        return int(self.timer.play_time() * 12)

    def _dice_text(self, s: InfectionState, seat: int) -> Text:
        p = s.seats[seat]
        text = Text()
        white = "·" if p.white < 0 else str(p.white)
        rolling = self._rolling(seat)
        if rolling is not None and not any(rolling):
            white = str(self._rng.choice(K.WHITE_FACES))
        text.append(f"⚪{white} ", style="bold")
        for i in range(3):
            face = p.dice[i]
            if rolling is not None and rolling[i]:
                face = self._rng.choice(K.DICE[i])
                text.append(f"[{face_text(face)}]", style="dim " + PROTEIN_STYLE.get(face, ""))
                continue
            style = PROTEIN_STYLE.get(face, "")
            if p.held[i]:
                style += " reverse"
            text.append(f"[{face_text(face)}]", style=style)
        return text

    def _paint_seats(self) -> None:
        s = self._state
        if s is None or s.shuffled < 3:
            return
        rolling = tuple(self._rolling(i) for i in range(len(s.seats)))
        frame = self._frame() if any(r is not None for r in rolling) else -1

        def rows() -> Text:
            text = Text(no_wrap=True, overflow="ellipsis")
            for i, p in enumerate(s.seats):
                colour = self.seat_colour(i)
                text.append(f"{SEAT_GLYPHS[i % 6]} ", style=f"bold {colour}")
                text.append(f"{self.table.seat_name(i)[:10]:<10} ", style=colour)
                text.append_text(self._dice_text(s, i))
                text.append(" ")
                text.append_text(self._stage_text(s, i))
                text.append(f" · {vp(p)} VP", style=self.colour("muted"))
                unused = [c for c in p.cards if c not in p.spent and K.CARD_POWER[c]]
                if unused:
                    text.append(f" · {len(unused)}⚡", style=self.colour("target"))
                text.append("\n")
            return text

        self._put("#inf-players", (s.seats, rolling, frame), rows)
        seat = self.me()
        if seat is None or not 0 <= seat < len(s.seats):
            return
        p = s.seats[seat]
        mine = rolling[seat]
        for i in range(3):
            face = p.dice[i]
            tumbling = mine is not None and mine[i]
            held = p.held[i] and not tumbling  # set aside once it has landed
            key = (face, held, frame if tumbling else -1)
            if self._drawn.get(f"die-{i}") == key:
                continue
            self._drawn[f"die-{i}"] = key
            if tumbling:
                face = self._rng.choice(K.DICE[i])
            box = self.query_one(f"#inf-die-{i}", DieBox)
            label = "·" if face == "" else ("🔬" if face == "M" else face_text(face).strip())
            box.update(Text(label or " ", style=PROTEIN_STYLE.get(face, "")), layout=False)
            if self._drawn.get(f"held-{i}") != held:
                self._drawn[f"held-{i}"] = held
                box.border_subtitle = "held" if held else ("yel" if i == 2 else "blue")
                box.set_class(held, "held")

    def _stage_text(self, s: InfectionState, seat: int) -> Text:
        p = s.seats[seat]
        text = Text()
        if s.result:
            text.append(f"{len(p.cards)} molecule{'s' if len(p.cards) != 1 else ''} destroyed",
                        style=self.colour("muted"))
        elif self._rolling(seat) is not None:
            text.append("rolling…", style=self.colour("muted"))
        elif p.stage == WHITE:
            text.append("to roll the white die", style=self.colour("muted"))
        elif p.stage == SEARCH:
            text.append(f"{microscopes(p)}🔬")
        elif p.stage == CURE:
            text.append(f"on {K.CARD_CODE[p.target]} needs ")
            need = missing(p)
            if need:
                for prot in K.PROTEINS:
                    text.append(prot * need[prot], style=PROTEIN_STYLE[prot])
            else:
                text.append("nothing: claim!", style=f"bold {self.colour('highlight')}")
        elif p.stage == REST:
            text.append("resting", style=self.colour("muted"))
        return text

    def _paint_you(self, s: InfectionState) -> None:
        seat = self.me()
        you = self.query_one("#inf-you")
        powers = self.query_one("#inf-powers", PowerList)
        if seat is None or not 0 <= seat < len(s.seats) or self.read_only or s.result:
            you.display = False
            powers.display = False
            return
        you.display = True
        p = s.seats[seat]
        mine = self.my_powers()
        rolling = self._rolling(seat)
        self._put("#inf-mine", (seat, p, rolling, self.compact),
                  lambda: self._you_text(seat, p, rolling))
        powers.display = bool(mine)
        usable = frozenset(getattr(a, "card", -1) for a in self._legal)

        def power_text() -> Text:
            text = Text(no_wrap=True, overflow="ellipsis")
            for i, card in enumerate(mine[: len(POWER_KEYS)]):
                style = "bold" if card in usable else self.colour("muted")
                text.append(f"{POWER_KEYS[i]}", style=f"bold {self.colour('target')}")
                text.append(f" {K.power_label(card)} ({K.CARD_CODE[card]})", style=style)
                text.append("\n" if i % 2 else "   ")
            return text

        self._put("#inf-powers", (tuple(mine), usable), power_text, layout=True)

    def _you_text(self, seat: int, p: Any, rolling: tuple[bool, ...] | None = None) -> Text:
        """Your line: what you have and the keys now (the results only once the dice stop)."""
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(f"{SEAT_GLYPHS[seat % 6]} You", style=f"bold {self.seat_colour(seat)}")
        white = "…" if rolling is not None and not any(rolling) else max(p.white, 0)
        text.append(f" · white die {white}🔬 · {vp(p)} VP\n")
        if rolling is not None:
            text.append("The dice are rolling…", style=self.colour("muted"))
        elif p.stage == WHITE:
            text.append("space: roll your white die")
        elif p.stage == SEARCH:
            mics = microscopes(p)
            reach = ", ".join(f"{COLUMN_KEYS[c]}: level {K.LEVELS[c]}" for c in range(min(mics, 3)))
            text.append(f"{mics}🔬 · space: roll · 1 2 3: hold" if self.compact else
                        f"{mics} microscope(s) · space: roll · 1 2 3: hold")
            text.append(f"\n{reach}" if reach else "\nroll for microscopes")
        elif p.stage == CURE:
            need = missing(p)
            text.append(f"On {K.CARD_CODE[p.target]} · ")
            if need:
                text.append("needs ")
                for prot in K.PROTEINS:
                    text.append(prot * need[prot], style=PROTEIN_STYLE[prot])
                text.append(" · space: roll")
            else:
                text.append("complete! space or enter: take it",
                            style=f"bold {self.colour('highlight')}")
        elif p.stage == REST:
            text.append("Resting until the next round.")
        return text

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        out = [c for c in super().palette_commands() if c[0] not in ("Undo", "Redo")]
        if not self.read_only:
            out.insert(0, ("Pause / resume", "Stop or restart every player's play",
                           self.action_pause))
        return out


SCREEN = InfectionScreen
