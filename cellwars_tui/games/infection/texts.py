"""What the Infection table writes: a column of molecule cards, a player's dice and stage, your
line, your powers. Pure functions from a state to Rich text (``colour`` turns a theme colour's
name into a colour); the screen decides where and when they are drawn."""

from __future__ import annotations

import random
from collections.abc import Callable

from rich.text import Text

from ...ui.game_screen import SEAT_GLYPHS
from . import cards as K
from .rules import CURE, REST, SEARCH, WHITE, InfectionState, Player, microscopes, missing

POWER_KEYS = "asdfghjkl"
COLUMN_KEYS = "zxc"
PROTEIN_STYLE = {"G": "bold #4FBF5A", "B": "bold #4C8DF0", "Y": "bold #E8D04C",
                 "R": "bold #E0524F", "P": "bold #B070E0", "M": "bold", "X": ""}
POWER_SHORT = {K.RAT: "rat", K.DOUBLE: "×2", K.WILD: "wild", K.ANY: "any", K.REWHITE: "⟳W",
               K.MOVE: "move"}

Colour = Callable[[str], str]
Rolling = tuple[bool, ...] | None  # which dice tumble now ((False,)*3: the white die), or None


def seat_colour(colour: Colour, seat: int) -> str:
    return colour(f"seat-{seat % 6 + 1}")


# Every letter and glyph of the table, for the keys panel (k) and the rules page's "On the
# screen" (a test keeps them to what the table draws).
KEYS_AND_LEGEND = (
    "space: roll (the white die first, then your free dice), take a complete card\n"
    "1 2 3: hold a die · z x c: meeple to column I II III · . rest · p pause\n"
    "a s d f…: use the power with that letter · m: every move as a list\n"
    "\n"
    "Proteins: G green  B blue  Y yellow  R red  P purple\n"
    "🔬 a microscope: on the dice; I 🔬, II 🔬🔬, III 🔬🔬🔬 to reach a column\n"
    "- (or an empty face) blank · ·· not rolled yet · ⚪ the white die\n"
    "▸ a column's first free card · ① ② ③ ④ the players' meeples\n"
    "A card: number, proteins, VP, power: →G gives a G, rat, ×2 double,\n"
    "  wild, any: target any card, ⟳W reroll the white die, move: your meeple\n"
    "⚡ unused powers · held: a die set aside · rolling…: dice in the air"
)


# The proteins' letters spelled out, at the foot of the three columns (their bottom borders), or at
# 80 columns in the status line: the cards write their proteins as letters.
PROTEIN_LEGEND = ("GB", "YR", "P")


def protein_legend(col: int | None) -> Text:
    """Column ``col``'s share of the proteins' legend ("G green B blue", each in its colour), or
    all of it (``None``)."""
    text = Text()
    for prot in K.PROTEINS if col is None else PROTEIN_LEGEND[col]:
        text.append(" " if text.plain else "")
        text.append(f"{prot} {K.PROTEIN_NAMES[prot]}", style=PROTEIN_STYLE[prot])
    return text


def face_text(face: str) -> str:
    """A die face in two cells: a protein letter, 🔬 for a microscope (as on your own dice and
    the column titles), blank, or '··' unrolled."""
    if face == "":
        return "··"
    if face == K.MICROSCOPE:
        return "🔬"
    if face == K.BLANK:
        return "  "
    return f"{face} "


def power_short(card: int) -> str:
    power = K.CARD_POWER[card]
    if not power:
        return ""
    return f"→{power}" if power in K.PROTEIN_VP else POWER_SHORT[power]


