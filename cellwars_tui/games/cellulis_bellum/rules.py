"""Cellulis Bellum (the war of cells): the pure rules.

Two players, Yellow (seat 0) and Violet (seat 1), each with 28 cells, one virus and one nucleus,
on the 7 x 6 intersections of :mod:`.geometry`. A turn is a short sequence of actions by the same
seat (``CBState.step`` says where in the turn we are):

* ``START``: any number of apoptoses (``apo d3``) and at most one virus generation (``gen d3``),
  then exactly one main action: the first cell of a spawn (``spawn c2``), the first move of a
  burst (``burst c2-c5``), a virus move (``virus d4``) or shot (``shoot ne``), a nucleus move
  (``nucleus d3``), or ``pass`` when no main action exists at all.
* ``SPAWN``: more ``spawn`` cells (one per colony, colonies as they stood when the spawn began) or
  ``done``; the spawn ends by itself when nothing more can be placed.
* ``BURST``: more ``burst`` moves by cells of the same colony (each at most once) or ``done``; the
  burst ends by itself when no unmoved cell of it can move.

When the main action is over, phagocytosis turns every flanked cell, and the turn passes (or the
game ends: a nucleus was destroyed, or the turn limit is reached). Every decision the seed leaves
open is in :mod:`.clarifications`; the board's shape is in :mod:`.geometry`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from ...core import Action, Event, Game, GameType, Options, Outcome, register
from ...core.api import parse_error
from ...core.errors import BadOptions
from . import clarifications as C
from . import geometry as G

# -- pieces: 0 empty, else 1 + owner + 2 * kind ---------------------------------------------------
EMPTY = 0
CELL, NUCLEUS, VIRUS = 0, 1, 2
KIND_NAMES = ("cell", "nucleus", "virus")


def code(kind: int, owner: int) -> int:
    return 1 + owner + 2 * kind


def owner_of(c: int) -> int:
    return (c - 1) & 1


def kind_of(c: int) -> int:
    return (c - 1) >> 1


CELLS = (code(CELL, 0), code(CELL, 1))
NUCLEI = (code(NUCLEUS, 0), code(NUCLEUS, 1))
VIRUSES = (code(VIRUS, 0), code(VIRUS, 1))

START, SPAWN, BURST, OVER = 0, 1, 2, 3
STEP_NAMES = ("start", "spawn", "burst", "over")


class CellulisBellumOptions(Options, frozen=True, kw_only=True):
    players: int = 2
    turn_limit: int = C.TURN_LIMIT_DEFAULT


# -- actions ---------------------------------------------------------------------------------------
class Apoptosis(Action, frozen=True, tag="apo"):
    centre: int  # centre of the four-cell rhombus


class Generate(Action, frozen=True, tag="gen"):
    centre: int  # centre of the eight-piece rhombus, where the virus appears


class Spawn(Action, frozen=True, tag="spawn"):
    to: int


class Burst(Action, frozen=True, tag="burst"):
    src: int
    dst: int


class Done(Action, frozen=True, tag="done"):
    """End a spawn or a burst."""


class VirusMove(Action, frozen=True, tag="virus"):
    to: int


class VirusShot(Action, frozen=True, tag="shoot"):
    direction: int  # index into geometry.DIRECTIONS


class NucleusMove(Action, frozen=True, tag="nucleus"):
    to: int


class Pass(Action, frozen=True, tag="pass"):
    pass


CBAction = (Apoptosis | Generate | Spawn | Burst | Done | VirusMove | VirusShot | NucleusMove
            | Pass)
MAIN_ACTIONS = (Spawn, Burst, VirusMove, VirusShot, NucleusMove, Pass)


# -- events ----------------------------------------------------------------------------------------
class Apoptosed(Event, frozen=True, tag="apoptosis"):
    seat: int
    centre: int
    sacrificed: tuple[int, ...]
    destroyed: tuple[int, ...]


class Generated(Event, frozen=True, tag="generated"):
    seat: int
    centre: int
    sacrificed: tuple[int, ...]


class Spawned(Event, frozen=True, tag="spawned"):
    seat: int
    at: int


class BurstMoved(Event, frozen=True, tag="burst"):
    seat: int
    src: int
    dst: int


class VirusMoved(Event, frozen=True, tag="virus-moved"):
    seat: int
    src: int
    dst: int
    uses_left: int


class VirusFired(Event, frozen=True, tag="virus-shot"):
    seat: int
    src: int
    direction: int
    destroyed: tuple[int, ...]
    nuclei: tuple[int, ...]  # seats whose nucleus died
    uses_left: int


class NucleusMoved(Event, frozen=True, tag="nucleus-moved"):
    seat: int
    src: int
    dst: int


class Passed(Event, frozen=True, tag="passed"):
    seat: int


class Phagocytosis(Event, frozen=True, tag="phagocytosis"):
    turned: tuple[int, ...]  # points whose cell changed colour
    removed: tuple[int, ...] = ()  # flanked cells removed (the new owner had no cell left)


class GameOver(Event, frozen=True, tag="over"):
    winners: tuple[int, ...]
    termination: str
    territories: tuple[int, ...]


CBEvent = (Apoptosed | Generated | Spawned | BurstMoved | VirusMoved | VirusFired | NucleusMoved
           | Passed | Phagocytosis | GameOver)


class CBState(msgspec.Struct, frozen=True, kw_only=True):
    players: int = 2
    board: tuple[int, ...]  # N_POINTS piece codes
    seat: int = C.FIRST_PLAYER  # the seat whose turn it is
    step: int = START
    turn: int = 0  # turns completed
    turn_limit: int = C.TURN_LIMIT_DEFAULT
    virus_uses: tuple[int, ...] = (0, 0)  # uses left of each seat's virus (0: none on the board)
    dead: tuple[bool, ...] = (False, False)  # nucleus destroyed (it stays on its point)
    generated: bool = False  # a virus was generated this turn
    colonies: tuple[tuple[int, ...], ...] = ()  # SPAWN: colonies as they stood at its start
    placed: tuple[int, ...] = ()  # SPAWN: points spawned this turn
    burst: tuple[int, ...] = ()  # BURST: cells of the colony not yet moved
    termination: str = ""


# -- position helpers ------------------------------------------------------------------------------
def cells_on_board(board: Sequence[int], seat: int) -> int:
    c = CELLS[seat]
    return sum(1 for x in board if x == c)


def reserve(board: Sequence[int], seat: int) -> int:
    """Cells ``seat`` still has off the board."""
    return C.CELLS_PER_PLAYER - cells_on_board(board, seat)


def find(board: Sequence[int], piece: int) -> int:
    """The point holding ``piece`` (nucleus or virus), or -1."""
    try:
        return board.index(piece)
    except ValueError:
        return -1


def colony_of(board: Sequence[int], p: int) -> tuple[int, ...]:
    """The colony of the cell on ``p``: the cells of its colour joined to it through neighbours."""
    c = board[p]
    seen = {p}
    todo = [p]
    while todo:
        q = todo.pop()
        for r in G.NEIGHBOURS[q]:
            if r not in seen and board[r] == c:
                seen.add(r)
                todo.append(r)
    return tuple(sorted(seen))


def colonies(board: Sequence[int], seat: int) -> list[tuple[int, ...]]:
    """``seat``'s colonies: each group of joined cells, then the nucleus on its own."""
    c = CELLS[seat]
    out: list[tuple[int, ...]] = []
    seen: set[int] = set()
    for p in range(G.N_POINTS):
        if board[p] == c and p not in seen:
            col = colony_of(board, p)
            seen.update(col)
            out.append(col)
    n = find(board, NUCLEI[seat])
    if n >= 0:
        out.append((n,))
    return out


