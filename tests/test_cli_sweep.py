"""Bad input on the command line: every command and every option of ``cellwars``, fed generated
text, numbers and bytes, ends in a one-line error with exit status 2 (or is accepted), never in a
traceback or a hang.

The sweep runs ``cellwars_tui.cli.main`` in-process with each command's action stubbed out
(:data:`ACTIONS`), so only the parsing and checking of arguments run, thousands of times in
seconds. The options come from the parser itself: an option added to a command is swept without
touching this file. A command is one line in :data:`ACTIONS`. A few real ``cellwars`` processes
at the end check what only a process shows (bytes in argv, the exit status, a hang).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import itertools
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cellwars_tui.bench import collect as _collect
from cellwars_tui.cli import build_parser, main
from cellwars_tui.core.registry import all_games
from cellwars_tui.games.cell_management.solver import study as _study
from cellwars_tui.games.virus_fight.notation import STANDARD


def _returns(value) -> Callable:
    return lambda *args, **kwargs: value


async def _serves_nothing(*args, **kwargs) -> None:
    return None


def _perft_counts_nothing(game, state, depth: int) -> int:
    assert depth >= 0, f"perft asked for depth {depth}"  # (depth -1 counted on forever)
    return 1


def _benchmarks_found(only) -> list:
    return [lambda quick: []] if _collect(only) else []  # "no benchmark matches" stays real


@functools.cache
def _a_small_study(species: int, **kwargs):
    return _study(4, workers=1)  # the report's shape, without solving 1.7 million setups


# What each command does once its arguments are checked, stubbed by the sweep. One line each:
# a new command is swept once it is here (its options come from the parser).
ACTIONS: dict[str, tuple[tuple[str, Callable], ...]] = {
    "play": (("cellwars_tui.ui.app.run_app", _returns(0)),),
    "learn": (("cellwars_tui.ui.app.run_app", _returns(0)),),  # (the lesson file is still read)
    "replay": (("cellwars_tui.ui.app.run_app", _returns(0)),
               ("cellwars_tui.replay.cli.export_move_list", _returns(0))),
    "solve": (("cellwars_tui.games.cell_management.solver.solve_setup", _returns(None)),),
    "study": (("cellwars_tui.games.cell_management.solver.study", _a_small_study),),
    "perft": (("cellwars_tui.games.virus_fight.notation.perft", _perft_counts_nothing),),
    "analyse": (("cellwars_tui.analysis.cli.run_analyse", _returns(0)),),
    "bench": (("cellwars_tui.bench.collect", _benchmarks_found),),
    "serve": (("cellwars_tui.ssh.server.serve", _serves_nothing),),
    "web": (("cellwars_tui.ssh.web.run_web", _serves_nothing),),
    "balance": (("cellwars_tui.bench.balance.run_series", _returns(None)),  # (no game played)
                ("cellwars_tui.bench.ladder.run_series", _returns(None))),  # --ladder
}


def test_every_command_of_the_parser_is_swept():
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert sorted(commands.choices) == sorted(ACTIONS)


# -- what the arguments are made of ---------------------------------------------------------------
TRICKY = [
    "", " ", "-", "--", "-1", "0", "1", "7", "-0", "+3", "1e400", "-1e400", "nan", "inf", "-inf",
    "0x10", "1_000", "1.5", ".5", "1/", "/", "x/50", "²", "①", "٣", "３", "#", "#²", "#①", "#0",
    "#" + "1" * 5000, "9" * 5000, "1" * 31, "a" * 5000, "\x00", "\n", "a\nb", "\t", "\x1b[2J",
    "=", "==", "2=", "=bot", "2=bot=x", "ß", "İ", "\u200b", "\ufeff", "%s", "%(prog)s", "{}",
    "--help=x", "-o", "NaN", "1e-400", "00000000000000000000000007", "/dev/null", ".", "/",
]
GAME_IDS = sorted(g.id for g in all_games())
OPTION_NAMES = sorted({f.name for g in all_games()
                       for f in msgspec.structs.fields(g.options_type)} | {"players", "nope"})
CODES = ["N3245A-234-4A32N5", "NA23-NA-A23N", "#12", "4#12", "5#1"]
POSITIONS = list(STANDARD.values())


def _mutated(texts: list[str]) -> st.SearchStrategy[str]:
    """A good text with one piece replaced, cut or doubled: deep in its checks, not at the door."""
    def mutate(args) -> str:
        text, i, j, piece = args
        i, j = sorted((i % (len(text) + 1), j % (len(text) + 1)))
        return text[:i] + piece + text[j:]

    piece = st.one_of(st.sampled_from(TRICKY[:40]), st.text(max_size=4))
    return st.tuples(st.sampled_from(texts), st.integers(0, 200), st.integers(0, 200),
                     piece).map(mutate)


JUNK = st.one_of(
    st.sampled_from(TRICKY),
    st.sampled_from(TRICKY),
    st.text(max_size=20),
    st.binary(max_size=12).map(os.fsdecode),  # argv bytes as Python receives them
    st.integers().map(str),
    st.floats().map(repr),
)
GOOD: dict[str, st.SearchStrategy[str]] = {
    "game": st.sampled_from(GAME_IDS),
    "option": st.tuples(st.sampled_from(OPTION_NAMES), JUNK).map("=".join),
    "code": st.one_of(st.sampled_from(CODES), _mutated(CODES)),
    "position": st.one_of(st.sampled_from(POSITIONS), _mutated(POSITIONS)),
    "seat": st.tuples(st.integers(-1, 7).map(str), st.sampled_from(
        ["bot", "mcts", "random", "human", "alien", ""])).map("=".join),
}


def _value(action: argparse.Action) -> st.SearchStrategy[str]:
    good = GOOD.get(action.dest)
    if action.choices:
        good = st.sampled_from([str(c) for c in action.choices])
    return JUNK if good is None else st.one_of(good, good, JUNK)


@functools.cache
def _subparser(command: str) -> argparse.ArgumentParser:
    # built once per command: drawing an argv only reads the parser (and building it is most of
    # a draw's time); main() parses with a parser of its own
    return _choices(build_parser())[command]


def _choices(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parser's sub-commands (``cellwars TOOL GAME``: a game is a sub-command too), or {}."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    return {} if sub is None else dict(sub.choices)


def _leaves(parser: argparse.ArgumentParser, words: tuple[str, ...]):
    """(words, parser) for each end of the sub-command tree below ``parser``."""
    choices = _choices(parser)
    if not choices:
        yield words, parser
    for name, child in choices.items():
        yield from _leaves(child, (*words, name))


def _arguments(parser: argparse.ArgumentParser):
    """(positionals, options) of one parser, sub-commands and --help left out."""
    actions = [a for a in parser._actions
               if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))]
    return ([a for a in actions if not a.option_strings], [a for a in actions if a.option_strings])


@st.composite
def _argv(draw, command: str) -> list[str]:
    argv, parser = [command], _subparser(command)
    while choices := _choices(parser):  # a sub-command: mostly a real one, now and then junk
        word = draw(st.one_of(st.sampled_from(sorted(choices)), JUNK)
                    if draw(st.integers(0, 9)) else JUNK)
        argv.append(word)
        if word not in choices:
            break
        parser = choices[word]
    positionals, options = _arguments(parser)
    for action in positionals:
        if draw(st.integers(0, 9)):  # now and then left out
            argv.append(draw(_value(action)))
    for action in draw(st.lists(st.sampled_from(options), max_size=5)) if options else []:
        flag = draw(st.sampled_from(action.option_strings))
        if action.nargs == 0:
            argv.append(flag)
        elif draw(st.integers(0, 9)):
            argv += [flag, draw(_value(action))]
        else:
            argv.append(flag)  # its value left out
    return argv


# -- running a command line in-process -------------------------------------------------------------
class Hang(Exception):
    pass


@contextlib.contextmanager
def _cpu_limit(seconds: float) -> Iterator[None]:
    """Raise Hang after ``seconds`` of this process's CPU time (not wall time: a loaded machine
    gives a test less of the CPU, and that is no hang). pytest-timeout's SIGALRM is left alone."""
    def hang(signum, frame):
        raise Hang(f"still busy after {seconds} s of CPU")

    old = signal.signal(signal.SIGPROF, hang)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _cpu_limit(20):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse: usage errors, --help
            code = exc.code
    return (0 if code is None else code), out.getvalue(), err.getvalue()


