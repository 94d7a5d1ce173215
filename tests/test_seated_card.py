"""A table where every player has a phone of their own: each phone's turn card offers its
player's own records whatever the turn order says, said ahead of their turn (docs/rulings.md,
"Said ahead at the table"), and leaves out what it may not record for the others.

Three phones play a round through their cards alone, as the table screen would send their
taps; the round costs its events and one "nothing more this round" per player.
"""

from __future__ import annotations

import pytest

from companion.engine import Phase
from companion.language.render import language
from companion.play.session import GameSession
from companion.play.table_turn import Tap, TurnView, turn_view
from companion.store.store import open_store
from models.commands import Done, Pass, Removal, Summon
from models.rules import CreatureKind

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
EN = language("en")
TABLE = {
    "players": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}],
    "board": "gathering-isle",
}
SEATED = ("a", "b", "c")


@pytest.fixture
def phones():
    """Ann's, Bob's and Cy's phones on one new table game, each seated as its player."""
    from models.setup import GameSetup

    with open_store("sqlite://") as store:
        game = store.new_game(GameSetup(**TABLE)).id
        yield {p: GameSession(store, game, lambda p=p: p, lambda: SEATED) for p in SEATED}


class Table:
    """Taps sent from the phones' cards, counted."""

    def __init__(self, phones: dict[str, GameSession]) -> None:
        self.phones = phones
        self.taps = 0

    def card(self, player: str) -> TurnView:
        """What a player's phone shows now."""
        phone = self.phones[player]
        phone.refresh()
        return turn_view(phone)

    def send(self, player: str, tap: Tap | None) -> None:
        """Tap a control of a player's phone: it records."""
        assert tap is not None and tap.refused is None, tap
        outcome = self.phones[player].do_all(list(tap.commands), tap.by)
        assert outcome.ok, EN.render(outcome.message)
        self.taps += 1

    def square(self, player: str, kind: CreatureKind) -> Tap | None:
        """The tap of a player's own square of a kind."""
        card = self.card(player)
        (row,) = [row for row in card.grid if row.player == player]
        (square,) = [square for square in row.squares if square.kind is kind]
        return square.tap if square.open else None

    def removal(self, player: str, attacker: CreatureKind, victim: str, kind: CreatureKind) -> Tap:
        """A player's chip for a removal their creatures of `attacker` made."""
        card = self.card(player)
        (chip,) = [
            chip
            for chip in card.removals
            if (chip.attacker, chip.victim, chip.kind) == (attacker, victim, kind)
        ]
        return chip.tap

    def own_done(self, player: str, until: str) -> Tap:
        """A player's "no more summons" or "nothing more this round"."""
        (tap,) = [t for t in self.card(player).own_done if t.commands[0].until == until]
        return tap


def test_a_players_own_squares_are_all_theirs_to_tap_and_say_ahead(phones):
    """Bob's phone, while Ann decides her Wyrms: his Troll is recorded at once, said ahead,
    and nobody's turn is decided for them (no skip)."""
    table = Table(phones)
    bob = table.card("b")
    (row,) = [row for row in bob.grid if row.player == "b"]
    assert all(square.open for square in row.squares)
    # Nothing of Ann's or the whole table's is offered on Bob's phone.
    assert bob.done is None and bob.whole_table is None
    assert EN.render(bob.guide).startswith("Now: Ann, Wyrms.")
    assert [EN.render(tap.label) for tap in bob.own_done] == [
        "Bob: no more summons this round",
        "Bob: nothing more this round",
    ]
    table.send("b", table.square("b", T))
    log = phones["b"].saved.log
    assert [entry.command for entry in log] == [Summon(T, by="b")]
    assert table.card("a").grid[0].now  # still Ann's Wyrms
    # Bob is past Wyrms: his Wyrm square is spent, and his step there is over.
    assert table.square("b", W) is None


