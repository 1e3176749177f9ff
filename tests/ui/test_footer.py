"""The one-widget key footer (ui.footer.Footer with ``app.one_widget_footer``): the same keys and
look as Textual's footer, clicks press keys, and bindings changes repaint it."""

from __future__ import annotations

from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.dialogs import RulesScreen
from cellwars_tui.ui.footer import Footer
from cellwars_tui.ui.host import Host
from cellwars_tui.ui.launcher import LauncherScreen
from tests.toy_game import TOY


async def _launcher_footer(one_widget: bool) -> tuple[list[str], Footer, CellwarsApp]:
    app = CellwarsApp(games=[TOY])
    app.one_widget_footer = one_widget
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        if one_widget:
            words = [f"{s.key_display} {s.description}" for s in footer.key_spans()]
            text = footer.render().plain
            assert not footer.query("FooterKey")  # one widget: no key widgets
        else:
            keys = list(footer.query("FooterKey"))
            words = [f"{k.key_display} {k.description}" for k in keys]
            text = ""
        return words, footer, text


async def test_the_one_widget_footer_shows_textuals_keys_in_one_line():
    textual_words, _, _ = await _launcher_footer(False)
    words, _, text = await _launcher_footer(True)
    assert words == textual_words
    assert "New game" in " ".join(words) and "^p palette" in words
    # each key as Textual draws it (" key description "), in order, the palette's at the right
    place = 0
    for word in words[:-1]:
        place = text.index(f" {word} ", place) + len(word)
    assert text.rstrip().endswith("▏^p palette") and len(text) == 100


async def test_a_click_on_a_footer_key_presses_it():
    app = CellwarsApp(games=[TOY])
    app.one_widget_footer = True
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        rules = next(s for s in footer.key_spans() if s.description == "Rules")
        await pilot.click(Footer, offset=(rules.start + 1, 0))
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen)
        gap = footer.key_spans()[-2].end + 1  # between the keys and the palette's: nothing
        await pilot.click(Footer, offset=(gap, 0))
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen)


class _Keys(Screen):
    BINDINGS = [Binding("a", "count", "Count"), Binding("b", "blocked", "Blocked"),
                Binding("h", "hidden", "Hidden")]

    def __init__(self) -> None:
        super().__init__()
        self.counted = 0
        self.show_hidden = False

    def compose(self):
        yield Static("keys")
        yield Footer()

    def action_count(self) -> None:
        self.counted += 1

    def action_blocked(self) -> None:
        raise AssertionError("a disabled key must not run")

    def action_hidden(self) -> None:
        pass

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "blocked":
            return None  # shown, disabled
        if action == "hidden":
            return self.show_hidden or False
        return True


class _KeysApp(Host):
    one_widget_footer = True

    def __init__(self) -> None:
        super().__init__()
        self.bells = 0

    def get_default_screen(self) -> Screen:
        return _Keys()

    def bell(self) -> None:
        self.bells += 1


async def test_a_disabled_footer_key_rings_the_bell_instead():
    app = _KeysApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        count, blocked = (s for s in footer.key_spans() if not s.palette)
        assert count.enabled and not blocked.enabled
        await pilot.click(Footer, offset=(count.start, 0))
        await pilot.click(Footer, offset=(blocked.start, 0))
        await pilot.pause()
        assert app.screen.counted == 1 and app.bells == 1


async def test_the_one_widget_footer_repaints_when_the_keys_change():
    app = _KeysApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        assert "Hidden" not in footer.render().plain
        app.screen.show_hidden = True
        app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert "h Hidden" in footer.render().plain
        # the keys that work first, then the one shown disabled
        assert [s.description for s in footer.key_spans()][:3] == ["Count", "Hidden", "Blocked"]


async def test_the_key_under_the_mouse_is_highlighted():
    app = _KeysApp()
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(Footer)
        count = footer.key_spans()[0]
        plain = footer.render().get_style_at_offset(app.console, count.start)
        await pilot.hover(Footer, offset=(count.start, 0))
        await pilot.pause()
        lit = footer.render().get_style_at_offset(app.console, count.start)
        hover = footer.get_component_rich_style("footer--hover")
        assert lit != plain and lit.bgcolor == hover.bgcolor
        await pilot.hover(Static, offset=(0, 0))  # away: back as it was
        await pilot.pause()
        assert footer.render().get_style_at_offset(app.console, count.start) == plain