def check_outcome(argv: list[str], code: int, out: str, err: str) -> None:
    assert "Traceback" not in err and "Traceback" not in out, (argv, err)
    if code == 2:
        assert err.startswith("cellwars") and err.endswith("\n") and err.count("\n") == 1, (
            argv, err)
    else:
        assert code == 0, (argv, code, err)  # accepted: the stubbed action ran (or --help)


@pytest.fixture
def stubbed_actions(monkeypatch, tmp_path):
    """Every command's action replaced (see ACTIONS); relative paths land in a scratch folder."""
    for stubs in ACTIONS.values():
        for target, fake in stubs:
            monkeypatch.setattr(target, fake)
    # one parser for every call (building it is most of a call's time; parsing leaves it as is)
    monkeypatch.setattr("cellwars_tui.cli.build_parser", functools.cache(build_parser))
    monkeypatch.chdir(tmp_path)


EXAMPLES = {"game": GAME_IDS, "file": ["missing.cwr"]}  # good values of positionals


@pytest.mark.parametrize("command", list(ACTIONS))
def test_every_option_of_a_command_takes_every_tricky_value(stubbed_actions, command):
    """Each option alone, with and without the command's flags, given each TRICKY value; and each
    TRICKY value in place of each positional argument and sub-command word."""
    for words, parser in _leaves(_subparser(command), (command,)):
        positionals, options = _arguments(parser)
        flags = [a.option_strings[-1] for a in options if a.nargs == 0]
        valued = [a for a in options if a.nargs != 0]
        for heads in itertools.product(*(EXAMPLES.get(a.dest, ["x"]) for a in positionals)):
            for tail in ([], flags):
                for value in TRICKY:
                    lines = [[*words, *heads, option.option_strings[-1], value, *tail]
                             for option in valued]
                    lines += [[*words, *heads[:i], value, *tail] for i in range(len(heads))]
                    lines += [[*words[:i], value, *tail] for i in range(1, len(words))]
                    for argv in lines:
                        check_outcome(argv, *run_cli(argv))


