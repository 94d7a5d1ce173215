"""The late records of Energy and Reset as a view-model (issue 21, item 2; issue 20): each
form's fields, what its record will do or why the engine refuses it, before anything is
recorded, and the record itself, driven without a browser. Ruling 11: a late bounty that
reaches 36 wins at once."""

from __future__ import annotations

import pytest

from companion.engine import Phase
from companion.language.render import language
from companion.play.late_records import LateRecords
from companion.play.session import GameSession
from companion.play.turns import Turns
from companion.store.store import open_store
from models.commands import LateRemoval, LateSummon
from models.setup import GameSetup

EN, FR = language("en"), language("fr")
PLAYERS = [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}]
# Energy and Reset of round 2, in the order Bob, Cy, Ann: Ann a Wyrm and a Troll on the
# board, Bob a Wyrm and a Troll, Cy a Sprite; Bob at 34.
AT_RESET = (
    "38 2/6 energy_and_reset:0:0 bca 10,34,20 "
    "029/110/000/110,029/110/000/110,138/001/000/001 -:0 - - 0 -"
)


@pytest.fixture
def records():
    """A table game at Energy and Reset, and one device's late records in English."""
    with open_store("sqlite://") as store:
        setup = GameSetup(players=PLAYERS, board="gathering-isle", start=AT_RESET)
        session = GameSession(store, store.new_game(setup).id)
        assert session.state.phase is Phase.ENERGY_AND_RESET
        yield LateRecords(Turns(session, lambda revision: None), EN)


def test_the_summon_form_asks_who_in_turn_order_and_what_with_its_cost(records):
    form = records.summon()
    assert form.title == "A summon nobody entered"
    who, what = form.fields
    assert (who.label, who.choices, who.value) == (
        "Who summoned",
        (("b", "Bob"), ("c", "Cy"), ("a", "Ann")),
        "b",
    )
    assert what.choices == (
        ("wyrm", "Wyrm (5 energy)"),
        ("troll", "Troll (3 energy)"),
        ("sprite", "Sprite (1 energy)"),
    )
    assert what.value == "sprite"
    assert form.make(["c", "troll"]) == LateSummon("c", "troll")


def test_the_removal_form_starts_on_the_first_and_the_last_in_the_order(records):
    form = records.removal()
    who, whose, what = form.fields
    assert (who.value, whose.value, what.value) == ("b", "a", "sprite")
    # A removal pays a bounty, no cost: the kinds are named alone.
    assert what.choices[0] == ("wyrm", "Wyrm")
    assert form.make(["b", "a", "troll"]) == LateRemoval("b", "a", "troll")


def test_a_record_the_engine_allows_is_previewed_in_its_own_sentence(records):
    form = records.summon()
    preview = records.preview(form, ["c", "troll"])
    assert not preview.refused
    assert "Cy summoned a Troll this round, for 3 energy (20 → 17)" in preview.said


def test_a_record_the_engine_refuses_says_why_and_cannot_be_taken(records):
    preview = records.preview(records.removal(), ["b", "b", "troll"])
    assert preview.refused
    assert preview.said == "Bob cannot remove their own creature for a bounty."


def test_a_bounty_reaching_36_is_said_to_win_before_it_is_recorded(records):
    """Ruling 11: Bob at 34 removing Ann's Troll gains 2 and wins as Summoner."""
    preview = records.preview(records.removal(), ["b", "a", "troll"])
    assert not preview.refused
    assert preview.said.endswith(
        "Bob reaches 36 energy and wins the game, earning Summoner status."
    )
    # Ruling 7: Cy's Sprite could not remove a Wyrm (1 + 6 against 8): the engine's reason.
    refused = records.preview(records.removal(), ["c", "a", "wyrm"])
    assert refused.refused and "could remove a Wyrm" in refused.said


def test_the_record_is_made_for_this_device_and_the_game_moves_on(records):
    outcome = records.record(records.removal(), ["b", "a", "troll"])
    assert outcome.ok
    state = records.session.state
    assert (state.phase, state.winner_id, state.energy_of("b")) == (Phase.GAME_OVER, "b", 36)


def test_the_forms_speak_the_devices_language(records):
    french = LateRecords(records.turns, FR)
    form = french.summon()
    assert form.title == "Une invocation non enregistrée"
    assert form.fields[1].choices[0] == ("wyrm", "Wyrm (5 points d'énergie)")
    said = french.preview(french.removal(), ["b", "a", "troll"]).said
    assert said.endswith(
        "Bob atteint 36 points d'énergie et gagne la partie avec le titre d'Invocateur."
    )
