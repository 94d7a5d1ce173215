"""A game's result as a view-model (no rule in the app): the winner and how they
won, the standings in the engine's order with its tie-break, and where undo leads, driven
without a browser. Rulings 11 (36 wins at once, Summoner) and 13 (a final-round tie goes to
the tied player later in the final round's order)."""

from __future__ import annotations

import pytest

from companion.language.render import language
from companion.play.result import result_view, undo_result
from companion.play.session import GameSession
from companion.store.store import open_store
from models.commands import EnergyAndReset, LateRemoval
from models.setup import GameSetup

EN, FR = language("en"), language("fr")
PLAYERS = [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}]
# Round 6 of 6 at Energy and Reset, in the order Ann, Bob, Cy, nobody on the board.
EMPTY = "139/000/000/000"
FINAL = f"38 6/6 energy_and_reset:0:0 abc {{energy}} {EMPTY},{EMPTY},{EMPTY} -:0 - - 0 -"
# Round 2's Energy and Reset: Ann and Bob a Wyrm and a Troll each, Bob at 34.
TWO = "029/110/000/110"
SUMMONER = f"38 2/6 energy_and_reset:0:0 abc 10,34,20 {TWO},{TWO},{EMPTY} -:0 - - 0 -"


@pytest.fixture
def store():
    with open_store("sqlite://") as opened:
        yield opened


def session_from(store, start):
    setup = GameSetup(players=PLAYERS, board="gathering-isle", start=start)
    return GameSession(store, store.new_game(setup).id)


def test_a_game_still_played_has_no_result(store):
    assert result_view(session_from(store, SUMMONER), EN) is None


def test_a_final_round_tie_goes_to_the_later_player_in_the_order(store):
    """Ruling 13: Ann and Cy both end on 24 (27 less 3); Cy was later in the order."""
    session = session_from(store, FINAL.format(energy="27,24,27"))
    assert session.do(EnergyAndReset(removed=())).ok
    shown = result_view(session, EN)
    assert shown is not None
    assert [(p.label, p.energy) for p in shown.standings] == [
        ("Cy", "24"),
        ("Ann", "24"),
        ("Bob", "21"),
    ]
    assert shown.winner == shown.standings[0]
    assert shown.title == "Cy wins"
    assert shown.how == "Ann and Cy tie on 24; Cy was latest in the final round's order and wins."


def test_a_summoner_is_told_with_the_record_that_won(store):
    """Ruling 11: Bob at 34 removing Ann's Troll gains 2: 36 wins at once."""
    session = session_from(store, SUMMONER)
    assert session.do(LateRemoval("b", "a", "troll")).ok
    shown = result_view(session, EN)
    assert shown is not None
    assert shown.title == "Bob is a Summoner!"
    assert shown.how == (
        "Bob reached 36 energy and earns Summoner status. (recorded late: Bob removed Ann's "
        "Troll this round and gains 2 (34 → 36))"
    )
    assert shown.winner.label == "Bob" and shown.winner.energy == "36"
    assert result_view(session, FR).title.startswith("Bob")


def test_undo_from_the_result_goes_back_to_the_tables_energy_and_reset(store):
    session = session_from(store, SUMMONER)
    assert session.do(LateRemoval("b", "a", "troll")).ok
    outcome, route = undo_result(session)
    assert outcome.ok and route == f"/game/{session.id}/reset"
    # Nothing left to undo: no screen to go to, and the reason.
    outcome, route = undo_result(session)
    assert not outcome.ok and route is None and outcome.said is not None
