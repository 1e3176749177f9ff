"""Each lesson played to its end BY KEYS at 80x24 (``cellwars learn GAME``), the way a player
follows the panel: Enter on a read step, the game's own keys for the lesson's move. Tests wait
for the lesson to move on (a condition), never for screen text, and Infection runs on a fake
clock. After the last step the lesson counts as finished and the game goes on against the bot."""

from __future__ import annotations

import time

import pytest
from textual.containers import VerticalScroll

from cellwars_tui.core import CHANCE
from cellwars_tui.games.infection import clarifications as IC
from cellwars_tui.games.infection import rules as IR
from cellwars_tui.games.infection.screen import FPS, POWER_KEYS, InfectionScreen
from cellwars_tui.games.virus_fight import engine as VE
from cellwars_tui.games.virus_fight import types as VT
from cellwars_tui.games.virus_fight.picks import turn_picks
from cellwars_tui.learn import finished_lessons
from cellwars_tui.learn.lesson import CLOCK, DO, READ
from cellwars_tui.timer import FakeClock
from cellwars_tui.ui.app import CellwarsApp
from cellwars_tui.ui.game_screen import GameScreen
from cellwars_tui.ui.launcher import LauncherScreen
from cellwars_tui.ui.widgets.lesson_panel import LessonPanel, NotesScreen

SIZE = (80, 24)


