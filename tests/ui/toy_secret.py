"""A tiny hidden-information game for the hot-seat tests (not registered): every player secretly
picks 1, 2 or 3 at the same time; when all have picked, the highest pick wins."""

from __future__ import annotations

import msgspec

from cellwars_tui.core import Action, Event, Game, GameType, Options, Outcome
from cellwars_tui.core.api import parse_error


class Pick(Action, frozen=True, tag="pick"):
    n: int


class Picked(Event, frozen=True, tag="picked"):
    seat: int


class SecretState(msgspec.Struct, frozen=True):
    players: int
    picks: tuple[int, ...]  # 0 = not yet, -1 = picked but hidden from this viewer


class ToySecret(Game[SecretState, Action]):
    meta = GameType(
        id="toy-secret",
        title="Toy secret",
        blurb="test only",
        min_players=2,
        max_players=3,
        hidden_information=True,
    )
    state_type = SecretState
    action_type = Pick
    event_type = Picked

    def initial_state(self, options: Options) -> SecretState:
        return SecretState(options.players, (0,) * options.players)

    def to_act(self, s):
        return tuple(i for i, p in enumerate(s.picks) if p == 0)

    def legal_actions(self, s, seat):
        return [Pick(n) for n in (1, 2, 3)] if seat in self.to_act(s) else []

    def _apply(self, s, seat, a):
        picks = list(s.picks)
        picks[seat] = a.n
        return SecretState(s.players, tuple(picks)), (Picked(seat),)

    def view(self, s, seat):
        if not self.to_act(s):
            return s
        return SecretState(s.players, tuple(
            p if (i == seat or p == 0) else -1 for i, p in enumerate(s.picks)))

    def outcome(self, s):
        if self.to_act(s):
            return None
        best = max(s.picks)
        return Outcome(tuple(i for i, p in enumerate(s.picks) if p == best), "highest pick")

    def describe_event(self, event, names):
        return f"{names[event.seat]} has picked"

    def action_to_str(self, a):
        return f"pick{a.n}"

    def action_from_str(self, text):
        t = text.strip()
        if t.startswith("pick") and t[4:] in ("1", "2", "3"):
            return Pick(int(t[4:]))
        raise parse_error(self, text, "expected pick1, pick2 or pick3")


SECRET = ToySecret()
