"""A finished online game, replayed with its chat: the record and the chat come from the hub's
store (:class:`~cellwars_tui.online.protocol.FinishedGame`), so a game played on any server
replays from any session, without a file.

The replay viewer is the usual one (:func:`cellwars_tui.ui.replay_viewer.open_replay`); the chat
follows it: each line is shown (as a notice) when the replay reaches the step it was said at,
stepping or in autoplay, so the table's words come back where they were said.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import App
from textual.screen import Screen

from ..core.errors import CellwarsError
from ..online.chat import ChatLine
from ..online.league import GameResult
from ..record.format import decode_record
from ..replay import Replay


class ChatFollower:
    """Shows a finished game's chat lines as its replay reaches their steps."""

    def __init__(self, app: App, replay: Replay, lines: Sequence[ChatLine]) -> None:
        self.app = app
        self.replay = replay
        self.lines = list(lines)
        self.seen = replay.cursor

    def said_between(self, before: int, after: int) -> list[ChatLine]:
        """Lines said when the game was past step ``before`` and up to step ``after``."""
        return [line for line in self.lines if before < line.step <= after]

    def __call__(self) -> None:
        now = self.replay.cursor
        if now > self.seen:
            for line in self.said_between(self.seen, now):
                self.app.notify(f"{line.name}: {line.text}", title="chat", timeout=6,
                                markup=False)
        self.seen = now


def replay_of(result: GameResult) -> Replay:
    """The replay of a kept game (CellwarsError, one line, for a record that cannot be read)."""
    if not result.record:
        raise CellwarsError("this game's record was not kept")
    data = bytes(result.record)
    record = decode_record(data, f"game {result.game_id}")
    return Replay.from_record(record, data=data)


def open_finished(app: App, result: GameResult) -> Screen | None:
    """Replay ``result`` with its chat following (None, and a notice, if it cannot be)."""
    from ..ui.replay_viewer import ReplayScreen, open_replay

    try:
        replay = replay_of(result)
    except CellwarsError as exc:
        app.notify(str(exc), severity="error")
        return None
    screen = open_replay(app, replay)
    if not isinstance(screen, ReplayScreen):
        return screen
    if result.chat:
        follower = ChatFollower(app, replay, result.chat)
        if replay.cursor == 0:  # lines said before the first move show as the replay opens
            follower.seen = -1
            follower()
        screen.replay_table.subscribe(follower)
        app.notify(f"This game's chat ({len(result.chat)} line"
                   f"{'' if len(result.chat) == 1 else 's'}) shows as the replay reaches it.",
                   timeout=6)
    return screen
