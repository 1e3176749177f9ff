"""Learn by playing: each game's guided first game (issue 20), headless.

* :mod:`.lesson`: the lesson file (``games/<game>/lesson.toml``) read into steps, one-line errors;
* :mod:`.run`: the lesson state machine (current step, expected action, why another action is not
  the lesson's, forced chance) and :func:`~.run.play_through`, which checks a whole lesson;
* :mod:`.table`: the lesson table, a local table that plays the lesson's own steps, refuses
  other moves kindly and, once the lesson is over, goes on as a normal game against a bot;
* :mod:`.progress`: which lessons a player has finished (the user's settings).

Screens only draw a lesson (``ui/widgets/lesson_panel.py``). Layer: beside ``table/``; no
textual or rich here.
"""

from .lesson import Lesson, LessonError, Step, has_lesson, lesson_path, load_lesson
from .progress import finished_lessons, mark_finished
from .run import LessonRun, PanelInfo, checked_lesson, play_through

__all__ = ["Lesson", "LessonError", "Step", "has_lesson", "lesson_path", "load_lesson",
           "finished_lessons", "mark_finished", "LessonRun", "PanelInfo", "checked_lesson", "play_through"]
