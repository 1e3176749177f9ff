"""The Cell Wars side panel and log as text: the round track, the cancer count, the step, a line
a cell (Biomass, attack, range, cards, walls, hand) and the sentences the log names tiles in.
Built as Rich text from the state; the screen draws it (ui/widgets/text_lines.py)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text

from ...core.api import Game
from . import board as B
from . import clarifications as C
from . import rules as R
from .cards import CARDS, IMMUNE, card_id
from .labels import PIECE_MARKS, STEP_TITLES

SEAT_TAG = 9  # a seat line of the side panel starts "▶A Ia P1 " (acting mark, piece, cell, seat)


def side_text(s: R.CWState, game: Game, *, room: int, colour: Callable[[str], str],
              seat_colour: Callable[[int], str], dice_text: str = "",
              card: str | None = None, attack: str = "") -> Text:
    """The side panel for ``s`` in ``room`` columns: the round track, the cancer count, the
    step, the last die (``dice_text``), the last attack by or on the reader's cells this round
    (``attack``, so it stays in view when the log has scrolled on), a line or two a cell, the
    picked ``card``'s text and a legend. In a narrow ``room`` the cells' lines come first, as
    a table, and the die, the attack and each cell's hand and cards after it."""
    muted = colour("muted")
    out = Text(no_wrap=True, overflow="ellipsis")
    # round track: one character a round, reload rounds marked *
    out.append(f"Round {s.round:>2}/{C.ROUNDS} " if s.round else "Setup     ", style="bold")
    for r in range(1, C.ROUNDS + 1):
        ch = "*" if r in C.RELOAD_ROUNDS else "·"
        if r == s.round:
            out.append(ch if ch == "*" else "o", style="bold reverse")
        else:
            out.append(ch, style="bold" if r > s.round else muted)
    out.append("\n")
    n = R.cancer_count(s)
    danger = colour("danger")
    style = f"bold {danger}" if n > C.CANCER_WIN_ABOVE - 4 or n < C.IMMUNE_WIN_BELOW + 3 \
        else "bold"
    out.append("Cancer tiles ")
    out.append(f"{n:>2}", style=style)
    out.append(f"  (C>{C.CANCER_WIN_ABOVE}  I<{C.IMMUNE_WIN_BELOW})\n",
               style=muted)
    out.append(step_line(s) + "\n", style="bold")
    # a line a seat with every figure labelled when the widest fits; else (the 33 columns of
    # an 80-column window) a compact table under one header line, every seat's row together
    # right under the step, and the die, the last attack and the seats' walls, cards on panel
    # and hands after the table, each named by its cell: the rows stay in view when the
    # column is short (a lesson panel takes its lower half)
    labelled = SEAT_TAG + max(len(seat_figures(s, p, True))
                              for p in range(len(s.panels))) + len(" C2") <= room
    after: list[tuple[str, str]] = []  # (line, style) for the lines under the compact table
    events: list[tuple[str, str]] = []
    if dice_text:
        events.append(("die ", ""))
        events.append((dice_text + "\n", f"bold {colour('highlight')}"))
    if attack:
        for i, line in enumerate(textwrap.wrap(attack, max(16, room - 7)) or [attack]):
            events.append(("attack " if i == 0 else "       ", muted))
            events.append((line + "\n", "bold"))
    if labelled:
        for text, style in events:
            out.append(text, style=style)
    else:
        out.append(" " * SEAT_TAG + "  Bio Att Rng Cards\n", style=muted)
        after.extend(events)
    owners = R.shown_owners(s)
    acting = s.panel if s.phase == R.PLAY else (
        R.GAME.acting_panel(s) if s.phase != R.OVER else -1)
    for p, pn in enumerate(s.panels):
        seat = owners[p]
        mine = seat_colour(seat)
        out.append("▶" if p == acting else " ")
        camp = colour("immune" if R.PANEL_CAMPS[p] == IMMUNE else "cancer")
        out.append(PIECE_MARKS[p], style=f"bold {colour('board')} on {mine}")
        out.append(f" {C.PANEL_NAMES[p]}", style=f"bold {camp}")
        out.append(f" P{seat + 1} ", style=f"bold {mine}")
        figures = seat_figures(s, p, labelled)
        if pn.tile == R.DEAD:
            out.append(figures + "\n", style=muted)
            continue
        out.append(figures)
        extras = []
        boost = round_boost(s, p)
        if boost:
            extras.append(boost)
        if pn.walls:
            extras.append(f"walls {pn.walls}")
        if pn.solid:
            extras.append(f"solid {pn.solid}/{C.SOLIDIFY_CLAIMS}")
        if pn.tile >= 0:
            out.append(f" {B.NAMES[pn.tile]}", style=muted)
        tail = " " + " ".join(extras)
        if extras and SEAT_TAG + len(figures) + 3 + len(tail) <= room:
            out.append(tail)
            extras = []
        out.append("\n")
        # the seat's walls, cards on panel and hand: under its row, or (compact) under the table
        # behind the cell's name
        lead = "   " if labelled else f" {C.PANEL_NAMES[p]} "
        details = [(line + "\n", style)
                   for line, style in seat_details(s, p, extras, lead, room, muted, mine)]
        if labelled:
            for text, style in details:
                out.append(text, style=style)
        else:
            after.extend(details)
    for text, style in after:
        out.append(text, style=style)
    if card is not None:  # the picked card's text, whole (the status line may cut it)
        picked = CARDS[card_id(card)]
        out.append(f"{picked.name} ({picked.kind}):\n", style="bold")
        for line in textwrap.wrap(R.card_text(s, card_id(card)), max(16, room - 1)):
            out.append(f" {line}\n")
    if s.factory:
        out.append(f"Wall factory stock: {s.factory}\n", style=muted)
    legend = "A B G immune · a b g cancer · * CARD signs reload · k: legend"
    if len(legend) > room:  # (the 33 columns of an 80-column window)
        legend = "ABG immune · abg cancer · *reload"  # (k: the whole legend)
    out.append(legend + "\n", style=muted)
    return out


