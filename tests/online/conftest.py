"""The online tests' stand-in games (tests/standins.py)."""

from ..standins import _stand_in_games, pytest_make_collect_report  # noqa: F401
