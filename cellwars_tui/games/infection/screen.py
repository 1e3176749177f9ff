"""The Infection screen: a real-time table where everyone rolls at once against a big countdown.

The screen draws and forwards keys; the time is the table's. A local table runs the rounds in
its headless round session (:class:`cellwars_tui.table.RoundSession`: the timer, ``time-up`` at
the end of a round, bot teammates at their pace, the dice-landing wait, clock steps, pause), an
online table follows the hub's, and a replay reads the recorded times. The screen starts the
table's clock while it shows the table (``clock`` and ``fps``: the clock and repaint rate it asks
for; tests put a FakeClock here), repaints on its ticks (40 a second: the countdown and the
tumbling dice) and stops it when it goes; the clock stands still while the "terminal too small"
notice covers the table (the base screen tells it).

Nothing here decides a rule: legality, set-aside dice, claims and round ends all come from
``rules.py``; what bots do from ``bot.py``; what the lines say from ``texts.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.css.query import NoMatches
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from ...ai.levels import seat_level
from ...core.api import CHANCE, Action
from ...core.errors import CellwarsError
from ...core.match import Seat
from ...table.protocol import RoundClock, Table
from ...table.realtime import READY
from ...timer import Clock, format_clock
from ...ui.dialogs import MovesPicker
from ...ui.game_screen import SEAT_GLYPHS, GameScreen
from ...ui.widgets.keys_panel import KeysPanel
from . import cards as K
from . import clarifications as C
from .rules import (CURE, REST, SEARCH, Claim, Double, Hold, InfectionOptions, InfectionState,
                    Move, Rat, Rest, Rewhite, Roll, RollWhite, RoundOver, Supply, Target,
                    microscopes, top_free, vp)
from .texts import (COLUMN_KEYS, KEYS_AND_LEGEND, POWER_KEYS, PROTEIN_STYLE, Rolling,
                    column_pitch, column_text, dice_text, face_text, powers_text,
                    protein_legend, stage_text, you_text)
from .widgets import ColumnList, CountdownDigits, DieBox, MineLine, PowerList

FPS = 40  # screen updates a second during a round: headroom over the 30 the table must keep
NARROW_WIDTH = 100  # below this many columns: compact cards and a narrow side panel
WIDE_WIDTH = 130  # from this many columns on: a wide side panel (whole log lines)
SHORT_HEIGHT = 30  # below this many lines: the countdown's row loses its blank lines
HURRY_SECONDS = 20.0  # the countdown changes its look in the last 20 seconds


T = TypeVar("T", bound=Action)  # an action type, for the legal ones of that type

class InfectionScreen(GameScreen[InfectionState, Action]):
    """Infection played in real time: your dice by keys and mouse, bot teammates at their pace."""

    AUTO_FOCUS = None  # nothing takes the keys (enter would press the hidden "New game" button)
    clock: ClassVar[Clock | None] = None  # tests put a FakeClock here; None = the real clock
    fps: ClassVar[float] = FPS  # clock ticks (screen updates) per second during a round
    MIN_SIZE = (80, 24)  # three card columns of a 4-player deal, proteins and powers whole

    CSS_PATH = "screen.tcss"

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
        Binding("i", "keys_help", "Legend"),  # (k is a power's key)
        Binding("m", "moves", "Moves", show=False),  # (the footer keeps room for the above)
    ]

    # A round begins only when its player says so (space): the first, each next one, and a
    # resumed game's (issue 19: the clock ran while the app came up, round 2 began the instant
    # round 1 ended). Tests that play on a fake clock from the first frame turn it off.
    wait_until_ready: ClassVar[bool] = True

    def __init__(self, table: Table, *, read_only: bool = False) -> None:
        super().__init__(table, read_only=read_only)
        history = table.history
        opts = history.options if history is not None else None
        secs = self.game.round_seconds(opts) if opts is not None else None
        self.round_seconds = float(secs or C.ROUND_SECONDS_DEFAULT)  # (online: the hub's)
        options = opts if isinstance(opts, InfectionOptions) else None
        self.tense = options is not None and options.tense_team_game and table.players > 1
        self.paces = tuple(C.seat_pace(options.paces if options else "", table.players, i,
                                       _level(seat)) for i, seat in enumerate(table.seats))
        self.round_clock: RoundClock | None = table.round_clock()  # (None in a replay)
        self._stop_ticks: Callable[[], None] | None = None
        self._rng = random.Random(f"infection-screen/{table.revision}")  # tumbling faces only
        self._shown_clock = ""
        self._drawn: dict[str, Any] = {}  # selector -> the key of what it shows now
        self._state: InfectionState | None = None
        self._ended = False  # the game-over table was set up (the banner's buttons, the keys)
        self.rolling_drawn: tuple[Rolling, ...] = ()  # each seat's dice as last drawn
        self.waiting_ready = False  # the round waits for space (see wait_until_ready)
        self._round_seen: int | None = None  # the round last shown (a new one waits for ready)

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
        try:
            self._fit(event.size.width, event.size.height)
        except NoMatches:  # (a resize reaching a screen being taken down: nothing to fit)
            return
        self.call_after_refresh(self._repaint_columns)

    def _fit(self, width: int, height: int) -> None:
        """Lay out for ``width`` columns: at 80 the cards keep every protein, VP and power (the
        side panel narrows), at 130 and more the side panel widens so log lines show whole."""
        narrow, wide = width < NARROW_WIDTH, width >= WIDE_WIDTH
        self.set_class(height < SHORT_HEIGHT, "-short")  # (two more cards show at 24 lines)
        if (narrow, wide) == (self.has_class("-narrow"), self.has_class("-wide")):
            return
        self.set_class(narrow, "-narrow")
        self.set_class(wide, "-wide")
        for col in range(3):  # the proteins' legend: under the columns, or (narrow) in the status
            box = self.query_one(f"#inf-colbox-{col}")
            box.border_title = self._column_title(col)
            box.border_subtitle = None if narrow else protein_legend(col)
        self._drawn.clear()  # repaint everything at the new size
        if self._state is not None:
            self.refresh_table()

    # -- the table's clock ---------------------------------------------------------------------
    def on_mount(self) -> None:
        self._fit(*self.app.size)
        self.query_one("#inf-players").styles.height = self.table.players
        for i in range(3):
            self.query_one(f"#inf-die-{i}").border_title = str(i + 1)
        clock = self.round_clock
        if clock is not None and self._stop_ticks is None:
            self._stop_ticks = clock.subscribe(self._on_tick)
            state = self.table.view(None)
            self._round_seen = state.round
            if not self.table.is_over():
                self._wait_for_ready()  # (held before it starts: not a tick runs unseen)
            clock.start(clock=type(self).clock, tick=1 / type(self).fps)
        super().on_mount()
        for button in self.query("#gs-banner Button"):
            button.can_focus = False  # hidden while playing: keys belong to the table
        self.set_focus(None)

    def on_unmount(self) -> None:
        super().on_unmount()  # first: the time reached is recorded with nothing to repaint
        if self._stop_ticks is not None:
            self._stop_ticks()
            self._stop_ticks = None
        if self.round_clock is not None:
            self.round_clock.stop()  # leaving the table: the time played so far stays spent
            self.table.flush()

    def _on_tick(self, landed: tuple[int, ...]) -> None:
        if not self.is_mounted:
            return
        self._paint_clock()
        if landed or any(r is not None for r in self.rolling_drawn):
            self._paint_seats()
        if landed and self._state is not None:  # the results show once the dice stop
            self._paint_you(self._state)
            self._paint_side(self.table.viewer())

    # -- ready? ----------------------------------------------------------------------------------
    def _wait_for_ready(self) -> None:
        """Hold the clock until the player presses space: a round about to begin, or a game
        opened (new or resumed). Not at a table whose time is kept elsewhere (online), nor when
        nobody plays here (bots watched)."""
        clock = self.round_clock
        if (clock is None or not type(self).wait_until_ready or not self.owns_time()
                or self.me() is None or self.waiting_ready):
            return
        if self.lesson is not None and self.lesson.active:
            return  # a lesson holds the clock itself while the player reads
        self.waiting_ready = True
        clock.set_held(READY, True)
        self.refresh_bindings()

    def lesson_over(self) -> None:
        """A lesson ended: the round goes on when the player is ready, as every round starts."""
        self._wait_for_ready()

    def ready(self) -> None:
        """The player is ready: the round's clock runs."""
        if not self.waiting_ready:
            return
        self.waiting_ready = False
        if self.round_clock is not None:
            self.round_clock.set_held(READY, False)
        self._drawn.pop("#gs-status", None)
        self.say("Go!")
        self.refresh_table()

    def _rolling(self, seat: int) -> Rolling:
        """Which of ``seat``'s dice are tumbling now ((False,)*3: the white die), or None."""
        landing = self.round_clock.landing(seat) if self.round_clock is not None else None
        if landing is None:
            return None
        if isinstance(landing.action, Roll):
            return tuple(not h for h in landing.before.seats[seat].held)
        return (False, False, False)  # the white die

    def _frame(self) -> int:
        """The tumbling dice change faces 12 times a second."""
        return int(self.round_clock.play_time() * 12) if self.round_clock is not None else 0

    # -- bots ----------------------------------------------------------------------------------
    def bot_seats(self) -> list[int]:
        humans = self.table.humans
        return [i for i, seat in enumerate(self.table.seats) if seat.is_bot and i not in humans]

    def owns_time(self) -> bool:
        """Whether this terminal runs the game's clock and bots (a local game being played); at
        an online table the hub does, and in a replay the record tells the times."""
        return not self.read_only and self.table.owns_time

    # -- playing -------------------------------------------------------------------------------
    def play(self, action: Action) -> bool:
        if self.read_only:
            return super().play(action)
        if self.waiting_ready:
            self.say(f"Round {self._round_seen} waits for you: press space when ready.")
            return False
        if self.is_paused():
            self.say(f"Paused: {pause_words(self.table.paused)}.")
            return False
        seat = self.acting_seat()
        if seat is not None and self._rolling(seat) is not None:
            self.say("Your dice are still rolling…")
            return False
        return super().play(action)

    def is_paused(self) -> bool:
        return bool(self.table.paused)

    def me(self) -> int | None:
        """The local human's seat (the screen's viewer), if any."""
        viewer = self.table.viewer() if not self.table.is_over() else None
        if viewer is None:
            humans = sorted(self.table.humans)
            viewer = humans[0] if humans else None
        return viewer

    def _my_legal(self, kind: type[T]) -> list[T]:
        return [a for a in self._legal if isinstance(a, kind)]

    def action_main(self) -> None:
        """Space: ready (a round waiting to begin), else the obvious next step (white die, take
        the card, or roll)."""
        if self.waiting_ready:
            self.ready()
            return
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
        """A click on the ``line``-th line of ``column``: target its card (or move there)."""
        line //= self.card_pitch
        s = self.table.view(None)
        if not 0 <= line < len(s.columns[column]):
            return
        options = [a for a in self._legal if isinstance(a, (Target, Move))
                   and a.column == column and a.pos == line]
        options.sort(key=lambda a: a.card)  # a plain target before a power
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
        options: list[Action] = [
            a for a in self._legal
            if isinstance(a, (Supply, Double, Rat, Rewhite, Move, Target)) and a.card == card]
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
        """Pause every player (bots too), or play on; online, for everyone at the table."""
        if self.read_only or self.table.is_over():
            return
        on = not self.is_paused()
        try:
            self.table.request_pause(on)
        except CellwarsError as exc:
            self.say(str(exc))
            return
        if not self.owns_time():  # the hub answers with the new state
            self.say("Pausing the game for everyone…" if on else "Playing on…")
            return
        self.say("Paused: every player stops. Press p to play on." if on else "Play on!")
        self._paint_clock()

    def action_keys_help(self) -> None:
        self.app.push_screen(KeysPanel("Infection: keys and legend", KEYS_AND_LEGEND))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("undo", "redo"):
            return False  # no undo in real time
        if action in ("main", "claim", "hold", "target", "power", "rest", "pause"):
            # at the end, enter goes back to the banner's buttons
            return not self.read_only and not self.table.is_over()
        return super().check_action(action, parameters)

    # -- clicks ----------------------------------------------------------------------------------
    def on_countdown_digits_pressed(self, _: CountdownDigits.Pressed) -> None:
        self.action_pause()

    def on_column_list_picked(self, message: ColumnList.Picked) -> None:
        self.clicked_card(message.column, message.line)

    def on_die_box_pressed(self, message: DieBox.Pressed) -> None:
        self.action_hold(message.die)

    def on_mine_line_pressed(self, _: MineLine.Pressed) -> None:
        self.action_main()

    def on_power_list_picked(self, message: PowerList.Picked) -> None:
        self.action_power(message.line)

    # -- drawing -------------------------------------------------------------------------------
    def highlight(self, marks: tuple[str, ...]) -> None:
        """A lesson's marks: card codes ("II-4"), dice ("blue 1", "blue 2", "yellow") and
        "clock" (the cards are drawn lit by ``_paint_columns``)."""
        super().highlight(marks)
        for die, name in enumerate(K.DIE_NAMES):
            for box in self.query(f"#inf-die-{die}"):
                box.set_class(name in marks, "lit")
        for digits in self.query("#inf-clock"):
            digits.set_class("clock" in marks, "lit")

    def show(self, view: Any, seat: int | None, legal: list[Action]) -> None:
        s: InfectionState = view
        self._state = s
        if s.shuffled < 3:
            return
        if s.result and not self._ended and not self.read_only:
            self._ended = True  # the banner's buttons take the keys; the footer drops the table's
            for button in self.query("#gs-banner Button"):
                button.can_focus = True
            self.refresh_bindings()
        if s.round != self._round_seen:
            self._round_seen = s.round
            if not s.result:
                self._wait_for_ready()  # the next round begins when its player is ready
        self._paint_clock()
        self._paint_columns(s)
        self._paint_seats()
        self._paint_you(s)

    def _put(self, selector: str, key: Any, build: Callable[[], Text], *,
             layout: bool = False) -> None:
        """Update a widget with ``build()`` only when ``key`` (what it shows) has changed: a
        Static's update re-styles its text, too costly to repeat 30 times a second. Widgets of a
        fixed size skip the layout pass (``layout=False``), which would reflow the whole screen."""
        if self._drawn.get(selector) == key:
            return
        self._drawn[selector] = key
        self.query_one(selector, Static).update(build(), layout=layout)

    def _paint_frame(self, viewer: int | None, bot: int | None) -> None:
        """Title, side panel, banner and status (the base's frame, drawn here with bots acting on
        the clock rather than "thinking", and the log showing its newest lines)."""
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
        result = self.result_text()  # "Team wins (...)" (Outcome.text), for every game's banner
        if over:
            self._put("#gs-result", result, lambda: Text(result))
            if self.read_only:
                self.query_one("#gs-again").display = False
        status: str | Text
        if self._status:
            status, self._status = self._status, ""
        elif over:
            status = f"Game over: {result}"
        elif self.read_only:
            status = "Replay"
        elif self.waiting_ready:
            status = f"Round {self._round_seen}: ready? Press space to start the clock."
        elif self.me() is None:
            status = "Watching the bots play · p: pause"
        elif self._legal and self.compact:  # (space, rest, pause: in the footer)
            legend = protein_legend(None)
            legend.append(" · 123 hold · zxc column · asd… powers", style=self.colour("muted"))
            status = legend
        elif self._legal:
            status = ("space roll/claim · 1 2 3 hold · z x c target · a s d… powers · . rest · "
                      "p pause · i legend")
        else:
            status = "Resting until the next round · p: pause"
        problem = table.save_problem
        if problem:
            status = problem
        self._put("#gs-status", str(status), lambda: Text.assemble(
            status, no_wrap=True, overflow="ellipsis"))

    def say(self, text: str) -> None:
        self._drawn.pop("#gs-status", None)
        super().say(text)

    def _paint_side(self, viewer: int | None) -> None:
        """The seats with their pace and VP, and the newest events, one line each."""
        table = self.table
        s = self._state
        bots = set(self.bot_seats())
        scores = tuple(vp(p) for p in s.seats) if s is not None else ()
        you = self.you_seat(viewer)

        compact = self.compact

        def seats() -> Text:
            # at 80 columns a name and who plays it (the VP are on the player rows): no name cut
            text = Text(no_wrap=True, overflow="ellipsis")
            for i in range(table.players):
                text.append(f"{SEAT_GLYPHS[i % 6]} {table.seat_name(i)}",
                            style=f"bold {self.seat_colour(i)}")
                if i in bots:
                    text.append(" bot" if compact else f"  bot, {self.paces[i]}",
                                style=self.colour("muted"))
                elif you == i:
                    text.append(" you" if compact else "  you")
                if i < len(scores) and not compact:
                    text.append(f"  {scores[i]} VP")
                text.append("\n")
            return text

        self._put("#gs-seats", (you, scores), seats, layout=True)
        log_widget = self.query_one("#gs-log", Static)
        lines = max(4, log_widget.size.height or 20)
        hidden = self._results_in_the_air()

        def log() -> Text:
            # whole sentences, wrapped (the panel shows the newest; the wheel scrolls back)
            text = Text()
            shown = [e for e in self.log_events(lines + len(hidden) * 4) if e[0] not in hidden]
            for _step, seat, sentence in shown[-lines:]:
                style = self.seat_colour(seat) if seat is not None else ""
                text.append(sentence + "\n", style=style)
            return text

        self._put("#gs-log", (table.step(), lines, hidden, table.is_over()), log)

    def _results_in_the_air(self) -> frozenset[int]:
        """The steps whose log lines tell a roll still tumbling (told once it has landed)."""
        clock = self.round_clock
        if clock is None:
            return frozenset()
        landings = (clock.landing(seat) for seat in range(self.table.players))
        return frozenset(item.step for item in landings if item is not None)

    def remaining(self) -> float:
        """Seconds left in the current round as shown (from the record in a replay)."""
        history = self.table.history
        if self.read_only and history is not None:
            if not history.cursor:
                return self.round_seconds
            now = history.steps[history.cursor - 1].t
            return max(0.0, self.round_seconds - (now - self._round_start_in_record()))
        if self._state is not None and self._state.result == "overrun":
            return 0.0  # the third timer ran out (or everyone rested through it)
        left = self.table.time_left()
        return self.round_seconds if left is None else left

    def _round_start_in_record(self) -> float:
        """Play time at which the current round began, from the record (0 without one)."""
        history = self.table.history
        if history is None:
            return 0.0
        for i in range(history.cursor - 1, -1, -1):
            if any(isinstance(e, RoundOver) for e in history.events[i]):
                return history.steps[i].t
        return 0.0

    def _paint_clock(self) -> None:
        s = self._state
        left = self.remaining()
        over = bool(s is not None and s.result)
        text = format_clock(left)
        digits = self.query_one("#inf-clock", CountdownDigits)
        if text != self._shown_clock:
            digits.update(text)
            self._shown_clock = text
        paused = self.is_paused()
        hurry = not over and left <= HURRY_SECONDS
        flags = (hurry, hurry and not paused and int(left * 2) % 2 == 0, paused)
        if flags != self._drawn.get("clock-flags"):
            self._drawn["clock-flags"] = flags
            digits.set_class(flags[0], "hurry")
            digits.set_class(flags[1], "flash")
            digits.set_class(flags[2], "paused")
        if s is None:
            return
        why = self.table.paused
        left_cards = sum(len(c) for c in s.columns)
        key = (s.round, left_cards, tuple(len(d) for d in s.decks), s.result, paused, hurry, why,
               self.waiting_ready)

        def info() -> Text:
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(f"Round {s.round}/{C.ROUNDS}", style="bold")
            if self.tense:  # the rounds are shorter than the seed's: say why
                text.append(" (tense)", style=self.colour("muted"))
            text.append(f" · virus: {left_cards} molecule{'s' if left_cards != 1 else ''}")
            decks = f"decks {'/'.join(str(len(d)) for d in s.decks)}"
            if not self.compact:  # (at 80 columns it goes after the line below: never wrapped)
                text.append(f" · {decks}", style=self.colour("muted"))
            text.append("\n")
            if over:
                won = s.result == "cleared"
                text.append("Virus cleared!" if won else "The virus survived.",
                            style=f"bold {self.colour('highlight' if won else 'danger')}")
            elif self.waiting_ready:
                text.append("Ready? space starts the clock",
                            style=f"bold {self.colour('highlight')}")
            elif paused:
                text.append(f"⏸ PAUSED ({pause_words(why)})",
                            style=f"bold {self.colour('target')}")
            elif hurry:
                text.append("Hurry! The timer is running out!",
                            style=f"bold {self.colour('danger')}")
            else:
                text.append("Roll!", style=self.colour("muted"))
            if self.compact and not (over or paused or hurry or self.waiting_ready):
                text.append(f" · {decks}", style=self.colour("muted"))
            return text

        self._put("#inf-round", key, info)

    def _paint_columns(self, s: InfectionState) -> None:
        meeples = {p.target: i for i, p in enumerate(s.seats) if p.target >= 0}
        me = self.me()
        width, height = self.query_one("#inf-col-0").content_size
        pitch = self.card_pitch = column_pitch(height, max(len(c) for c in s.columns))
        for col in range(3):
            cards = s.columns[col]
            free = top_free(s, col)
            lit = frozenset(K.CODE_TO_CARD[m] for m in self.highlighted if m in K.CODE_TO_CARD)
            key = (cards, tuple((c, meeples[c]) for c in cards if c in meeples), me, free,
                   self.compact, lit, pitch, width)
            self._put(f"#inf-col-{col}", key, partial(
                column_text, cards, free, meeples, me, self.compact, self.colour, lit, pitch,
                width))

    card_pitch = 1  # lines a card takes in the columns (column_pitch: more in a tall window)

    def _repaint_columns(self) -> None:
        """The columns for their new height (a card's pitch depends on it)."""
        if self._state is not None and self.is_attached:
            self._paint_columns(self._state)

    def _paint_seats(self) -> None:
        s = self._state
        if s is None or s.shuffled < 3:
            return
        rolling = tuple(self._rolling(i) for i in range(len(s.seats)))
        self.rolling_drawn = rolling
        frame = self._frame() if any(r is not None for r in rolling) else -1
        names = [self.table.seat_name(i) for i in range(len(s.seats))]
        room = min(14, max(len(n) for n in names))  # (the row keeps its dice and stage whole)

        def rows() -> Text:
            text = Text(no_wrap=True, overflow="ellipsis")
            for i, p in enumerate(s.seats):
                colour = self.seat_colour(i)
                name = names[i] if len(names[i]) <= room else names[i][:room - 1] + "…"
                text.append(f"{SEAT_GLYPHS[i % 6]} ", style=f"bold {colour}")
                text.append(f"{name:<{room}} ", style=colour)
                text.append_text(dice_text(p, rolling[i], self._rng))
                text.append(" ")
                text.append_text(stage_text(s, i, rolling[i], self.colour))
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
        columns = tuple(sorted({a.column for a in self._my_legal(Target) if a.card < 0}))
        self._put("#inf-mine", (seat, p, rolling, self.compact, columns),
                  lambda: you_text(seat, p, vp(p), rolling, self.compact, self.colour,
                                   columns=columns))
        powers.display = bool(mine)
        usable = frozenset(a.card for a in self._legal
                           if isinstance(a, (Supply, Double, Rat, Rewhite, Move, Target)))
        self._put("#inf-powers", (tuple(mine), usable),
                  lambda: powers_text(mine, usable, self.colour), layout=True)

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        out = [c for c in super().palette_commands() if c[0] not in ("Undo", "Redo")]
        if not self.read_only:
            out.insert(0, ("Pause / resume", "Stop or restart every player's play",
                           self.action_pause))
        return out


def pause_words(why: str) -> str:
    """The PAUSED line's reason: "press p to play on" (this player's pause), "by ann · p plays
    on" (another player's, online), or what the table waits for."""
    why = why.removeprefix("paused: ").removeprefix("paused").strip()
    if why and not why.startswith("by "):
        return why
    return f"{why} · p plays on" if why else "press p to play on"


SCREEN = InfectionScreen


def _level(seat: Seat) -> str:
    """A seat's bot level, for its pace ("normal" for a person or a bot no level knows)."""
    try:
        return seat_level(seat) if seat.is_bot else "normal"
    except CellwarsError:
        return "normal"