def seat_details(s: R.CWState, p: int, extras: list[str], lead: str, room: int, muted: str,
                 mine: str) -> list[tuple[str, str]]:
    """Panel ``p``'s lines after its figures, each starting with ``lead``: the ``extras`` (walls,
    solidify claims) that did not fit on its row, the cards on its panel, its hand (named when
    the view holds it, else counted)."""
    lines: list[tuple[str, str]] = []
    pn = s.panels[p]
    if extras:
        lines.append((lead + " · ".join(extras), ""))
    if pn.active:
        # (rounds left in the first edition; the second edition's cards stay: 0)
        for line in list_lines("on panel: ", [f"{CARDS[c].name} ({left})" if left
                                              else CARDS[c].name
                                              for c, left in pn.active], room, lead):
            lines.append((line, muted))
    if not pn.hand:
        return lines
    if may_see_hand(s, p):
        for line in list_lines("hand: ", [CARDS[c].name for c in pn.hand], room, lead):
            lines.append((line, mine))
    else:
        hidden = "hidden " if -1 in pn.hand else ""
        lines.append((f"{lead}hand: {len(pn.hand)} {hidden}card"
                      f"{'s' if len(pn.hand) > 1 else ''}", muted))
    return lines


def seat_figures(s: R.CWState, p: int, labelled: bool) -> str:
    """Panel ``p``'s Biomass/limit, attack, range and cards, labelled ("Bio 4/5 Att 1 Rng 0
    Cards 2") or in the compact table's columns; Att and Rng with a ``+`` while a card's boost
    for this round is in them (Adjuvant); a dead cell's fate (:func:`dead_words`)."""
    pn = s.panels[p]
    if pn.tile == R.DEAD:
        return dead_words(s, p)
    bio = f"{pn.biomass}/{R.effective_limit(pn)}"
    boosted = p == s.panel and s.phase == R.PLAY
    att = f"{R.attack_of(s, p)}{'+' if boosted and s.buff_attack else ''}"
    rng = f"{R.range_of(s, p)}{'+' if boosted and s.buff_range else ''}"
    cards = len(pn.hand)
    if labelled:
        return f"Bio {bio} Att {att} Rng {rng} Cards {cards}"
    return f"{bio:>5}{att:>4}{rng:>4}{cards:>6}"


def dead_words(s: R.CWState, p: int) -> str:
    """A dead cell's line: "dead for good" (an immune cell, or a cancer cell whose limit cannot
    drop further), or what a relapse would bring it back with ("dead, relapse 1/4": on a
    solidified tile, Biomass 1 of a limit one lower; ``k`` and the rules page explain it)."""
    limit = s.panels[p].limit - 1
    if R.PANEL_CAMPS[p] == IMMUNE or limit < C.MIN_LIMIT:
        return "dead for good"
    return f"dead, relapse 1/{limit}"


