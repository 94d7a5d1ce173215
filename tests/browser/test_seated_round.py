"""A whole table round on three seated phones, tap by tap: each player records their own.

Ragna, Bjorn and Sigrid each take their seat on a phone of their own (a shared table,
Gathering Isle, 5 energy each). Sigrid and Bjorn say their summons ahead of Ragna's turn,
Ragna summons on hers; Ragna's Troll removes Sigrid's Troll and Bjorn's Wyrm her Sprite,
each on their own phone; each player says "nothing more this round"; at Energy and Reset
Ragna's phone places her creatures and Bjorn's phone his Wyrm; one phone applies.

Events are the summons, the removals and the creatures placed; every other tap counts.
Taking a seat is the table's setting up, not the round's, and is not counted.
"""

from __future__ import annotations

from browser_ui import scroll_to, seats
from test_share_table import SharedServer, joined

from companion.store.store import open_store
from models.commands import Done, EnergyAndReset, Pass, Removal, Summon
from models.setup import GameSetup

PHONE = {"width": 390, "height": 844}


class Seated:
    """Three seated phones; every tap counted, and which of them were game events."""

    def __init__(self, phones: dict) -> None:
        self.phones = phones
        self.taps = 0
        self.events = 0

    def event(self, player: str, name: str, then: str) -> None:
        """A tap that is a game event, on a player's own phone."""
        self.events += 1
        self.press(player, name, then)

    def press(self, player: str, name: str, then: str) -> None:
        """Any tap on a player's phone, counted."""
        self.taps += 1
        self.phones[player].ui.tap(name, then)

    def removal(self, player: str, name: str, then: str) -> None:
        """A removal chip on a player's phone, scrolled to first (on a 390x844 phone the
        chips sit below the grid; a scroll is not a tap)."""
        page = self.phones[player].page
        scroll_to(page, page.get_by_role("button", name=name, exact=True).first)
        self.event(player, name, then)


def test_a_seated_round_costs_its_events_one_nothing_more_each_and_apply(
    tmp_path, browser, artifacts
):
    server = SharedServer(tmp_path)
    with open_store(server.db) as store:
        setup = GameSetup(
            players=seats("red", "blue", "green"),
            board="gathering-isle",
            turn_order=["red", "blue", "green"],
        )
        game_id = store.new_game(setup).id
    server.start()
    try:
        game = f"{server.base}/game/{game_id}"
        phones = {}
        for name in ("Ragna", "Bjorn", "Sigrid"):
            phones[name] = joined(browser, artifacts, server, PHONE)
            phones[name].take_seat(game, name, f"This device records {name}'s turns")
        table = Seated(phones)

        # Summoning: Sigrid and Bjorn say theirs ahead while Ragna decides her Wyrms.
        table.event("Sigrid", "Sigrid: summon a Troll (3 left)", "Sigrid summons a Troll")
        table.event("Sigrid", "Sigrid: summon a Sprite (9 left)", "Sigrid summons a Sprite")
        table.event("Bjorn", "Bjorn: summon a Wyrm (1 left)", "Bjorn summons a Wyrm")
        phones["Ragna"].ui.wait_for("Bjorn summons a Wyrm")
        table.event("Ragna", "Ragna: summon a Troll (3 left)", "Ragna summons a Troll")
        table.event("Ragna", "Ragna: summon a Sprite (9 left)", "Ragna summons a Sprite")
        table.event("Ragna", "Ragna: summon a Sprite (8 left)", "Ragna summons a Sprite")
        phones["Ragna"].ui.shot("seated-round-summoned", tall=844)

        # Actions: each player's phone lists the removals their own creatures made.
        table.removal(
            "Ragna", "Ragna's Trolls removed Sigrid's Troll", "Ragna removes Sigrid's Troll"
        )
        table.removal(
            "Bjorn", "Bjorn's Wyrms removed Sigrid's Sprite", "Bjorn removes Sigrid's Sprite"
        )
        for name in ("Sigrid", "Bjorn"):
            said = f"{name} records nothing more this round"
            table.press(name, f"{name}: nothing more this round", said)
        # The last word of the round opens Energy and Reset on every phone.
        table.press("Ragna", "Ragna: nothing more this round", "Where is Ragna's Troll now?")
        phones["Ragna"].ui.shot("seated-round-reset", tall=844)

        # Energy and Reset: two phones place, one applies.
        table.event("Ragna", "Put Ragna's Troll in Thingstead", "Where is Ragna's Sprite now?")
        table.event("Ragna", "Put Ragna's Sprite in Thingstead", "Where is Ragna's Sprite now?")
        table.event("Ragna", "Put Ragna's Sprite in Raven Crag", "Where is Bjorn's Wyrm now?")
        phones["Bjorn"].ui.wait_for("Where is Bjorn's Wyrm now?")
        table.event("Bjorn", "Put Bjorn's Wyrm in Rune Hollow", "Every creature is accounted for")
        table.press("Bjorn", "Apply", "Round 2/6")
        for phone in phones.values():
            phone.ui.wait_for("Round 2/6")
        phones["Sigrid"].ui.shot("seated-round-next", tall=844)
    finally:
        server.stop()

    budget = table.events + 4
    print(
        f"\nseated round: {table.taps} taps for {table.events} events on three phones "
        f"(budget {budget}: one 'nothing more this round' each, and Apply)"
    )
    assert table.events == 12
    assert table.taps <= budget

    with open_store(server.db) as store:
        saved = store.load(game_id)
    commands = [entry.command for entry in saved.log]
    # Every player's records came from their own phone, and nobody passed anyone over.
    summons = [command.by for command in commands if isinstance(command, Summon)]
    assert summons == ["green", "green", "blue", "red", "red", "red"]
    assert not any(isinstance(command, Pass) for command in commands)
    assert sum(isinstance(command, Removal) for command in commands) == 2
    assert sum(isinstance(command, Done) for command in commands) == 3
    assert isinstance(commands[-1], EnergyAndReset)
    assert len(commands[-1].placements) == 4
    assert saved.state.round == 2
