"""The ``cellwars`` command line. Every user error ends in one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import sys
import typing
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .cli_types import one_line, parse_whole, seconds, shown, whole
from .cli_types import path as file_name
from .core.errors import CellwarsError


def _seat_spec(text: str) -> tuple[int, str]:
    """``2=easy``, ``2=normal``, ``2=hard``, ``2=random``, ``1=human`` (seats counted from 1);
    ``bot`` and ``mcts``, the words from before levels, are normal and hard."""
    from .ai.levels import UnknownLevel, level_name

    seat, sep, kind = text.partition("=")
    number = parse_whole(seat)
    if not sep or number is None:
        raise argparse.ArgumentTypeError(f"expected SEAT=KIND like 2=easy, not {shown(text)}")
    if number < 1:
        raise argparse.ArgumentTypeError(f"seats are numbered from 1, not {number}")
    kind = kind.strip().lower()
    if kind in ("human", "person"):
        return number - 1, "human"
    try:
        return number - 1, level_name(kind)
    except UnknownLevel as exc:
        raise argparse.ArgumentTypeError(f"seat {number}: {one_line(str(exc))}") from None


def _seed(text: str) -> int:
    """A whole number, decimal or with a 0x / 0o / 0b prefix."""
    t = text.strip()
    try:
        if not (t.isascii() and len(t) <= 70):
            raise ValueError(text)
        value = int(t, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"seed must be a whole number, not {shown(text)}") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError("seed must be between 0 and 2**63-1")
    return value


def _game_ids() -> list[str]:
    """Game ids for --help, from the game packages found (no game module is imported)."""
    from .core.registry import game_package_ids

    return game_package_ids()


def _option(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {text!r}")
    return key.strip().replace("-", "_"), value.strip()


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line (``cellwars play: ...``), not usage + error."""

    def error(self, message: str) -> typing.NoReturn:
        self.exit(2, f"{self.prog}: {one_line(message)} (see {self.prog} --help)\n")


def build_parser(with_tools: bool = True) -> argparse.ArgumentParser:
    p = OneLineParser(
        prog="cellwars",
        description="A terminal game table for five cell-biology games.",
        epilog="Run cellwars with no command to open the launcher. "
               "Example: cellwars play virus-fight --players 3 --seat 2=easy --seed 42",
    )
    p.add_argument("--version", action="version", version=f"cellwars {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    play = sub.add_parser("play", help="start a new game of GAME",
                          description="Start a new game straight away (seat 1 is you, the "
                                      "other seats are normal bots unless --seat says otherwise). "
                                      "A solitaire (cell-management) left unfinished is resumed "
                                      "unless --seed or --option asks for a new one.")
    play.add_argument("game", help="game id: " + ", ".join(_game_ids()))
    play.add_argument("--players", type=whole("number of players"), help="number of players")
    play.add_argument("--seat", type=_seat_spec, action="append", default=[],
                      metavar="N=KIND",
                      help="seat N is human or a bot level: random, easy, normal (the default "
                           "for seats 2 and up), hard; bot means normal and mcts hard")
    play.add_argument("--seed", type=_seed, help="seed for dice, shuffles and first player")
    play.add_argument("--think", type=seconds("thinking time"), default=None,
                      help="the most seconds a bot may take for a move, a guard (default 10; "
                           "a level stops at its search budget long before)")
    play.add_argument("--option", "-o", type=_option, action="append", default=[],
                      metavar="NAME=VALUE", help="a game option")

    learn = sub.add_parser("learn", help="a guided first game of GAME",
                           description="Learn GAME by playing: a guided first game with a lesson "
                                       "panel that says what to do next and why, ending in a "
                                       "normal game against an easy bot.")
    learn.add_argument("game", help="game id: " + ", ".join(_game_ids()))

    replay = sub.add_parser("replay", help="replay a recorded game (or a plain-text move list)")
    replay.add_argument("file", type=file_name)
    replay.add_argument("--export", type=file_name, metavar="TEXTFILE",
                        help="write FILE's moves (as far as they are valid) as a plain-text move "
                             "list to TEXTFILE ('-' for the terminal) and exit")

    from .analysis.cli import add_analyse_arguments

    add_analyse_arguments(sub.add_parser(
        "analyse", help="analyse a recorded game: Win%% by step, mistakes, accuracy"))

    bench = sub.add_parser("bench", help="run the benchmarks")
    bench.add_argument("--json", action="store_true", help="print JSON instead of a table")
    bench.add_argument("--only", action="append", default=[], help="run benchmarks whose name has this")
    bench.add_argument("--quick", action="store_true", help="smaller sample sizes")

    from .bench.balance import add_balance_arguments

    add_balance_arguments(sub.add_parser("balance", help="equal-strength self-play figures"))

    from .ssh.cli import add_serve_arguments

    add_serve_arguments(sub.add_parser("serve", help="serve the table over SSH"))
    from .ssh.cli import add_web_arguments

    add_web_arguments(sub.add_parser("web", help="serve the app to a browser (textual-serve)"))
    p.set_defaults(tool=None)
    if with_tools:
        add_game_tools(sub)
    return p