@pytest.mark.slow  # a large property run over every command
@pytest.mark.parametrize("command", list(ACTIONS))
@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                    HealthCheck.too_slow])
@given(data=st.data())
def test_any_command_line_is_accepted_or_one_line_with_exit_2(stubbed_actions, command, data):
    argv = data.draw(_argv(command), label="argv")
    check_outcome(argv, *run_cli(argv))


# -- a few real processes ----------------------------------------------------------------------
def cellwars(*argv: str | bytes, timeout: float = 120) -> subprocess.CompletedProcess:
    """``cellwars ARGV`` in a process of its own (its home is the test's CELLWARS_HOME); the
    timeout only guards against a hang."""
    return subprocess.run([sys.executable, "-m", "cellwars_tui.cli", *argv], capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=timeout)


@pytest.mark.parametrize("argv", [
    ["solve", "cell-management", "--code", "#" + "1" * 5000],
    ["solve", "cell-management", "--code", "#²"],
    ["play", "cell-management", "-o", "code=#①"],
    ["study", "cell-management", "--code", "#12"],
    ["perft", "virus-fight", "--position", ""],
    [b"play", b"\xff\xfe"],
    ["serve", "--port", "٣"],
    ["web", "--host", "a b"],
    ["web", "--token", ""],
    ["web", "--token-file", "/dev/zero"],
    ["balance", "cell-wars", "--games", "٣"],
    ["perft", "virus-fight", "--depth", "٣"],
])
def test_a_real_cellwars_process_refuses_bad_input_in_one_line_with_exit_2(argv):
    done = cellwars(*argv)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2 and not done.stdout, (argv, err)
    assert err.startswith("cellwars") and err.count("\n") == 1 and "Traceback" not in err, err


def test_perft_depth_0_with_divide_ends_at_once_in_a_real_process():
    done = cellwars("perft", "virus-fight", "--depth", "0", "--divide")
    assert done.returncode == 0 and done.stdout.decode() == "nodes 1\n"
