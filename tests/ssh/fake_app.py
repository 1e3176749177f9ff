"""A tiny stand-in for the app, for server tests: shows its size and environment, follows resizes.

Keys: ``q`` quits; anything else is echoed back as ``got: ...``.

Like the session app it reports its first frame to the server (one byte on the ready pipe named
by CELLWARS_SSH_READY_FD) once its first screen is written, except for the SSH users
``silent...`` (never reports: it holds its place among the starting sessions) and ``crash...``
(exits at once, before reporting).
"""

import os
import signal
import sys
import termios
import tty


def show(*_):
    cols, rows = os.get_terminal_size(1)
    sys.stdout.write(f"\r\nSIZE {cols}x{rows}\r\n")
    sys.stdout.flush()


def main():
    fd = 0
    tty.setraw(fd)
    # Follow resizes before the first SIZE line: a test resizes as soon as it sees that line.
    signal.signal(signal.SIGWINCH, show)
    env = os.environ
    sys.stdout.write(
        f"FAKE APP TERM={env.get('TERM')} COLORTERM={env.get('COLORTERM', '-')} "
        f"ID={env.get('CELLWARS_SSH_IDENTITY')} NAME={env.get('CELLWARS_SSH_NAME')} "
        f"PID={os.getpid()} CTTY={os.tcgetpgrp(0) == os.getpgrp()}\r\n"
    )
    show()
    name = env.get("CELLWARS_SSH_NAME", "")
    if name.startswith("crash"):
        sys.exit(3)
    ready = env.get("CELLWARS_SSH_READY_FD")
    if ready and not name.startswith("silent"):
        os.write(int(ready), b"\x01")
        os.close(int(ready))
    while True:
        try:
            data = os.read(fd, 1024)
        except InterruptedError:
            continue
        if not data or b"q" in data:
            break
        sys.stdout.write(f"got: {data!r}\r\n")
        sys.stdout.flush()
    termios.tcflush(fd, termios.TCIOFLUSH)


if __name__ == "__main__":
    main()