# The table's own commands; any other command is a game's tool (see add_game_tools).
COMMANDS = ("play", "learn", "replay", "analyse", "bench", "balance", "serve", "web")


def add_game_tools(sub: typing.Any) -> None:
    """``cellwars TOOL GAME [arguments]`` for every tool a game declares (``Game.tools``): one
    command per tool name, with the games that offer it as its choices. Imports every game."""
    from .core.api import Game
    from .core.meta import GameTool
    from .core.registry import all_games

    offers: dict[str, list[tuple[Game, GameTool]]] = {}
    for game in all_games():
        for tool in game.tools():
            offers.setdefault(tool.name, []).append((game, tool))
    for name, games in offers.items():
        helps = {tool.help for _, tool in games}
        command = sub.add_parser(name, help=helps.pop() if len(helps) == 1 else
                                 f"{name} ({', '.join(g.id for g, _ in games)})")
        choice = command.add_subparsers(dest="game", metavar="GAME", required=True)
        for game, tool in games:
            parser = choice.add_parser(game.id, help=tool.help, description=tool.help)
            tool.add_arguments(parser)
            parser.set_defaults(tool=tool)


def wants_game_tools(argv: Sequence[str]) -> bool:
    """Whether parsing ``argv`` needs the games' tools (a command that is not the table's own,
    or --help): the launcher and ``cellwars play`` start without importing every game."""
    return bool(argv) and argv[0] not in COMMANDS


def newest_unfinished_solitaire(game: typing.Any) -> Path | None:
    """The newest unfinished saved game of ``game`` if it is a solitaire (``cellwars play
    cell-management`` resumes it rather than dealing a new puzzle), else None."""
    if game.max_players != 1:
        return None
    from .record.store import unfinished

    for saved in unfinished():  # newest first
        if saved.header.game == game.id:
            return saved.path
    return None


def check_replay_file(path: Path) -> None:
    """``cellwars replay FILE``: a directory, a device or a FIFO is "not a regular file" and a
    file larger than any record is refused, before anything tries to read it (RecordError)."""
    from .record.format import MAX_RECORD_BYTES
    from .record.files import check_user_file

    check_user_file(Path(path), limit=MAX_RECORD_BYTES)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(with_tools=wants_game_tools(argv))
    args = parser.parse_args(argv)
    try:
        return _dispatch(parser, args)
    except CellwarsError as exc:
        print(f"cellwars: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    cmd = args.command
    if cmd is None:
        from .ui.app import run_app

        return run_app()
    if cmd == "play":
        from .ui.app import run_app
        from .ui.setup import new_game_request

        request = new_game_request(
            args.game, players=args.players, seats=args.seat, seed=args.seed,
            think=args.think, options=dict(args.option),
        )
        if args.seed is None and not args.option and not args.seat:
            saved = newest_unfinished_solitaire(request.game)
            if saved is not None:  # a solitaire left mid-puzzle goes on where it was left
                return run_app(resume=saved)
        return run_app(start=request)
    if cmd == "learn":
        from .core.registry import get_game
        from .learn.run import checked_lesson
        from .ui.app import run_app

        game = get_game(args.game)  # an unknown game: one line, exit 2
        checked_lesson(game)  # a damaged lesson file: one line, exit 2
        return run_app(learn=game.id)
    if cmd == "replay":
        check_replay_file(args.file)
        if args.export is not None:
            from .replay.cli import export_move_list

            return export_move_list(args.file, args.export)
        from .replay import Replay
        from .ui.app import run_app

        # opened before the app starts: a file that is no record at all is a one-line error
        # (exit status 2), not a launcher with a notice (issue 19)
        return run_app(replay=Replay.open(args.file))
    if cmd == "analyse":
        check_replay_file(args.file)
        from .analysis.cli import run_analyse

        return run_analyse(args)
    if cmd == "bench":
        from .bench import run_bench

        return run_bench(only=args.only, as_json=args.json, quick=args.quick)
    if cmd == "balance":
        if args.ladder:  # each bot level against the level below
            from .bench.ladder import run_ladder

            return run_ladder(args)
        from .bench.balance import run_balance

        return run_balance(args)
    if args.tool is not None:  # a game's own command
        return args.tool.run(args)
    if cmd == "serve":
        from .ssh.server import run_serve

        return run_serve(args)
    if cmd == "web":
        from .ssh.web import run_web_command

        return run_web_command(args)
    parser.error(f"unknown command {cmd}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
