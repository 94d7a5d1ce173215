"""The late records of Energy and Reset as a view-model: each
form's fields, what its record will do or why the engine refuses it, before anything is
recorded, and the record itself, driven without a browser. Ruling 11: a late bounty that
reaches 36 wins at once; ruling 8: a Wyrm swap costs 1 energy. On a seated phone a form
starts on the phone's own player."""

from __future__ import annotations

import pytest

from companion.engine import Phase
from companion.language.render import language
from companion.play.late_records import LateRecords
from companion.play.session import GameSession
from companion.play.turns import Turns
from companion.store.store import open_store
from models.commands import LateRemoval, LateSummon, LateSwap
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
def store():
    with open_store("sqlite://") as opened:
        yield opened


def phone(store, seat=None):
    """A table game at Energy and Reset, and the late records in English of a device seated
    as `seat` (None: a table's only phone), every player seated."""
    setup = GameSetup(players=PLAYERS, board="gathering-isle", start=AT_RESET)
    seated = {"a", "b", "c"} if seat else set()
    session = GameSession(store, store.new_game(setup).id, lambda: seat, lambda: seated)
    assert session.state.phase is Phase.ENERGY_AND_RESET
    return LateRecords(Turns(session, lambda revision: None), EN)


@pytest.fixture
def records(store):
    """One device's late records in English, the table's only phone."""
    return phone(store)


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


def test_a_forgotten_wyrm_swap_is_recorded_late_for_its_energy(records):
    """Ruling 8: a Wyrm swap costs 1 energy; Bob has a Wyrm and a Troll on the board."""
    form = records.swap()
    assert form.title == "A Wyrm swap nobody entered"
    (who,) = form.fields
    assert (who.label, who.value) == ("Whose Wyrm", "b")
    assert form.make(["a"]) == LateSwap("a")
    preview = records.preview(form, ["b"])
    assert not preview.refused
    assert "Bob's Wyrm traded places with another of their creatures" in preview.said
    assert "for 1 energy (34 → 33)" in preview.said
    # Cy has only a Sprite on the board: no Wyrm to swap.
    refused = records.preview(form, ["c"])
    assert refused.refused and refused.said == "Cy has no Wyrm on the board."
    assert records.record(form, ["b"]).ok
    assert records.session.state.energy_of("b") == 33


def test_a_seated_phones_forms_start_on_its_own_player(store):
    cy = phone(store, "c")
    assert cy.summon().fields[0].value == "c"
    assert cy.swap().fields[0].value == "c"
    who, whose, _ = cy.removal().fields
    # Whose creature: the last in turn order but Cy's own (the order is Bob, Cy, Ann).
    assert (who.value, whose.value) == ("c", "a")
    assert phone(store, "a").removal().fields[1].value == "c"
    # Every field has a name for a screen reader, besides its label.
    assert [field.name for field in cy.removal().fields] == ["late-who", "late-whose", "late-kind"]


def test_a_seated_phone_is_told_before_recording_anothers_late_record(store):
    cy = phone(store, "c")
    refused = cy.preview(cy.swap(), ["b"])
    assert refused.refused and refused.said == (
        "This device records Cy's turns only: Bob's are recorded on Bob's device or the "
        "scorekeeper's."
    )
