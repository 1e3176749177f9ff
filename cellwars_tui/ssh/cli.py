"""The options of ``cellwars serve`` and ``cellwars web`` (kept apart from the servers so
``cellwars --help`` stays fast)."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``cellwars serve``."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=2222, help="port to listen on (default 2222)")
    parser.add_argument("--allow", type=Path, metavar="FILE",
                        help="admit only the keys in FILE (authorized_keys format); no guests")
    parser.add_argument("--max-sessions", type=int, default=50, metavar="N",
                        help="players connected at once (default 50)")
    parser.add_argument("--idle-timeout", type=float, default=3600.0, metavar="S",
                        help="close a session after S seconds without input (0: never; default 3600)")
    parser.add_argument("--web", action="store_true",
                        help="also serve the app to browsers (textual-serve), in the same lobby")
    parser.add_argument("--web-port", type=int, default=8000, metavar="PORT",
                        help="port for --web (default 8000; same address as --host)")


def add_web_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``cellwars web``."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
