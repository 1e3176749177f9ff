"""What the screens of an online session share: a screen or app told every message from the
hub (:class:`HubListener`; :class:`~.lobby.HubLink` hands them out). In a module of its own so
that the lobby, the leaderboard and the profile screens can all use it without importing each
other in a circle."""

from __future__ import annotations

from ..online import protocol as p


class HubListener:
    """A screen or app told every message from the hub (:meth:`.lobby.HubLink._listen`)."""

    def hub_message(self, msg: p.Msg) -> None:
        """One message from the hub (default: ignored)."""