def _touches(colony: Iterable[int], p: int) -> bool:
    nb = G.NEIGHBOURS[p]
    return any(q in nb for q in colony)


def _matchable(board, cols: Sequence[tuple[int, ...]], points: Sequence[int]) -> bool:
    """Whether each point can be given a distinct colony it touches (Kuhn's matching)."""
    adj = [[i for i, col in enumerate(cols) if _touches(col, p)] for p in points]
    owner = [-1] * len(cols)

    def augment(i: int, seen: set[int]) -> bool:
        for j in adj[i]:
            if j in seen:
                continue
            seen.add(j)
            if owner[j] < 0 or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    return all(augment(i, set()) for i in range(len(points)))


def spawn_points(s: CBState, seat: int) -> list[int]:
    """Empty points where ``seat`` may put a cell now (start of a spawn or during one)."""
    board = s.board
    if reserve(board, seat) <= 0:
        return []
    cols = s.colonies if s.step == SPAWN else colonies(board, seat)
    if s.step == SPAWN and len(s.placed) >= len(cols):
        return []
    out = []
    for p in range(G.N_POINTS):
        if board[p] != EMPTY:
            continue
        if not any(_touches(col, p) for col in cols):
            continue
        if s.step == SPAWN and s.placed and not _matchable(board, cols, (*s.placed, p)):
            continue
        out.append(p)
    return out


