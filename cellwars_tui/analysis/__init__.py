"""Replay analysis, headless: any record evaluated step by step with the game's own search
(each seat's Win% before and after every decision, the preferred move, judgments and each
player's accuracy), saved beside the record. No textual or rich here.

``analyse(replay)`` (run.py) weighs every decision (search.py: exact near the end, else the game's
MCTS; evaluators.py: the games with their own evaluator, Cell Management's solver and Infection's
simulated team); judge.py says what the numbers mean; model.py holds the result; sidecar.py keeps
it beside the record; cli.py is ``cellwars analyse``.
"""

from .judge import BLUNDER, INACCURACY, MISTAKE, judgment, mark, move_accuracy
from .model import Analysis, Decision, PlayerSummary
from .run import AnalysisError, Stopped, analyse, file_key, record_key

__all__ = [
    "Analysis", "AnalysisError", "BLUNDER", "Decision", "INACCURACY", "MISTAKE",
    "PlayerSummary", "Stopped", "analyse", "file_key", "judgment", "mark", "move_accuracy",
    "record_key",
]
