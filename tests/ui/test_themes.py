"""Themes: shipped files, a user's own file in the config dir, the picker, and the remembered choice."""

from __future__ import annotations

import json
import tomllib

from cellwars_tui.locations import settings_file, shipped_themes_dir, user_themes_dir
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.launcher import LauncherScreen
from cellwars_tui.ui.theme_picker import ThemeScreen
from cellwars_tui.ui.themes import (
    DEFAULT_THEME,
    SEMANTIC,
    load_settings,
    load_theme_files,
    parse_theme,
    save_settings,
)
from tests.toy_game import TOY

OCEAN = """
name = "ocean"
dark = true
primary = "#3399ff"
background = "#001122"

[variables]
seat-1 = "#ff0000"
board = "#002244"
"""


def make_app(**kw) -> CellwarsApp:
    return CellwarsApp(games=[TOY], **kw)


def test_the_three_shipped_themes_are_complete_and_valid():
    files = sorted(shipped_themes_dir().glob("*.toml"))
    names = {parse_theme(f).name for f in files}
    assert {"cellwars-dark", "cellwars-light", "cellwars-high-contrast"} <= names
    for f in files:
        data = tomllib.loads(f.read_text())
        assert set(SEMANTIC) <= set(data["variables"]), f"{f.name} leaves semantic colours out"
    assert not parse_theme(shipped_themes_dir() / "cellwars-light.toml").dark


def test_high_contrast_seat_colours_are_distinct_okabe_ito():
    theme = parse_theme(shipped_themes_dir() / "cellwars-high-contrast.toml")
    seats = [theme.variables[f"seat-{i}"].upper() for i in range(1, 7)]
    assert len(set(seats)) == 6
    okabe_ito = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}
    assert set(seats) <= okabe_ito


def test_a_bad_user_theme_file_is_a_one_line_problem_and_the_others_still_load():
    (user_themes_dir() / "broken.toml").write_text("name = [")
    (user_themes_dir() / "pink.toml").write_text('primary = "pinkish"\n')
    (user_themes_dir() / "ocean.toml").write_text(OCEAN)
    files, problems = load_theme_files()
    names = [t.name for _, t in files]
    assert "ocean" in names and DEFAULT_THEME in names
    assert len(problems) == 2
    assert all("\n" not in p for p in problems)
    assert any("broken.toml: not valid TOML" in p for p in problems)
    assert any("pink.toml: primary = 'pinkish' is not a colour" in p for p in problems)


def test_settings_are_written_atomically_and_a_corrupt_file_is_ignored():
    assert save_settings({"theme": "ocean"}) is None
    assert load_settings() == {"theme": "ocean"}
    assert not [p for p in settings_file().parent.iterdir() if p.name.endswith(".tmp")]
    settings_file().write_text("{not json")
    assert load_settings() == {}


async def test_a_dropped_theme_file_is_picked_in_the_app_and_remembered():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.theme == DEFAULT_THEME
        # the file is dropped while the app runs: the picker's rescan finds it
        (user_themes_dir() / "ocean.toml").write_text(OCEAN)
        await pilot.press("t")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, ThemeScreen)
        assert str(user_themes_dir()) in str(picker.query_one("#theme-folder").render())
        await pilot.press("r")
        await pilot.pause()
        names = [t.name for _, t in picker.files]
        assert "ocean" in names
        # moving the cursor previews without remembering
        await pilot.press("down")
        await pilot.pause()
        assert app.theme == picker.highlighted_name() != DEFAULT_THEME
        assert load_settings().get("theme") in (None, DEFAULT_THEME)
        while picker.highlighted_name() != "ocean":
            await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LauncherScreen)
        assert app.theme == "ocean"
        assert app.theme_variables["seat-1"].lower() == "#ff0000"
        assert app.theme_variables["muted"]  # left out of the file: the fallback fills it
    assert json.loads(settings_file().read_text())["theme"] == "ocean"
    # the next start uses it
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.theme == "ocean"


