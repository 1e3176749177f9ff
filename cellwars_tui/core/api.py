"""The game-agnostic rules interface every game implements.

Modelled on OpenSpiel's state API and python-chess's value types, adapted to immutable msgspec
states:

* A :class:`Game` object holds fixed metadata and the pure rules. States are frozen msgspec
  Structs (tuples inside), so a state *is* its own snapshot and undo is keeping the old one.
* ``to_act(state)`` names the seats that may act now: one seat for ordinary turns, several for
  simultaneous phases (secret programs) or real-time play, ``(CHANCE,)`` when the next step is a
  die roll or a shuffle, and ``()`` when the game is over.
* ``apply(state, seat, action)`` validates, then returns ``(new_state, events)``; it never mutates
  its input and raises :class:`~cellwars_tui.core.errors.IllegalAction` for anything illegal.
* Chance is a kind of turn: ``sample_chance`` picks an outcome from a seeded RNG and the outcome is
  applied (and recorded) like any action, so a replay needs no RNG and a test forces any roll by
  applying the chance action it wants.
* ``view(state, seat)`` is what that seat may see (``None``: a spectator). Bots receive views only.
* A game's fixed facts are one :class:`~cellwars_tui.core.meta.GameType` value (``meta``), and
  every extension point is a declared hook with a default here (bot hints, the log as a seat may
  read it, command-line tools, self-play figures): callers call them, never probe with getattr.

Nothing here (or in any game's rules module) may import textual or rich.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from .errors import BadNotation, BadOptions, IllegalAction
from .meta import GameTool, GameType

CHANCE = -1
"""The pseudo-seat that acts at chance nodes (dice, shuffles, draws)."""


class Action(msgspec.Struct, frozen=True, tag_field="kind"):
    """Base of every game's actions. Each game defines a tagged union of subclasses."""


class Event(msgspec.Struct, frozen=True, tag_field="kind"):
    """Base of every game's events: what an action did, for the log and the animations."""


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """Base of every game's options. ``players`` is common to all games."""

    players: int = 2


class Outcome(msgspec.Struct, frozen=True):
    """The end of a game as a value (python-chess's ``Outcome``).

    ``winners`` is empty for a game that everyone lost, and holds every seat for a shared win or a
    draw (``termination`` says which). ``scores`` are per-seat points where the game has them.
    """

    winners: tuple[int, ...]
    termination: str
    scores: tuple[float, ...] = ()

    def returns(self, players: int) -> tuple[float, ...]:
        """+1 for a sole winner's seat, -1 for losers, 0 for everyone in a draw (OpenSpiel style)."""
        if len(self.winners) == players and players > 1:
            return (0.0,) * players
        return tuple(1.0 if s in self.winners else -1.0 for s in range(players))

    def text(self, names: Sequence[str], reader: int | None = None, *,
             team: bool = False) -> str:
        """The result in one line, worded for whoever reads it: the one wording every banner,
        log, list and move list uses.

        ``reader`` is the seat reading it at its own table ("You win", "You lose: Ben wins",
        "Tie"); ``None`` (a spectator, a replay, the Replays list, a hot-seat table shared by
        several people) names the seats ("Ann wins", "Ann and Cy win"). ``team``: the seats play
        as one team (``GameType.cooperative``), so all of them winning is "Team wins", not a
        tie. A competitive game that every seat wins is a "Tie". The termination follows in
        brackets and the scores after a dash: "You lose: Ben wins (eliminated) - Ann 3, Ben 1".
        """
        players = len(names)

        def name(seat: int) -> str:
            return names[seat] if 0 <= seat < players else f"seat {seat + 1}"

        def together(seats: Sequence[int]) -> str:
            return " and ".join(name(w) for w in seats)

        you = reader if reader is not None and 0 <= reader < players else None
        winners = tuple(self.winners)
        if players == 1:
            won = bool(winners)
            who = ("You win" if won else "You lose") if you is not None else \
                f"{name(0)} {'wins' if won else 'loses'}"
        elif team:
            who = "Team wins" if winners else "Team loses"
        elif len(set(winners)) >= players:
            who = "Tie"
        elif not winners:
            who = "Nobody wins"
        elif you is not None and you in winners:
            others = [w for w in winners if w != you]
            who = "You win" + (f" with {together(others)}" if others else "")
        else:
            who = f"{together(winners)} {'wins' if len(winners) == 1 else 'win'}"
            if you is not None:
                who = f"You lose: {who}"
        text = who
        if self.termination and self.termination.casefold() not in ("tie", "draw"):
            text = f"{who} ({self.termination})"
        if self.scores and players == 1:
            text += f" - score {self.scores[0]:g}"
        elif self.scores:
            text += " - " + ", ".join(f"{name(i)} {score:g}" for i, score in enumerate(self.scores))
        return text


