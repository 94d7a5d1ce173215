"""The table's turn card as a view-model: what each control says and
records, and which are another device's, driven without a browser.

Rules it shows come from the engine: `reach` (a tap on a later player's square skips
everyone before them, design.md "skip"), `blocker` (why a step passes a player over), and
the shared table's seats (a seated phone records only its own player's turns).
"""

from __future__ import annotations

import pytest

from companion.engine import Phase
from companion.language.render import language
from companion.play.session import GameSession
from companion.play.table_turn import turn_view
from companion.store.store import open_store
from models.commands import Pass, Removal, Skip, Summon
from models.rules import KIND_ORDER, CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
EN = language("en")
TABLE = GameSetup(
    players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}],
    board="gathering-isle",
)


@pytest.fixture
def store():
    with open_store("sqlite://") as opened:
        yield opened


def session_of(store, seat=None, seated=()):
    """A session on a new table game, as a device sitting at `seat` would have it."""
    saved = store.new_game(TABLE)
    return GameSession(store, saved.id, lambda: seat, lambda: seated)


def test_the_summoning_card_is_a_grid_in_turn_order_with_the_current_square_marked(store):
    session = session_of(store)
    card = turn_view(session)
    assert (card.phase, EN.render(card.title)) == (Phase.SUMMONING, "Summoning · Wyrms step")
    assert [row.player for row in card.grid] == ["a", "b", "c"]
    assert [row.now for row in card.grid] == [True, False, False]
    assert [head.now for head in card.heads] == [kind is W for kind in KIND_ORDER]
    current = [square for row in card.grid for square in row.squares if square.current]
    assert [(square.name, square.kind) for square in current] == [("Ann", W)]
    assert card.done is not None and card.done.commands == (Pass(),) and card.done.by == "a"
    assert card.whole_table is not None and card.whole_table.commands == (Skip("summoning"),)
    assert card.not_mine is None
    assert EN.render(current[0].label) == "Ann: summon a Wyrm (1 left)"


def test_a_square_records_what_the_engine_reaches_and_the_session_takes_it(store):
    """Design 'skip': Cy's Wyrm while it is Ann's turn is a skip over Ann and Bob, then it."""
    session = session_of(store)
    card = turn_view(session)
    (cy_wyrm,) = [s for s in card.grid[2].squares if s.kind is W]
    assert cy_wyrm.tap is not None and cy_wyrm.open
    assert list(cy_wyrm.tap.commands) == session.state.reach(Summon(W, by="c"))
    assert session.do_all(cy_wyrm.tap.commands, cy_wyrm.tap.by).ok
    assert [type(entry.command) for entry in session.saved.log] == [Skip, Summon]
    # The card of the next revision has moved on: Cy's Wyrm square is spent.
    after = turn_view(session)
    assert after.revision == card.revision + 1
    (spent,) = [s for s in after.grid[2].squares if s.kind is W]
    assert spent.tap is None and spent.left == 0


def test_a_seated_phone_sees_the_others_squares_locked_and_says_why_once(store):
    """Ann's phone records Ann's turns; Bob has a phone of his own, and Cy none. Ann's later
    steps are hers to say ahead (docs/rulings.md, "Said ahead at the table")."""
    session = session_of(store, seat="a", seated=("a", "b"))
    card = turn_view(session)
    ann, bob, cy = card.grid
    assert all(square.open for square in ann.squares)
    assert card.done is not None and card.done.refused is None  # Ann's own "done"
    locked = [square for square in bob.squares if square.tap is not None]
    assert locked and not any(square.open for square in locked)
    # Cy's squares would pass over Bob, whose device records his turns.
    assert not any(square.open for square in cy.squares)
    # The card says the first reason met in the grid, once: Bob's squares are his device's.
    first = next(s.tap for row in card.grid for s in row.squares if s.tap and not s.open)
    assert card.not_mine == first.refused
    assert EN.render(card.not_mine).startswith("This device records Ann's turns only")
    assert EN.render(locked[0].label).startswith("Bob: a Wyrm (1 left), locked here: ")


def test_the_actions_card_offers_removals_jumps_and_says_who_is_passed_over(store):
    session = session_of(store)
    for player in ("a", "b", "c"):
        assert session.do(Summon(W), by=player).ok
    state = session.state
    card = turn_view(session)
    assert card.phase is Phase.ACTIONS
    legal = [c for c in state.legal_commands() if isinstance(c, Removal)]
    assert legal and [chip.tap.commands for chip in card.removals] == [(c,) for c in legal]
    assert EN.render(card.removals[0].text) == "Bob's Wyrm +3"
    acting = [p for p in state.order() if state.blocker(p) is None]
    later = acting[acting.index(state.current_player) + 1 :]
    assert [jump.commands[0].player for jump in card.jumps] == later
    passed = [state.blocker(p) for p in state.order() if state.blocker(p) is not None]
    assert [line.fields["reason"] for line in card.blockers] == passed


def test_energy_and_reset_and_the_end_lead_to_their_screens(store):
    session = session_of(store)
    while session.state.phase is not Phase.ENERGY_AND_RESET:
        assert session.do(Skip(session.state.phase.value)).ok
    card = turn_view(session)
    assert card.next_step == f"/game/{session.id}/reset" and card.grid == ()
    assert card.done is None and card.whole_table is None


def test_a_card_reads_the_seats_once_and_a_tap_reads_them_anew(store):
    """On a hosted table every read of a seat is a database query, and a card asks
    for each of its controls; a drawing reads them once, a write as they are then."""
    reads = []

    def seat():
        reads.append("seat")
        return "a"

    def seated():
        reads.append("seated")
        return {"a", "b"}

    session = GameSession(store, store.new_game(TABLE).id, seat, seated)
    turn_view(session)
    turn_view(session)
    assert reads == ["seat", "seated"]
    reads.clear()
    card = turn_view(session)
    assert card.done is not None and session.do_all(card.done.commands, card.done.by).ok
    assert reads == ["seat", "seated"]
    reads.clear()
    # The next revision drawn: the seated players read again, the device's own seat not (a
    # change of it builds the screen anew).
    turn_view(session)
    assert reads == ["seated"]
    # Another player's seat taken since: the write refuses what the drawing allowed.
    taken = {"a"}
    session = GameSession(store, store.new_game(TABLE).id, lambda: "a", lambda: taken)
    card = turn_view(session)
    assert card.whole_table is not None and card.whole_table.refused is None
    taken.add("b")
    outcome = session.do_all(card.whole_table.commands, card.whole_table.by)
    assert not outcome.ok and EN.render(outcome.said).startswith("Bob")
