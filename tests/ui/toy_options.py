"""The toy race with variant options of every kind the New-game dialog draws (registered as
"toy-options"; the rules are the toy race's)."""

from __future__ import annotations

from typing import Literal

import msgspec

from cellwars_tui.core import Options, register
from cellwars_tui.core.errors import BadOptions
from tests.toy_game import ToyRace


class ToyOptions(Options, frozen=True, kw_only=True):
    goal: int = 20
    fast: bool = False
    die: Literal["d6", "d8"] = "d6"


class ToyOptionsRace(ToyRace):
    meta = msgspec.structs.replace(
        ToyRace.meta,
        id="toy-options",
        title="Toy options",
        blurb="The toy race with options (test only)",
    )
    options_type = ToyOptions

    def check_options(self, options):
        super().check_options(options)
        if not 5 <= options.goal <= 100:
            raise BadOptions(f"goal must be between 5 and 100, not {options.goal}")


TOY_OPTIONS = register(ToyOptionsRace())
