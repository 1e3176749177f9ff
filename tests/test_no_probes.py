"""No code probes an object for an optional capability with ``getattr`` or ``hasattr`` (issue 18):
what an object offers is declared on its type, with a default on the base class (``Game`` hooks,
``Game.own_options``, the ``Table`` protocol, ``ui.host.Host`` and ``CommandScreen`` (its
``MIN_SIZE`` too), ``ui.size_guard.SizeGuard.MIN_SIZE``,
``ssh.lobby.HubListener``). The few uses left read a field by a name held in data, a platform
constant, a module's declared name or a third party's private name (each kept behind one
function); each is listed here with why. A new ``getattr``/``hasattr`` fails this test until it
is a declared hook or joins the list with its reason, and a listed one that is gone must leave it.
"""

from __future__ import annotations

import re
from pathlib import Path

import cellwars_tui

ROOT = Path(cellwars_tui.__file__).parent
CALL = re.compile(r"\b(?:getattr|hasattr)\(")

# (file, the line's text as it stands): why it is not a capability probe.
ALLOWED: dict[tuple[str, str], str] = {
    # argparse namespaces: the options shared by ``serve`` and ``web`` are read by both commands
    ("ssh/cli.py", 'if getattr(args, "web", False):'): "argparse option of one command only",
    ("ssh/cli.py", 'max_starting=getattr(args, "max_starting", 0),'): "argparse option",
    ("ssh/server.py", 'if getattr(args, "web", False) and args.allow is not None:'): "argparse",
    ("ssh/server.py", 'if getattr(args, "web", False):'): "argparse option",
    # third parties' private names, each behind one function a test watches
    ("ssh/web.py", 'proc = getattr(service, "_process", None)'): "textual-serve private name",
    ("ssh/zygote.py", 'original = getattr(Stylesheet, "_parse_rules", None)'):
        "Textual private name (the zygote's shared stylesheet parse)",
    ("ssh/zygote.py", 'if original is None or getattr(original, "_cellwars_shared", False):'):
        "marks our own patch of Textual, so it is applied once",
    ("ui/textual_fixes.py",
     'if not hasattr(current, "cache_clear") or not hasattr(current, "__wrapped__"):'):
        "a Textual method's lru_cache (its issue #6665): the fix does nothing once it is gone",
    # a field read by a name held in data
    ("ui/themes.py", "value = getattr(theme, key, None)"): "a theme file's keys, one by one",
    ("ui/setup.py", "default = getattr(self._default_options, f.name, None)"):
        "an options struct's fields, one by one",
    ("games/cell_wars/work.py", "setattr(self, f.name, getattr(s, f.name))"):
        "the state struct's fields, copied",
    ("games/cell_wars/work.py", "setattr(self, name, list(getattr(s, name)))"):
        "the state struct's fields, copied",
    ("games/cell_wars/work.py", "kw = {f.name: getattr(self, f.name) for f in _FIELDS}"):
        "the state struct's fields, copied back",
    # modules: a declared module-level name, and a module's file
    ("ui/screens.py", 'cls = getattr(module, "SCREEN", None)'): "a screen module's SCREEN",
    ("bench/__init__.py", 'found.extend(getattr(module, "BENCHMARKS", []))'):
        "a bench module's BENCHMARKS",
    ("ssh/zygote.py",
     "code = getattr(importlib.import_module(module), function)(ready_fd=ready_fd) or 0"):
        "the function zygote.ENV_APP names (the crowd bench's bare app)",
    ("ui/dialogs.py", 'file = getattr(module, "__file__", None)'): "a namespace package has none",
    ("ui/app.py", 'name = getattr(getattr(callback, "func", callback), "__name__", "")'):
        "a palette callback's action name (a method or a functools.partial of one)",
    # the platform
    ("analysis/slots.py",
     '_FLAGS = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)'):
        "a platform constant",
    ("analysis/__init__.py",
     'return getattr(importlib.import_module(f".{home}", __name__), name)'):
        "the package's declared names, read from their modules when first used (PEP 562)",
    ("record/files.py", 'fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))'):
        "a platform constant",
    ("games/cell_management/solver.py",
     'ctx = multiprocessing.get_context("fork" if hasattr(os, "fork") else "spawn")'):
        "a platform capability",
}


def probes() -> set[tuple[str, str]]:
    return {(str(path.relative_to(ROOT)), line.strip())
            for path in sorted(ROOT.rglob("*.py"))
            for line in path.read_text(encoding="utf-8").splitlines()
            if CALL.search(line)}


def test_every_getattr_and_hasattr_is_a_declared_exception():
    found = probes()
    new = sorted(found - set(ALLOWED))
    assert not new, "probes: declare a hook on the type instead:\n" + "\n".join(map(str, new))
    gone = sorted(set(ALLOWED) - found)
    assert not gone, "gone: delete from ALLOWED:\n" + "\n".join(map(str, gone))
