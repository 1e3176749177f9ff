"""The solver against brute force on the rules engine, the symmetry reduction, the study's
findings, hints, the daily puzzle and the command line."""

from __future__ import annotations

import collections
import datetime as dt
import random

import msgspec
import pytest

from cellwars_tui.core import CellwarsError
from cellwars_tui.games.cell_management import rules as R
from cellwars_tui.games.cell_management import solver as S
from cellwars_tui.games.cell_management.rules import GAME, GiveUp, Start

from .helpers import SAMPLE


def brute_force_min_rounds(setup) -> int | None:
    """0-1 BFS over full game states, stepping with GAME.apply only (a Start costs one round)."""
    start = R.initial_position(setup, max_rounds=10_000)
    key = lambda s: (s.phase, s.in_cell, s.in_hideout, s.in_center)  # noqa: E731
    best = {key(start): 0}
    queue = collections.deque([(0, start)])
    while queue:
        d, s = queue.popleft()
        if best[key(s)] < d:
            continue
        if s.phase == R.WON:
            return d
        for a in GAME.legal_actions(s, 0):
            if isinstance(a, GiveUp):
                continue
            nxt, _ = GAME.apply(s, 0, a)
            nxt = msgspec.structs.replace(nxt, round=0) if nxt.phase != R.WON else nxt
            cost = 1 if isinstance(a, Start) else 0
            k = key(nxt)
            if k not in best or best[k] > d + cost:
                best[k] = d + cost
                if cost:
                    queue.append((d + 1, nxt))
                else:
                    queue.appendleft((d, nxt))
    return None


def test_packed_walk_matches_the_rules_walk():
    rng = random.Random(7)
    for _ in range(300):
        species = rng.choice([4, 5, 6])
        setup = R.shuffle_setup(species, rng)
        puzzle = S.Compiled(setup)
        bits = sum(rng.choice([0, 1, 2, 3]) << (2 * x) for x in range(species))
        state = S.decode(bits, R.initial_position(setup))
        for cell, steps in puzzle.walks:
            after = state
            for _event, after in R.walk(state, cell):
                pass
            if after.phase == R.WON:  # the packed walk goes on, but everyone stays free
                assert S.walk_bits(bits, steps) & puzzle.goal == puzzle.goal
            else:
                assert S.walk_bits(bits, steps) == S.encode(after)


def test_walk_of_a_set_of_states_is_the_set_of_their_walks():
    rng = random.Random(9)
    for species in (4, 5, 6):
        setup = R.shuffle_setup(species, rng)
        puzzle = S.Compiled(setup)
        for (_cell, steps), cases in zip(puzzle.walks, S.walk_cases(puzzle)):
            states = rng.sample(range(4**species), 40)
            image = S.walk_set(sum(1 << b for b in states), cases)
            assert image == sum(1 << b for b in {S.walk_bits(b, steps) for b in states})


def test_layer_search_agrees_with_the_plan_search():
    classes = S.setup_classes(4) + S.setup_classes(5) + S.setup_classes(6)[::10]
    for c in classes:
        plan = S.solve_setup(c.setup)
        assert S.min_rounds_of_sets(c.setup) == (None if plan is None else plan.rounds), \
            R.setup_code(c.setup)


@pytest.mark.parametrize("species", [4, 5])
def test_solver_agrees_with_brute_force_on_small_variants(species):
    for cls in S.setup_classes(species)[:: 1 if species == 4 else 4]:
        assert S.min_rounds(cls.setup) == brute_force_min_rounds(cls.setup), R.setup_code(cls.setup)


def test_solver_agrees_with_brute_force_on_six_species_samples():
    rng = random.Random(3)
    for setup in [SAMPLE] + [R.shuffle_setup(6, rng) for _ in range(3)]:
        assert S.min_rounds(setup) == brute_force_min_rounds(setup)


def test_symmetry_classes_cover_every_setup_exactly_once():
    for species in (4, 5, 6):
        classes = S.setup_classes(species)
        assert sum(c.raw_count for c in classes) == R.setup_count(species)
        assert len({S.canonical(c.setup) for c in classes}) == len(classes)


def test_symmetry_reduction_loses_nothing_on_every_four_species_setup():
    classes = {S.canonical(c.setup): c for c in S.setup_classes(4)}
    rep_rounds = {k: S.min_rounds(c.setup) for k, c in classes.items()}
    sizes = collections.Counter()
    for number in range(1, R.setup_count(4) + 1):
        setup = R.setup_from_number(number, 4)
        key = S.canonical(setup)
        sizes[key] += 1
        assert S.min_rounds(setup) == rep_rounds[key], R.setup_code(setup)
    assert all(sizes[k] == c.raw_count for k, c in classes.items())


