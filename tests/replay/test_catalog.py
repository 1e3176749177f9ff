"""The Replays page's rows word a game's end as every table does (``Outcome.text``)."""

from __future__ import annotations

from cellwars_tui.replay.catalog import rows
from tests.replay.helpers import save_toy


def test_a_finished_games_result_is_the_outcome_text_and_an_unfinished_one_says_so(tmp_path):
    done, _ = save_toy(tmp_path, "done.cellwars.json", moves=2000, hold_every=2)
    assert done.is_over()
    unfinished, _ = save_toy(tmp_path, "open.cellwars.json", moves=3)
    assert not unfinished.is_over()
    found, problems = rows(tmp_path)
    assert not problems
    results = {r.path.name: r.result for r in found}
    assert results["done.cellwars.json"] == done.outcome().text(["Ann", "Bob"])
    assert results["done.cellwars.json"].startswith(("Ann wins", "Bob wins"))
    assert results["open.cellwars.json"] == "unfinished"
