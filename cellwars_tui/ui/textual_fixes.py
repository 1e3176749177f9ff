"""Work-arounds for Textual bugs, each in one place and each a no-op once Textual fixes it.

Applied when :mod:`cellwars_tui.ui.host` is imported (every front end's app is a Host).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from textual._styles_cache import StylesCache


def release_styles_caches() -> None:
    """Textual issue #6665 (open in 8.2.8): ``StylesCache.get_inner_outer`` is an ``lru_cache``
    on an instance method, so its cache keeps the last 1024 widgets' StylesCache objects alive,
    each with every line it rendered (Strips and their caches): a long session, or a test
    process, ends up carrying some 100,000 dead objects that every full garbage collection walks
    (the test workers' last collections then outlasted pytest-xdist's 5 s shutdown, which
    interrupted them: the KeyboardInterrupt tracebacks after ``[100%]``). The result depends on
    the two colours only, so cache it on them."""
    current: Any = StylesCache.__dict__.get("get_inner_outer")
    if not hasattr(current, "cache_clear") or not hasattr(current, "__wrapped__"):
        return  # fixed in Textual (or already applied here)
    compute = current.__wrapped__

    @lru_cache(1024)
    def by_colours(base_background: Any, background: Any) -> Any:
        return compute(None, base_background, background)  # (its first argument is unused)

    def get_inner_outer(self: StylesCache, base_background: Any, background: Any) -> Any:
        return by_colours(base_background, background)

    current.cache_clear()
    setattr(StylesCache, "get_inner_outer", get_inner_outer)  # noqa: B010 - a method of theirs


release_styles_caches()
