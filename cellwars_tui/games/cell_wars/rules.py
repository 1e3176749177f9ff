"""Cell Wars: the pure rules, gathered in one importable place.

The rules are split along their own sections:

* ``state.py``: options, the frozen state, actions, events and the small queries on a state;
* ``engine.py``: the :class:`CellWars` game (setup, the system round, the ten steps of an
  individual round, attacks, the ending, views);
* ``work.py``: the working copy used inside one ``apply`` and the low-level changes (moving a
  cell, changing a tile, Biomass, death);
* ``effects.py``: what each card does (``cards.py`` holds the cards as data);
* ``notation.py``: actions as text and the log's sentences;
* ``clarifications.py``: every decision the seed leaves to us.

Everything the screen, the bots and the tests use is importable from here.
"""

from __future__ import annotations

from ...core import register
from . import board as B  # noqa: F401
from . import clarifications as C  # noqa: F401
from .cards import (CANCER, CARDS, CONTINUOUS, CONTINUOUS_ROUNDS, DECK_SIZE, DECKS,  # noqa: F401
                    IMMEDIATE, IMMUNE, N_CARDS, NORMAL)
from .cards import card_id as _card_id  # noqa: F401
from .engine import CellWarsEngine
from .notation import _parse_panel, action_from_str, action_to_str, describe  # noqa: F401
from .state import *  # noqa: F401,F403
from .state import _SIMPLE  # noqa: F401



class CellWars(CellWarsEngine):
    """Cell Wars as registered (defined here so that the table finds ``screen.py`` beside this
    module)."""


GAME = register(CellWars())
