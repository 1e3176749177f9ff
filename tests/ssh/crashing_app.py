"""The real session app, except that pressing ``o`` raises an error whose message names a server
path (as a real bug's traceback would): what the player sees must be one line without it."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cellwars_tui.ssh import session_app  # noqa: E402


def explode(self) -> None:
    raise RuntimeError("boom in /srv/secret/server/path/module.py")


session_app.OnlineApp.action_online = explode

if __name__ == "__main__":
    sys.exit(session_app.main())
