"""Replay analysis, headless: any record evaluated step by step with the game's own search
(each seat's Win% before and after every decision, the preferred move, judgments and each
player's accuracy), saved beside the record. No textual or rich here.

``analyse(replay)`` (run.py) weighs every decision (search.py: exact near the end, else the game's
MCTS; evaluators.py: the games with their own evaluator, Cell Management's solver and Infection's
simulated team); judge.py says what the numbers mean; model.py holds the result; sidecar.py keeps
it beside the record; cli.py is ``cellwars analyse``; slots.py caps the analyses a server's
sessions run at once (``--analyses N``).
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .judge import BLUNDER, INACCURACY, MISTAKE, judgment, mark, move_accuracy
    from .model import Analysis, Decision, PlayerSummary
    from .run import AnalysisError, Stopped, analyse, file_key, record_key

# The names below are read from their modules when first used (PEP 562), so that importing a
# light part of the package (``cellwars``'s argument parser reads ``cli``) loads no game.
_HOMES = {
    "BLUNDER": "judge", "INACCURACY": "judge", "MISTAKE": "judge", "judgment": "judge",
    "mark": "judge", "move_accuracy": "judge", "Analysis": "model", "Decision": "model",
    "PlayerSummary": "model", "AnalysisError": "run", "Stopped": "run", "analyse": "run",
    "file_key": "run", "record_key": "run",
}


def __getattr__(name: str) -> Any:
    import importlib

    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{home}", __name__), name)


__all__ = [
    "Analysis", "AnalysisError", "BLUNDER", "Decision", "INACCURACY", "MISTAKE",
    "PlayerSummary", "Stopped", "analyse", "file_key", "judgment", "mark", "move_accuracy",
    "record_key",
]