# The metadata a Game reads from its ``meta`` (and that a subclass may not set on its own).
_META_NAMES = frozenset(GameType.__struct_fields__)

S = TypeVar("S", bound=msgspec.Struct)
A = TypeVar("A", bound=Action)


class Game(ABC, Generic[S, A]):
    """Metadata and pure rules of one game. Subclasses are stateless singletons."""

    # -- metadata (issue 18): one GameType value, declared as ``meta = GameType(...)`` ---------
    meta: ClassVar[GameType]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        loose = sorted(set(cls.__dict__) & _META_NAMES)
        if loose:
            raise TypeError(f"{cls.__name__}: declare {', '.join(loose)} in its meta = "
                            f"GameType(...), not as class attributes")

    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def title(self) -> str:
        return self.meta.title

    @property
    def blurb(self) -> str:
        return self.meta.blurb

    @property
    def min_players(self) -> int:
        return self.meta.min_players

    @property
    def max_players(self) -> int:
        return self.meta.max_players

    @property
    def rules_version(self) -> int:
        return self.meta.rules_version

    @property
    def has_chance(self) -> bool:
        return self.meta.has_chance

    @property
    def chance_text(self) -> str:
        return self.meta.chance_text

    @property
    def hidden_information(self) -> bool:
        return self.meta.hidden_information

    @property
    def real_time(self) -> bool:
        return self.meta.real_time

    # -- what the rules are played with -----------------------------------------------------
    # Tables never take a decision back across a later die roll or draw (the rules hide them until
    # they happen, so undoing would let a player see chance and choose again).
    undo_keeps_chance: ClassVar[bool] = False
    options_type: ClassVar[type[Options]] = Options
    # option fields that are not the players' choice (a rules edition set by older records): the
    # New game dialog does not ask for them
    hidden_options: ClassVar[frozenset[str]] = frozenset()
    state_type: ClassVar[type]
    action_type: ClassVar[Any]  # the tagged union of the game's actions
    event_type: ClassVar[Any]  # the tagged union of the game's events
    seat_names: ClassVar[tuple[str, ...]] = ("Red", "Blue", "Green", "Yellow", "Violet", "Orange")

    # -- options ---------------------------------------------------------------------------
    def own_options(self, options: Options) -> Any:
        """``options`` as this game's :attr:`options_type`, to read the game's own fields: a plain
        :class:`Options` (generic code that only knows ``players``) gets the type's defaults for
        the rest, so a game never probes a field with ``getattr``."""
        if isinstance(options, self.options_type):
            return options
        return self.options_type(players=options.players)

    def check_options(self, options: Options) -> None:
        """Raise BadOptions for options this game cannot play with."""
        if not self.min_players <= options.players <= self.max_players:
            raise BadOptions(
                f"{self.title} takes {self.min_players} to {self.max_players} players, "
                f"not {options.players}"
            )

    def options_from_dict(self, data: dict[str, Any]) -> Options:
        try:
            opts = msgspec.convert(data, self.options_type, strict=False)
        except msgspec.ValidationError as exc:
            raise BadOptions(f"bad option for {self.title}: {exc}") from None
        self.check_options(opts)
        return opts

    def options_from_record(self, data: dict[str, Any], rules_version: int) -> Options:
        """The options of a game recorded under rules ``rules_version`` (records are forever).

        When a game's rules change, its ``rules_version`` goes up and the older rules stay playable
        through an option (a board, a rules edition) that :meth:`upgrade_options` sets for older
        records, so an old record replays exactly under the rules it was played with, and a game
        resumed from it goes on under those rules."""
        return self.options_from_dict(self.upgrade_options(dict(data), rules_version))

    def upgrade_options(self, data: dict[str, Any], rules_version: int) -> dict[str, Any]:
        """Hook: a record's options, written under ``rules_version``, as options of these rules
        that play the same game. Default: unchanged (the game's rules never changed)."""
        return data

    # -- the rules -------------------------------------------------------------------------
    @abstractmethod
    def initial_state(self, options: Options) -> S:
        """The state before the first action (chance steps may follow at once)."""

    @abstractmethod
    def to_act(self, state: S) -> tuple[int, ...]:
        """Seats that may act now; ``(CHANCE,)`` at a chance node; ``()`` when the game is over."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Every legal action for ``seat`` (empty if the seat may not act)."""

    @abstractmethod
    def _apply(self, state: S, seat: int, action: A) -> tuple[S, tuple[Event, ...]]:
        """Apply an action already known to be legal."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else None."""

    def is_legal(self, state: S, seat: int, action: A) -> bool:
        """Whether ``seat`` may play ``action`` now. Override with something cheaper if needed."""
        if seat not in self.to_act(state):
            return False
        return action in self.legal_actions(state, seat)

    def apply(self, state: S, seat: int, action: A) -> tuple[S, tuple[Event, ...]]:
        """Validate and apply. Pure: the input state is never changed."""
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        if not self.is_legal(state, seat, action):
            who = "chance" if seat == CHANCE else self.seat_label(seat)
            raise IllegalAction(f"{self.action_to_str(action)} is not legal for {who} now")
        return self._apply(state, seat, action)

    def is_terminal(self, state: S) -> bool:
        return not self.to_act(state)

    # -- chance ----------------------------------------------------------------------------
    def chance_outcomes(self, state: S) -> Sequence[tuple[A, float]]:
        """Outcomes and probabilities at a chance node. Games with chance override this or
        :meth:`sample_chance` (for shuffles, whose outcomes are too many to list)."""
        raise NotImplementedError(f"{self.title} has no chance nodes")

    def sample_chance(self, state: S, rng: random.Random) -> A:
        outcomes = self.chance_outcomes(state)
        actions = [a for a, _ in outcomes]
        weights = [p for _, p in outcomes]
        return rng.choices(actions, weights)[0]

    # -- hidden information ----------------------------------------------------------------
    def view(self, state: S, seat: int | None) -> S:
        """What ``seat`` may see (``None`` = a spectator). Perfect-information games return it."""
        return state

    def determinize(self, view: S, seat: int, rng: random.Random) -> S:
        """A full state consistent with ``view`` (for search bots). Default: the view itself."""
        return view

    # -- notation and text -----------------------------------------------------------------
    @abstractmethod
    def action_to_str(self, action: A) -> str:
        """Plain-text notation of an action (for records, logs and test names)."""

    @abstractmethod
    def action_from_str(self, text: str) -> A:
        """Parse :meth:`action_to_str`'s notation; raise BadNotation on bad text."""

    def action_words(self, state: S, action: A) -> str:
        """``action`` at ``state`` in a player's words, naming what the screen shows and the
        keys press (a lesson's "that move is not the lesson's" says it). Default: the
        notation."""
        return self.action_to_str(action)

    def describe_event(self, event: Event, names: Sequence[str]) -> str:
        """One plain sentence for the event log."""
        return msgspec.json.encode(event).decode()

    def seat_label(self, seat: int) -> str:
        return self.seat_names[seat] if 0 <= seat < len(self.seat_names) else f"seat {seat + 1}"

    def record_title(self, state: S) -> str:
        """Hook: a few words that tell this game apart from others of the same game in the
        Resume and Replays lists (kept in the record's header: a puzzle's number). Default:
        "", nothing to tell."""
        return ""

    # -- bot and self-play hooks (ai/bots.py, bench/balance.py) ------------------------------
    def heuristic(self, state: S) -> Sequence[float] | None:
        """Hook: per-seat values of a position in [-1, 1] (search bots cut playouts short with
        it; the greedy bot looks one step ahead with it). Default: None, the game has none."""
        return None

    def greedy_action(self, view: S, seat: int, rng: random.Random) -> A | None:
        """Hook: the game's own quick, greedy choice for ``seat`` seeing only ``view`` (the
        balance tool's "greedy" level). Default: None; the greedy bot then takes the action
        whose position :meth:`heuristic` rates best one step ahead."""
        return None

    def sides(self, players: int) -> tuple[str, ...]:
        """The side each seat plays for: seats with the same name win and lose together (Cell
        Wars' two camps). Self-play measures count wins by side. Default: every seat alone."""
        return tuple(self.seat_label(seat) for seat in range(players))

    def seating(self, players: int, options: Options | None = None) -> tuple[str, str] | None:
        """A labelled line the New-game dialog shows under the seats for ``players`` players (and
        the ``options`` chosen so far, when they are valid), when seats lead pieces of their own
        (Cell Wars: ("Cells led", "1: Ia Ig · 2: Ca ..."), by the rules chosen). Default: None (no
        line)."""
        return None

    def action_family(self, action: A) -> str:
        """Hook: the family an action belongs to, for self-play's action mix (Cell Wars names
        the card played). Default: the action's tag."""
        return str(type(action).__struct_config__.tag or type(action).__name__)

    def round_figures(self, state: S) -> tuple[int, dict[str, float]]:
        """Hook: the round ``state`` is in (0: the game has no rounds) and figures of the
        position worth following round by round in self-play (Cell Wars: its cancer tiles); the
        balance tool averages them at the end of each round. Default: ``(0, {})``."""
        return 0, {}

    def ending_kind(self, termination: str) -> str:
        """Hook: how self-play's table of endings counts a game that ended with ``termination``
        (its Outcome's words), so that alike endings count together (Cell Wars: "more than 21
        cancer tiles" for every spread). Default: the words with each number as "#"."""
        return re.sub(r"\d+", "#", termination)

    def rules_text(self, options: Options) -> str:
        """Hook: the rules a game with ``options`` is played by, in a few words for reports
        (``cellwars balance``; Cell Wars names its edition). Default: "rules version N"."""
        return f"rules version {self.rules_version}"

    # -- checks for tests ------------------------------------------------------------------
    def check_invariants(self, state: S) -> None:
        """Raise AssertionError if ``state`` breaks a rule invariant. Used by property tests."""

    # -- real time: what the table's round session asks (table/realtime.py) -----------------
    # A game with ``real_time = True`` plays in rounds against a timer. The round session runs
    # the timer, ends a round with ``time_up``, records the time reached with ``clock_step``,
    # and lets bots act at their pace (``bot_wait``), each action taking ``landing_seconds`` to
    # land (dice tumbling). The defaults are a game without a round timer.
    def round_seconds(self, options: Options) -> float | None:
        """How long each round lasts on the table's timer (None: no round timer)."""
        return None

    def round_of(self, state: S) -> int:
        """The round ``state`` is in: the timer starts a full round when it changes."""
        return 0

    def time_up(self, state: S) -> A | None:
        """The system action (seat CHANCE) that ends the current round when its time runs out,
        or None when none is legal now."""
        return None

    def clock_step(self, state: S) -> A | None:
        """A system action that changes nothing but the recorded time: the table plays one every
        ``clock_step_seconds`` of play without an action and on leaving, so a resumed game does
        not get back the time spent idle. None: none is legal now (or the game has none)."""
        return None

    clock_step_seconds: ClassVar[float] = 2.0

    def bot_wait(self, options: Options, seat: int, rng: random.Random,
                 level: str = "normal") -> float:
        """Seconds of play a bot at ``seat`` waits before its next action (its pace; drawn from
        ``rng`` so a seed gives the same times everywhere). ``level`` is the seat's bot level
        (ai.levels: random, easy, normal, hard), for a game whose levels are paces. Default:
        1.2 s, give or take 30%, at every level."""
        return 1.2 * rng.uniform(0.7, 1.3)

    def landing_seconds(self, action: A) -> float:
        """How long ``action`` takes to land at the table (dice in the air): its seat does
        nothing meanwhile and its result shows after. Default: at once."""
        return 0.0

    # -- bot hooks (issue 18): what a game tells the game-agnostic bots (ai/bots.py; see also
    # heuristic and greedy_action above) ------------------------------------------------------
    def bot_actions(self, state: S, seat: int) -> Sequence[A]:
        """The actions a bot weighs for ``seat``: the legal ones minus the obviously bad, for a
        faster search. Default: every legal action (an empty answer means the same)."""
        return self.legal_actions(state, seat)

    def random_playout(self, state: S, rng: random.Random,
                       max_steps: int = 400) -> tuple[float, ...] | None:
        """The game's own fast random playout from ``state``: per-seat values. Default None:
        the bots play the generic one (random bot actions through ``_apply``)."""
        return None

    def num_players(self, state: S) -> int:
        """How many seats ``state`` has. Default: its ``players`` field."""
        players: int = state.players  # type: ignore[attr-defined]
        return players

    # -- hidden information in the log (issue 18) -------------------------------------------
    def view_event(self, event: Event, seat: int | None) -> Event | None:
        """``event`` as ``seat`` may read it in the log (``None`` = a spectator): the event,
        a masked copy, or None to hide it. Default: every event is public."""
        return event

    def chat_closed(self, state: S) -> str:
        """Hook: why a table's chat is closed in ``state`` ("" when it is open): a phase where
        a word between players could help one of them cheat (Virus Fight's programs written
        in secret). Default: "", the chat is always open."""
        return ""

    # -- command-line tools (issue 18) --------------------------------------------------------
    def tools(self) -> Sequence[GameTool]:
        """The game's own commands (``cellwars perft virus-fight ...``). Default: none."""
        return ()

    # -- serialisation helpers (one encoder/decoder per game, made once) --------------------
    def _codecs(self) -> tuple[msgspec.json.Encoder, msgspec.json.Decoder, msgspec.json.Decoder]:
        cached = self.__dict__.get("_codec_cache")
        if cached is None:
            cached = (
                msgspec.json.Encoder(order="deterministic"),
                msgspec.json.Decoder(self.action_type),
                msgspec.json.Decoder(self.state_type),
            )
            self.__dict__["_codec_cache"] = cached
        return cached

    def encode_action(self, action: A) -> bytes:
        return self._codecs()[0].encode(action)

    def decode_action(self, data: bytes) -> A:
        try:
            return self._codecs()[1].decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
            raise BadNotation(f"not a {self.title} action: {exc}") from None

    def encode_state(self, state: S) -> bytes:
        return self._codecs()[0].encode(state)

    def decode_state(self, data: bytes) -> S:
        try:
            return self._codecs()[2].decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
            raise BadNotation(f"not a {self.title} state: {exc}") from None


def parse_error(game: Game, text: str, why: str) -> BadNotation:
    """A one-line notation error that quotes the offending text."""
    shown = text if len(text) <= 40 else text[:37] + "..."
    return BadNotation(f"{game.title}: cannot read {shown!r}: {why}")
