"""Every look is loaded one way (the rule is stated once, in cellwars_tui/ui/css.py): a sibling
``.tcss`` file, named by ``CSS_PATH`` on a screen and read by ``default_css`` into a widget's
``DEFAULT_CSS``; no CSS in a Python string; GameScreen and LauncherScreen are the only screens
with default CSS (Textual gives them no working CSS_PATH)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from textual.app import App
from textual.dom import DOMNode
from textual.screen import Screen

PACKAGE = Path(__file__).parents[2] / "cellwars_tui"
SOURCES = sorted(PACKAGE.rglob("*.py"))
TCSS = sorted(PACKAGE.rglob("*.tcss"))
DEFAULT_CSS_SCREENS = {"GameScreen", "LauncherScreen"}  # the two ui/css.py names, and why


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


def class_assignments(tree: ast.AST):
    """(class name, attribute, value) for every ``NAME = value`` in a class body."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                targets = (item.targets if isinstance(item, ast.Assign)
                           else [item.target] if isinstance(item, ast.AnnAssign) else [])
                for target in targets:
                    if isinstance(target, ast.Name) and item.value is not None:
                        yield node.name, target.id, item.value


def is_default_css_call(value: ast.expr) -> bool:
    """``default_css(__file__, "name.tcss")``, and nothing else."""
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
            and value.func.id == "default_css" and len(value.args) == 2
            and isinstance(value.args[0], ast.Name) and value.args[0].id == "__file__"
            and isinstance(value.args[1], ast.Constant)
            and str(value.args[1].value).endswith(".tcss"))


def tcss_names(tree: ast.AST) -> dict[str, set[str]]:
    """Every ``"x.tcss"`` string in a module: how it is used ("default" inside default_css(),
    "path" anywhere else: a CSS_PATH or the replay viewer's path beside its module)."""
    used: dict[str, set[str]] = {}
    in_calls = {id(node.args[1]) for node in ast.walk(tree)
                if isinstance(node, ast.expr) and is_default_css_call(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value.endswith(".tcss") and "/" not in node.value and " " not in node.value:
            used.setdefault(node.value, set()).add("default" if id(node) in in_calls else "path")
    return used


def test_no_css_is_written_in_a_python_string():
    found = []
    for path in SOURCES:
        for cls, name, value in class_assignments(ast.parse(path.read_text(encoding="utf-8"))):
            if name == "CSS" or (name == "DEFAULT_CSS" and not is_default_css_call(value)):
                found.append(f"{path.relative_to(PACKAGE)}: {cls}.{name}")
    assert not found, "CSS belongs in a sibling .tcss file (ui/css.py): " + ", ".join(found)


def test_every_tcss_file_is_named_by_one_module_beside_it_and_loaded_one_way():
    users: dict[Path, list[tuple[str, set[str]]]] = {}
    for path in SOURCES:
        for name, ways in tcss_names(ast.parse(path.read_text(encoding="utf-8"))).items():
            target = path.with_name(name)
            assert target.is_file(), f"{path.relative_to(PACKAGE)} names {name}, not beside it"
            users.setdefault(target, []).append((module_name(path), ways))
    for tcss in TCSS:
        where = users.get(tcss, [])
        assert len(where) == 1, f"{tcss.relative_to(PACKAGE)} is named by {where or 'no module'}"
        module, ways = where[0]
        assert len(ways) == 1, f"{tcss.relative_to(PACKAGE)} is loaded two ways by {module}"


def package_classes() -> list[type[DOMNode]]:
    """Every Textual class the package defines in a module that gives one a look."""
    classes = []
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        if "DEFAULT_CSS" not in text and "CSS_PATH" not in text:
            continue
        module = importlib.import_module(module_name(path))
        classes += [value for value in vars(module).values()
                    if isinstance(value, type) and issubclass(value, DOMNode)
                    and value.__module__ == module.__name__]
    return classes


def test_screens_name_their_css_file_and_widgets_read_theirs_as_default_css():
    classes = package_classes()
    names = {cls.__name__ for cls in classes}
    assert DEFAULT_CSS_SCREENS <= names and {"TooSmall", "Footer", "InfectionScreen"} <= names
    for cls in classes:
        own = cls.__dict__
        if "DEFAULT_CSS" in own:
            assert not issubclass(cls, Screen) or cls.__name__ in DEFAULT_CSS_SCREENS, (
                f"{cls.__name__} is a screen: its look goes through CSS_PATH (ui/css.py)")
            siblings = {p.read_text(encoding="utf-8")
                        for p in Path(importlib.import_module(cls.__module__).__file__ or "")
                        .parent.glob("*.tcss")}
            assert own["DEFAULT_CSS"] in siblings, f"{cls.__name__}.DEFAULT_CSS is not a .tcss file"
        if "CSS_PATH" in own:
            assert issubclass(cls, (Screen, App)), (
                f"{cls.__name__} is a widget: Textual ignores a widget's CSS_PATH")


async def test_a_default_screen_css_path_would_never_load():
    """Why the launcher keeps default CSS: Textual does not load the CSS_PATH of the screen that
    App.get_default_screen returns (if a Textual release starts to, this fails: revisit
    ui/css.py and give the launcher a CSS_PATH)."""
    from textual.widgets import Static

    class Probe(Screen):
        CSS_PATH = str(PACKAGE / "ui" / "launcher.tcss")

        def compose(self):
            yield Static(id="launcher-note")

    class ProbeApp(App):
        def get_default_screen(self) -> Screen:
            return Probe()

    app = ProbeApp()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert app.screen.query_one("#launcher-note").styles.padding.left == 0  # the file: 1
