"""Every decision Infection makes where the seed rulebook is silent or ambiguous, in one place.

The constants below are what ``rules.py`` and the screen use; ``CLARIFICATIONS`` pairs a short
quoted fragment of the seed with the decision in our own words. rules.md repeats these items under
"Clarifications" (a test checks that each fragment appears there).
"""

from __future__ import annotations

from ...timer import format_clock  # a round length as the countdown shows it ("2:15")

ROUNDS = 3
ROUND_SECONDS_DEFAULT = 180
ROUND_SECONDS_MIN, ROUND_SECONDS_MAX = 30, 900
CARDS_PER_COLUMN = {1: 3, 2: 5, 3: 7, 4: 9}
NEW_CARDS_AFTER_ROUNDS = (1, 2)  # a new card tops each column when these rounds end

# The "tense team game" option (off by default: every round lasts the seed's three minutes). The
# seed deals 3, 5, 7 or 9 cards per column for 1 to 4 players and adds 3 per round end whatever
# the team size, so a bigger team has fewer cards each: at three minutes teams of normal-pace bots
# win 99-100 % of games while a solo player wins about two in three. The option keeps every rule
# and shortens the rounds by team size instead, to the length at which a team of normal-pace bots
# wins about two games in three (measured with ``winrate.py --sweep``; solo keeps three minutes).
TENSE_ROUND_SECONDS = {1: 180, 2: 135, 3: 120, 4: 110}


def tense_round_seconds(players: int) -> int:
    """The round length of a tense team game for ``players`` (the seed's 180 s outside 1-4)."""
    return TENSE_ROUND_SECONDS.get(players, ROUND_SECONDS_DEFAULT)


def effective_round_seconds(players: int, round_seconds: int, tense: bool) -> int:
    """The round length a game plays with: the tense one for its team size when ``tense``, else
    ``round_seconds``. ValueError when ``tense`` meets a round length chosen by hand (anything
    but the seed's 180 s or the tense length itself)."""
    if not tense:
        return round_seconds
    secs = tense_round_seconds(players)
    if round_seconds not in (ROUND_SECONDS_DEFAULT, secs):
        raise ValueError(f"a tense team game sets its own round length ({secs} s for {players} "
                         f"player{'s' if players != 1 else ''}); leave the round length at "
                         f"{ROUND_SECONDS_DEFAULT} s or turn the tense team game off")
    return secs

# Bot pace: seconds between two actions of a bot teammate (a roll, a hold, a target, a claim...).
# The names are the bot levels' (ai.levels): an easy bot is slow, a hard one fast.
PACES = {"easy": 2.0, "normal": 1.2, "hard": 0.7}
PACE_ALIASES = {"fast": "hard"}  # the older name, still read (records, the command line)
PACE_DEFAULT = "normal"
# A bot seat's pace when the ``paces`` option is left empty: its level's (a random bot, which
# plays any legal action, keeps the normal pace).
LEVEL_PACES = {"random": "normal", "easy": "easy", "normal": "normal", "hard": "hard"}


def parse_paces(text: str, players: int) -> tuple[str, ...]:
    """The pace of each seat from the ``paces`` option: one name for every seat ("hard") or one
    per seat, comma-separated ("hard,easy"; missing seats get the last one). ValueError if bad.
    (Empty: the normal pace; a table reads an empty option as "each bot's level".)"""
    names = [w.strip().lower() for w in (text or PACE_DEFAULT).split(",") if w.strip()]
    names = [PACE_ALIASES.get(name, name) for name in names]
    if not names:
        names = [PACE_DEFAULT]
    for name in names:
        if name not in PACES:
            raise ValueError(f"unknown bot pace {name!r} (easy, normal or hard)")
    if len(names) > players:
        raise ValueError(f"{len(names)} bot paces for {players} seats")
    return tuple(names[min(i, len(names) - 1)] for i in range(players))


def seat_pace(text: str, players: int, seat: int, level: str) -> str:
    """The pace of a bot seat (a name of ``PACES``): the ``paces`` option's for the seat when it
    names any, else the pace of the seat's bot level (``LEVEL_PACES``)."""
    if not (text or "").strip():
        return LEVEL_PACES.get(level, PACE_DEFAULT)
    try:
        paces = parse_paces(text, players)
    except ValueError:
        paces = (PACE_DEFAULT,) * players
    return paces[seat] if 0 <= seat < len(paces) else PACE_DEFAULT


PACE_JITTER = 0.3  # each wait is the pace times a factor drawn from [1 - jitter, 1 + jitter]
# Play time reached is recorded (a "clock N" step, the one after the last action moved on) every
# this many seconds without an action, and whenever a player leaves the table: a crash loses at
# most this much of the round's time.
CLOCK_SECONDS = 2.0
TUMBLE_SECONDS = 1.5  # dice take this long to land after a roll (no action meanwhile)