def test_symmetry_reduction_loses_nothing_on_sampled_six_species_setups():
    rng = random.Random(11)
    classes = {S.canonical(c.setup): c.setup for c in S.setup_classes(6)}
    for _ in range(60):
        setup = R.setup_from_number(rng.randrange(1, R.setup_count(6) + 1), 6)
        assert S.min_rounds(setup) == S.min_rounds(classes[S.canonical(setup)])


def _shifted_by_one(setup) -> bool:
    """Every cell sits just before (anticlockwise of) its own species' hideout."""
    n = len(setup.cells)
    return all(setup.hideouts[(p + 1) % n] == setup.cells[p] for p in range(n))


@pytest.mark.parametrize(("species", "classes", "unsolvable", "hardest"),
                         [(4, 10, 2, 11), (5, 48, 2, 14), (6, 404, 0, 13)])
def test_study_findings(species, classes, unsolvable, hardest):
    result = S.study(species, workers=1)
    assert len(result.classes) == classes and result.raw_setups == R.setup_count(species)
    assert len(result.unsolvable()) == unsolvable
    assert max(r for r in result.rounds if r is not None) == hardest
    for c, r in zip(result.classes, result.rounds):
        assert (r is None) == (_shifted_by_one(c.setup) and species < 6)
        if species == 6 and _shifted_by_one(c.setup):
            assert r == 7  # the rules page: that shape takes 7 rounds with three hostile hideouts


def test_solution_replays_to_a_win_in_the_minimum_rounds():
    for setup in (SAMPLE, R.setup_from_number(1740, 6)):
        start = R.initial_position(setup)
        actions = S.solution_actions(start)
        s = start
        for a in actions:
            s, _ = GAME.apply(s, 0, a)
        assert s.phase == R.WON and s.round == S.min_rounds(setup)


def test_hint_is_a_first_step_of_an_optimal_plan():
    s = R.initial_position(SAMPLE)
    total = S.min_rounds(SAMPLE)
    for _ in range(total):
        if s.phase == R.WON:
            break
        before = S.solve_state(s).rounds
        s, _ = GAME.apply(s, 0, S.hint(s))
        if s.phase == R.START:
            assert S.solve_state(s).rounds == before - 1
        while s.phase == R.RETURN:
            s, _ = GAME.apply(s, 0, S.hint(s))
            assert S.solve_state(s).rounds == before - 1
    assert s.phase == R.WON and s.round == total


def test_hint_is_none_on_an_unsolvable_ship():
    setup = S.study(4, workers=1).unsolvable()[0].setup
    assert S.hint(R.initial_position(setup)) is None


def test_puzzle_numbers_and_codes_round_trip():
    for number in range(1, R.setup_count(4) + 1):
        setup = R.setup_from_number(number, 4)
        assert R.setup_number(setup) == number
        assert R.setup_from_code(R.setup_code(setup)) == setup
        assert R.setup_from_code(R.number_text(setup)) == setup
    rng = random.Random(5)
    for _ in range(200):
        setup = R.shuffle_setup(6, rng)
        assert R.setup_from_number(R.setup_number(setup)) == setup
        assert R.setup_from_code(R.number_text(setup)) == setup


@pytest.mark.parametrize("code", ["", "N3245A-234", "N3245A-234-4A32N", "N3245A-234-4A32NX",
                                  "NA2345-234-AN3254", "#0", "#99999999", "4#865", "7#1"])
def test_bad_setup_codes_are_refused_with_one_line(code):
    with pytest.raises(CellwarsError) as info:
        R.setup_from_code(code)
    assert "\n" not in str(info.value)


def test_a_variant_number_out_of_range_says_its_range_whatever_species_is_asked():
    # the launcher tries each species in turn and shows the first error: it must be the range
    with pytest.raises(CellwarsError, match="puzzle numbers for 4 species run from 1 to 864"):
        R.setup_from_code("4#900", 6)
    with pytest.raises(CellwarsError, match="4-species puzzle, not 6"):
        R.setup_from_code("4#12", 6)


def test_daily_puzzle_is_stable_for_a_date_and_solvable():
    day = dt.date(2026, 11, 23)
    first = R.daily_setup(day)
    assert R.daily_setup(day) == first and first.daily == "2026-11-23"
    assert R.setup_code(first) == "A5N432-N24-32AN54"
    days = [R.setup_code(R.daily_setup(day + dt.timedelta(days=i))) for i in range(1, 8)]
    assert len(set(days)) == 7
    for species in (4, 5):
        for i in range(10):
            assert S.min_rounds(R.daily_setup(day + dt.timedelta(days=i), species)) is not None


def cli_main(argv):
    """``cellwars solve/study cell-management ...``: the tools the game declares
    (``GAME.tools()``), which the command line parses and calls."""
    from cellwars_tui.cli import main

    assert {tool.name for tool in GAME.tools()} == {"solve", "study"}
    return main(argv)


