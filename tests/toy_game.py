"""A tiny dice race used to test the core on its own: two players take turns, roll a die (a chance
step), then hold (bank the turn's total) or roll again; a 1 loses the turn's total. First to 20."""

from __future__ import annotations

import msgspec

from cellwars_tui.core import CHANCE, Action, Event, Game, GameType, Options, Outcome, register
from cellwars_tui.core.api import parse_error


class Roll(Action, frozen=True, tag="roll"):
    pass


class Hold(Action, frozen=True, tag="hold"):
    pass


class Die(Action, frozen=True, tag="die"):
    face: int


class Rolled(Event, frozen=True, tag="rolled"):
    face: int


class ToyState(msgspec.Struct, frozen=True):
    players: int
    scores: tuple[int, ...]
    turn: int = 0
    pending: int = 0
    rolling: bool = True


class ToyRace(Game[ToyState, Action]):
    meta = GameType(
        id="toy-race",
        title="Toy race",
        blurb="test only",
        min_players=2,
        max_players=2,
        has_chance=True,
    )
    state_type = ToyState
    action_type = Roll | Hold | Die
    event_type = Rolled
    goal = 20

    def initial_state(self, options: Options) -> ToyState:
        return ToyState(options.players, (0,) * options.players)

    def to_act(self, s):
        if max(s.scores) >= self.goal:
            return ()
        return (CHANCE,) if s.rolling else (s.turn,)

    def legal_actions(self, s, seat):
        if seat not in self.to_act(s):
            return []
        if seat == CHANCE:
            return [Die(f) for f in range(1, 7)]
        return [Roll(), Hold()]

    def chance_outcomes(self, s):
        return [(Die(f), 1 / 6) for f in range(1, 7)]

    def _apply(self, s, seat, a):
        if isinstance(a, Die):
            if a.face == 1:
                return msgspec.structs.replace(
                    s, pending=0, turn=(s.turn + 1) % s.players, rolling=True
                ), (Rolled(1),)
            return msgspec.structs.replace(s, pending=s.pending + a.face, rolling=False), (
                Rolled(a.face),
            )
        if isinstance(a, Roll):
            return msgspec.structs.replace(s, rolling=True), ()
        scores = list(s.scores)
        scores[s.turn] += s.pending
        return ToyState(s.players, tuple(scores), (s.turn + 1) % s.players, 0, True), ()

    def outcome(self, s):
        if max(s.scores) < self.goal:
            return None
        return Outcome((s.scores.index(max(s.scores)),), "reached 20", tuple(map(float, s.scores)))

    def action_to_str(self, a):
        return f"die{a.face}" if isinstance(a, Die) else type(a).__struct_config__.tag

    def action_from_str(self, text):
        t = text.strip()
        if t == "roll":
            return Roll()
        if t == "hold":
            return Hold()
        if t.startswith("die") and t[3:].isdigit():
            return Die(int(t[3:]))
        raise parse_error(self, text, "expected roll, hold or dieN")

    def check_invariants(self, s):
        assert all(v >= 0 for v in s.scores)
        assert 0 <= s.turn < s.players


TOY = register(ToyRace())