async def test_escape_in_the_picker_puts_the_old_theme_back():
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("t", "down", "down")
        await pilot.pause()
        assert app.theme != DEFAULT_THEME
        await pilot.press("escape")
        await pilot.pause()
        assert app.theme == DEFAULT_THEME
        assert isinstance(app.screen, LauncherScreen)
    assert load_settings().get("theme") in (None, DEFAULT_THEME)


async def test_copy_to_edit_writes_a_loadable_theme_into_the_users_folder():
    app = make_app(theme="cellwars-light")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+t")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, ThemeScreen)
        assert picker.highlighted_name() == "cellwars-light"
        await pilot.press("c")
        await pilot.pause()
        copy = user_themes_dir() / "cellwars-light-copy.toml"
        assert copy.is_file()
        theme = parse_theme(copy)
        assert theme.name == "cellwars-light-copy" and not theme.dark
        assert picker.highlighted_name() == "cellwars-light-copy"


async def test_the_launcher_lists_the_theme_entry_and_a_bad_saved_theme_name_falls_back():
    save_settings({"theme": "gone-theme"})
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.theme == DEFAULT_THEME
        assert any("gone-theme" in p for p in app.theme_problems)
        launcher = app.screen
        await pilot.press("end")
        assert launcher.current() == "themes"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ThemeScreen)


def _contrast(a, b) -> float:
    """The WCAG contrast ratio of two textual Colors (1: none, 21: black on white)."""
    def lum(c) -> float:
        def ch(v: int) -> float:
            v = v / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b)
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


async def test_the_panel_divider_shows_in_every_theme():
    """Issue 19: in the light theme the divider between board and side panel was barely there."""
    from tests.games.cell_wars.test_screen_snapshots import THEMES, snapshot_match

    assert len(THEMES) == 3
    for theme in THEMES:
        app = CellwarsApp(match=snapshot_match(), theme=theme)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            side = app.screen.query_one("#gs-side")
            kind, colour = side.styles.border_left
            assert kind == "vkey"
            _, background = side.background_colors
            assert _contrast(colour, background) >= 1.7, \
                f"{theme}: divider {colour.hex} on {background.hex}"


async def test_the_theme_picker_leaves_the_board_it_previews_in_view():
    """Issue 19: the picker sat over the middle of the board and dimmed the rest."""
    from textual.geometry import Region

    from cellwars_tui.games.cell_wars.hex_board import HexBoard
    from tests.games.cell_wars.test_screen_snapshots import snapshot_match

    for size in ((80, 24), (160, 50)):
        app = CellwarsApp(match=snapshot_match(), theme="cellwars-dark")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            game = app.screen
            board = game.query_one(HexBoard)
            await pilot.press("ctrl+t")
            await pilot.pause()
            picker = app.screen
            assert isinstance(picker, ThemeScreen)
            box = picker.query_one("Vertical").region
            left = board.region.x + board.offset_x  # the honeycomb's own columns
            honeycomb = Region(left, board.region.y, board.layout_.width, board.region.height)
            assert not box.overlaps(honeycomb), (size, box, honeycomb)
            assert picker.styles.background.a == 0  # not dimmed: the preview shows as it is
            await pilot.press("down")
            await pilot.pause()
            assert app.theme != "cellwars-dark"
            # the board is drawn in the previewed theme's colours, not the old ones
            assert board._theme_key is not None and board._theme_key[0] == app.theme


async def test_a_confined_session_names_its_themes_folder_never_a_server_path(monkeypatch):
    """Issue 28: a browser tab's launcher showed the server's path to the tab's themes folder."""
    from textual.widgets import OptionList

    monkeypatch.setenv("CELLWARS_CONFINED", "1")
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        options = app.screen.query_one("#launcher-list", OptionList)
        options.highlighted = options.get_option_index("themes")
        await pilot.pause()
        panel = str(app.screen.query_one("#detail-text").render())
        assert "your themes folder" in panel
        assert str(user_themes_dir()) not in panel and "/" not in panel
        await pilot.press("t")
        await pilot.pause()
        folder = str(app.screen.query_one("#theme-folder").render())
        assert "kept with this session" in folder and str(user_themes_dir()) not in folder