def column_pitch(height: int, cards: int) -> int:
    """Lines a card takes in a column ``height`` lines high that holds up to ``cards`` cards,
    keeping room for two more (the virus grows after each round): 1, a line each; 2, its power
    in words under it; 3, and a blank line; 4, framed like a card; 5, framed, and a blank line.
    The columns grow with the window rather than leave empty lines under the cards."""
    return max(1, min(5, height // (max(cards, 1) + 2)))


def column_text(cards: tuple[int, ...], free: int, meeples: dict[int, int], me: int | None,
                compact: bool, colour: Colour, lit: frozenset[int] = frozenset(),
                pitch: int = 1, width: int = 0) -> Text:
    """A virus column, top card first: the meeple on it (or ▸ on the first free one), its code,
    proteins, VP and power. The codes of ``lit`` cards (a lesson points at them) are drawn on
    the highlight colour. Each card takes ``pitch`` lines (:func:`column_pitch`); framed cards
    (4 and 5) are ``width`` columns wide."""
    framed = pitch >= 4 and width >= 8
    inner = width - 2 if framed else 0
    edge = colour("muted")
    text = Text(no_wrap=True, overflow="ellipsis")
    for pos, card in enumerate(cards):
        line = Text()
        who = meeples.get(card)
        if who is not None:
            line.append(SEAT_GLYPHS[who % 6], style=f"bold {seat_colour(colour, who)}")
        elif pos == free:
            line.append("▸", style=colour("highlight"))
        else:
            line.append(" ")
        mine = "bold" if who is not None and who == me else ""
        if card in lit:
            mine = f"bold reverse {colour('highlight')}"
        if compact:  # the column tells the level: "I-2" shows as " 2"
            line.append(f"{K.CARD_CODE[card].split('-')[1]:>2} ", style=mine)
        else:
            line.append(f"{K.CARD_CODE[card]:<7}", style=mine)
        for prot in K.CARD_PROTEINS[card]:
            line.append(prot, style=PROTEIN_STYLE[prot])
        line.append(" " * (3 - len(K.CARD_PROTEINS[card])))
        line.append(f"{K.CARD_VP[card]:>3}", style=colour("muted"))
        short = power_short(card)
        if short:
            line.append(f" {short}", style=colour("target"))
        label = K.power_label(card)
        words = Text(f"   {label}" if label else "", style=colour("muted"))
        if framed:
            text.append(f"╭{'─' * inner}╮\n", style=edge)
            for row in (line, words):
                row.truncate(inner, overflow="ellipsis", pad=True)
                text.append("│", style=edge)
                text.append_text(row)
                text.append("│\n", style=edge)
            text.append(f"╰{'─' * inner}╯\n", style=edge)
        else:
            text.append_text(line)
            text.append("\n")
            if pitch >= 2:
                text.append_text(words)
                text.append("\n")
        if pitch in (3, 5):
            text.append("\n")
    if not cards:
        text.append(" (cleared)", style=colour("muted"))
    return text


def dice_text(p: Player, rolling: Rolling, rng: random.Random) -> Text:
    """A player's white die and three dice as they lie (random faces while they tumble)."""
    text = Text()
    white = "·" if p.white < 0 else str(p.white)
    if rolling is not None and not any(rolling):
        white = str(rng.choice(K.WHITE_FACES))
    text.append(f"⚪{white} ", style="bold")
    for i in range(3):
        face = p.dice[i]
        if rolling is not None and rolling[i]:
            face = rng.choice(K.DICE[i])
            text.append(f"[{face_text(face)}]", style="dim " + PROTEIN_STYLE.get(face, ""))
            continue
        style = PROTEIN_STYLE.get(face, "")
        if p.held[i]:
            style += " reverse"
        text.append(f"[{face_text(face)}]", style=style)
    return text


def stage_text(s: InfectionState, seat: int, rolling: Rolling, colour: Colour) -> Text:
    """Where a player stands: rolling, the white die to roll, microscopes, what a card needs."""
    p = s.seats[seat]
    text = Text()
    if s.result:
        text.append(f"{len(p.cards)} molecule{'s' if len(p.cards) != 1 else ''} destroyed",
                    style=colour("muted"))
    elif rolling is not None:
        text.append("rolling…", style=colour("muted"))
    elif p.stage == WHITE:
        text.append("to roll white", style=colour("muted"))
    elif p.stage == SEARCH:
        text.append(f"{microscopes(p)}🔬")
    elif p.stage == CURE:
        need = missing(p)
        if need:
            text.append(f"on {K.CARD_CODE[p.target]} needs ")
            for prot in K.PROTEINS:
                text.append(prot * need[prot], style=PROTEIN_STYLE[prot])
        else:  # (short: the players' line holds the dice and the points too at 80 columns)
            text.append(f"on {K.CARD_CODE[p.target]}: claim!",
                        style=f"bold {colour('highlight')}")
    elif p.stage == REST:
        text.append("resting", style=colour("muted"))
    return text


def you_text(seat: int, p: Player, score: int, rolling: Rolling, compact: bool,
             colour: Colour, columns: tuple[int, ...] | None = None) -> Text:
    """Your line: what you have and the keys now (the results only once the dice stop).
    ``columns``: the columns your meeple may go to now (the rules' legal targets); None: every
    column your microscopes reach."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f"{SEAT_GLYPHS[seat % 6]} You", style=f"bold {seat_colour(colour, seat)}")
    white = "…" if rolling is not None and not any(rolling) else max(p.white, 0)
    text.append(f" · white die {white}🔬 · {score} VP\n")
    if rolling is not None:
        text.append("The dice are rolling…", style=colour("muted"))
    elif p.stage == WHITE:
        text.append("space: roll your white die")
    elif p.stage == SEARCH:
        mics = microscopes(p)
        offered = range(min(mics, 3)) if columns is None else columns  # (a cleared one: never)
        # (compact: "z: level I, x: II, c: III", in the 33 columns beside the dice at 80x24)
        reach = ", ".join(f"{COLUMN_KEYS[c]}: {'' if compact and i else 'level '}{K.LEVELS[c]}"
                          for i, c in enumerate(offered))
        text.append(f"{mics}🔬 · space: roll · 1 2 3: hold" if compact else
                    f"{mics} microscope(s) · space: roll · 1 2 3: hold")
        text.append(f"\n{reach}" if reach else "\nroll for (more) microscopes")
    elif p.stage == CURE:
        need = missing(p)
        # the keys on a line of their own: beside the dice at 80x24 a line holds 33 columns
        text.append(f"On {K.CARD_CODE[p.target]} · ")
        if need:
            text.append("needs ")
            for prot in K.PROTEINS:
                text.append(prot * need[prot], style=PROTEIN_STYLE[prot])
            text.append("\nspace: roll")
        else:
            text.append("complete!\nspace or enter: take it",
                        style=f"bold {colour('highlight')}")
    elif p.stage == REST:
        text.append("Resting until the next round.")
    return text


def powers_text(powers: list[int], usable: frozenset[int], colour: Colour) -> Text:
    """Your unused powers with their keys, two a line; the usable ones in bold."""
    text = Text(no_wrap=True, overflow="ellipsis")
    for i, card in enumerate(powers[: len(POWER_KEYS)]):
        style = "bold" if card in usable else colour("muted")
        text.append(f"{POWER_KEYS[i]}", style=f"bold {colour('target')}")
        text.append(f" {K.power_label(card)} ({K.CARD_CODE[card]})", style=style)
        text.append("\n" if i % 2 else "   ")
    return text
