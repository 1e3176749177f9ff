"""The Virus Fight table: the memory board, the secret program editor and turns by keys or mouse.

The screen shows the board (:mod:`.board_view`), the secret program editor, the spares and the
prompt, and turns keys and clicks into picks: a turn is built one pick at a time by
:class:`~.picks.TurnPicker` (e.g. for MOVE the instruction to move, then where it goes, then
where the marker steps; picks with one possible value are taken automatically). Squares are
picked with the arrows and Enter (Tab jumps to the next legal square) or by a click; the piece
for a WRITE is picked on the spares row (``[``/``]`` or a click). The look is ``screen.tcss``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Static

from ...core.api import Action
from ...table.protocol import Table
from ...ui.game_screen import LOG_LINES, SEAT_GLYPHS, GameScreen
from . import clarifications as C
from . import engine as E
from .board_view import BoardView, board_extent, board_lines, pick_scale
from .build_view import ProgramEditor
from .engine import ALL_CODES, TYPE_NAMES, piece_name, square_name
from .panel import log_text, seats_text
from .picks import STAGE_HELP, TurnPicker, describe_square, lit_squares, stage_word, value_text
from .types import (BUILD, FIRST, OVER, PLACE, PLAY, Add, Agree, Decline, Drop, Mark, Offer,
                    Ready, VFState, eliminates, home_line, stalemate_winners)
from .widgets import Chip, Painter, hand_layout, set_class, shape, show


class VirusFightScreen(GameScreen[VFState, Action]):
    """Virus Fight for 2-4 players: build, reveal, place, then run the programs."""

    CSS_PATH = "screen.tcss"

    AUTO_FOCUS = ""  # keys go to the screen's bindings, not to the (hidden) banner buttons

    # a window this wide shows the help column beside the program editor (build_view.py)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]

    BINDINGS = [
        Binding("up", "cursor(0,1)", "Up", show=False),
        Binding("down", "cursor(0,-1)", "Down", show=False),
        Binding("left", "cursor(-1,0)", "Left", show=False),
        Binding("right", "cursor(1,0)", "Right", show=False),
        Binding("enter,space", "pick", "Pick", key_display="⏎"),
        Binding("tab", "next_target(1)", "Next", key_display="Tab"),
        Binding("shift+tab", "next_target(-1)", "Previous", show=False),
        Binding("left_square_bracket", "spare(-1)", "Spare", show=False),
        Binding("right_square_bracket", "spare(1)", "Spare", show=False),
        Binding("backspace", "drop", "Drop", key_display="⌫"),
        *(Binding(str(k), f"mark({k - 1})", f"Marker on {k}", show=False) for k in range(1, 6)),
        Binding("y", "ready", "Ready"),
        Binding("o", "offer", "Stalemate?"),
        Binding("a", "answer(1)", "Agree"),
        Binding("d", "answer(0)", "Decline"),
        # Esc takes back a pick of the turn being built; with none it is Back (as q)
        Binding("escape", "cancel", "Cancel", key_display="Esc"),
        Binding("escape", "back", "Back", show=False),
    ]

    def __init__(self, table: Table, *, read_only: bool = False) -> None:
        super().__init__(table, read_only=read_only)
        self.view_state: VFState | None = None
        self.seat: int | None = None
        self.turn = TurnPicker()  # the turn being built, pick by pick
        self.cursor = (2, 0)  # (file, rank) on the board
        self.palette = 0  # index into ALL_CODES in the build editor
        self.painter = Painter()
        self._log_key: tuple | None = None  # what the log was last built for
        self._log_text: Text | None = None
        self._seats_shape: tuple[int, int] | None = None
        self._board_key: tuple | None = None  # what the board's lines were built for
        self._board_cache: list[Text] | None = None

    # -- layout ------------------------------------------------------------------------------
    def compose_board(self) -> ComposeResult:
        yield Static(id="vf-round")
        yield BoardView(id="vf-board")
        yield ProgramEditor(id="vf-build")
        # The spares: one row when it fits, else the chips that do not fit go on a second row
        # (each spare has a chip in both rows; _paint_hand shows exactly one of them).
        with Vertical(id="vf-hand"):
            with Horizontal(id="vf-hand-row-0", classes="vf-hand-row"):
                yield Static("Spares:", id="vf-hand-label")
                for code in ALL_CODES:
                    yield Chip(piece_name(code), "spare", code,
                               id=f"vf-spare-{piece_name(code)}", classes="vf-spare")
            with Horizontal(id="vf-hand-row-1", classes="vf-hand-row"):
                for code in ALL_CODES:
                    yield Chip(piece_name(code), "spare", code,
                               id=f"vf-spare-{piece_name(code)}-2", classes="vf-spare")
        with Horizontal(id="vf-answer"):
            yield Chip("✓ Agree (a)", "agree", 1, id="vf-agree", classes="vf-button")
            yield Chip("✗ Decline (d)", "agree", 0, id="vf-decline", classes="vf-button")
        yield Static(id="vf-prompt")

    def _step_count_public(self) -> bool:
        """Whether step numbers may show. While programs are written in secret they would
        tell how many instructions a rival (a bot, the other person at a hot-seat table, a
        player at another terminal, to a spectator too) has added, so the title and the log
        leave them out until the reveal. A replay shows them."""
        if self.read_only and not self.spectator:
            return True
        view = self.table.state()  # (the table's, fresher than view_state; online: the view)
        return view is None or view.phase != BUILD

    def step_label(self) -> str:
        return super().step_label() if self._step_count_public() else ""

    def needs_cover(self, view: Any, seat: int) -> bool:
        # after the reveal nothing is secret: hot-seat players pass without a cover
        return view.phase == BUILD and super().needs_cover(view, seat)

    # -- the state and the picks -------------------------------------------------------------
    def show(self, view: Any, seat: int | None, legal: list[Action]) -> None:
        self.view_state = view
        self.seat = seat
        if self.turn.set_position(view, seat, legal):
            self._start_cursor()
        set_class(self, view.phase == BUILD, "building")
        self._advance()
        self.paint()
        self.refresh_bindings()

    def _start_cursor(self) -> None:
        """Put the board cursor somewhere useful for a new decision."""
        view = self.view_state
        if view is None:
            return
        seat = self.seat
        if view.phase == PLAY and seat is not None and 0 <= seat < view.players \
                and view.markers[seat] >= 0:
            m = view.markers[seat]
            self.cursor = (m & 7, m >> 3)
        elif view.phase == PLACE and seat is not None and 0 <= seat < view.players:
            line = home_line(view.players, seat)
            self.cursor = (line[0] & 7, line[0] >> 3)
        size = view.size
        f, r = self.cursor
        self.cursor = (min(f, size - 1), min(r, size - 1))

    # The turn being built, as the picker holds it.
    @property
    def picks(self) -> list[tuple[str, int]]:
        return self.turn.picks

    @property
    def user_picks(self) -> list[int]:
        """Indices in ``picks`` the player chose (the others were forced)."""
        return self.turn.user_picks

    @property
    def pending(self) -> Action | None:
        """A complete turn waiting for Enter."""
        return self.turn.pending

    def stage(self) -> str | None:
        """The pick the player has to make now (None: nothing, or a turn waits for Enter)."""
        return self.turn.stage()

    def options(self) -> set[int]:
        return self.turn.options()

    def _advance(self) -> None:
        """Take every forced pick; a finished turn is played (or waits for Enter if the player
        chose nothing yet, or if it would eliminate the player)."""
        action = self.turn.advance()
        if action is not None:
            self.play(action)
        elif self.turn.stage() is not None:
            self._aim_cursor()

    def choose(self, value: int) -> bool:
        """The player picks ``value`` for the current stage."""
        if not self.turn.choose(value):
            return False
        self._advance()
        self.paint()
        self.refresh_bindings()  # (Esc now takes the pick back)
        return True

    # -- squares for the current stage -------------------------------------------------------
    def target_squares(self) -> set[int]:
        return self.turn.target_squares()

    def _aim_cursor(self) -> None:
        targets = self.target_squares()
        sq = E.square(*self.cursor)
        if targets and sq not in targets:
            sq = min(targets, key=lambda t: (abs((t & 7) - (sq & 7)) + abs((t >> 3) - (sq >> 3)),
                                             t))
            self.cursor = (sq & 7, sq >> 3)

    # -- input ---------------------------------------------------------------------------------
    def _can_act(self) -> bool:
        return not self.read_only and bool(self.legal)

    @on(BoardView.Clicked)
    def _board_clicked(self, message: BoardView.Clicked) -> None:
        self.clicked_square(message.square)

    @on(Chip.Clicked)
    def _chip_clicked(self, message: Chip.Clicked) -> None:
        self.clicked_chip(message.kind, message.value)

    def clicked_square(self, sq: int) -> None:
        if not self._can_act() or self.view_state is None:
            return
        self.cursor = (sq & 7, sq >> 3)
        self._pick_square(sq)

    def _pick_square(self, sq: int) -> None:
        view = self.view_state
        if view is None:
            return
        if self.pending is not None:
            self._confirm()
            return
        stage = self.stage()
        if stage is None:
            self.paint()
            return
        if stage == "piece":
            piece = self.turn.spare_choice()
            if piece is None:
                return
            if sq not in self.target_squares():
                self.say(f"{piece_name(piece)} cannot be written on {square_name(sq)}.")
                self.paint()
                return
            self.choose(piece)
            if self.stage() == "wdst":
                self.choose(sq)
            return
        value = self.turn.value_for_square(sq)
        if value is None:
            self.say(f"{square_name(sq)} is not a choice: {STAGE_HELP.get(stage, '')}.")
            self.paint()
            return
        self.choose(value)

    def _confirm(self) -> None:
        action = self.turn.confirm()
        if action is not None:
            self.play(action)

    def clicked_chip(self, kind: str, value: int) -> None:
        if self.read_only:
            return
        if kind == "add":
            self.palette = ALL_CODES.index(value)
            self._build(Add(value))
        elif kind == "slot":
            self._build(Mark(value))
        elif kind == "drop":
            self._build(Drop())
        elif kind == "ready":
            self._build(Ready())
        elif kind == "agree":
            self.action_answer(value)
        elif kind == "spare":
            codes = self.turn.spare_codes()
            if value in codes:
                self.turn.spare_cursor = codes.index(value)
                self.paint()

    def _build(self, action: Action) -> None:
        view = self.view_state
        if view is None or view.phase != BUILD or not self._can_act():
            return
        if action in self.legal:
            self.play(action)
            return
        seat = self.seat
        prog = view.programs[seat] if seat is not None and seat < len(view.programs) else ()
        if isinstance(action, Add):
            if action.piece in prog:
                self.say(f"{piece_name(action.piece)} is already in your program.")
            else:
                self.say(f"A program holds at most {C.MAX_PROGRAM} instructions.")
        elif isinstance(action, Mark):
            if action.index >= len(prog):
                self.say(f"Your program has no instruction {action.index + 1}.")
            else:
                self.say("Your marker is already there.")
        elif isinstance(action, Drop):
            self.say("Your program is empty.")
        elif isinstance(action, Ready):
            self.say("Add at least one instruction and put your marker on one (keys 1-5).")

    def footer_hidden(self) -> frozenset[str]:
        """m (every move as a list) works but leaves its footer room to the turn's keys: at 80
        columns the stalemate offer was cut ("o Stale")."""
        return frozenset({"moves"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        own = ("cursor", "pick", "next_target", "spare", "drop", "mark", "ready", "offer",
               "answer")
        if action == "cancel":
            return not self.read_only and bool(self.user_picks)
        if action in own:
            if self.read_only:
                return False
            view = self.view_state
            phase = view.phase if view is not None else None
            if action == "offer":
                return Offer() in self.legal
            if action == "answer":
                return Agree() in self.legal
            if action in ("cursor", "pick") and phase != BUILD and not self.turn.turn_legal():
                return False
            if action in ("drop", "mark", "ready"):
                return phase == BUILD
            if action in ("next_target", "spare"):
                return phase in (PLAY, PLACE) and bool(self.legal) if action == "next_target" \
                    else phase == PLAY and self.stage() == "piece"
            return True
        return super().check_action(action, parameters)

    def action_cursor(self, df: int, dr: int) -> None:
        view = self.view_state
        if view is None or not self._can_act():
            return
        if view.phase == BUILD:
            col, row = self.palette % 3, self.palette // 3
            col = max(0, min(2, col + df))
            row = max(0, min(3, row - dr))
            self.palette = row * 3 + col
            self.paint()
            return
        f, r = self.cursor
        size = view.size
        self.cursor = (max(0, min(size - 1, f + df)), max(0, min(size - 1, r + dr)))
        self.paint()

    def action_pick(self) -> None:
        view = self.view_state
        if view is None or not self._can_act():
            return
        if view.phase == BUILD:
            self._build(Add(ALL_CODES[self.palette]))
            return
        self._pick_square(E.square(*self.cursor))

    def action_next_target(self, direction: int) -> None:
        targets = sorted(self.target_squares(), key=lambda s: (-(s >> 3), s & 7))
        if not targets:
            return
        sq = E.square(*self.cursor)
        if sq in targets:
            sq = targets[(targets.index(sq) + direction) % len(targets)]
        else:
            sq = targets[0 if direction > 0 else -1]
        self.cursor = (sq & 7, sq >> 3)
        self.paint()

    def action_spare(self, direction: int) -> None:
        codes = self.turn.spare_codes()
        if codes:
            self.turn.spare_cursor = (self.turn.spare_cursor + direction) % len(codes)
            self._aim_cursor()
            self.paint()

    def action_drop(self) -> None:
        view = self.view_state
        if view is not None and view.phase == BUILD:
            self._build(Drop())
        else:
            self.action_cancel()

    def action_mark(self, index: int) -> None:
        self._build(Mark(index))

    def action_ready(self) -> None:
        self._build(Ready())

    def action_offer(self) -> None:
        if Offer() in self.legal:
            self.play(Offer())
        else:
            self.say("You can offer a stalemate on your turn (once until you have played it).")

    def action_answer(self, agree: int) -> None:
        action = Agree() if agree else Decline()
        if action in self.legal:
            self.play(action)
        else:
            self.say("There is no stalemate offer to answer.")

    def action_cancel(self) -> None:
        """Take back the last pick of the turn being built; with none, leave the table."""
        if self.turn.take_back():
            self._advance()
            self.say("Pick taken back.")
            self.paint()
            self.refresh_bindings()
            return
        self.action_back()

    # -- painting --------------------------------------------------------------------------------
    def paint(self) -> None:
        view = self.view_state
        if view is None or not self.is_mounted:
            return
        try:
            self.painter.put(self.query_one("#vf-round", Static), self._round_text(view))
            if view.phase == BUILD:
                self._paint_build(view)
            else:
                self.query_one("#vf-board", BoardView).set_lines(self.board_lines(view), view.size,
                                                                 self.board_scale)
            self._paint_hand(view)
            show(self.query_one("#vf-answer"), Agree() in self.legal)
            self.painter.put(self.query_one("#vf-prompt", Static), self._prompt(view))
        except NoMatches:
            return

    def _round_text(self, view: VFState) -> Text:
        t = Text(no_wrap=True, overflow="ellipsis")
        size = f"{view.size}x{view.size}"
        if view.phase == BUILD:
            t.append(f"Secret programs · {size} board")
        elif view.phase in (FIRST, PLACE):
            t.append(f"Placing programs · {size} board · first: ")
            self._seat_label(t, view.first)
        else:
            t.append(f"Round {view.round}/{view.round_limit} · first: ")
            self._seat_label(t, view.first)
            if view.queue:
                t.append(" · to play: ")
                for i, q in enumerate(view.queue):
                    if i:
                        t.append(" ")
                    t.append(SEAT_GLYPHS[q % 6], style=f"bold {self.seat_colour(q)}")
        return t

    def _seat_label(self, t: Text, seat: int) -> None:
        t.append(f"{SEAT_GLYPHS[seat % 6]} {self.table.seat_name(seat)}",
                 style=f"bold {self.seat_colour(seat)}")

    def board_text(self, view: VFState) -> Text:
        """The board as text (also used by the tests). Without colour: ① .. ④ are the markers,
        ``──``/``│`` link a block, ``+`` is a legal empty square and ``›`` a legal instruction,
        ``»`` the squares of a turn waiting for Enter, ``×`` an instruction being erased."""
        t = Text("\n", no_wrap=True).join(self.board_lines(view))
        t.append("\n")
        return t

    def board_lines(self, view: VFState) -> list[Text]:
        """The board's lines, built once per state of the board and of the turn being picked
        (a repaint for anything else, such as the log or the replay bar, reuses them)."""
        can_act = self._can_act()
        turn = self.turn
        key = (view, self.seat, tuple(turn.picks), turn.pending, self.cursor, can_act,
               turn.spare_cursor, tuple(self.legal) if can_act else (), self.app.theme,
               self.board_scale, self.highlighted)
        if self._board_key != key or self._board_cache is None:
            self._board_cache = board_lines(view, turn, can_act=can_act,
                                            cursor=E.square(*self.cursor), colour=self.colour,
                                            seat_colour=self.seat_colour, scale=self.board_scale,
                                            lit=lit_squares(self.highlighted, view.size))
            self._board_key = key
        return self._board_cache

    def _paint_build(self, view: VFState) -> None:
        self.query_one(ProgramEditor).paint(
            view, self.seat, legal=self.legal, palette=self.palette,
            highlighted=self.highlighted, painter=self.painter,
            seat_name=self.table.seat_name, seat_label=self._seat_label)

    def _paint_hand(self, view: VFState) -> None:
        hand = self.query_one("#vf-hand")
        seat = self.seat
        shown = view.phase in (PLAY, OVER) and seat is not None and 0 <= seat < view.players
        show(hand, shown)
        if not shown:
            return
        assert seat is not None
        label = self.query_one("#vf-hand-label", Static)
        mine = view.spares[seat]
        counts: dict[int, int] = {}
        for c in mine:
            counts[c] = counts.get(c, 0) + 1
        codes = self.turn.spare_codes()
        choice = self.turn.spare_choice()
        texts = {code: ("▸" if code == choice else "") + piece_name(code)
                 + (f"×{n}" if n > 1 else "") for code, n in counts.items()}
        name = self.table.seat_name(seat)
        room = hand.content_region.width
        if not room:  # just shown, not laid out yet: one row now, its width's after the layout
            room = 10_000
            if not self._hand_relayout:
                self._hand_relayout = True
                self.call_after_refresh(self._repaint_hand)
        else:
            self._hand_relayout = False
        title, first_row = hand_layout(name, [texts[c] for c in sorted(texts)], room)
        self.painter.put(label, Text(title, no_wrap=True, overflow="ellipsis"))
        on_first = set(sorted(texts)[:first_row])
        show(self.query_one("#vf-hand-row-1"), len(texts) > first_row)
        for code in ALL_CODES:
            for suffix, row_has in (("", code in on_first), ("-2", code in texts
                                                             and code not in on_first)):
                chip = self.query_one(f"#vf-spare-{piece_name(code)}{suffix}", Chip)
                show(chip, row_has)
                if not row_has:
                    continue
                self.painter.put(chip, Text(texts[code]))
                set_class(chip, code in codes, "pick")
                set_class(chip, code == choice, "cursor")
                set_class(chip, piece_name(code) in self.highlighted, "lit")

    def _prompt(self, view: VFState) -> Text:
        t = Text()
        seat = self.seat
        if view.phase == BUILD:
            if self._can_act():
                t.append("Arrows + Enter (or a click) add an instruction · ⌫ drops the last · "
                         "1-5 put the marker · y: ready")
            elif seat is not None and 0 <= seat < view.players and view.ready[seat]:
                t.append("Your program is ready: waiting for the others.")
            return t
        if view.phase == PLAY and view.offer >= 0:
            self._seat_label(t, view.offer)
            t.append(" offers a stalemate: it would end the game now, and ")
            winners = stalemate_winners(view.board, view.markers, view.spares, view.players)
            t.append(" and ".join(self.table.seat_name(w) for w in winners))
            t.append(" would win (most spares, then pips). ")
            if Agree() in self.legal:
                t.append("a: agree · d: decline", style="bold")
            else:
                waiting = [self.table.seat_name(q) for q in self.table.to_act()]
                t.append("Waiting for " + ", ".join(waiting) + ".", style=self.colour("muted"))
            return t
        if view.phase == OVER or not self._can_act():
            if view.phase == PLAY and view.queue:
                q = view.queue[0]
                m = view.markers[q]
                self._seat_label(t, q)
                if m >= 0 and view.board[m]:
                    t.append(f" runs {describe_square(view, m)}.")
                else:
                    t.append(" to play.")
            return t
        if view.phase == PLACE:
            prog = view.programs[seat] if seat is not None else ()
            t.append(f"Your program {' '.join(piece_name(c) for c in prog)}: ")
            t.append(STAGE_HELP["place"] + " (arrows/Tab + Enter, or a click).")
            return t
        assert seat is not None
        m = view.markers[seat]
        kind = E.KIND[view.board[m]] if m >= 0 else -1
        t.append(f"You run {TYPE_NAMES[kind]} ({piece_name(view.board[m])} on {square_name(m)}). ",
                 style="bold")
        if view.declined:
            t.append("(Stalemate declined: play on.) ", style=self.colour("muted"))
        if self.pending is not None:
            text = self.game.action_to_str(self.pending)
            if eliminates(self.pending):
                t.append(f"{text}: your marker cannot step and you will be OUT. ",
                         style=f"bold {self.colour('danger')}")
                t.append("Enter: confirm · Esc: back" if self.user_picks else "Enter: confirm")
            else:
                t.append(f"Your only move is {text}. Enter: run it")
            return t
        done = []
        for stage_, v in self.picks:
            if stage_ == "src" and v < 0:
                done.append("nothing can move")
            elif stage_ == "piece" and not v:
                done.append("nothing to write")
            elif v >= 0 or stage_ == "erase":
                done.append(f"{stage_word(stage_)} {value_text(stage_, v)}")
        if done:
            t.append("(" + ", ".join(done) + ") ", style=self.colour("muted"))
        stage = self.stage()
        if stage == "piece":
            choice = self.turn.spare_choice()
            t.append(f"Write which spare? Now {piece_name(choice) if choice else '-'} "
                     "([ ] or a click changes it); pick the empty square (+) to write it on.")
            return t
        if stage is not None:
            help_text = STAGE_HELP[stage]
            t.append(help_text[0].upper() + help_text[1:] + ".")
            if stage != "piece":
                t.append(" Arrows/Tab + Enter or a click.", style=self.colour("muted"))
            cur = E.square(*self.cursor)
            if view.board[cur]:
                t.append(f" Cursor: {describe_square(view, cur)}.", style=self.colour("muted"))
        return t

    # -- the side panel: seats with their markers, spares and pips ---------------------------
    def _paint_frame(self, viewer: int | None, bot: int | None) -> None:
        super()._paint_frame(viewer, bot)
        view = self.view_state
        if view is None:
            return
        try:
            widget = self.query_one("#gs-seats", Static)
        except NoMatches:
            return
        table = self.table
        notes = ["bot" if table.seats[q].is_bot  # (online, a person's seat is a "player")
                 else "away" if table.seat_kind(q).endswith("(away)") else ""
                 for q in range(view.players)]
        t = seats_text(view, acting=set(table.to_act()), you=self.you_seat(viewer),
                       names=[table.seat_name(q) for q in range(view.players)], notes=notes,
                       colour=self.colour, seat_colour=self.seat_colour)
        widget.update(t, layout=self._seats_shape != shape(t))  # (the base painted its own)
        self._seats_shape = shape(t)
        self._paint_log(force=True)  # the base painted its own version just before
        self.call_after_refresh(self._paint_log)  # again if the log's size was not known

    # Rows of the board column that are not the board: the round line, the spares, the
    # prompt, the other seats' programs and their margins (what must stay in view).
    BOARD_ROWS_AROUND = 14

    def on_resize(self, event: events.Resize) -> None:
        size = self.view_state.size if self.view_state is not None else 6
        side = max(28, min(48, event.size.width // 4)) + 1  # (screen.tcss: 25%, 28-48, border)
        room = event.size.width - side - 2
        scale = pick_scale(size, room, event.size.height - 3 - self.BOARD_ROWS_AROUND)
        if scale != self.board_scale:  # the board grows with the window (and shrinks back)
            self.board_scale = scale
            self.call_after_refresh(self._repaint_board)
        # centred in its column once it has room to spare (a click finds its square anyway)
        left = max(1, (room - board_extent(size, scale)[0]) // 2)
        try:
            board = self.query_one("#vf-board", BoardView)
        except NoMatches:  # (a resize reaching a screen being taken down: nothing to fit)
            return
        if board.styles.padding.left != left:
            board.styles.padding = (0, 0, 0, left)
        self.call_after_refresh(self._paint_log)
        self.call_after_refresh(self._repaint_hand)

    board_scale = 1
    _hand_relayout = False  # a repaint of the spares row waits for its first layout

    def _repaint_board(self) -> None:
        view = self.view_state
        if view is not None and self.is_attached:
            self.query_one("#vf-board", BoardView).set_lines(self.board_lines(view), view.size,
                                                             self.board_scale)

    def _repaint_hand(self) -> None:
        """The spares row for the new width (its label and line break depend on it)."""
        if self.view_state is not None and self.is_attached:
            self._paint_hand(self.view_state)

    def _paint_log(self, *, force: bool = False) -> None:
        """The log, one line per step (a turn's effect and its marker step together), cut from
        the top so the newest sentences always show. Built once per change of the table or of
        the log's size; the log's height is fixed by the layout, so no layout pass follows."""
        try:
            widget = self.query_one("#gs-log", Static)
        except NoMatches:
            return
        width = max(10, widget.size.width or 26)
        room = widget.size.height or LOG_LINES
        try:  # the log may reach below its panel: count only the rows that show
            side = self.query_one("#gs-side").content_region
            if widget.region.height and side.height:
                room = min(room, side.bottom - widget.region.y)
        except NoMatches:
            pass
        room = max(1, room)
        table = self.table
        key = (table.revision, table.step(), table.viewer(), width, room,
               self.app.theme)
        if key == self._log_key and self._log_text is not None:
            if force:
                widget.update(self._log_text, layout=False)
            return
        # while programs are secret, step numbers would count another seat's instructions
        log = log_text(self.log_events(LOG_LINES), width=width, room=room,
                       console=self.app.console, muted=self.colour("muted"),
                       seat_colour=self.seat_colour, secret_counts=not self._step_count_public())
        if force or log != self._log_text:
            widget.update(log, layout=False)
        self._log_key, self._log_text = key, log

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        """Every action open now, each once: the game's own first, then the table's (undo,
        rules, back ...). Keys with a footer label (Enter: Pick) come from their bindings."""
        out = super().palette_commands()
        view = self.view_state
        if self.read_only or view is None or not self.legal:
            return out
        own: list[tuple[str, str, Any]] = []
        if view.phase == BUILD:
            seat = self.seat
            prog = view.programs[seat] if seat is not None and 0 <= seat < view.players else ()
            own.append(("Ready", "Declare your secret program ready (y)", self.action_ready))
            own.append(("Drop last instruction", "Take the last instruction off your program (⌫)",
                        self.action_drop))
            for i, code in enumerate(prog):
                own.append((f"Marker on instruction {i + 1}",
                            f"Put your marker on {piece_name(code)} (key {i + 1})",
                            partial(self.action_mark, i)))
        else:
            if self.target_squares():
                own.append(("Next target", "Move the cursor to the next legal square (Tab)",
                            partial(self.action_next_target, 1)))
                own.append(("Previous target",
                            "Move the cursor to the previous legal square (Shift+Tab)",
                            partial(self.action_next_target, -1)))
            if len(self.turn.spare_codes()) > 1:
                own.append(("Next spare", "Write the next spare instruction (])",
                            partial(self.action_spare, 1)))
                own.append(("Previous spare", "Write the previous spare instruction ([)",
                            partial(self.action_spare, -1)))
            if self.user_picks:
                own.append(("Cancel pick", "Take back the last pick of this turn (Esc)",
                            self.action_cancel))
            if Offer() in self.legal:
                own.append(("Offer a stalemate",
                            "End the game now if everyone agrees (most spares wins) (o)",
                            self.action_offer))
            if Agree() in self.legal:
                own.append(("Agree to the stalemate", "Accept the stalemate offered (a)",
                            partial(self.action_answer, 1)))
                own.append(("Decline the stalemate", "Play on (d)",
                            partial(self.action_answer, 0)))
        return own + out


SCREEN = VirusFightScreen
