"""Work-arounds for Textual bugs (cellwars_tui.ui.textual_fixes)."""

from __future__ import annotations

import gc

from textual._styles_cache import StylesCache
from textual.color import Color

import cellwars_tui.ui.host  # noqa: F401 - applies the fixes, as every app does


def test_styles_caches_of_gone_widgets_are_not_kept_alive():
    """Textual #6665: an lru_cache keyed by the StylesCache kept the last 1024 alive, with every
    line they rendered (the test workers' last garbage collections outlasted xdist's shutdown)."""
    def alive() -> int:
        gc.collect()
        return sum(isinstance(o, StylesCache) for o in gc.get_objects())

    before = alive()
    base, back = Color(10, 20, 30), Color(200, 100, 0, 0.5)
    caches = [StylesCache() for _ in range(50)]
    results = {c.get_inner_outer(base, back) for c in caches}
    (inner, outer), = results  # the same styles for every widget with these colours
    assert inner.background == base + back and outer.background == base
    del caches
    assert alive() == before
