"""What a session of ``cellwars serve`` runs in its child process: ``python -m cellwars_tui.ssh.session_app``.

The server starts this on the session's PTY with the player's identity and hub token in the
environment (see :mod:`.server`).
"""

from __future__ import annotations

import sys


def main() -> int:
    from .lobby import SessionApp

    SessionApp().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
