"""Infection: the pure rules of the real-time, cooperative dice game (all seats act at once).

Every seat that has not rested is to act at any moment; the table applies actions in the order
they arrive. Time enters only as the system action ``time-up N`` (seat CHANCE), which the table
applies when round N's timer runs out (``clarifications`` explains why and how it is recorded).
Shuffles and every die roll are chance steps, so a record replays exactly with no RNG.

A player's stages::

    white  --white-->  search  --target-->  cure  --claim / rat-->  white ...
      (any stage) --rest--> rest        (round end) --> white
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import product

import msgspec

from ...core import BotLevel, CHANCE, Action, Event, Game, GameType, Options, Outcome, register
from ...core.api import parse_error
from ...core.errors import BadOptions
from . import bot as BOT
from . import cards as K
from . import clarifications as C
from .types import (
    CLEARED, CURE, N_DICE, NO_SEAT, OVERRUN, PLAYER_ACTIONS, REST, SEARCH, WHITE, cards_left,
    Claim, Claimed, Clock, column_name, Dealt, DiceFaces, DiceRolled, Double, find_card,
    GameOver, Held, Hold, InfectionAction, InfectionEvent, InfectionOptions, InfectionState,
    microscopes, missing, Move, occupied, owned_powers, Player, PowerUsed, Rat, Rest, Rested,
    Rewhite, Roll, RollWhite, RoundOver, set_aside, Shuffle, Supply, Target, Targeted, TimeUp,
    top_free, vp, WhiteFace, WhiteRolled,
)


# ----------------------------------------------------------------------------------------------
# The game
# ----------------------------------------------------------------------------------------------
class Infection(Game[InfectionState, Action]):
    meta = GameType(
        id="infection",
        title="Infection",
        blurb="Real-time and cooperative: roll microscopes and proteins against three sand timers "
              "to clear a virus of molecule cards; the best researcher wins the Nobel Prize.",
        min_players=1,
        max_players=4,
        order=5,
        has_chance=True,
        chance_text="dice and shuffled decks",
        hidden_information=False,  # the decks are face down for everyone alike
        real_time=True,
        cooperative=True,  # the seats win or lose together ("Team wins")
        # Levels are paces here (bot_wait): easy, normal and hard bots play the same teammate's
        # policy (bot.py), slow, normal or fast; random plays any legal action.
        bot_levels=tuple(BotLevel(name=name) for name in ("easy", "normal", "hard")),
    )
    options_type = InfectionOptions
    state_type = InfectionState
    action_type = InfectionAction
    event_type = InfectionEvent

    # -- options and setup ---------------------------------------------------------------------
    def check_options(self, options: Options) -> None:
        super().check_options(options)
        own = self.own_options(options)
        secs = own.round_seconds
        if not C.ROUND_SECONDS_MIN <= secs <= C.ROUND_SECONDS_MAX:
            raise BadOptions(f"Infection rounds last {C.ROUND_SECONDS_MIN} to "
                             f"{C.ROUND_SECONDS_MAX} seconds, not {secs}")
        try:
            C.parse_paces(own.paces, options.players)
        except ValueError as exc:
            raise BadOptions(str(exc)) from None

    def initial_state(self, options: Options) -> InfectionState:
        self.check_options(options)
        return InfectionState(players=options.players,
                              seats=tuple(Player() for _ in range(options.players)))

    # -- who acts ------------------------------------------------------------------------------
    def to_act(self, s: InfectionState) -> tuple[int, ...]:
        if s.result:
            return ()
        if s.shuffled < 3 or s.pending != NO_SEAT:
            return (CHANCE,)
        return tuple(i for i, p in enumerate(s.seats) if p.stage != REST)

    def is_legal(self, s: InfectionState, seat: int, action: Action) -> bool:
        if isinstance(action, (TimeUp, Clock)):
            return (seat == CHANCE and not s.result and s.shuffled == 3
                    and s.pending == NO_SEAT and action.round == s.round)
        if seat not in self.to_act(s):
            return False
        if seat == CHANCE:
            return self._chance_ok(s, action)
        return isinstance(action, PLAYER_ACTIONS) and action in self.legal_actions(s, seat)

    def _chance_ok(self, s: InfectionState, a: Action) -> bool:
        if s.shuffled < 3:
            return (isinstance(a, Shuffle) and a.level == s.shuffled
                    and sorted(a.order) == list(K.DECK_IDS[a.level]))
        if s.pending_white:
            return isinstance(a, WhiteFace) and a.seat == s.pending and a.face in K.WHITE_FACES
        if not isinstance(a, DiceFaces) or a.seat != s.pending or len(a.faces) != N_DICE:
            return False
        p = s.seats[s.pending]
        return all((f == "") if p.held[i] else (f in K.DICE[i]) for i, f in enumerate(a.faces))

    def legal_actions(self, s: InfectionState, seat: int) -> list[Action]:
        if seat not in self.to_act(s):
            return []
        if seat == CHANCE:
            return []  # chance steps come from chance_outcomes / sample_chance
        p = s.seats[seat]
        out: list[Action] = []
        if p.stage == WHITE:
            out.append(RollWhite())
        elif p.stage == SEARCH:
            if not all(p.held):
                out.append(Roll())
            out.extend(Hold(i) for i in range(N_DICE) if p.dice[i] != "")
            mics = microscopes(p)
            for col in range(min(mics, 3)):
                pos = top_free(s, col)
                if pos >= 0:
                    out.append(Target(col, pos))
            taken = occupied(s)
            for card in owned_powers(p, (K.ANY,)):
                for col in range(min(mics, 3)):
                    out.extend(Target(col, pos, card) for pos, c in enumerate(s.columns[col])
                               if c not in taken)
            out.extend(Rewhite(card) for card in owned_powers(p, (K.REWHITE,)))
        elif p.stage == CURE:
            need = missing(p)
            if not need:
                out.append(Claim())
            if not all(p.held):
                out.append(Roll())
            for card in owned_powers(p, (K.SUB,)):
                if need[K.CARD_POWER[card]] > 0:
                    out.append(Supply(card, K.CARD_POWER[card]))
            for card in owned_powers(p, (K.WILD,)):
                out.extend(Supply(card, prot) for prot in K.PROTEINS if need[prot] > 0)
            if p.doubled < 0:
                for card in owned_powers(p, (K.DOUBLE,)):
                    out.extend(Double(card, i) for i in range(N_DICE)
                               if p.held[i] and need[p.dice[i]] > 0)
            out.extend(Rat(card) for card in owned_powers(p, (K.RAT,)))
            for card in owned_powers(p, (K.MOVE,)):
                for col in range(3):
                    pos = top_free(s, col)
                    if pos >= 0:
                        out.append(Move(card, col, pos))
        out.append(Rest())
        return out

    # -- chance --------------------------------------------------------------------------------
    def chance_outcomes(self, s: InfectionState) -> list[tuple[Action, float]]:
        if s.shuffled < 3:
            raise NotImplementedError("a shuffle has too many outcomes to list; use sample_chance")
        if s.pending_white:
            return [(WhiteFace(s.pending, f), pr) for f, pr in K.face_odds(K.WHITE_FACES)]
        p = s.seats[s.pending]
        per_die = [[("", 1.0)] if p.held[i] else K.face_odds(K.DICE[i]) for i in range(N_DICE)]
        out: list[tuple[Action, float]] = []
        for combo in product(*per_die):
            pr = 1.0
            for _, q in combo:
                pr *= q
            out.append((DiceFaces(s.pending, tuple(f for f, _ in combo)), pr))
        return out

    def sample_chance(self, s: InfectionState, rng: random.Random) -> Action:
        if s.shuffled < 3:
            order = list(K.DECK_IDS[s.shuffled])
            rng.shuffle(order)
            return Shuffle(s.shuffled, tuple(order))
        if s.pending_white:
            return WhiteFace(s.pending, rng.choice(K.WHITE_FACES))
        p = s.seats[s.pending]
        return DiceFaces(s.pending, tuple("" if p.held[i] else rng.choice(K.DICE[i])
                                          for i in range(N_DICE)))

    # -- applying ------------------------------------------------------------------------------
    def _apply(self, s: InfectionState, seat: int, a: Action):
        ev: list[Event] = []
        if seat == CHANCE:
            s = self._apply_chance(s, a, ev)
        else:
            s = self._apply_player(s, seat, a, ev)
        return s, tuple(ev)

    def _apply_chance(self, s: InfectionState, a: Action, ev: list[Event]) -> InfectionState:
        R = msgspec.structs.replace
        match a:
            case TimeUp():
                return self._round_over(s, ev)
            case Clock():
                return s  # time passes: nothing else changes
            case Shuffle(level=level, order=order):
                decks = list(s.decks)
                decks[level] = tuple(order)
                s = R(s, decks=tuple(decks), shuffled=s.shuffled + 1)
                if s.shuffled == 3:
                    n = C.CARDS_PER_COLUMN[s.players]
                    s = R(s, columns=tuple(d[:n] for d in s.decks),
                          decks=tuple(d[n:] for d in s.decks))
                    ev.append(Dealt(n))
                return s
            case WhiteFace(seat=seat, face=face):
                p = R(s.seats[seat], white=face, stage=SEARCH)
                ev.append(WhiteRolled(seat, face))
                return R(self._set_seat(s, seat, p), pending=NO_SEAT, pending_white=False)
            case DiceFaces(seat=seat, faces=faces):
                p = s.seats[seat]
                dice = tuple(p.dice[i] if p.held[i] else faces[i] for i in range(N_DICE))
                before = p.held
                p = set_aside(R(p, dice=dice))
                ev.append(DiceRolled(seat, dice, tuple(h and not b for h, b in zip(p.held, before))))
                return R(self._set_seat(s, seat, p), pending=NO_SEAT)
        raise AssertionError(a)

    def _apply_player(self, s: InfectionState, seat: int, a: Action, ev: list[Event]):
        R = msgspec.structs.replace
        p = s.seats[seat]
        match a:
            case RollWhite():
                return R(s, pending=seat, pending_white=True)
            case Rewhite(card=card):
                ev.append(PowerUsed(seat, card))
                s = self._set_seat(s, seat, R(p, spent=p.spent + (card,)))
                return R(s, pending=seat, pending_white=True)
            case Roll():
                return R(s, pending=seat, pending_white=False)
            case Hold(die=die):
                held = tuple(not h if i == die else h for i, h in enumerate(p.held))
                ev.append(Held(seat, die, held[die]))
                return self._set_seat(s, seat, R(p, held=held))
            case Target(column=col, pos=pos, card=card):
                target = s.columns[col][pos]
                spent = p.spent
                if card >= 0:
                    spent += (card,)
                    ev.append(PowerUsed(seat, card, K.CARD_CODE[target]))
                p = set_aside(R(p, stage=CURE, target=target, held=(False,) * N_DICE,
                                supplied=(), doubled=-1, spent=spent))
                ev.append(Targeted(seat, target))
                return self._set_seat(s, seat, p)
            case Supply(card=card, protein=protein):
                ev.append(PowerUsed(seat, card, protein))
                p = set_aside(R(p, supplied=p.supplied + (protein,), spent=p.spent + (card,)))
                return self._set_seat(s, seat, p)
            case Double(card=card, die=die):
                ev.append(PowerUsed(seat, card, K.DIE_NAMES[die]))
                p = set_aside(R(p, doubled=die, spent=p.spent + (card,)))
                return self._set_seat(s, seat, p)
            case Move(card=card, column=col, pos=pos):
                target = s.columns[col][pos]
                ev.append(PowerUsed(seat, card, K.CARD_CODE[target]))
                p = set_aside(R(p, target=target, held=(False,) * N_DICE, doubled=-1,
                                spent=p.spent + (card,)))
                ev.append(Targeted(seat, target))
                return self._set_seat(s, seat, p)
            case Rat(card=card):
                ev.append(PowerUsed(seat, card, K.CARD_CODE[p.target]))
                s = self._set_seat(s, seat, R(p, spent=p.spent + (card,)))
                return self._claim(s, seat, ev)
            case Claim():
                return self._claim(s, seat, ev)
            case Rest():
                ev.append(Rested(seat))
                p = R(p, stage=REST, target=-1, dice=("",) * N_DICE, held=(False,) * N_DICE,
                      supplied=(), doubled=-1, white=-1)
                s = self._set_seat(s, seat, p)
                if all(q.stage == REST for q in s.seats):
                    s = self._round_over(s, ev)
                return s
        raise AssertionError(a)

    def _set_seat(self, s: InfectionState, seat: int, p: Player) -> InfectionState:
        seats = list(s.seats)
        seats[seat] = p
        return msgspec.structs.replace(s, seats=tuple(seats))

    def _claim(self, s: InfectionState, seat: int, ev: list[Event]) -> InfectionState:
        R = msgspec.structs.replace
        p = s.seats[seat]
        card = p.target
        col, _ = find_card(s, card)
        columns = list(s.columns)
        columns[col] = tuple(c for c in columns[col] if c != card)
        p = Player(cards=p.cards + (card,), spent=p.spent)
        ev.append(Claimed(seat, card))
        s = R(self._set_seat(s, seat, p), columns=tuple(columns))
        if not cards_left(s):
            s = R(s, result=CLEARED)
            ev.append(GameOver(CLEARED, self.nobel(s)))
        return s

    def _round_over(self, s: InfectionState, ev: list[Event]) -> InfectionState:
        R = msgspec.structs.replace
        seats = tuple(Player(cards=p.cards, spent=p.spent) for p in s.seats)
        if s.round >= C.ROUNDS:
            ev.append(RoundOver(s.round, ()))
            s = R(s, seats=seats, result=OVERRUN, pending=NO_SEAT, pending_white=False)
            ev.append(GameOver(OVERRUN, ()))
            return s
        columns, decks, added = list(s.columns), list(s.decks), []
        if s.round in C.NEW_CARDS_AFTER_ROUNDS:
            for lv in range(3):
                if decks[lv]:
                    columns[lv] = (decks[lv][0],) + columns[lv]
                    added.append(decks[lv][0])
                    decks[lv] = decks[lv][1:]
        ev.append(RoundOver(s.round, tuple(added)))
        return R(s, seats=seats, columns=tuple(columns), decks=tuple(decks), round=s.round + 1,
                 pending=NO_SEAT, pending_white=False)

    # -- the end -------------------------------------------------------------------------------
    def nobel(self, s: InfectionState) -> tuple[int, ...]:
        if s.result != CLEARED:
            return ()
        best = max(vp(p) for p in s.seats)
        return tuple(i for i, p in enumerate(s.seats) if vp(p) == best)

    def outcome(self, s: InfectionState) -> Outcome | None:
        if not s.result:
            return None
        scores = tuple(float(vp(p)) for p in s.seats)
        if s.result == OVERRUN:
            return Outcome((), "the virus survived the third timer", scores)
        # (the whole team wins: Outcome.text words it "Team wins", GameType.cooperative)
        names = ", ".join(self.seat_label(i) for i in self.nobel(s))
        return Outcome(tuple(range(s.players)), f"virus cleared; Nobel Prize: {names}", scores)

    # -- real time: the table's round session (table/realtime.py) -----------------------------
    clock_step_seconds = C.CLOCK_SECONDS

    def round_seconds(self, options: Options) -> float | None:
        secs = options.round_seconds if isinstance(options, InfectionOptions) else None
        return float(secs or C.ROUND_SECONDS_DEFAULT)

    def round_of(self, s: InfectionState) -> int:
        return s.round

    def time_up(self, s: InfectionState) -> Action | None:
        action = TimeUp(s.round)
        return action if self.is_legal(s, CHANCE, action) else None

    def clock_step(self, s: InfectionState) -> Action | None:
        action = Clock(s.round)
        return action if self.is_legal(s, CHANCE, action) else None

    def bot_wait(self, options: Options, seat: int, rng: random.Random,
                 level: str = "normal") -> float:
        """The seat's pace, give or take PACE_JITTER: the ``paces`` option's (easy, normal,
        hard) when set, else the seat's bot level's (an easy bot is slow, a hard one fast)."""
        text = options.paces if isinstance(options, InfectionOptions) else ""
        pace = C.PACES[C.seat_pace(text, options.players, seat, level)]
        return pace * rng.uniform(1 - C.PACE_JITTER, 1 + C.PACE_JITTER)

    def landing_seconds(self, action: Action) -> float:
        """Dice tumble TUMBLE_SECONDS after a roll (the table's, not a rule of the game)."""
        return C.TUMBLE_SECONDS if isinstance(action, (Roll, RollWhite, Rewhite)) else 0.0

    # -- views ---------------------------------------------------------------------------------
    def view(self, s: InfectionState, seat: int | None) -> InfectionState:
        """The decks are face down for everyone: their order is hidden (only their sizes show)."""
        if s.shuffled < 3:
            return s
        return msgspec.structs.replace(s, decks=tuple((-1,) * len(d) for d in s.decks))

    def determinize(self, view: InfectionState, seat: int, rng: random.Random) -> InfectionState:
        if view.shuffled < 3 or all(c >= 0 for d in view.decks for c in d):
            return view
        seen = {c for col in view.columns for c in col} | {c for p in view.seats for c in p.cards}
        decks = []
        for lv, d in enumerate(view.decks):
            pool = [c for c in K.DECK_IDS[lv] if c not in seen]
            rng.shuffle(pool)
            decks.append(tuple(pool[: len(d)]))
        return msgspec.structs.replace(view, decks=tuple(decks))

    # -- bots ----------------------------------------------------------------------------------
    def bot_actions(self, s: InfectionState, seat: int) -> list[Action]:
        """The teammate's policy: its one next action (none once the seat rests)."""
        return BOT.bot_actions(s, seat)

    # -- notation ------------------------------------------------------------------------------
    def action_to_str(self, a: Action) -> str:
        match a:
            case RollWhite():
                return "white"
            case Roll():
                return "roll"
            case Claim():
                return "claim"
            case Rest():
                return "rest"
            case Hold(die=die):
                return f"hold {die + 1}"
            case Target(column=col, pos=pos, card=card):
                extra = f" {K.CARD_CODE[card]}" if card >= 0 else ""
                return f"target {column_name(col)}.{pos + 1}{extra}"
            case Supply(card=card, protein=protein):
                return f"supply {K.CARD_CODE[card]} {protein}"
            case Double(card=card, die=die):
                return f"double {K.CARD_CODE[card]} {die + 1}"
            case Rat(card=card):
                return f"rat {K.CARD_CODE[card]}"
            case Rewhite(card=card):
                return f"rewhite {K.CARD_CODE[card]}"
            case Move(card=card, column=col, pos=pos):
                return f"move {K.CARD_CODE[card]} {column_name(col)}.{pos + 1}"
            case TimeUp(round=r):
                return f"time-up {r}"
            case Clock(round=r):
                return f"clock {r}"
            case Shuffle(level=level, order=order):
                return f"shuffle {column_name(level)} " + ",".join(K.CARD_CODE[c] for c in order)
            case WhiteFace(seat=seat, face=face):
                return f"white-die {seat + 1} {face}"
            case DiceFaces(seat=seat, faces=faces):
                return f"dice {seat + 1} " + " ".join(f or "-" for f in faces)
        raise parse_error(self, repr(a), "not an Infection action")

    def action_from_str(self, text: str) -> Action:
        words = text.strip().split()
        if not words:
            raise parse_error(self, text, "empty")
        head, args = words[0].lower(), words[1:]
        try:
            simple = {"white": RollWhite, "roll": Roll, "claim": Claim, "rest": Rest}
            if head in simple and not args:
                return simple[head]()
            if head == "hold" and len(args) == 1:
                return Hold(_die(args[0]))
            if head == "target" and len(args) in (1, 2):
                col, pos = _spot(args[0])
                return Target(col, pos, _card(args[1]) if len(args) == 2 else -1)
            if head == "supply" and len(args) == 2 and args[1].upper() in K.PROTEIN_VP:
                return Supply(_card(args[0]), args[1].upper())
            if head == "double" and len(args) == 2:
                return Double(_card(args[0]), _die(args[1]))
            if head == "rat" and len(args) == 1:
                return Rat(_card(args[0]))
            if head == "rewhite" and len(args) == 1:
                return Rewhite(_card(args[0]))
            if head == "move" and len(args) == 2:
                return Move(_card(args[0]), *_spot(args[1]))
            if head == "time-up" and len(args) == 1:
                return TimeUp(int(args[0]))
            if head == "clock" and len(args) == 1:
                return Clock(int(args[0]))
            if head == "shuffle" and len(args) == 2:
                return Shuffle(K.LEVELS.index(args[0].upper()),
                               tuple(_card(c) for c in args[1].split(",")))
            if head == "white-die" and len(args) == 2:
                return WhiteFace(int(args[0]) - 1, int(args[1]))
            if head == "dice" and len(args) == N_DICE + 1:
                return DiceFaces(int(args[0]) - 1,
                                 tuple("" if f == "-" else f.upper() for f in args[1:]))
        except (ValueError, KeyError, IndexError):
            pass
        raise parse_error(self, text, "expected e.g. 'roll', 'hold 2', 'target II.1', 'claim'")

    def describe_event(self, e: Event, names: Sequence[str]) -> str:
        def who(seat: int) -> str:
            return names[seat] if 0 <= seat < len(names) else self.seat_label(seat)

        match e:
            case Dealt(per_column=n):
                return f"The virus: {n} molecules in each column."
            case WhiteRolled(seat=seat, face=face):
                return f"{who(seat)} rolls {face} microscope{'s' if face != 1 else ''} on the white die."
            case DiceRolled(seat=seat, dice=dice):
                # faces as the table draws them: a protein's letter, 🔬 a microscope, - blank
                faces = {K.MICROSCOPE: "🔬", K.BLANK: "-", "": "-"}
                return f"{who(seat)} rolls " + " ".join(faces.get(f, f) for f in dice) + "."
            case Held(seat=seat, die=die, held=held):
                return f"{who(seat)} {'holds' if held else 'releases'} the {K.DIE_NAMES[die]} die."
            case Targeted(seat=seat, card=card):
                return f"{who(seat)} targets molecule {K.CARD_CODE[card]} ({K.CARD_PROTEINS[card]})."
            case Claimed(seat=seat, card=card):
                return (f"{who(seat)} destroys molecule {K.CARD_CODE[card]} "
                        f"(+{K.CARD_VP[card]} VP).")
            case PowerUsed(seat=seat, card=card, detail=detail):
                extra = f" ({detail})" if detail else ""
                return f"{who(seat)} uses {K.power_label(card)} from {K.CARD_CODE[card]}{extra}."
            case Rested(seat=seat):
                return f"{who(seat)} rests for the rest of the round."
            case RoundOver(round=r, added=added):
                more = (" New molecules: " + ", ".join(K.CARD_CODE[c] for c in added) + "."
                        if added else "")
                return f"Round {r} is over.{more}"
            case GameOver(result=result, nobel=nobel):
                if result == OVERRUN:
                    return "Time is up: the virus survives and everyone loses."
                return ("The virus is cleared! Nobel Prize: "
                        + ", ".join(who(i) for i in nobel) + ".")
        return super().describe_event(e, names)

    # -- invariants ----------------------------------------------------------------------------
    def check_invariants(self, s: InfectionState) -> None:
        assert len(s.seats) == s.players
        assert 1 <= s.round <= C.ROUNDS
        if s.shuffled < 3:
            return
        places = [c for col in s.columns for c in col] + [c for d in s.decks for c in d]
        places += [c for p in s.seats for c in p.cards]
        assert sorted(places) == list(range(K.N_CARDS)), "every card is in one place"
        for lv, col in enumerate(s.columns):
            assert all(K.CARD_LEVEL[c] == lv for c in col)
        targets = [p.target for p in s.seats if p.target >= 0]
        assert len(targets) == len(set(targets)), "one meeple per card"
        for p in s.seats:
            assert set(p.spent) <= set(p.cards)
            assert (p.target >= 0) == (p.stage == CURE)
            if p.target >= 0:
                assert find_card(s, p.target)[0] >= 0
            if p.stage == CURE:
                assert K.completable(missing(p), tuple(i for i in range(N_DICE) if not p.held[i]))
            if p.stage in (WHITE, REST):
                assert p.dice == ("",) * N_DICE


def _die(text: str) -> int:
    die = int(text) - 1
    if not 0 <= die < N_DICE:
        raise ValueError(text)
    return die


def _card(text: str) -> int:
    return K.CODE_TO_CARD[text.upper()]


def _spot(text: str) -> tuple[int, int]:
    col, pos = text.split(".")
    return K.LEVELS.index(col.upper()), int(pos) - 1


GAME = register(Infection())