async def until(pilot, condition, what: str, timeout: float = 60.0) -> None:
    """Let the app run until ``condition()`` holds (the timeout only guards against a hang: a bot
    thinks in a thread, and a loaded machine takes longer)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never: {what}")
        await pilot.pause(0.01)


async def open_lesson(pilot, app) -> GameScreen:
    await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.lesson,
                "the lesson's screen")
    screen = app.screen
    await until(pilot, lambda: screen.query(LessonPanel), "the lesson panel")
    return screen


async def follow(pilot, screen, do_keys, clock=None) -> None:
    """Follow the lesson to its end: Enter on read steps, ``do_keys(step)`` on the player's
    steps, the fake clock run on for a clock step."""
    table = screen.lesson
    while table.active:
        step = table.run.step
        index = table.run.index
        panel = screen.query_one(LessonPanel)
        assert step.text.split()[0] in panel.plain  # the panel says this step
        if step.kind == READ:
            assert screen.lesson_reading()
            await pilot.press("enter")
        elif step.kind == DO:
            await do_keys(step)
        elif step.kind == CLOCK:
            await clock.advance(step.wind + 1)
        else:
            raise AssertionError(f"step {step.number} waits for {step.kind}")
        await until(pilot, lambda: table.run.index != index or not table.active,
                    f"step {step.number} ({step.notation or 'read'}) done")
    assert table.run.finished


async def close_and_check_finished(pilot, app, screen, game_id: str) -> None:
    assert screen.lesson_reading()  # the closing words wait for Enter
    assert game_id in finished_lessons()
    await pilot.press("enter")
    await until(pilot, lambda: not screen.has_class("-lesson"), "the panel closed")
    await pilot.pause()
    assert screen.query_one("#gs-log").display and not screen.query_one(LessonPanel).display
    assert not screen.lesson_reading()


# -- Virus Fight ---------------------------------------------------------------------------------
async def vf_goto(pilot, screen, sq: int) -> None:
    f, r = sq & 7, sq >> 3
    cf, cr = screen.cursor
    keys = (["right"] * (f - cf) + ["left"] * (cf - f) + ["up"] * (r - cr) + ["down"] * (cr - r))
    if keys:
        await pilot.press(*keys)
    assert screen.cursor == (f, r)


async def vf_keys(pilot, screen, step) -> None:
    action = step.action
    table = screen.table
    before = table.step()
    if isinstance(action, VT.Add):
        target = VE.ALL_CODES.index(action.piece)
        col, row = screen.palette % 3, screen.palette // 3
        tcol, trow = target % 3, target // 3
        await pilot.press(*(["right"] * (tcol - col) + ["left"] * (col - tcol)
                            + ["down"] * (trow - row) + ["up"] * (row - trow)), "enter")
        return
    if isinstance(action, VT.Mark):
        # the lesson's mark (W2, written already) is lit in the program, not in the palette
        lit = [c.id for c in screen.query(".vf-slot.lit, .vf-add.lit")]
        assert lit == [f"vf-slot-{action.index + 1}"], lit
        await pilot.press(str(action.index + 1))
        return
    if isinstance(action, VT.Ready):
        await pilot.press("y")
        return
    wanted = dict(turn_picks(action))
    while table.step() == before:
        stage = screen.stage()
        if stage is None:
            assert screen.pending == action
            await pilot.press("enter")
        elif stage == "piece":
            while screen.turn.spare_choice() != wanted["piece"]:
                await pilot.press("right_square_bracket")
            await vf_goto(pilot, screen, wanted["wdst"])
            await pilot.press("enter")
        else:
            await vf_goto(pilot, screen, wanted[stage])
            await pilot.press("enter")
        await pilot.pause()


@pytest.mark.slow  # a whole lesson, then a game
async def test_the_virus_fight_lesson_by_keys_to_a_game_against_the_easy_bot():
    app = CellwarsApp(learn="virus-fight")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lesson(pilot, app)
        table = screen.lesson
        assert screen.lesson_reading() and table.step() == 0
        # a move while the lesson waits to be read is not played; the panel says why
        await pilot.press("enter")  # (the welcome)
        await until(pilot, lambda: not table.reading, "the first move")
        assert table.run.step.notation == "add W2"
        chip = screen.query_one("#vf-add-W2")
        assert chip.has_class("lit") and not screen.query_one("#vf-add-M1").has_class("lit")
        before = table.step()
        await pilot.press("enter")  # adds M1, the palette's first: not the lesson's
        await until(pilot, lambda: table.panel().feedback, "the refusal")
        assert table.step() == before
        assert "not the lesson's move" in screen.query_one(LessonPanel).plain
        # the biology, one key away
        await pilot.press("B")
        await until(pilot, lambda: isinstance(app.screen, NotesScreen), "the notes")
        assert app.screen.first == ("WRITE",)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back")
        await follow(pilot, screen, lambda step: vf_keys(pilot, screen, step))
        assert "virus-fight" in finished_lessons()
        # a normal game now: the easy bot plays Blue, and the game is saved from here on
        assert table.autosave_enabled and table.seats[1].is_bot
        await until(pilot, lambda: table.humans_to_act() == (0,) or table.match.is_over(),
                    "the bot's move")
        assert table.match.steps[-1].seat == 1
        await close_and_check_finished(pilot, app, screen, "virus-fight")


# -- Cell Management ------------------------------------------------------------------------------
async def cm_keys(pilot, screen, step) -> None:
    from cellwars_tui.games.cell_management import rules as CR

    s = screen.table.state()
    action = step.action
    if isinstance(action, CR.Start):
        await pilot.press(str(s.cells.index(action.cell) + 1), "space")  # (space: skip the walk)
    elif isinstance(action, CR.Done):
        await pilot.press("0")
    elif isinstance(action, CR.Return):
        await pilot.press("b", str(s.hideouts.index(action.species) + 1))
        await until(pilot, lambda: not screen.table.state().in_center[action.species],
                    "the captive sent back")
        await pilot.pause()
        slots = str(screen.query_one("#cm-centre").render()).splitlines()[1]
        assert CR.SYMBOLS[action.species] not in slots  # the board shows it gone, at once
    else:
        raise AssertionError(action)


@pytest.mark.slow  # a whole lesson, then the puzzle
async def test_the_cell_management_lesson_by_keys_to_the_puzzle_alone():
    app = CellwarsApp(learn="cell-management")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lesson(pilot, app)
        table = screen.lesson
        assert screen.query_one("#cm-centre").has_class("lit")  # the welcome points at it
        await pilot.click("#gs-lesson")  # a click on the panel goes on, as Enter does
        await until(pilot, lambda: table.run.step.title == "The ship", "the second step")
        assert screen.query_one("#cm-cell-3").has_class("lit")
        assert not screen.query_one("#cm-centre").has_class("lit")
        await follow(pilot, screen, lambda step: cm_keys(pilot, screen, step))
        state = table.state()
        assert state.round == 4 and not table.is_over()  # four rounds played
        assert screen.assisted  # a guided puzzle counts as solved with help
        await close_and_check_finished(pilot, app, screen, "cell-management")
        await pilot.press("3", "space")  # the puzzle goes on by the same keys
        await until(pilot, lambda: table.state().round == 5, "round 5 played")


# -- Cell Wars -------------------------------------------------------------------------------------
async def cw_keys(pilot, screen, step) -> None:
    """The keys for the lesson's move, read off the screen's decision: a numbered choice (a
    card is picked first, then played), or the cursor moved onto a tile and Enter."""
    from cellwars_tui.games.cell_wars import rules as WR
    from cellwars_tui.games.cell_wars.decisions import PickCard, move_cursor

    action = step.action
    if isinstance(action, WR.Play):
        pick = next(o for o in screen.choices if o.do == PickCard(action.card))
        await pilot.press(pick.key)
        await until(pilot, lambda: screen.picking.card == action.card, "the card picked")
    option = next((o for o in screen.choices if o.do == action), None)
    if option is not None:
        assert option.key in step.keys, (step.number, option.key, step.keys)  # the panel names it
        await pilot.press(option.key)
        return
    tile = next(t for t, actions in screen.tile_actions.items() if action in actions)
    for _ in range(20):  # the arrows, as a player would, until the cursor is there
        if screen.cursor == tile:
            break
        here = screen.cursor
        moves = {key: move_cursor(here, key) for key in ("up", "down", "left", "right")}
        from cellwars_tui.games.cell_wars import board as WB

        def far(t: int) -> int:
            (q, r), (tq, tr) = WB.COORDS[t], WB.COORDS[tile]
            return abs(q - tq) + abs(r - tr) + abs(q + r - tq - tr)

        key = min(moves, key=lambda k: far(moves[k]))
        await pilot.press(key)
    assert screen.cursor == tile
    await pilot.press("enter")


@pytest.mark.slow  # a whole lesson, then a game
async def test_the_cell_wars_lesson_by_keys_to_a_game_against_the_easy_bot():
    app = CellwarsApp(learn="cell-wars")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lesson(pilot, app)
        table = screen.lesson
        await follow(pilot, screen, lambda step: cw_keys(pilot, screen, step))
        done = [(st.seat, table.game.action_to_str(st.action)) for st in table.match.steps]
        assert (0, "demolish E4-E5") in done and (0, "attack Ca") in done
        assert table.state().round == 2 and table.seats[1].is_bot
        await close_and_check_finished(pilot, app, screen, "cell-wars")


async def test_while_the_cell_wars_lesson_plays_the_cancer_camp_nobody_is_deciding():
    """A read step with the cancer camp to act next: the lesson plays it (after Enter), so the
    bar does not say "Player 2 is deciding for Cancer alpha…" as if a bot were thinking."""
    app = CellwarsApp(learn="cell-wars")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lesson(pilot, app)
        table = screen.lesson
        seen = 0
        while table.active:
            step = table.run.step
            index = table.run.index
            if step.kind == READ:
                if table.lesson.you not in table.to_act():
                    seen += 1
                    assert "deciding" not in screen.prompt, (step.number, screen.prompt)
                await pilot.press("enter")
            else:
                await cw_keys(pilot, screen, step)
            await until(pilot, lambda: table.run.index != index or not table.active, "a step")
        assert seen  # (the lesson has such a step: the last one)


async def test_every_step_of_the_cell_wars_lesson_shows_every_cells_row_at_80x24():
    """The lesson panel takes the lower half of the side column: the six cells' rows stay in
    the upper half at every step, whatever hands, cards on panel, die and attack the seats
    show (those lines come after the table), and each text to read fits the lower half."""
    from rich.console import Console

    from cellwars_tui.games.cell_wars import clarifications as WC

    def seat_rows() -> list[str]:
        console = Console(width=SIZE[0], record=True, file=open("/dev/null", "w"),
                          color_system=None, legacy_windows=False)
        console.print(app.screen._compositor.render_update(full=True))
        lines = console.export_text().splitlines()
        region = app.screen.query_one("#gs-seats").content_region
        return [line[region.x:region.x + region.width]
                for line in lines[region.y:region.y + region.height]]

    app = CellwarsApp(learn="cell-wars")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lesson(pilot, app)
        table = screen.lesson
        overflowed = 0
        while table.active:
            step = table.run.step
            index = table.run.index
            await pilot.pause()
            rows = seat_rows()
            overflowed += (len(screen.side_text(screen.view_state).plain.splitlines())
                           > len(rows))
            if step.kind == READ:  # (the text a player reads fits its half, unscrolled)
                lesson = screen.query_one(LessonPanel).query_one(VerticalScroll)
                assert lesson.max_scroll_y == 0, step.number
            for p, name in enumerate(WC.PANEL_NAMES[:6]):
                assert any(f" {name} P" in row and "/" in row for row in rows), (
                    step.number, name, rows)
            if step.kind == READ:
                await pilot.press("enter")
            else:
                await cw_keys(pilot, screen, step)
            await until(pilot, lambda: table.run.index != index or not table.active, "a step")
        # (the table with its hand and card lines is taller than the upper half at some step:
        # the case that pushed Ig's and Cg's rows out of view)
        assert overflowed


# -- Infection ------------------------------------------------------------------------------------
@pytest.fixture
def clock():
    fake = FakeClock()
    InfectionScreen.clock = fake
    InfectionScreen.fps = 2
    InfectionScreen.wait_until_ready = True  # every round waits for its player (the default)
    yield fake
    InfectionScreen.clock = None
    InfectionScreen.fps = FPS


def infection_key(screen, action) -> str:
    if isinstance(action, (IR.RollWhite, IR.Roll)):
        return "space"
    if isinstance(action, IR.Claim):
        return "enter"
    if isinstance(action, IR.Hold):
        return str(action.die + 1)
    if isinstance(action, IR.Target):
        return "zxc"[action.column]
    return POWER_KEYS[screen.my_powers().index(action.card)]


async def test_the_infection_lesson_by_keys_on_a_paused_and_wound_clock(clock):
    app = CellwarsApp(learn="infection")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lesson(pilot, app)
        table = screen.lesson
        session = table.round_clock()
        await until(pilot, lambda: session.started, "the clock started")
        assert session.paused and table.paused  # reading: the clock stands
        await clock.advance(30)
        assert session.remaining() == pytest.approx(180)
        assert screen.query_one("#inf-clock").has_class("lit")

        async def keys(step):
            await pilot.press(infection_key(screen, step.action))
            if isinstance(step.action, (IR.Roll, IR.RollWhite)):
                await clock.advance(IC.TUMBLE_SECONDS + 0.1)  # the dice land

        await follow(pilot, screen, keys, clock)
        s = table.state()
        assert s.round == 2 and len(s.seats[0].cards) == 2
        time_up = [st for st in table.match.steps if isinstance(st.action, IR.TimeUp)]
        assert len(time_up) == 1 and time_up[0].seat == CHANCE
        await close_and_check_finished(pilot, app, screen, "infection")
        # round 2 starts when the player is ready, as every round does: the ready moment comes
        # with the lesson's closing words, and the clock stands until space
        await until(pilot, lambda: screen.waiting_ready, "the ready moment")
        assert session.paused
        await pilot.press("space")
        await until(pilot, lambda: not session.paused, "the clock runs")
        await clock.advance(10)
        await until(pilot, lambda: any(st.seat == 1 for st in table.match.steps), "Blue acts")


def region_lines(app, selector: str) -> list[str]:
    """The lines of the widget ``selector`` as the player sees them (the composited screen)."""
    from rich.console import Console

    console = Console(width=app.size.width, record=True, file=open("/dev/null", "w"),
                      color_system=None, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True))
    lines = console.export_text().splitlines()
    region = app.screen.query_one(selector).content_region
    return [line[region.x:region.x + region.width].rstrip()
            for line in lines[region.y:region.y + region.height]]


async def test_the_infection_lesson_at_80x24_cuts_neither_the_players_lines_nor_yours(clock):
    """At every step of the lesson the players' lines and your own line read whole: a complete
    molecule is "on II-4: claim!" on the players' line, and your line puts its keys on a line
    of their own ("On II-4 · complete!", then "space or enter: take it")."""
    app = CellwarsApp(learn="infection")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lesson(pilot, app)
        table = screen.lesson
        seen: set[str] = set()

        async def check() -> None:
            await clock.advance(IC.TUMBLE_SECONDS + 0.1)  # the dice land
            await pilot.pause()
            for selector in ("#inf-players", "#inf-mine"):
                if not screen.query_one(selector).display:
                    continue
                lines = region_lines(app, selector)
                assert not any("…" in line for line in lines), (table.run.step.number, lines)
                seen.update(lines)

        async def keys(step):
            await check()
            await pilot.press(infection_key(screen, step.action))
            if isinstance(step.action, (IR.Roll, IR.RollWhite)):
                await clock.advance(IC.TUMBLE_SECONDS + 0.1)

        await follow(pilot, screen, keys, clock)
        text = "\n".join(seen)
        assert ": claim!" in text and "space or enter: take it" in text


# -- the launcher ---------------------------------------------------------------------------------
async def test_the_launcher_offers_learn_to_play_until_the_lesson_is_done():
    from cellwars_tui.learn import mark_finished

    app = CellwarsApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LauncherScreen), "the launcher")
        launcher = app.screen
        await until(pilot, lambda: launcher.current_game() is not None, "a game")
        assert launcher.current_game().meta.id == "virus-fight"
        listed = launcher.query_one("#launcher-list")
        assert "new here?" in str(listed.get_option_at_index(0).prompt)
        assert "new here? Learn to play (l)" in str(listed.get_option_at_index(0).prompt)
        assert launcher.query_one("#btn-learn").display
        mark_finished("virus-fight")  # (as the lesson does at its end)
        await pilot.press("l")
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the lesson")
        await pilot.press("q")
        await until(pilot, lambda: app.screen is launcher, "back")
        await until(pilot, lambda: "new here?" not in str(listed.get_option_at_index(0).prompt),
                    "the mark gone")
        assert "new here?" in str(listed.get_option_at_index(1).prompt)  # Cell Management's
        # every game with a lesson is offered one, Cellulis Bellum's too
        prompts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        bellum = next(p for p in prompts if "Cellulis Bellum" in p)
        assert "new here? Learn to play (l)" in bellum



async def test_leaving_a_lesson_part_way_says_it_is_not_saved_and_saves_nothing():
    """A lesson is saved once it is over (then it is a normal game); leaving before that keeps
    nothing, and the player is told so, on leaving and in the command palette."""
    from cellwars_tui.replay import rows

    app = CellwarsApp()
    told: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LauncherScreen), "the launcher")
        launcher = app.screen
        await until(pilot, lambda: launcher.current_game() is not None, "a game")
        await pilot.press("l")
        screen = await open_lesson(pilot, app)
        words = {title: help for title, help, _ in screen.palette_commands()}
        assert "not saved" in words["Back to launcher"]
        app.notify = lambda message, **kw: told.append(message)
        await pilot.press("q")
        await until(pilot, lambda: app.screen is launcher, "back")
    assert len(told) == 1 and "not saved" in told[0] and "Learn to play" in told[0]
    saved, problems = rows(None)
    assert saved == [] and problems == []

# -- Cellulis Bellum ------------------------------------------------------------------------------
CB_KEYS = {"right": (2, 0), "left": (-2, 0), "up": (0, 2), "down": (0, -2),
           "home": (-1, 1), "pageup": (1, 1), "end": (-1, -1), "pagedown": (1, -1)}


def cb_path(start: int, goal: int) -> list[str]:
    """The fewest of the screen's cursor keys from point ``start`` to ``goal`` (arrows along the
    grid lines, Home/PgUp/End/PgDn along the diagonals), as a player would press them."""
    from collections import deque

    from cellwars_tui.games.cellulis_bellum import geometry as G

    paths: dict[int, list[str]] = {start: []}
    todo = deque([start])
    while todo:
        p = todo.popleft()
        if p == goal:
            return paths[p]
        x, y = G.xy(p)
        for key, (dx, dy) in CB_KEYS.items():
            q = G.at_xy(x + dx, y + dy)
            if q is not None and q not in paths:
                paths[q] = [*paths[p], key]
                todo.append(q)
    raise AssertionError(f"no way from {start} to {goal}")


async def cb_goto(pilot, screen, p: int) -> None:
    keys = cb_path(screen.cursor, p)
    if keys:
        await pilot.press(*keys)
    await until(pilot, lambda: screen.cursor == p, "the cursor there")


async def cb_keys(pilot, screen, step) -> None:
    """The keys for the lesson's move: the cursor moved onto the point, then Enter (or the
    action's own key: d, a, g, f)."""
    from cellwars_tui.games.cellulis_bellum import rules as BR

    action = step.action
    geo = screen.geometry
    if isinstance(action, BR.Spawn):
        await cb_goto(pilot, screen, action.to)
        await pilot.press("enter")
    elif isinstance(action, BR.Burst):
        if screen.selected != action.src:
            await cb_goto(pilot, screen, action.src)
            await pilot.press("enter")
            await until(pilot, lambda: screen.selected == action.src, "the cell selected")
        await cb_goto(pilot, screen, action.dst)
        await pilot.press("enter")
    elif isinstance(action, BR.Done):
        await pilot.press("d")
    elif isinstance(action, BR.Apoptosis):
        await cb_goto(pilot, screen, geo.rhombi4[action.key][0])
        await pilot.press("a")
        await until(pilot, lambda: screen.apo_choice == action, "the rhombus lit")
        await pilot.press("enter")
    elif isinstance(action, BR.Generate):
        await cb_goto(pilot, screen, action.centre)
        await pilot.press("g")
    elif isinstance(action, BR.VirusShot):
        await pilot.press("f")
        await until(pilot, lambda: screen.mode == "aim", "the rays lit")
        virus = screen.state.board.index(BR.VIRUSES[screen.state.seat])
        await cb_goto(pilot, screen, geo.rays[virus][action.direction][0])
        await pilot.press("enter")
    else:
        raise AssertionError(action)


