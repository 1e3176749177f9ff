"""Stand-in games of the online and SSH tests, kept out of every other test's registry.

The tiny games these tests define (secret-pick, live-rounds ...) register at import. Each is
taken out of the registry as soon as its module is collected and registered again around every
test of ``tests/online`` and ``tests/ssh`` only (their conftests take the hook and the fixture
from here), so tests collected later never find them in all_games().
"""

from __future__ import annotations

import pytest

from cellwars_tui.core import Game, all_games
from cellwars_tui.core.registry import registered, unregister

PACKAGES = ("tests.online.", "tests.ssh.")
STAND_INS: dict[str, Game] = {}


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    report = yield
    if isinstance(collector, pytest.Module):
        for game in all_games():
            if type(game).__module__.startswith(PACKAGES):
                STAND_INS[game.id] = unregister(game.id)
    return report


@pytest.fixture(autouse=True)
def _stand_in_games():
    with registered(*STAND_INS.values()):
        yield
