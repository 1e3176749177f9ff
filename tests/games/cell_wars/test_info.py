"""Hidden hands, determinisation, notation, events, options and the clarifications page."""

import random
from pathlib import Path

import pytest

from cellwars_tui.core import BadNotation
from cellwars_tui.games.cell_wars import clarifications as C
from cellwars_tui.games.cell_wars.cards import CARDS, card_id
from cellwars_tui.games.cell_wars.rules import (CWEvent, GameOver, Moved, Play, describe)

from .helpers import GAME, Ca, Cb, Ia, Ib, R, T, give, standard

RULES_MD = Path(R.__file__).with_name("rules.md")


def test_view_hides_other_seats_hands_and_the_deck_order():
    s = give(give(standard(players=6), Ia, "excalibur", "cytokine"), Ca, "dodge")
    v = GAME.view(s, 0)  # seat 0 leads Immune alpha
    assert v.panels[Ia].hand == s.panels[Ia].hand
    assert v.panels[Ca].hand == (-1,)
    assert v.deck[1][card_id("dodge")] == s.deck[1][card_id("dodge")] + 1  # unknown pool
    spectator = GAME.view(s, None)
    assert spectator.panels[Ia].hand == (-1, -1)


def test_a_seat_sees_the_hands_of_every_panel_it_leads():
    s = give(give(standard(players=2), Ia, "excalibur"), Ib, "cytokine")
    v = GAME.view(s, 0)
    assert v.panels[Ib].hand == (card_id("cytokine"),)


def test_determinize_fills_hidden_hands_from_the_unknown_cards():
    s = give(give(standard(players=6), Ca, "dodge", "architect"), Cb, "invasion")
    v = GAME.view(s, 0)
    d = GAME.determinize(v, 0, random.Random(1))
    GAME.check_invariants(d)
    assert len(d.panels[Ca].hand) == 2 and -1 not in d.panels[Ca].hand
    assert d.panels[Ia] == s.panels[Ia]


def test_action_notation_round_trips():
    texts = ["sign E5", "tissue A1", "place I5", "relapse C3", "stay", "charge", "mutate",
             "play glucose", "play teleporting E5", "play translocation Cb", "purify", "degrade",
             "solidify", "demolish E4-E5", "build A1-A2", "roll", "step NE", "attack Cg", "end",
             "die 6", "draw vegf", "diceoff Ib"]
    for text in texts:
        a = GAME.action_from_str(text)
        assert GAME.action_to_str(a) == text
        assert GAME.decode_action(GAME.encode_action(a)) == a
    assert GAME.action_from_str("PLAY Teleporting e5") == Play("teleporting", tile=T["E5"])


@pytest.mark.parametrize("bad", ["", "fly", "sign Z9", "step N", "attack Xa", "die 7",
                                 "draw joker", "play joker", "play glucose E5 E6", "build A1-A3"])
def test_bad_notation_raises_a_one_line_error(bad):
    with pytest.raises(BadNotation) as err:
        GAME.action_from_str(bad)
    assert "\n" not in str(err.value)


def test_every_event_has_a_sentence():
    samples = [GameOver(2, "no winner after round 16"), Moved(Ia, 0, 1, "step")]
    for e in samples:
        assert "{" not in describe(e)
    assert describe(GameOver(2, "x")).startswith("Tie")
    assert len(CWEvent.__args__) >= 20


def test_every_clarification_is_on_the_rules_page_with_its_seed_fragment():
    text = RULES_MD.read_text()
    assert "## Clarifications" in text
    clar = text.split("## Clarifications", 1)[1]
    for fragment, _ in C.CLARIFICATIONS:
        assert f'"{fragment}"' in clar, fragment


def test_every_card_is_described_on_the_rules_page():
    text = RULES_MD.read_text()
    for c in CARDS:
        assert f"**{c.name}**" in text, c.name


def test_the_shared_log_names_only_cards_that_are_played_at_once():
    from cellwars_tui.games.cell_wars.cards import card_id
    from cellwars_tui.games.cell_wars.rules import Drew

    assert describe(Drew(1, card_id("canceration"), "charge")) == "Cancer alpha draws a card (charge)"
    assert "Glucose" in describe(Drew(1, card_id("glucose"), "charge"))


def test_every_card_text_is_on_the_rules_page_with_its_type_and_copies():
    text = RULES_MD.read_text()
    for c in CARDS:
        for camp, copies in ((0, c.immune), (1, c.cancer)):
            if copies:
                row = f"| **{c.name}** | {copies} | {c.kind} | {c.text} |"
                assert row in text, row


def test_the_rules_page_states_each_clarification_as_the_clarifications_module_does():
    clar = RULES_MD.read_text().split("## Clarifications", 1)[1]
    for fragment, decision in C.CLARIFICATIONS:
        assert f'- "{fragment}": {decision}' in clar, fragment
    assert clar.count("\n- ") == len(C.CLARIFICATIONS)


SEED_EXTRACTS = Path(__file__).with_name("data") / "seed_extracts.txt"


def _seed_rulebook() -> Path | None:
    """shared/seeds/cell-wars.txt beside the repository (or beside a folder holding it), if any."""
    repo = Path(__file__).resolve().parents[3]
    for folder in repo.parents[:3]:
        seed = folder / "shared" / "seeds" / "cell-wars.txt"
        if seed.is_file():
            return seed
    return None


def test_every_clarification_quotes_a_passage_of_the_seed():
    """Runs everywhere on the extracts kept with the tests; where the seed rulebook itself is at
    hand (CI, a developer's checkout) it also checks the extracts against it."""
    extracts = [line for line in SEED_EXTRACTS.read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")]
    for fragment, _ in C.CLARIFICATIONS:
        assert any(fragment in line for line in extracts), (
            f"{fragment!r}: add the seed's words around it to {SEED_EXTRACTS.name}")
    seed = _seed_rulebook()
    if seed is not None:
        text = " ".join(seed.read_text(encoding="utf-8").split())
        for line in extracts:
            assert line in text, f"{SEED_EXTRACTS.name} says what {seed} does not: {line!r}"


def test_the_rules_page_states_who_leads_which_panel_for_every_player_count():
    text = RULES_MD.read_text()
    for players, owners in C.PANEL_OWNERS.items():
        cells = [" ".join(C.PANEL_NAMES[p] for p in range(6) if owners[p] == seat)
                 for seat in range(players)]
        row = f"| {players} | " + " | ".join(cells + [""] * (6 - players)) + " |"
        assert row.replace("  ", " ") in text.replace("  ", " "), row