def slides(board: Sequence[int], p: int) -> list[int]:
    """Where a cell on ``p`` may land in a burst: any empty point along a line or diagonal."""
    out = []
    for ray in G.RAYS[p]:
        out.extend(q for q in ray if board[q] == EMPTY)
    return out


def apoptosis_centres(board: Sequence[int], seat: int) -> list[int]:
    c = CELLS[seat]
    return [k for k, pts in G.DIAMOND4.items() if all(board[p] == c for p in pts)]


def apoptosis_victims(board: Sequence[int], seat: int, centre: int) -> tuple[int, ...]:
    enemy = CELLS[1 - seat]
    pts = G.DIAMOND4[centre]
    return tuple(sorted({q for p in (*pts, centre) for q in (p, *G.NEIGHBOURS[p])
                         if board[q] == enemy}))


def generation_centres(s: CBState, seat: int) -> list[int]:
    """Centres where ``seat`` may generate its virus now."""
    if s.generated or s.step != START:
        return []
    board = s.board
    mine = (CELLS[seat], NUCLEI[seat], VIRUSES[seat])
    virus = find(board, VIRUSES[seat])
    out = []
    for k, pts in G.DIAMOND8.items():
        if board[k] != EMPTY:
            continue
        if not all(board[p] in mine for p in pts):
            continue
        if virus >= 0 and virus not in pts:
            continue
        out.append(k)
    return out


def flanked(board: Sequence[int]) -> list[int]:
    """Cells flanked on one axis by two enemy cells (phagocytosis), in point order."""
    out = []
    for p in range(G.N_POINTS):
        x = board[p]
        if x not in CELLS:
            continue
        enemy = CELLS[1 - owner_of(x)]
        step = G.STEP[p]
        for d1, d2 in G.AXES:
            a, b = step[d1], step[d2]
            if a >= 0 and b >= 0 and board[a] == enemy and board[b] == enemy:
                out.append(p)
                break
    return out


def territory_triangles(board: Sequence[int], seat: int) -> set[int]:
    """The triangles of ``seat``'s territory: the region around its nucleus closed by its own
    cells (and the board edge), empty if the enemy nucleus is in it too."""
    n = find(board, NUCLEI[seat])
    if n < 0:
        return set()
    walls = frozenset(p for p in range(G.N_POINTS) if board[p] == CELLS[seat])
    reg = G.region(walls, n)
    e = find(board, NUCLEI[1 - seat])
    if e >= 0 and G.TRIS_AT[e][0] in reg:
        return set()
    return reg


def territory(board: Sequence[int], seat: int) -> int:
    return len(territory_triangles(board, seat))


def winners_by_territory(board: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, int]]:
    t = (territory(board, 0), territory(board, 1))
    if t[0] == t[1]:
        return (0, 1), t
    return ((0,) if t[0] > t[1] else (1,)), t


# -- diagrams: a plain-text picture of the board (tests, logs, debugging) --------------------------
GLYPHS = ".yvYV12"  # empty, cells, nuclei, viruses (Yellow then Violet)


def diagram(board: Sequence[int]) -> str:
    """Six lines, rank 6 first, one character a point (see GLYPHS)."""
    return "\n".join("".join(GLYPHS[board[G.point(f, r)]] for f in range(G.WIDTH))
                     for r in reversed(range(G.HEIGHT)))