def test_the_guide_asks_the_player_whose_turn_it_is(phones):
    table = Table(phones)
    # On Ann's own phone: her step, and no word of tapping the others' squares.
    assert EN.render(table.card("a").guide) == (
        "Ann decides: Wyrms. Tap a square for each one you summon, then say you are done."
    )
    assert table.card("a").done is not None  # Ann's "done with Wyrms"
    # Bob's and Cy's squares are locked on her phone: the note speaks of both, not of Bob alone.
    note = table.card("a").not_mine
    assert note is not None
    assert EN.render(note) == (
        "This device records Ann's turns only: the other players' are recorded on their own "
        "devices or the scorekeeper's."
    )


def test_a_seated_round_costs_its_events_and_one_nothing_more_each(phones):
    """Summons in every step from all three phones, in any order, and two removals, then
    each player's "nothing more this round": the round reaches Energy and Reset with three
    taps more than its events."""
    table = Table(phones)
    events = 0
    # Cy and Bob say theirs ahead of Ann's turn; Ann summons on hers (5 energy each).
    for player, kinds in (("c", (T, S)), ("b", (W,)), ("a", (T, S, S))):
        for kind in kinds:
            table.send(player, table.square(player, kind))
            events += 1
    # Ann's Trolls removed Cy's Troll, before Bob's Wyrm removed Cy's Sprite in the turn
    # order: each says theirs as it happens. Bob has no other creature to swap his Wyrm with.
    table.send("a", table.removal("a", T, "c", T))
    table.send("b", table.removal("b", W, "c", S))
    events += 2
    assert table.card("b").swap is None
    for player in SEATED:
        table.send(player, table.own_done(player, "round"))
    assert table.card("a").phase is Phase.ENERGY_AND_RESET
    assert table.taps == events + 3
    kinds = [type(entry.command) for entry in phones["a"].saved.log]
    assert kinds.count(Removal) == 2 and kinds.count(Done) == 3 and Pass not in kinds


def test_a_players_removals_are_grouped_by_the_kind_that_made_them(phones):
    """In the Actions phase Cy's phone offers his Trolls' removals before his turn, headed
    by the kind that made them; Ann's Wyrms' chips are hers alone."""
    table = Table(phones)
    for player in SEATED:
        for kind in (T, S):
            table.send(player, table.square(player, kind))
        table.send(player, table.own_done(player, "summoning"))
    cy = table.card("c")
    assert cy.phase is Phase.ACTIONS and cy.done is None and not cy.jumps
    attackers = {chip.attacker for chip in cy.removals}
    assert attackers == {T, S}
    trolls = [chip for chip in cy.removals if chip.attacker is T]
    assert EN.render(trolls[0].heading) == "Cy's Trolls removed:"
    assert EN.render(trolls[0].tap.label).startswith("Cy's Trolls removed ")
    assert all(chip.tap.by == "c" for chip in cy.removals)


def test_undo_and_redo_are_offered_where_they_act_and_say_why_elsewhere(phones):
    """Bob's record is Bob's phone's to take back (and Ann's once he is unseated); Ann's
    phone shows Undo disabled, saying whose it is, instead of refusing after a tap."""
    import flet as ft

    from companion.app.game_panels import GameBar

    table = Table(phones)
    table.send("b", table.square("b", T))
    phones["a"].refresh()
    refused = phones["a"].undo_refusal()
    assert refused is not None and "Bob" in EN.render(refused)
    assert phones["b"].undo_refusal() is None
    bar = GameBar(lambda _: None, phones["a"].id, print, print, EN, ft.IconButton(), 360)
    bar.show(phones["a"].state, "Bob's Troll", None, refused=(EN.render(refused), None))
    assert bar.undo_button.disabled and bar.undo_button.tooltip == EN.render(refused)
    assert phones["b"].undo().ok
    phones["a"].refresh()
    assert phones["a"].redo_refusal() is not None and phones["b"].redo_refusal() is None
