"""The rematch offer at a finished table, and the rating changes of a rated game.

At game over any seated player offers the same players a new game with ``r`` (the seats move
one place: who sat first now sits second...); the others see the offer here and accept with
``r``; the hub starts the new game when every player has accepted
(:class:`~cellwars_tui.online.protocol.Rematch`). This bar says where the offer stands, from the
table state the hub sends (``rematch``: the seats that offered or accepted), and a rated game's
rating changes (``ratings``, ``changes``).
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ..online import protocol as p
from ..ui.css import default_css


def rating_words(t: p.TableState) -> str:
    """"Ratings: ann 1532? (+29) · ben 1468? (-29)" once a rated game is over ("" otherwise)."""
    if not t.info.rated or not t.ratings or t.outcome is None:
        return ""  # (before the end each seat's rating is beside its name)
    parts = []
    for i, seat in enumerate(t.info.seats):
        rating = t.ratings[i] if i < len(t.ratings) else ""
        change = t.changes[i] if i < len(t.changes) else ""
        parts.append(f"{seat.name} {rating}" + (f" ({change})" if change else ""))
    return "Ratings: " + " · ".join(parts)


def rematch_words(t: p.TableState) -> str:
    """Where a rematch stands at a finished table, for the reader ("" before the end)."""
    if t.outcome is None:
        return ""
    humans = [i for i, s in enumerate(t.info.seats) if s.kind == "human"]
    offered = [i for i in t.rematch if i in humans]
    waiting = [t.info.seats[i].name for i in humans if i not in offered]
    if not offered:
        if t.you is None:
            return "Game over."
        return "r: offer the same players a rematch (everyone moves one seat on)"
    names = ", ".join(t.info.seats[i].name for i in offered)
    if t.you is not None and t.you in offered:
        return f"You offered a rematch: waiting for {', '.join(waiting)} (r takes it back)"
    if t.you is None:
        return f"{names} offered a rematch; waiting for {', '.join(waiting)}"
    return f"{names} offer{'s' if len(offered) == 1 else ''} a rematch: r accepts " \
           "(everyone moves one seat on)"


class RematchBar(Static):
    """The rematch offer and rating changes of a finished table (see the module's docstring)."""

    DEFAULT_CSS = default_css(__file__, "rematch.tcss")

    def show(self, t: p.TableState) -> None:
        lines = [line for line in (rating_words(t), rematch_words(t)) if line]
        self.display = bool(lines)
        self.set_class(bool(t.rematch) and t.you is not None and t.you not in t.rematch,
                       "offered")
        self.update(Text("\n".join(lines)))
