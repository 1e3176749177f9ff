"""No import cycles between the files of cellwars_tui/ (issue 18).

The graph is read from the source with the standard library's ``ast``: every ``import`` and
``from ... import`` counts, at the top of a file or inside a function (a lazy import is still a
dependency: it only moves the failure to the first call), except under ``if TYPE_CHECKING:``
(names for annotations only, never imported when the program runs). An edge goes from a module to the module
it names, or to the submodule when ``from package import name`` names one. A cycle is a strongly
connected component with more than one module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import cellwars_tui

ROOT = Path(cellwars_tui.__file__).parent

# Cycles known when the test was written, each with the issue that removes it. The list only
# shrinks: a new cycle fails the test, and so does a listed one that is gone (delete its line).
KNOWN_CYCLES: set[frozenset[str]] = set()  # none left (issue 18 and its follow-up)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in ROOT.rglob("*.py")}


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:`` (its ``else`` still runs)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The cellwars_tui modules ``module`` imports, anywhere in its file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.name
                while name and name not in known:  # import a.b.c names a.b.c (or a package)
                    name = name.rpartition(".")[0]
                if name:
                    out.add(name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module)
            if base not in known:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.add(sub if sub in known else base)
    out.discard(module)
    return out


def import_graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[frozenset[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(frozenset(component))
    return found


def test_the_graph_finds_a_cycle_and_a_lazy_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [frozenset({"a", "b", "c"})]
    code = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import x\n"
                     "else:\n    import y\ndef f():\n    import z\n")
    names = {a.name for n in _runtime_nodes(code) if isinstance(n, ast.Import) for a in n.names}
    assert names == {"y", "z"}
    real = import_graph()
    # rules.py imports notation lazily (inside a method): still an edge
    assert "cellwars_tui.games.virus_fight.notation" in real["cellwars_tui.games.virus_fight.rules"]
    assert "cellwars_tui.core.api" in real["cellwars_tui.core.registry"]


def test_no_import_cycles_between_files():
    found = set(cycles(import_graph()))
    new = found - KNOWN_CYCLES
    assert not new, "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in new)
    gone = KNOWN_CYCLES - found
    assert not gone, "a known cycle is gone: delete it from KNOWN_CYCLES: " + "; ".join(
        " <-> ".join(sorted(c)) for c in gone)