CLARIFICATIONS: tuple[tuple[str, str], ...] = (
    ("Protein Value",
     "The seed's table of protein values is missing. Green is worth 1, blue 2, yellow 3, red 3 "
     "and purple 4 victory points, so the seed's example (two blue and one green make 5) holds."),
    ("16 dice",
     "The white die shows only microscopes: 0, 0, 1, 1, 2 or 2. Each blue die shows one "
     "microscope, green, blue, red and two blank faces; the yellow die shows one microscope, "
     "yellow, purple, green, blue and one blank face."),
    ("as quickly and as often as can",
     "Dice take 1.5 seconds to land after a roll (they tumble on screen), as real dice do; the "
     "player's next action waits for them. This belongs to the table, not the rules: the record "
     "keeps the actions and their times."),
    ("There are no turns",
     "Each action (a roll, a hold, a target, a claim, a power) is applied in the order the table "
     "receives it and recorded with its time. 'The first player to get their meeple on the card' "
     "is simply whoever's action arrives first."),
    ("When the sand runs out",
     "The passing of time enters the rules as one system action, 'time-up N', applied by the "
     "table when round N's timer runs out; its time is in the record, so a replay is exact and can "
     "run in real time or step by step. Pausing stops the timer and every player."),
    ("flips over the sand timer",
     "The sand keeps running while the players sit at the table, whether they act or not; only "
     "time away from the table (a saved game left and resumed later) and pauses are not counted. "
     "The table records the time reached as a 'clock N' system action, which changes nothing "
     "else, when a player leaves and every 2 seconds without any action (moving the one recorded "
     "since the last action on, so there is at most one between two actions), so a resumed round "
     "goes on with the time it really had left and a replay shows the same clock."),
    ("rolls his four dice as quickly",
     "A player may also rest for the rest of a round (their meeple leaves its card). When every "
     "player rests, the round ends at once as if the timer had run out. This ends a round early "
     "in solo play and lets games without a clock (bots, tests) finish."),
    ("First each player rolls their white die",
     "Each player rolls their own white die at the start of every round and after every molecule "
     "they take; the three coloured dice are blank until they are rolled again."),
    ("save a die or dice",
     "While looking for microscopes a player holds and releases dice freely; a roll re-rolls "
     "every coloured die that is not held. At least one die must be free to roll."),
    ("top available molecule card",
     "A meeple goes on the topmost card of a column that carries no meeple: the top card, or the "
     "first free one below it. A column of a level may be chosen with at least as many "
     "microscopes as its level (1, 2 or 3)."),
    ("they must set it aside",
     "Once a meeple is placed, dice showing a protein the molecule still needs are set aside at "
     "once (automatically), but only when the other proteins it still needs can still be rolled "
     "on the dice left free; set-aside dice are not re-rolled. Microscopes no longer matter."),
    ("take the molecule card",
     "When the proteins are complete the player claims the card (one action): it leaves the "
     "column, the meeple returns, and the player starts again with the white die."),
    ("All the cards are gone",
     "The virus is the cards in the columns; the game is won the moment the last one is taken, "
     "even in the middle of a round. Cards still in the decks do not count."),
    ("take the top card of each Level deck",
     "New cards top the columns when the first and the second timer run out; the third ends the "
     "game. An empty column gets its new card too."),
    ("wins the Nobel Prize",
     "Only a winning team awards the Nobel Prize: to the player with the most victory points; "
     "tied players share it."),
    ("must flip it over face down",
     "A power may be used only while its owner has a meeple on a card (the substitutes, wild, "
     "double, rat and move) or while looking for microscopes (re-roll the white die, target any "
     "card). A power used on a molecule that is not destroyed before the timer runs out is lost."),
    ("One of the 5 protein symbols",
     "A substitute or wild protein counts as one protein the targeted molecule still needs."),
    ("counts as two of that protein",
     "Double protein is played on a set-aside die whose protein the molecule still needs at least "
     "once more; that die then counts twice."),
    ("A Rat",
     "The rat destroys the targeted molecule at once: the player takes the card as if the "
     "proteins were complete."),
    ("move it to another available card",
     "Moving the meeple takes it to the topmost free card of any column, whatever the "
     "microscopes; dice set aside for the old molecule are released, substitutes already played "
     "stay, and dice showing the new molecule's proteins are set aside again."),
    ("Target any card: As long",
     "Target any card places the meeple on any card without a meeple in a column the "
     "microscopes allow."),
    ("Players have only nine minutes",
     "Nine minutes is the seed's three rounds of three minutes, the default here. With the seed's "
     "dealing (3, 5, 7 or 9 cards per column for 1 to 4 players, 3 new cards per round end "
     "whatever the team size) a team has fewer cards per player than a solo player, and teams of "
     "normal-pace bots almost never lose. The 'tense team game' option keeps every rule and the "
     "three rounds but shortens each round by team size: " + ", ".join(
         f"{format_clock(TENSE_ROUND_SECONDS[n])} for {('two', 'three', 'four')[n - 2]}" for n in (2, 3, 4))
     + f" players (solo keeps {format_clock(TENSE_ROUND_SECONDS[1])}); at these lengths a team of "
     "normal-pace bots wins about two games in three, as a solo player does in three minutes."),
)