def test_solve_command_prints_the_minimum_and_an_optimal_plan(capsys):
    assert cli_main(["solve", "cell-management", "--code", "N3245A-234-4A32N5"]) == 0
    out = capsys.readouterr().out
    rounds = S.min_rounds(SAMPLE)
    assert f"solvable: minimum {rounds} rounds" in out
    assert sum(line.strip().startswith("Round ") for line in out.splitlines()) == rounds


def test_solve_command_names_cells_as_the_game_does(capsys):
    # "cell 1 (species 4)": the key (position clockwise) first, then the species locked in it;
    # a captive sent back names its hideout's number
    import re

    assert cli_main(["solve", "cell-management", "--code", "N3245A-234-4A32N5"]) == 0
    out = capsys.readouterr().out
    starts = re.findall(r"start at cell (\d) \(species (\w)\)", out)
    assert len(starts) == S.min_rounds(SAMPLE)
    assert all(R.SYMBOLS[SAMPLE.cells[int(key) - 1]] == sym for key, sym in starts)
    for name, number in re.findall(r"send the (\w+) back \(hideout (\d)\)", out):
        assert R.NAMES[SAMPLE.hideouts[int(number) - 1]] == name
    assert "send the Ace back (hideout 6)" in out  # this plan sends one back


def test_solve_command_reports_an_unsolvable_ship(capsys):
    assert cli_main(["solve", "cell-management", "--code", "NA23-NA-A23N"]) == 0
    assert "unsolvable" in capsys.readouterr().out


def test_solve_command_reads_a_number_for_the_species_given(capsys):
    assert cli_main(["solve", "cell-management", "--code", "#12", "--species", "4"]) == 0
    assert "(puzzle 4#12)" in capsys.readouterr().out
    assert cli_main(["solve", "cell-management", "--code", "#12"]) == 0
    assert "(puzzle #12)" in capsys.readouterr().out
    assert cli_main(["solve", "cell-management", "--code", "#900", "--species", "4"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "from 1 to 864" in err


def test_solve_command_refuses_a_bad_code_in_one_line(capsys):
    assert cli_main(["solve", "cell-management", "--code", "nonsense"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cellwars:")


def test_study_command_prints_count_reduction_histogram_and_hardest(capsys):
    assert cli_main(["study", "cell-management", "--species", "4"]) == 0
    out = capsys.readouterr().out
    for words in ("864", "Distinct classes: 10", "Unsolvable: 2 classes", "minimum rounds",
                  "hardest", "NA23-NA-3NA2", "relabelling"):
        assert words in " ".join(out.split()), words


def test_study_reports_progress_up_to_every_class():
    calls = []
    result = S.study(5, workers=1, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (len(result.classes), len(result.classes))
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


# -- bad input on the command line (issue 21) ----------------------------------------------------
def _cellwars(capsys, *argv: str) -> tuple[int, str, str]:
    from cellwars_tui.cli import main

    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


BAD_NUMBERS = ["#" + "1" * 5000, "#²", "#①", "٣#12", "4" * 5000 + "#1", "#1" + "0" * 20]


@pytest.mark.parametrize("code", BAD_NUMBERS)
def test_a_puzzle_number_out_of_reach_is_one_line_for_solve_and_play(capsys, monkeypatch, code):
    # "²" and "①" passed str.isdigit and then broke int(); 5,000 digits broke int() too
    monkeypatch.setattr("cellwars_tui.ui.app.run_app", lambda **kw: pytest.fail("app started"))
    for argv in (["solve", "cell-management", "--code", code],
                 ["play", "cell-management", "-o", f"code={code}"]):
        status, out, err = _cellwars(capsys, *argv)
        assert status == 2 and not out, argv
        assert err.startswith("cellwars: ") and err.count("\n") == 1, err
        assert "Cell Management" in err and "int()" not in err and len(err) < 200, err


def test_study_refuses_a_code_instead_of_ignoring_it(capsys):
    status, out, err = _cellwars(capsys, "study", "cell-management", "--code", "#12")
    assert status == 2 and not out and err.count("\n") == 1
    assert "study solves every setup and takes no --code" in err


@pytest.mark.parametrize(("code", "says"), [
    ("4#12", "it is a 4-species puzzle, not 5"),
    ("N3245A-234-4A32N5", "it has 6 hideouts, not 5"),
])
def test_solve_refuses_a_species_the_code_contradicts(capsys, code, says):
    status, _, err = _cellwars(capsys, "solve", "cell-management", "--code", code, "--species", "5")
    assert status == 2 and says in err and err.count("\n") == 1, err
    status, out, _ = _cellwars(capsys, "solve", "cell-management", "--code", code)
    assert status == 0 and "solvable" in out  # the code alone gives the size


def test_solve_accepts_a_species_that_agrees_with_the_code(capsys):
    status, out, _ = _cellwars(capsys, "solve", "cell-management", "--code", "4#12",
                               "--species", "4")
    assert status == 0 and "(puzzle 4#12)" in out
