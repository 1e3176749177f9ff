"""One name rule for every player (issue 28, point 6).

A keyed player once took any display name with their SSH user name, the name of an away guest
who held a seat included (the check a guest's nickname goes through was skipped), and Unicode
look-alikes (Cyrillic, full-width letters) passed the name filter. Now every name is
NFKC-normalised, of one script, and compared with look-alike letters folded together; a keyed
player whose user name is held gets it with a number ("ann-2").
"""

from __future__ import annotations

import pytest

from cellwars_tui.online import protocol as p
from cellwars_tui.online.names import BadName, clean_name, name_key, script_problem

from .test_hub import hub, join, table_where  # noqa: F401  (hub: the fixture)
from .test_sweep import leave_all


@pytest.mark.parametrize(("typed", "name"), [
    ("ann", "ann"),
    ("  Ann   Lee ", "Ann Lee"),  # spaces collapsed
    ("ａｎｎ", "ann"),  # full-width letters are the plain ones
    ("ﬁona", "fiona"),  # a ligature is its letters
    ("José", "José"),
    ("e\u0301lodie", "élodie"),  # a letter and its accent are one letter
    ("Иван", "Иван"),  # any one script
    ("山田たろう", "山田たろう"),  # Japanese: Han and Kana together
    ("김민준", "김민준"),
    ("r2-d2_x.y", "r2-d2_x.y"),
])
def test_names_are_normalised(typed, name):
    assert clean_name(typed) == name


@pytest.mark.parametrize(("typed", "why"), [
    ("аnn", "mixes Cyrillic and Latin"),  # a Cyrillic а in a Latin name
    ("pаypal", "mixes Cyrillic and Latin"),
    ("Ωmega", "mixes Greek and Latin"),
    ("ann山", "mixes Han and Latin"),
    ("", "1 to 20 characters"),
    ("x" * 21, "1 to 20 characters"),
    ("ann!", "letters, digits"),
    ("a\u202eb", "letters, digits"),  # a right-to-left override
    ("\u0301ann", "letters, digits"),  # an accent on nothing
    ("a\u0301\u0302\u0303\u0304", "letters, digits"),  # a pile of accents
    ("ann\u200b", "letters, digits"),  # a zero-width space
])
def test_look_alike_and_odd_names_are_refused_in_one_line(typed, why):
    with pytest.raises(BadName, match=why):
        clean_name(typed)


def test_one_script_is_one_function():
    assert script_problem("ann 2") == "" and script_problem("Иван") == ""
    assert "Cyrillic and Latin" in script_problem("аnn")


def test_look_alikes_from_another_script_are_the_same_name():
    assert name_key("ВОВ") == name_key("bob")  # Cyrillic capitals
    assert name_key("сосо") == name_key("COCO")
    assert name_key("ΑΝΝΑ") == name_key("anna")  # Greek capitals
    assert name_key("b0b") == name_key("bob")  # a zero for an O
    assert name_key("Иван") != name_key("ivan")  # a real Cyrillic name is its own


async def test_a_keyed_player_never_takes_a_held_name_nor_a_look_alike(hub):  # noqa: F811
    cat = await join(hub, "guest", "x")
    cat.send(p.SetName(name="ann"))
    await cat.next(p.Welcome)
    cat.send(p.CreateTable(game="toy-race", players=2))
    await table_where(cat, lambda t: t.you == 0)
    # while the guest ann is here (and later, away, holding a seat), keys come in as "ann"
    token_names = [("key:one", "ann"), ("key:two", "ANN"), ("key:three", "аnn"),
                   ("key:four", "ａｎｎ")]
    names = []
    for identity, login in token_names:
        client = await join(hub, identity, login)
        names.append(client.welcome.name)
        await client.close()
    assert names[0] == "ann-2" and names[1] == "ANN-2" and names[3] == "ann-2"
    assert names[2] == "player"  # a name of two scripts is no name
    # and a guest cannot take the name with full-width or Cyrillic letters either
    dan = await join(hub, "guest", "x")
    for look_alike in ("ＡＮＮ", "АNN"):
        dan.send(p.SetName(name=look_alike))
        error = (await dan.next(p.Error)).message
        assert "in use" in error or "one alphabet" in error
    await leave_all(hub, cat, dan)
