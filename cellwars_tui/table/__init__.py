"""The table layer, headless: what every front end (a terminal, an SSH session, a browser) plays
a game through.

* :mod:`.protocol`: the :class:`Table` protocol every game screen is typed against, with its
  capabilities, its undo part (:class:`Undoing`; :class:`NoUndo` for the tables where nothing
  is taken back), and the :class:`RoundClock` of a real-time table;
* :mod:`.authority`: :class:`~.authority.TableAuthority`, the one owner of the loop around every
  move (checks, the step, the round session, the log, saving, bots, telling the listeners), with
  its ports in :mod:`.ports` (Saver, Thinker) and its log in :mod:`.log`;
* :mod:`.local`: :class:`LocalTable`, the authority with local ports: a match played in this
  terminal (hot-seat people and bots);
* :mod:`.replay`: :class:`ReplayTable`, a recorded game at the replay bar's position;
* :mod:`.realtime`: :class:`RoundSession`, a real-time game's rounds, timer, paced bots and
  pause, written once for every table, and :class:`FollowingClock` for a table whose time is
  kept elsewhere;
* :mod:`.listeners` (the change listeners every table shares) and :mod:`.naming` (how a seat is
  worded everywhere).

The online table (``RemoteTable``) lives in the online package (:mod:`cellwars_tui.online.remote`)
and implements the same protocol. Nothing here imports textual, rich, ``ui``, ``online`` or
``ssh`` (a test checks it).
"""

from __future__ import annotations

from .listeners import ChangeListeners
from .local import LocalTable
from .protocol import History, Landing, NoUndo, RoundClock, Table, Undoing
from .realtime import AWAY, HIDDEN, PLAYER, FollowingClock, RoundSession
from .replay import ReplayTable

__all__ = [
    "AWAY", "HIDDEN", "PLAYER", "ChangeListeners", "FollowingClock", "History", "Landing",
    "LocalTable", "NoUndo", "ReplayTable", "RoundClock", "RoundSession", "Table", "Undoing",
]