def board_from_diagram(text: str) -> tuple[int, ...]:
    rows = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if len(rows) != G.HEIGHT or any(len(r) != G.WIDTH for r in rows):
        raise ValueError(f"a diagram is {G.HEIGHT} lines of {G.WIDTH} characters")
    board = [EMPTY] * G.N_POINTS
    for i, row in enumerate(rows):
        r = G.HEIGHT - 1 - i
        for f, ch in enumerate(row):
            if ch not in GLYPHS:
                raise ValueError(f"unknown piece {ch!r} (use {GLYPHS})")
            board[G.point(f, r)] = GLYPHS.index(ch)
    return tuple(board)


def state_from_diagram(text: str, *, seat: int = 0, turn: int = 0,
                       turn_limit: int = C.TURN_LIMIT_DEFAULT) -> CBState:
    """A position at the start of ``seat``'s turn; each virus on the board has both its uses."""
    board = board_from_diagram(text)
    uses = tuple(C.VIRUS_USES if VIRUSES[q] in board else 0 for q in (0, 1))
    return CBState(board=board, seat=seat, turn=turn, turn_limit=turn_limit, virus_uses=uses)


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1:]


rep = msgspec.structs.replace


class CellulisBellum(Game):
    meta = GameType(
        id="cellulis-bellum",
        title="Cellulis Bellum",
        blurb="Two strains of cells fight for the largest territory; only a virus kills a nucleus.",
        min_players=2,
        max_players=2,
        order=3,
    )
    options_type = CellulisBellumOptions
    state_type = CBState
    action_type = CBAction
    event_type = CBEvent
    seat_names = ("Yellow", "Violet")

    def check_options(self, options: Options) -> None:
        super().check_options(options)
        limit = getattr(options, "turn_limit", C.TURN_LIMIT_DEFAULT)
        if not C.TURN_LIMIT_MIN <= limit <= C.TURN_LIMIT_MAX:
            raise BadOptions(f"turn limit must be {C.TURN_LIMIT_MIN} to {C.TURN_LIMIT_MAX}, "
                             f"not {limit}")

    def initial_state(self, options: Options) -> CBState:
        self.check_options(options)
        board = [EMPTY] * G.N_POINTS
        for seat, p in enumerate(C.NUCLEUS_START):
            board[p] = NUCLEI[seat]
        return CBState(board=tuple(board),
                       turn_limit=getattr(options, "turn_limit", C.TURN_LIMIT_DEFAULT))

    def to_act(self, s: CBState) -> tuple[int, ...]:
        return () if s.step == OVER else (s.seat,)

    # -- legal actions ---------------------------------------------------------------------------
    def main_actions(self, s: CBState, seat: int) -> list[Action]:
        """The main actions open at the start of the turn (no apoptosis, no generation)."""
        board = s.board
        out: list[Action] = [Spawn(p) for p in spawn_points(s, seat)]
        c = CELLS[seat]
        for p in range(G.N_POINTS):
            if board[p] == c:
                out.extend(Burst(p, q) for q in slides(board, p))
        v = find(board, VIRUSES[seat])
        if v >= 0:
            out.extend(VirusMove(q) for q in G.NEIGHBOURS[v] if board[q] == EMPTY)
            out.extend(VirusShot(d) for d in range(8) if G.RAYS[v][d])
        n = find(board, NUCLEI[seat])
        if n >= 0 and not s.dead[seat]:
            out.extend(NucleusMove(q) for q in G.NEIGHBOURS[n] if board[q] == EMPTY)
        return out

    def legal_actions(self, s: CBState, seat: int) -> list[Action]:
        if s.step == OVER or seat != s.seat:
            return []
        if s.step == SPAWN:
            return [*(Spawn(p) for p in spawn_points(s, seat)), Done()]
        if s.step == BURST:
            out: list[Action] = [Burst(p, q) for p in s.burst for q in slides(s.board, p)]
            out.append(Done())
            return out
        out = [Apoptosis(k) for k in apoptosis_centres(s.board, seat)]
        out.extend(Generate(k) for k in generation_centres(s, seat))
        main = self.main_actions(s, seat)
        return out + (main or [Pass()])

    def is_legal(self, s: CBState, seat: int, a: Action) -> bool:
        if s.step == OVER or seat != s.seat:
            return False
        board = s.board
        if isinstance(a, Burst):
            if not (0 <= a.src < G.N_POINTS and 0 <= a.dst < G.N_POINTS):
                return False
            if s.step == BURST:
                ok_src = a.src in s.burst
            else:
                ok_src = s.step == START and board[a.src] == CELLS[seat]
            return ok_src and a.dst in slides(board, a.src)
        if isinstance(a, Spawn):
            return s.step in (START, SPAWN) and a.to in spawn_points(s, seat)
        return a in self.legal_actions(s, seat)

    # -- applying --------------------------------------------------------------------------------
    def _apply(self, s: CBState, seat: int, a: Action) -> tuple[CBState, tuple[Event, ...]]:
        board = list(s.board)
        events: list[Event] = []
        match a:
            case Apoptosis(centre=k):
                pts = G.DIAMOND4[k]
                victims = apoptosis_victims(s.board, seat, k)
                for p in (*pts, *victims):
                    board[p] = EMPTY
                events.append(Apoptosed(seat, k, pts, victims))
                return rep(s, board=tuple(board)), tuple(events)
            case Generate(centre=k):
                pts = G.DIAMOND8[k]
                gone = tuple(p for p in pts if board[p] in (CELLS[seat], VIRUSES[seat]))
                for p in gone:
                    board[p] = EMPTY
                board[k] = VIRUSES[seat]
                sacrificed = tuple(p for p in gone if s.board[p] == CELLS[seat])
                events.append(Generated(seat, k, sacrificed))
                return rep(s, board=tuple(board), generated=True,
                           virus_uses=_set(s.virus_uses, seat, C.VIRUS_USES)), tuple(events)
            case Spawn(to=p):
                cols = s.colonies if s.step == SPAWN else tuple(colonies(s.board, seat))
                board[p] = CELLS[seat]
                events.append(Spawned(seat, p))
                s2 = rep(s, board=tuple(board), step=SPAWN, colonies=cols,
                         placed=(*s.placed, p))
                if spawn_points(s2, seat):
                    return s2, tuple(events)
                return self._end_turn(s2, events)
            case Burst(src=p, dst=q):
                todo = s.burst if s.step == BURST else colony_of(s.board, p)
                board[q], board[p] = board[p], EMPTY
                events.append(BurstMoved(seat, p, q))
                rest = tuple(x for x in todo if x != p)
                s2 = rep(s, board=tuple(board), step=BURST, burst=rest)
                if any(slides(s2.board, x) for x in rest):
                    return s2, tuple(events)
                return self._end_turn(s2, events)
            case Done():
                return self._end_turn(s, events)
            case VirusMove(to=q):
                v = find(board, VIRUSES[seat])
                board[q], board[v] = board[v], EMPTY
                uses = s.virus_uses[seat] - 1
                if uses <= 0:
                    board[q] = EMPTY
                events.append(VirusMoved(seat, v, q, uses))
                return self._end_turn(rep(s, board=tuple(board),
                                          virus_uses=_set(s.virus_uses, seat, uses)), events)
            case VirusShot(direction=d):
                v = find(board, VIRUSES[seat])
                destroyed, nuclei = [], []
                uses_all = list(s.virus_uses)
                dead = list(s.dead)
                for q in G.RAYS[v][d]:
                    x = board[q]
                    if x == EMPTY:
                        continue
                    destroyed.append(q)
                    k, o = kind_of(x), owner_of(x)
                    if k == NUCLEUS:
                        if not dead[o]:
                            dead[o] = True
                            nuclei.append(o)
                        continue  # a destroyed nucleus stays on its point
                    board[q] = EMPTY
                    if k == VIRUS:
                        uses_all[o] = 0
                uses = uses_all[seat] - 1
                uses_all[seat] = uses
                if uses <= 0:
                    board[v] = EMPTY
                events.append(VirusFired(seat, v, d, tuple(destroyed), tuple(nuclei), uses))
                return self._end_turn(rep(s, board=tuple(board), virus_uses=tuple(uses_all),
                                          dead=tuple(dead)), events)
            case NucleusMove(to=q):
                n = find(board, NUCLEI[seat])
                board[q], board[n] = board[n], EMPTY
                events.append(NucleusMoved(seat, n, q))
                return self._end_turn(rep(s, board=tuple(board)), events)
            case Pass():
                events.append(Passed(seat))
                return self._end_turn(s, events)
        raise AssertionError(f"unexpected action {a!r}")

    def _end_turn(self, s: CBState, events: list[Event]) -> tuple[CBState, tuple[Event, ...]]:
        board = list(s.board)
        hits = flanked(board)
        if hits:
            turned, removed = [], []
            on = [cells_on_board(board, 0), cells_on_board(board, 1)]
            for p in hits:
                o = owner_of(board[p])
                new = 1 - o
                on[o] -= 1
                if on[new] < C.CELLS_PER_PLAYER:
                    board[p] = CELLS[new]
                    on[new] += 1
                    turned.append(p)
                else:
                    board[p] = EMPTY
                    removed.append(p)
            events.append(Phagocytosis(tuple(turned), tuple(removed)))
        turn = s.turn + 1
        s2 = rep(s, board=tuple(board), step=START, seat=1 - s.seat, turn=turn, generated=False,
                 colonies=(), placed=(), burst=())
        termination = ""
        if any(s.dead):
            termination = "nucleus destroyed"
        elif turn >= s.turn_limit:
            termination = "turn limit"
        if termination:
            s2 = rep(s2, step=OVER, termination=termination)
            winners, t = winners_by_territory(s2.board)
            events.append(GameOver(winners, termination, t))
        return s2, tuple(events)

    # -- the end -------------------------------------------------------------------------------
    def outcome(self, s: CBState) -> Outcome | None:
        if s.step != OVER:
            return None
        winners, t = winners_by_territory(s.board)
        term = s.termination if len(winners) == 1 else f"{s.termination}, equal territories"
        return Outcome(winners, term, (float(t[0]), float(t[1])))

    # -- notation ------------------------------------------------------------------------------
    def action_to_str(self, a: Action) -> str:
        nm = G.NAMES
        match a:
            case Apoptosis(centre=k):
                return f"apo {nm[k]}"
            case Generate(centre=k):
                return f"gen {nm[k]}"
            case Spawn(to=p):
                return f"spawn {nm[p]}"
            case Burst(src=p, dst=q):
                return f"burst {nm[p]}-{nm[q]}"
            case Done():
                return "done"
            case VirusMove(to=q):
                return f"virus {nm[q]}"
            case VirusShot(direction=d):
                return f"shoot {G.DIR_NAMES[d]}"
            case NucleusMove(to=q):
                return f"nucleus {nm[q]}"
            case Pass():
                return "pass"
        raise ValueError(f"not a Cellulis Bellum action: {a!r}")

    def action_from_str(self, text: str) -> Action:
        words = text.strip().lower().split()
        if not words:
            raise parse_error(self, text, "empty")
        head, args = words[0], words[1:]

        def pt(word: str) -> int:
            p = G.parse_point(word)
            if p is None:
                raise parse_error(self, text, f"{word!r} is not a point (a1 to g6)")
            return p

        if head in ("done", "pass") and not args:
            return Done() if head == "done" else Pass()
        if len(args) != 1:
            raise parse_error(self, text, "expected one argument")
        arg = args[0]
        if head == "apo":
            return Apoptosis(pt(arg))
        if head == "gen":
            return Generate(pt(arg))
        if head == "spawn":
            return Spawn(pt(arg))
        if head == "virus":
            return VirusMove(pt(arg))
        if head == "nucleus":
            return NucleusMove(pt(arg))
        if head == "shoot":
            if arg not in G.DIR_NAMES:
                raise parse_error(self, text, "direction must be one of " + " ".join(G.DIR_NAMES))
            return VirusShot(G.DIR_NAMES.index(arg))
        if head == "burst":
            a, sep, b = arg.partition("-")
            if not sep:
                raise parse_error(self, text, "a burst move reads like c2-c5")
            return Burst(pt(a), pt(b))
        raise parse_error(self, text, f"unknown action {head!r}")

    def describe_event(self, e: Event, names: Sequence[str]) -> str:
        nm = G.NAMES

        def who(seat: int) -> str:
            return names[seat] if 0 <= seat < len(names) else self.seat_label(seat)

        def pts(ps: Iterable[int]) -> str:
            return ", ".join(nm[p] for p in ps) or "nothing"

        match e:
            case Apoptosed(seat=s, centre=k, sacrificed=sac, destroyed=d):
                return (f"{who(s)} sacrifices the rhombus around {nm[k]} ({pts(sac)}), "
                        f"destroying {pts(d)}.")
            case Generated(seat=s, centre=k, sacrificed=sac):
                return f"{who(s)} generates a virus on {nm[k]} from {pts(sac)}."
            case Spawned(seat=s, at=p):
                return f"{who(s)} spawns a cell on {nm[p]}."
            case BurstMoved(seat=s, src=p, dst=q):
                return f"{who(s)} bursts a cell from {nm[p]} to {nm[q]}."
            case VirusMoved(seat=s, src=p, dst=q, uses_left=u):
                tail = " and it is spent" if u <= 0 else ""
                return f"{who(s)}'s virus moves from {nm[p]} to {nm[q]}{tail}."
            case VirusFired(seat=s, src=p, direction=d, destroyed=x, nuclei=nu, uses_left=u):
                text = f"{who(s)}'s virus on {nm[p]} fires {G.DIR_NAMES[d]}, destroying {pts(x)}"
                if nu:
                    text += "; nucleus destroyed: " + ", ".join(who(q) for q in nu)
                return text + (" and it is spent." if u <= 0 else ".")
            case NucleusMoved(seat=s, src=p, dst=q):
                return f"{who(s)}'s nucleus moves from {nm[p]} to {nm[q]}."
            case Passed(seat=s):
                return f"{who(s)} has no action and passes."
            case Phagocytosis(turned=t, removed=r):
                text = f"Phagocytosis: {pts(t)} change colour" if t else "Phagocytosis"
                return text + (f"; {pts(r)} removed." if r else ".")
            case GameOver(winners=w, termination=t, territories=terr):
                score = f"territories {terr[0]} to {terr[1]}"
                if len(w) == 1:
                    return f"Game over ({t}): {who(w[0])} wins, {score}."
                return f"Game over ({t}): a draw, {score}."
        return super().describe_event(e, names)

    # -- invariants ----------------------------------------------------------------------------
    def check_invariants(self, s: CBState) -> None:
        board = s.board
        assert s.players == 2 and len(board) == G.N_POINTS
        assert all(0 <= x <= 6 for x in board)
        for seat in (0, 1):
            assert 0 <= cells_on_board(board, seat) <= C.CELLS_PER_PLAYER
            assert board.count(NUCLEI[seat]) == 1, "each nucleus stays on the board"
            v = board.count(VIRUSES[seat])
            assert v <= 1
            assert (v == 1) == (s.virus_uses[seat] > 0), (seat, v, s.virus_uses)
            assert 0 <= s.virus_uses[seat] <= C.VIRUS_USES
        assert 0 <= s.turn <= s.turn_limit
        if s.step == OVER:
            assert s.termination and (any(s.dead) or s.turn >= s.turn_limit)
        else:
            assert not any(s.dead) and s.turn < s.turn_limit
        if s.step != SPAWN:
            assert not s.placed and not s.colonies
        if s.step == SPAWN:
            assert s.placed and len(s.placed) <= len(s.colonies)
            assert all(board[p] == CELLS[s.seat] for p in s.placed)
        if s.step != BURST:
            assert not s.burst
        else:
            assert all(board[p] == CELLS[s.seat] for p in s.burst)

    # -- bots ----------------------------------------------------------------------------------
    def bot_actions(self, s: CBState, seat: int) -> list[Action]:
        from .bot import bot_actions

        return bot_actions(self, s, seat)

    def heuristic(self, s: CBState) -> tuple[float, ...]:
        from .bot import heuristic

        return heuristic(s)

    def random_playout(self, s: CBState, rng, max_steps: int = 400):
        from .bot import random_playout

        return random_playout(self, s, rng, max_steps)


GAME = register(CellulisBellum())

__all__ = ["GAME", "CellulisBellum", "CBState", "CellulisBellumOptions", "Apoptosis", "Generate",
           "Spawn", "Burst", "Done", "VirusMove", "VirusShot", "NucleusMove", "Pass", "START",
           "SPAWN", "BURST", "OVER", "CELLS", "NUCLEI", "VIRUSES", "territory", "colonies",
           "flanked", "spawn_points", "diagram", "board_from_diagram", "state_from_diagram"]
