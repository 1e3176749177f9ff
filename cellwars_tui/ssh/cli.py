"""The options of ``cellwars serve`` and ``cellwars web`` (kept apart from the servers so
``cellwars --help`` stays fast)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..cli_types import path, seconds, shown, whole


def _host(text: str) -> str:
    """An address or host name to listen on: no spaces, control characters or NUL (which the
    resolver would take for something else, or refuse with a traceback)."""
    t = text.strip()
    if not t or len(t) > 253 or not t.isprintable() or any(ch.isspace() for ch in t):
        raise argparse.ArgumentTypeError(f"invalid address {shown(text)}: expected an address "
                                         "like 127.0.0.1, 0.0.0.0, :: or a host name")
    return t


def _add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """The limits both servers take (the rest are fixed in :class:`.limits.Limits`)."""
    parser.add_argument("--max-sessions", type=whole("number of sessions"), default=50,
                        metavar="N",
                        help="players connected at once (default 50)")
    parser.add_argument("--idle-timeout", type=seconds("idle timeout"), default=3600.0,
                        metavar="S",
                        help="close a session after S seconds without input (0: never; default 3600)")
    parser.add_argument("--keepalive", type=seconds("keepalive interval"), default=30.0,
                        metavar="S",
                        help="probe a client that has been silent for S seconds and drop it after "
                             "4 unanswered probes (0: never; default 30)")
    parser.add_argument("--analyses", type=whole("number of analyses"), default=0, metavar="N",
                        help="replay analyses the players' sessions run at once (with those "
                             "of the other server on this data dir, serve or web); one more "
                             "waits in line for a free slot, saying so (0: one per core, the "
                             "default)")


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``cellwars serve``."""
    parser.add_argument("--host", type=_host, default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=whole("port"), default=2222,
                        help="port to listen on (default 2222; 0: any free port)")
    parser.add_argument("--allow", type=path, metavar="FILE",
                        help="admit only the keys in FILE (authorized_keys format); no guests")
    _add_limit_arguments(parser)
    parser.add_argument("--max-starting", type=whole("number of sessions"), default=0, metavar="N",
                        help="sessions that start at once; later arrivals wait in line with a "
                             "message (0: two per core, the default)")
    parser.add_argument("--archive-after", type=seconds("number of days", "days"), default=0.0,
                        metavar="DAYS",
                        help="archive a game nobody has moved in for DAYS days: each seated "
                             "player's record is written, then it leaves the table store "
                             "(0: never, the default; an unfinished game is otherwise kept)")
    parser.add_argument("--store", metavar="URL", default=None,
                        help="keep the tables in the PostgreSQL database at URL "
                             "(postgresql://USER@HOST/DB), shared by every server started with "
                             "it: one lobby across them (default: CELLWARS_STORE, else the "
                             "SQLite file in this server's data dir)")
    parser.add_argument("--name", metavar="NAME", default="",
                        help="with --store: this server's name among the others (default "
                             "HOST:PORT); a second live server with the same name is refused")
    parser.add_argument("--players-dir", type=path, metavar="DIR", default=None,
                        help="keep keyed players' folders (settings, saved games) in DIR "
                             "instead of this server's data dir: one folder every server "
                             "uses (on a shared file system for servers on several machines)")
    parser.add_argument("--status", action="store_true",
                        help="with --store: print the servers alive, the tables each owns and "
                             "the players connected, then exit")
    parser.add_argument("--web", action="store_true",
                        help="also serve the app to browsers (textual-serve), in the same lobby")
    parser.add_argument("--web-port", type=whole("port"), default=8000, metavar="PORT",
                        help="port for --web (default 8000; same address as --host)")


def add_web_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``cellwars web``."""
    parser.add_argument("--host", type=_host, default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=whole("port"), default=8000,
                        help="port to listen on (default 8000; 0: any free port)")
    parser.add_argument("--token", metavar="TOKEN",
                        help="the secret in the address browsers open (default: "
                             "CELLWARS_WEB_TOKEN, else a new random one at each start, printed "
                             "in the address); a token on the command line shows in the process "
                             "list: --token-file or CELLWARS_WEB_TOKEN keep it out of it")
    parser.add_argument("--token-file", type=path, metavar="FILE",
                        help="read the token from FILE (its first line)")
    _add_limit_arguments(parser)


MAX_ARCHIVE_DAYS = 3650.0
STORE_ENV = "CELLWARS_STORE"


def store_url(args: argparse.Namespace) -> str:
    """The shared store's URL (``--store``, else ``CELLWARS_STORE``; "" for the SQLite file),
    checked: CellwarsError (one line) for one that is not a PostgreSQL URL, or when the
    driver is not installed. Nothing is reached or written here."""
    import os

    from ..core.errors import CellwarsError

    url = args.store if args.store is not None else os.environ.get(STORE_ENV, "")
    url = url.strip()
    name = args.name
    if not url:
        if args.status:
            raise CellwarsError("--status needs --store URL (or CELLWARS_STORE): a single "
                                "server's own tables are in its log")
        if name:
            raise CellwarsError("--name names a server among others sharing a --store")
        return ""
    if name and (len(name) > 64 or not name.isprintable() or any(c.isspace() for c in name)):
        raise CellwarsError(f"--name {shown(name)}: up to 64 characters, no spaces")
    from ..online.pg.store import check_url, needs_psycopg
    from ..online.store import StoreError

    try:
        needs_psycopg()
        check_url(url)
    except StoreError as exc:
        raise CellwarsError(str(exc)) from None
    return url


def players_dir(args: argparse.Namespace) -> Path | None:
    """``--players-dir``, made (0700) if need be: CellwarsError (one line) for a path that is
    not a folder or cannot be made; None for the data dir's own."""
    from ..core.errors import CellwarsError

    folder = args.players_dir
    if folder is None:
        return None
    folder = folder.expanduser().absolute()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise CellwarsError(f"--players-dir {shown(str(folder))}: {exc.strerror or exc}") from None
    return folder


def archive_seconds(args: argparse.Namespace) -> float:
    """``--archive-after DAYS`` in seconds (0: never); CellwarsError (one line) for a number of
    days that makes no sense."""
    from ..core.errors import CellwarsError

    days = args.archive_after  # (cellwars serve's option: add_serve_arguments)
    if not (0 <= days <= MAX_ARCHIVE_DAYS):  # (NaN fails both)
        raise CellwarsError(f"--archive-after must be 0 (never) or a number of days up to "
                            f"{MAX_ARCHIVE_DAYS:g}, not {days:g}")
    return days * 86400.0


def limits_from_args(args: argparse.Namespace):
    """The :class:`.limits.Limits` the options ask for; CellwarsError (one line) for a value that
    makes no sense (a port out of range, a cap below 1, a negative or endless timeout...)."""
    from ..core.errors import CellwarsError
    from .limits import Limits, check_port

    check_port("--port", args.port)
    if getattr(args, "web", False):
        check_port("--web-port", args.web_port)
        if args.web_port == args.port and args.port != 0:
            raise CellwarsError(f"--web-port must differ from --port (both are {args.port})")
    limits = Limits(max_sessions=args.max_sessions, idle_timeout=args.idle_timeout,
                    keepalive_interval=args.keepalive,
                    max_starting=getattr(args, "max_starting", 0),
                    max_analyses=args.analyses)
    limits.check()
    return limits
