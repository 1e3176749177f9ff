"""Pilot tests of the online league's screens against fixed hub messages: the leaderboard, a
profile (a bot's too), the chat pane and the rematch bar."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import DataTable, Input, RichLog, Static

from cellwars_tui.online import protocol as p
from cellwars_tui.online.chat import ChatLine
from cellwars_tui.online.league import (
    GameLine, GameRecord, GameResult, Leaderboard, LeaderRow, Profile, ResultSeat,
)
from cellwars_tui.online.ratings import Rating
from cellwars_tui.ssh.chat_pane import ChatPane
from cellwars_tui.ssh.leaderboard import LeaderboardScreen, your_line
from cellwars_tui.ssh.profile import ProfileScreen, record_words
from cellwars_tui.ssh.rematch import RematchBar, rematch_words
from cellwars_tui.ui.host import Host

ANN, BEN = "key:SHA256:annkey", "key:SHA256:benkey"
SETTLED, NEWBIE = Rating(mu=27.0, sigma=4.0, games=30), Rating(mu=26.0, sigma=7.0, games=2)


class App(Host):
    def __init__(self, screen_or_widget) -> None:
        super().__init__()
        self.thing = screen_or_widget

    def compose(self) -> ComposeResult:
        if not isinstance(self.thing, Screen):
            yield self.thing

    def on_mount(self) -> None:
        if isinstance(self.thing, Screen):
            self.push_screen(self.thing)


def board(game="cellulis-bellum", you: LeaderRow | None = None) -> Leaderboard:
    rows = (LeaderRow(1, BEN, "ben", SETTLED), LeaderRow(2, ANN, "ann", NEWBIE))
    return Leaderboard(game=game, rows=rows, players=2, you=you)


async def test_leaderboard_top_players_your_place_and_a_profile():
    sent: list[p.Msg] = []
    screen = LeaderboardScreen(sent.append, game="cellulis-bellum", you=ANN)
    async with App(screen).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert sent == [p.AskLeaderboard(game="cellulis-bellum")]
        screen.hub_message(p.LeaderboardView(board=board("virus-fight")))  # not the game shown
        assert str(screen.query_one("#board-you", Static).render()) == "Loading…"
        screen.hub_message(p.LeaderboardView(board=board(you=LeaderRow(2, ANN, "ann", NEWBIE))))
        await pilot.pause()
        table = screen.query_one("#board", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert rows == [["1", "ben", str(SETTLED.shown), "30"],
                        ["2", "ann ★", f"{NEWBIE.shown}?", "2"]]
        you = str(screen.query_one("#board-you", Static).render())
        assert you.startswith(f"You: 2nd of 2 · {NEWBIE.shown}? after 2 rated games (provisional")
        await pilot.press("right")  # the next rated game
        await pilot.pause()
        assert sent[-1] == p.AskLeaderboard(game=screen.game) and screen.game != "cellulis-bellum"
        await pilot.press("left")
        screen.hub_message(p.LeaderboardView(board=board()))
        await pilot.pause()
        await pilot.press("enter")  # ben's row: his profile
        await pilot.pause()
        assert isinstance(pilot.app.screen, ProfileScreen)
        assert sent[-1] == p.AskProfile(identity=BEN)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen
    assert "Guests play unrated" in your_line(board(), keyed=False)
    assert "no rating in this game yet" in your_line(board(), keyed=True)


RESULT_SEATS = (ResultSeat(identity=ANN, name="ann", place=1),
                ResultSeat(name="Violet", kind="bot", bot="hard", place=2))


def profile() -> Profile:
    recent = (GameLine(game_id="ABCD-01", game="cellulis-bellum", finished_at=1_790_000_000.0,
                       rated=True, seats=(RESULT_SEATS[0], ResultSeat(identity=BEN, name="ben",
                                                                      place=2)),
                       seat=0, winners=(0,), text="ann wins (nucleus destroyed)", change="+29"),
              GameLine(game_id="EFGH-02", game="cellulis-bellum", finished_at=1_789_000_000.0,
                       rated=False, seats=RESULT_SEATS, seat=0, winners=(0,),
                       text="ann wins (territory)"))
    records = (GameRecord(game="cellulis-bellum", played=2, won=2, best_score=18.0,
                          fewest_moves=40),
               GameRecord(game="infection", played=3, won=1, lost=2))
    return Profile(identity=ANN, name="ann", ratings=(("cellulis-bellum", NEWBIE, 2),),
                   records=records, recent=recent)


async def test_profile_ratings_records_recent_games_and_a_replay_asked_for():
    sent: list[p.Msg] = []
    screen = ProfileScreen(sent.append, identity=ANN)
    async with App(screen).run_test(size=(110, 32)) as pilot:
        await pilot.pause()
        assert sent == [p.AskProfile(identity=ANN)]
        screen.hub_message(p.ProfileView(profile=profile(), identity=BEN))  # another question
        assert screen.profile is None
        screen.hub_message(p.ProfileView(profile=profile(), identity=ANN))
        await pilot.pause()
        head = str(screen.query_one("#profile-head", Static).render())
        assert head.startswith("Profile · ann · key SHA256:annkey")
        ratings = str(screen.query_one("#profile-ratings", Static).render())
        assert f"Cellulis Bellum   {NEWBIE.shown}?" in ratings and "2nd · 2 rated games" in ratings
        records = str(screen.query_one("#profile-records", Static).render())
        assert "2 played · 2 won · 0 lost · best score 18 · quickest win 40 moves" in records
        assert "Infection        3 played · 1 team win · 2 lost" in records
        table = screen.query_one("#profile-recent", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert rows[0][2:] == ["won: ann wins (nucleus destroyed)", "+29", "ben"]
        assert rows[1][2:] == ["won · casual: ann wins (territory)", "-", "Violet (hard bot)"]
        await pilot.press("down", "enter")  # the casual game: fetched to replay
        await pilot.pause()
        assert sent[-1] == p.AskGame(game_id="EFGH-02") and screen.asked_game == "EFGH-02"
    assert record_words(GameRecord(game="cell-management", played=4, won=3,
                                   fewest_moves=31, best_seconds=247.4)) == \
        "4 played · 3 solved · quickest win 31 moves · best time 4:07"


async def test_a_bots_profile_is_its_level_and_an_unknown_player_has_none():
    sent: list[p.Msg] = []
    screen = ProfileScreen(sent.append, seat=1)
    async with App(screen).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert sent == [p.AskProfile(seat=1)]
        screen.hub_message(p.ProfileView(name="Violet", bot="normal", game="cellulis-bellum",
                                         seat=1))
        await pilot.pause()
        text = str(screen.query_one("#profile-ratings", Static).render())
        assert text.startswith("Violet is a bot, level normal (") and "no rating" in text
    screen = ProfileScreen(sent.append, identity="key:nobody")
    async with App(screen).run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen.hub_message(p.ProfileView(name="cy", identity="key:nobody"))
        await pilot.pause()
        assert "No finished game of cy" in str(screen.query_one("#profile-ratings",
                                                                Static).render())


async def test_the_chat_pane_shows_plain_text_sends_lines_and_closes():
    sent: list[p.Msg] = []
    pane = ChatPane(sent.append, seats=2, id="chat")
    async with App(pane).run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        lines = (ChatLine(0.0, 3, "ann", "[red]not markup[/red]", 0),
                 ChatLine(0.0, 4, "cy", "watching you", None))
        pane.show(p.ChatLines(where="ABCD", lines=lines))
        await pilot.pause()
        shown = [strip.text for strip in pane.query_one("#chat-lines", RichLog).lines]
        assert any("ann: [red]not markup[/red]" in line for line in shown)
        assert any("cy (watching): watching you" in line for line in shown)
        box = pane.query_one("#chat-input", Input)
        pane.focus_input()
        await pilot.press(*"gg wp", "enter")
        assert sent == [p.Say(text="gg wp")] and box.value == ""
        assert box.max_length == 200
        pane.show(p.ChatLines(where="ABCD", lines=lines, closed="programs are written"))
        await pilot.pause()
        assert box.disabled and "programs are written" in box.placeholder


def finished_state(rematch=(), you=0, rated=True) -> p.TableState:
    seats = (p.SeatInfo(kind="human", name="ann", connected=True),
             p.SeatInfo(kind="human", name="ben", connected=True))
    info = p.TableInfo(code="ABCD", game="cellulis-bellum", title="Cellulis Bellum",
                       seats=seats, status="over", rated=rated)
    from cellwars_tui.core.api import Outcome

    return p.TableState(info=info, you=you, outcome=Outcome((0,), "nucleus destroyed"),
                        ratings=("1529?", "1471?"), changes=("+29", "-29"), rematch=rematch)


async def test_the_rematch_bar_follows_the_offer():
    bar = RematchBar(id="rematch")
    async with App(bar).run_test(size=(90, 10)) as pilot:
        bar.show(finished_state())
        await pilot.pause()
        text = str(bar.render())
        assert text.splitlines() == ["Ratings: ann 1529? (+29) · ben 1471? (-29)",
                                     "r: offer the same players a rematch (everyone moves one "
                                     "seat on)"]
        bar.show(finished_state(rematch=(1,)))
        await pilot.pause()
        assert "ben offers a rematch: r accepts" in str(bar.render()) and bar.has_class("offered")
        playing = msgspec_replace(finished_state(rated=False), outcome=None)
        bar.show(playing)
        assert not bar.display
    assert rematch_words(finished_state(rematch=(0,))) == \
        "You offered a rematch: waiting for ben (r takes it back)"
    assert rematch_words(finished_state(rematch=(0,), you=None)) == \
        "ann offered a rematch; waiting for ben"


def msgspec_replace(struct, **changes):
    import msgspec

    return msgspec.structs.replace(struct, **changes)


def test_a_result_replays_from_its_record_with_its_chat_at_its_steps():
    import random

    from cellwars_tui.core.match import Match, Seat
    from cellwars_tui.core.registry import get_game
    from cellwars_tui.ssh.finished import ChatFollower, replay_of

    game = get_game("cellulis-bellum")
    match = Match(game, game.options_type(), [Seat(name="ann"), Seat(name="ben")], 3)
    rng = random.Random(3)
    for _ in range(6):
        seat = match.to_act()[0]
        match.play(seat, rng.choice(list(match.legal_actions(seat))))
    chat = [ChatLine(1.0, 0, "ann", "hi"), ChatLine(2.0, 4, "ben", "ouch")]
    result = GameResult(**{**make_result_fields(match), "chat": tuple(chat)})
    replay = replay_of(result)
    assert len(replay) == 6
    notes: list[str] = []

    class Notes:
        def notify(self, text, **kw):
            notes.append(text)

    replay.seek(0)
    follower = ChatFollower(Notes(), replay, chat)  # type: ignore[arg-type]
    replay.seek(3)
    follower()
    assert notes == []
    replay.seek(5)
    follower()
    assert notes == ["ben: ouch"]


def make_result_fields(match) -> dict:
    from cellwars_tui.record.format import encode_match

    return dict(game_id="ABCD-1", code="ABCD", game=match.game.id, rated=False, finished_at=1.0,
                seats=RESULT_SEATS, winners=(0,), termination="x", text="x", moves=6,
                record=encode_match(match))
