"""Which keys the key footer shows at a given width, and in what order (ui.footer.Footer draws
what this decides, in both of its ways).

* The keys of the moment first: a screen's own keys before the keys every screen has (Undo,
  Redo, Moves, Rules, Back, Quit: ``LATER``), and keys that are shown but disabled after the
  ones that work now; otherwise in ``order`` (ui.footer: the app's keys, such as a lesson's
  "Go on", then the focused widget's, then the screen's as its classes declare them, the
  class made last first: a replay's keys before its game's, a game's before every game's).
* When they do not all fit in one line, the footer has pages: each ends with the "more keys" key
  (``F2 More 1/2``), which shows the next page (after the last, the first again). Every key
  stays pressable whatever the page; a page only says which keys there are.
* The command palette's key (Ctrl+P) sits at the right edge: "^p palette", or only "^p" when
  that lets every key fit in one line; on the last page when there are several.

Pure: no widget, no app, so a test can check every screen's footer at any width cheaply.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len

# The key that shows the footer's next page (bound by the app: ui.host.Host.BINDINGS).
MORE_KEY = "f2"
MORE_DISPLAY = "F2"
MORE_WORD = "More"

# Actions every screen has, after the screen's own keys (in this order among themselves, as
# declared otherwise).
LATER = ("undo", "redo", "moves", "rules", "back", "quit")


class FooterItem(NamedTuple):
    """One key as the footer shows it."""

    key: str  # the key a click presses
    key_display: str
    description: str
    action: str
    enabled: bool = True
    tooltip: str = ""
    palette: bool = False  # the command palette's key, drawn at the right edge
    more: bool = False  # the "more keys" key
    order: int = 0  # among keys of the same rank (see the module's docstring)

    @property
    def width(self) -> int:
        """Columns as drawn: " key description " (the palette's "▏key description ")."""
        if self.palette:  # (a border, the key, the word if any, a space)
            words = 1 + cell_len(self.description) if self.description else 0
            return 1 + cell_len(self.key_display) + words + 1
        words = cell_len(self.description) + 1 if self.description else 0
        return cell_len(self.key_display) + 2 + words


def more_item(page: int, pages: int) -> FooterItem:
    """The "more keys" key on ``page`` (0-based) of ``pages``."""
    return FooterItem(MORE_KEY, MORE_DISPLAY, f"{MORE_WORD} {page + 1}/{pages}", "more_keys",
                      tooltip="Show the footer's other keys", more=True)


def later_rank(action: str) -> int:
    name = action.split("(", 1)[0].removeprefix("app.").removeprefix("screen.")
    return LATER.index(name) + 1 if name in LATER else 0


def ordered(items: list[FooterItem]) -> list[FooterItem]:
    """The keys of the moment first (see the module's docstring); a stable sort."""
    return sorted(items, key=lambda item: (later_rank(item.action) > 0, not item.enabled,
                                           later_rank(item.action), item.order))


def pages(items: list[FooterItem], palette: FooterItem | None,
          width: int) -> tuple[tuple[FooterItem, ...], ...]:
    """The footer's pages at ``width`` columns: each a tuple of keys in drawing order (with the
    "more keys" key last but for the palette's, when there are several pages)."""
    keys = ordered(items)
    used = sum(item.width for item in keys)
    # one line: with the palette's key whole, or as "^p" alone
    tails = [()] if palette is None else [(palette,), (palette._replace(description=""),)]
    for tail in tails:
        if width <= 0 or used + sum(item.width for item in tail) <= width:
            return ((*keys, *tail),)
    # the "more" key's widest form ("F2 More 9/9"), kept free on every page
    room = width - more_item(8, 9).width
    split: list[list[FooterItem]] = [[]]
    used = 0
    for item in keys:
        if split[-1] and used + item.width > room:
            split.append([])
            used = 0
        split[-1].append(item)
        used += item.width
    if palette is not None:
        if used + palette.width > room:
            split.append([])
        split[-1].append(palette)
    count = len(split)
    return tuple(tuple(item for item in page if not item.palette) + (more_item(n, count),)
                 + tuple(item for item in page if item.palette)
                 for n, page in enumerate(split))
