"""The lesson panel's acting part (ui/widgets/lesson_panel.py): the keys as key caps, then what
to look at, set apart so that a key cap never reads as a label ("⏎  Look at W2")."""

from __future__ import annotations

from cellwars_tui.learn.run import PanelInfo
from cellwars_tui.ui.widgets.lesson_panel import keys_text


def info(keys=(), marks=(), notes=(), reading=False) -> PanelInfo:
    return PanelInfo(title="T", number=1, total=2, heading="H", told=(), text="", feedback="",
                     keys=tuple(keys), marks=tuple(marks), notes=tuple(notes), reading=reading,
                     expected="", done=False, stopped="")


def plain(i: PanelInfo) -> str:
    return keys_text(i, lambda name: "white").plain


def test_the_keys_then_what_to_look_at_set_apart():
    assert plain(info(keys=["↑↓←→", "⏎"], marks=["W2"])) == "Keys  ↑↓←→   ⏎  · Look at W2"
    assert plain(info(keys=["1"])) == "Keys  1  "
    assert plain(info(marks=["e5", "d5"], reading=True, notes=["Marker"])) == \
        "Look at e5, d5\n ⏎  go on   B  biology: Marker"
