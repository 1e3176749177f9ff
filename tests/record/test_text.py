"""Plain-text move lists: export, import, and one-line errors for bad lists."""

from __future__ import annotations

import pytest

from cellwars_tui.core import RecordError
from cellwars_tui.record.text import export_text, import_text
from tests.record.test_record_format import played


def test_move_list_round_trip():
    m = played(moves=15)
    text = export_text(m)
    assert text.startswith("# cellwars move list\n# game: toy-race")
    assert import_text(text).state == m.state


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda t: t.replace("# cellwars move list", "hello"), "not a cellwars move list"),
        (lambda t: t.replace("# seed:", "# sod:"), "no '# seed:' line"),
        (lambda t: t.replace("2. ", "7. "), "step 7 where step 2 was due"),
        (lambda t: t.replace(": roll", ": fly", 1), "cannot read 'fly'"),
        (lambda t: t.replace("1. chance", "1. seat9"), "not legal for seat 9"),
    ],
)
def test_bad_move_lists_give_one_line_errors(mutate, message):
    text = mutate(export_text(played(moves=15)))
    with pytest.raises(RecordError) as info:
        import_text(text, "list.txt")
    assert message in str(info.value) and "\n" not in str(info.value)