def round_boost(s: R.CWState, p: int) -> str:
    """The acting cell's boosts for this round from the cards it played ("this round: Att +1
    Rng +1, rolls of 2-3 hit"); "" when none is in force."""
    if p != s.panel or s.phase != R.PLAY:
        return ""
    parts = []
    if s.buff_attack:
        parts.append(f"Att +{s.buff_attack}")
    if s.buff_range:
        parts.append(f"Rng +{s.buff_range}")
    if s.precise:
        parts.append("rolls of 2-3 hit")
    return "this round: " + " ".join(parts) if parts else ""


def may_see_hand(s: R.CWState, p: int) -> bool:
    """Name the cards of panel ``p``'s hand exactly when the view holds them: a seat's view
    (``Game.view``) already turns every card that seat may not see into -1, the hot-seat
    cover shows the public view (every hand hidden), and reveal-all (a replay's "all" view,
    a finished or bots-only game) holds every hand."""
    return bool(s.panels[p].hand) and -1 not in s.panels[p].hand


def step_line(s: R.CWState) -> str:
    """The phase or the acting cell's step, e.g. \"Ia step 8/10: movement\"."""
    if s.phase == R.SIGNS:
        return f"Setup 1/3: special spots ({len(s.signs)}/8)"
    if s.phase == R.TISSUE:
        return f"Setup 2/3: cancer tissue ({R.cancer_count(s)}/{s.cancer_tissue})"
    if s.phase == R.PIECES:
        return f"Setup 3/3: pieces ({min(s.panel, 6)}/6)"
    if s.phase == R.OVER:
        return "Game over"
    number, title = STEP_TITLES.get(s.step, (0, s.step))
    return f"{C.PANEL_NAMES[s.panel]} step {number}/10: {title}"


def list_lines(label: str, items: list[str], width: int, indent: int | str = 3) -> list[str]:
    """``label`` and the items, comma separated, in lines of at most ``width`` cells: breaks fall
    between items (inside one only when it is too long for a line), later lines indented under
    the first item."""
    first = (" " * indent if isinstance(indent, int) else indent) + label
    cont = " " * len(first)
    lines: list[str] = []
    line = first
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        fresh = line in (first, cont)
        if len(line) + (0 if fresh else 1) + len(piece) <= width:
            line += piece if fresh else " " + piece
            continue
        if not fresh:
            lines.append(line)
            line = cont
        if len(line) + len(piece) <= width:
            line += piece
            continue
        *whole, last = textwrap.wrap(piece, max(8, width - len(cont))) or [piece]
        for part in whole:
            lines.append(line + part)
            line = cont
        line += last
    lines.append(line)
    return lines


def attack_line(events: Sequence[Any], after: R.CWState) -> str:
    """An attack's result in a few words for the side panel, from the events of its step and
    the state after it: "Ia→Ca roll 5: hit, Ca Bio 3; Ib strikes again", or why a cell that
    rolled made none ("Ib: no cancer cell in range, no attack"); "" if the step held neither."""
    names = C.PANEL_NAMES
    parts = []
    for e in events:
        if isinstance(e, R.AttackResult):
            head = f"{names[e.panel]}→{names[e.target]} roll {e.roll}: "
            if e.result == "hit":
                parts.append(head + f"hit, {_biomass_after(after, e.target)}")
            elif e.result == "back+tissue":
                parts.append(head + f"miss, {names[e.panel]} steps back, a tile turns cancer")
            else:
                parts.append(head + f"miss, {names[e.panel]} steps back")
        elif isinstance(e, R.DoubleAttack):
            parts.append(f"{names[e.panel]} strikes again, {_biomass_after(after, e.target)}")
        elif isinstance(e, R.NoAttack):
            parts.append(f"{names[e.panel]}: no cancer cell in range, no attack")
    return "; ".join(parts)


def _biomass_after(after: R.CWState, q: int) -> str:
    pn = after.panels[q]
    return f"{C.PANEL_NAMES[q]} dies" if pn.tile < 0 else f"{C.PANEL_NAMES[q]} Bio {pn.biomass}"


def special_sentence(e: R.Special, after: R.CWState) -> str:
    """A special action in plain words, naming the tile the cell stands on."""
    who = C.PANEL_TITLES[e.panel]
    tile = after.panels[e.panel].tile if e.panel < len(after.panels) else -1
    where = B.NAMES[tile] if tile >= 0 else "its tile"
    if e.what == "purify":
        return f"{who} purifies {where}"
    if e.what == "degrade":
        return f"{who} degrades {where}"
    if e.what == "solidify":
        return f"{who} solidifies {where} ({e.count}/{C.SOLIDIFY_CLAIMS})"
    return R.describe(e)