@pytest.mark.slow  # a whole lesson, then a game
async def test_the_cellulis_bellum_lesson_by_keys_to_a_game_against_the_easy_bot():
    from cellwars_tui.games.cellulis_bellum import geometry as G
    from cellwars_tui.games.cellulis_bellum import rules as BR
    from cellwars_tui.games.cellulis_bellum.screen import CellulisBellumScreen

    app = CellwarsApp(learn="cellulis-bellum")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lesson(pilot, app)
        assert isinstance(screen, CellulisBellumScreen)
        table = screen.lesson
        # the welcome points at both nuclei, drawn lit on the board
        assert screen.lit_points() == {G.parse_point("d2"), G.parse_point("d5")}
        await pilot.press("enter")  # (the welcome read)
        await until(pilot, lambda: table.run.step.notation == "spawn cd23", "the first spawn")
        assert screen.lit_points() == {G.parse_point("cd23")}
        # a legal spawn elsewhere is not played; the panel says why
        await pilot.press("right", "enter")
        await until(pilot, lambda: table.panel().feedback, "the refusal")
        assert table.step() == 0 and "not the lesson's move" in screen.query_one(LessonPanel).plain
        await pilot.press("left")
        # the biology of the step's pieces, one key away
        await pilot.press("B")
        await until(pilot, lambda: isinstance(app.screen, NotesScreen), "the notes")
        assert app.screen.first == ("Cell",)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen, "back")
        territory_shown = []
        while table.active:
            step = table.run.step
            await pilot.pause()
            scroll = screen.query_one(LessonPanel).query_one(VerticalScroll)
            if not table.panel().feedback:  # (a refusal's reason comes first, then the step)
                assert scroll.max_scroll_y == 0, step.number  # the step's text fits, unscrolled
            if step.kind == READ and step.title == "Your territory":
                await pilot.press("t")  # the step's key: the territory tinted, and counted
                await until(pilot, lambda: screen.shown_territory() == "both", "the territory")
                territory_shown.append(screen.table.state().board)
                assert screen.lit_points() == {G.parse_point(m) for m in step.marks}
                await pilot.press("t")  # again: Yellow's alone, and why it counts
                await until(pilot, lambda: screen.shown_territory() == 0, "Yellow's alone")
                assert "Yellow 10:" in screen.info_text().plain
                await pilot.press("t", "t")
            await follow_one(pilot, screen, step, lambda step: cb_keys(pilot, screen, step))
        assert table.run.finished and territory_shown
        assert BR.territory(territory_shown[0], 0) == 10  # as the step says
        done = [table.game.action_to_str(st.action) for st in table.match.steps if st.seat == 0]
        for played in ("spawn cd23", "burst d3-d4", "done", "apo c1-c2", "gen d3", "shoot nw"):
            assert played in done
        assert "cellulis-bellum" in finished_lessons()
        # a normal game now: the easy bot plays Violet, and the game is saved from here on
        assert table.autosave_enabled and table.seats[1].is_bot
        await until(pilot, lambda: table.humans_to_act() == (0,) or table.match.is_over(),
                    "the bot's move")
        assert table.match.steps[-1].seat == 1
        await close_and_check_finished(pilot, app, screen, "cellulis-bellum")
        assert not screen.lit_points()  # the panel closed: nothing lit any more


async def follow_one(pilot, screen, step, do_keys) -> None:
    """One step of ``follow``: Enter on a read step, the game's keys on the player's."""
    table = screen.lesson
    index = table.run.index
    assert step.text.split()[0] in screen.query_one(LessonPanel).plain  # the panel says this step
    if step.kind == READ:
        assert screen.lesson_reading()
        await pilot.press("enter")
    elif step.kind == DO:
        await do_keys(step)
    else:
        raise AssertionError(f"step {step.number} waits for {step.kind}")
    await until(pilot, lambda: table.run.index != index or not table.active,
                f"step {step.number} ({step.notation or 'read'}) done")
