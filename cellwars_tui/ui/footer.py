"""The key footer every Cellwars screen shows.

Two ways to draw it, the same keys either way:

* Textual's Footer (one widget per key), rebuilt at most once per refresh: Textual recomposes
  (removes and mounts all its key widgets) on every bindings change, even when the keys are the
  same as before; at start-up and on each screen push focus moves several times in a row, so
  the same keys were built three times before the first frame. This one coalesces the
  requests, and skips a rebuild when the keys it would show are unchanged.
* One widget that draws every key as one line of text (``app.one_widget_footer``; SSH sessions,
  where many may start at once): a bindings change only repaints that line, and a click on a
  key presses it, like a click on Textual's key widget. Building Textual's footer was about a
  quarter of a session's CPU in its first second (one widget, styles and a restyle per key);
  this one costs next to nothing, so it is in the first frame (unless the app sets
  ``footer_after_first_frame``: then the line stays blank until the app repaints it).

Either way the keys are laid out by :mod:`.footer_layout`: the keys of the moment first, and
when they do not fit in one line, pages that the "more keys" key (F2, or a click on it) turns.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from rich.style import Style
from rich.text import Span, Text
from textual import events
from textual.binding import Binding
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from .css import default_css
from .footer_layout import FooterItem, pages
from .host import Host, MoreKeysPage


@functools.cache
def declared_order(screen_type: type) -> dict[str, int]:
    """Each action's place as the screen's classes declare their keys, the class made last
    first (Textual merges BINDINGS the other way round, and keeps a key where it was first
    bound: a replay's keys would land among its game's)."""
    order: dict[str, int] = {}
    for cls in screen_type.__mro__:
        for binding in cls.__dict__.get("BINDINGS", ()):
            action = binding.action if isinstance(binding, Binding) else binding[1]
            order.setdefault(action, len(order))
    return order


class KeySpan(NamedTuple):
    """One key as the one-widget footer draws it: its columns and what a click presses."""

    start: int
    end: int
    key: str
    key_display: str
    description: str
    enabled: bool
    palette: bool  # the command palette's key, drawn at the right edge


class Footer(TextualFooter):
    """Textual's Footer with bindings changes coalesced into one recompose per refresh, or (if
    the app asks) every key drawn by this one widget."""

    COMPONENT_CLASSES = {"footer--key", "footer--description", "footer--hover", "footer--border"}
    DEFAULT_CSS = default_css(__file__, "footer.tcss")
    DEFAULT_CLASSES = "keys-footer"  # (the "more keys" key of ui.host finds the footers by it)

    _recompose_pending = False
    _built: tuple[Any, ...] | None = None  # what the keys were last built from
    _one_widget: bool | None = None  # decided when composed (see compose)
    _spans: tuple[KeySpan, ...] = ()  # the one-widget footer's keys, as last drawn
    _drawn: tuple[Any, ...] | None = None  # the signature and width they were drawn for
    _hover: int = -1  # index in _spans under the mouse
    _page: int = 0  # the page of keys shown (footer_layout.pages)
    _paged: tuple[Any, ...] | None = None  # the signature and width the pages were laid out for
    _pages: tuple[tuple[FooterItem, ...], ...] = ((),)

    def _signature(self) -> tuple[Any, ...]:
        """Everything the keys are built from: no rebuild when none of it changed."""
        app = self.app
        keys = tuple(
            (binding.key, binding.action, binding.description, app.get_key_display(binding),
             binding.tooltip, binding.group, enabled, tooltip)
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show
        )
        return (keys, self.show_command_palette, self.combine_groups)

    def compose(self) -> Any:
        if self._one_widget is None:
            self._one_widget = isinstance(self.app, Host) and self.app.one_widget_footer
        if self._one_widget or not self._bindings_ready:
            return  # (one widget: drawn by render)
        self._built = self._state()
        for item in self.page_items():
            if item.palette:
                classes = "-command-palette"
            elif item.more:
                classes = "-more"
            else:
                classes = ""
            key = FooterKey(item.key, item.key_display, item.description, item.action,
                            disabled=not item.enabled, tooltip=item.tooltip, classes=classes)
            yield key if item.palette else key.data_bind(compact=TextualFooter.compact)

    # -- the layout both ways share ------------------------------------------------------------
    def _width(self) -> int:
        """Columns to lay the keys out in (the app's before the footer has its own size)."""
        return self.size.width or self.app.size.width

    def _items(self) -> tuple[list[FooterItem], FooterItem | None]:
        """The keys to show, one per action (the first key bound to it), and the palette's."""
        app = self.app
        screen = self.screen
        active = screen.active_bindings
        declared = declared_order(type(screen))
        items: dict[str, FooterItem] = {}
        for index, (node, binding, enabled, tooltip) in enumerate(active.values()):
            if binding.show and binding.action not in items:
                if node is screen:
                    order = declared.get(binding.action, len(declared) + index)
                else:  # the app's keys, then the focused widget's, before the screen's
                    order = index - (2 if node is app else 1) * len(active)
                items[binding.action] = FooterItem(
                    binding.key, app.get_key_display(binding), binding.description,
                    binding.action, enabled, tooltip, order=order)
        palette = None
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            found = active.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _, binding, enabled, tooltip = found
                palette = FooterItem(binding.key, app.get_key_display(binding),
                                     binding.description, binding.action, enabled,
                                     binding.tooltip or binding.description, palette=True)
        return list(items.values()), palette

    def key_pages(self) -> tuple[tuple[FooterItem, ...], ...]:
        """Every page of keys at the footer's width (one page when all fit)."""
        laid_for = (self._signature(), self._width())
        if laid_for != self._paged:
            if self._paged is None or laid_for[0] != self._paged[0]:
                self._page = 0  # other keys: the keys of the moment again
            self._paged = laid_for
            self._pages = pages(*self._items(), laid_for[1])
            self._page = min(self._page, len(self._pages) - 1)
        return self._pages

    def page_items(self) -> tuple[FooterItem, ...]:
        """The keys shown now."""
        return self.key_pages()[self._page]

    def _state(self) -> tuple[Any, ...]:
        return (self._signature(), self._width(), self._page)

    def next_page(self) -> bool:
        """Show the next page of keys (after the last, the first); False if there is one page."""
        count = len(self.key_pages())
        if count < 2:
            return False
        self._page = (self._page + 1) % count
        if self._one_widget:
            self._drawn = None
            self.refresh()
        else:
            self.call_later(self.recompose)
        return True

    def on_more_keys_page(self, _message: MoreKeysPage) -> None:
        self.next_page()

    def on_resize(self) -> None:
        if self._one_widget:
            self._changed()
        elif self._bindings_ready and self._built is not None and self._state() != self._built:
            self.call_later(self.recompose)

    async def recompose(self) -> None:
        if self._one_widget:
            self._changed()
            return
        if self._built is not None and self.is_attached and self._state() == self._built:
            return  # the same keys: a rebuild would remount them all for nothing
        await super().recompose()

    def bindings_changed(self, screen: Any) -> None:
        if self._one_widget:
            self._bindings_ready = True
            if self.is_attached and screen is self.screen:
                self._changed()
            return
        if self._recompose_pending:
            self._bindings_ready = True
            return
        app = screen.app
        if isinstance(app, Host) and app.footer_after_first_frame:
            # The app wants its first frame out before any keys are built (an SSH session,
            # where many may start at once: ssh.session_app.OnlineApp).
            self._bindings_ready = True
            self._recompose_pending = True
            app.call_after_frame(lambda: self.call_later(self._recompose_once))  # our own pump
            return
        if not screen.app.app_focus or not (self.is_attached and screen is self.screen):
            super().bindings_changed(screen)
            return
        self._bindings_ready = True
        self._recompose_pending = True
        self.call_after_refresh(self._recompose_once)

    async def _recompose_once(self) -> None:
        self._recompose_pending = False
        await self.recompose()

    # -- the one-widget footer -----------------------------------------------------------------
    def _changed(self) -> None:
        """Repaint if the keys changed (a repaint reads them again)."""
        if self._drawn is None or (self._signature(), self.size.width) != self._drawn:
            self._drawn = None
            self.refresh()

    def key_spans(self) -> tuple[KeySpan, ...]:
        """The keys as the one-widget footer shows them (in Textual's Footer's order: one per
        action, the first key bound to it; the command palette's key last, at the right)."""
        if self._drawn is None or self._drawn[1] != self.size.width:
            self._drawn = (self._signature(), self.size.width)
            self._spans = self._layout()
        return self._spans

    def _layout(self) -> tuple[KeySpan, ...]:
        spans: list[KeySpan] = []
        x = 0
        for item in self.page_items():
            if item.palette:  # at the right edge
                x = max(x, self.size.width - item.width)
            spans.append(KeySpan(x, x + item.width, item.key, item.key_display,
                                 item.description, item.enabled, item.palette))
            x += item.width
        return tuple(spans)

    def render(self) -> Any:
        if not self._one_widget:
            return super().render()
        if isinstance(self.app, Host) and self.app.footer_after_first_frame:
            return Text(end="")  # the app repaints footers when its first frame is out
        spans = self.key_spans()
        key_style = self.get_component_rich_style("footer--key")
        text_style = self.get_component_rich_style("footer--description")
        hover_style = self.get_component_rich_style("footer--hover")
        border_style = self.get_component_rich_style("footer--border")
        dim = Style(dim=True)
        parts: list[str] = []
        styles: list[Span] = []
        x = 0

        def add(part: str, style: Style) -> None:
            nonlocal x
            parts.append(part)
            styles.append(Span(x, x + len(part), style))
            x += len(part)

        for index, span in enumerate(spans):
            if span.start > x:
                parts.append(" " * (span.start - x))
                x = span.start
            extra = hover_style if index == self._hover else None
            if not span.enabled:
                extra = dim if extra is None else extra + dim
            keys = key_style if extra is None else key_style + extra
            words = text_style if extra is None else text_style + extra
            if span.palette:  # as Textual draws it: a thin rule, then compact
                add("▏", border_style)
                add(span.key_display, keys)
                add(f" {span.description} " if span.description else " ", words)
                continue
            add(f" {span.key_display} ", keys)
            if span.description:
                add(f"{span.description} ", words)
        return Text("".join(parts), spans=styles, no_wrap=True, overflow="crop", end="")

    def _span_at(self, x: int) -> int:
        for index, span in enumerate(self._spans):
            if span.start <= x < span.end:
                return index
        return -1

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if not self._one_widget:
            return
        index = self._span_at(event.x)
        if index < 0:
            return
        span = self._spans[index]
        if span.enabled:
            self.app.simulate_key(span.key)
        else:
            self.app.bell()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._one_widget:
            self._set_hover(self._span_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        if self._one_widget:
            self._set_hover(-1)

    def _set_hover(self, index: int) -> None:
        if index != self._hover:
            self._hover = index
            self.refresh()
