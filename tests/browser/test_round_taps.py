"""A whole table round on a 390x844 phone, tap by tap: taps <= events + 4.

Three players on Gathering Isle. Round 1 is quiet (nobody can afford a Wyrm and two
Sprites on 5 energy, so the scripted round is round 2, when everyone has 10). In round 2
Alice summons a Wyrm, Bob and Cara a Troll each, everyone two Sprites; Alice's Wyrm swaps,
Cara's Troll removes one of Bob's Sprites; at Energy and Reset the eight creatures left
stand in four territories and Alice declines the bonus of Skald's Stair, which she holds
alone; then round 3 begins. Events are the summons, the removal, the swap, the creatures
placed and the bonus declined: every other tap counts against a budget of 4.
"""

from __future__ import annotations

from browser_ui import Screen, box_in_view

from companion.engine.serialize import state_to_json
from companion.store.store import open_store
from models.commands import (
    Declined,
    EnergyAndReset,
    Pass,
    Placement,
    Removal,
    Skip,
    Summon,
    Swap,
)
from models.rules import CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
PHONE = {"width": 390, "height": 844}
SETUP = GameSetup(
    players=[
        {"id": "a", "name": "Alice", "colour": "red"},
        {"id": "b", "name": "Bob", "colour": "blue"},
        {"id": "c", "name": "Cara", "colour": "green"},
    ],
    board="gathering-isle",
)
# Round 2's order: everyone on 10, so the later in round 1 goes first (ruling 12).
SUMMONS = [
    ("Alice", W, 1),
    ("Cara", T, 3),
    ("Bob", T, 3),
    ("Cara", S, 9),
    ("Cara", S, 8),
    ("Bob", S, 9),
    ("Bob", S, 8),
    ("Alice", S, 9),
    ("Alice", S, 8),
]
# Where the eight creatures stand, in the order the screen asks (turn order, then kind).
PLACES = [
    ("Cara's Troll", "Thingstead"),
    ("Cara's Sprite", "Thingstead"),
    ("Cara's Sprite", "Rune Hollow"),
    ("Bob's Troll", "Raven Crag"),
    ("Bob's Sprite", "Rune Hollow"),
    ("Alice's Wyrm", "Skald's Stair"),
    ("Alice's Sprite", "Skald's Stair"),
    ("Alice's Sprite", "Raven Crag"),
]


class Counted(Screen):
    """A screen that counts every tap, and which of them were game events."""

    def __init__(self, page, artifacts) -> None:
        super().__init__(page, artifacts)
        self.taps = 0
        self.events = 0

    def event(self, name: str, then: str) -> None:
        """A tap that is a game event: a summon, a removal, a swap, a creature placed."""
        self.events += 1
        self.press(name, then)

    def press(self, name: str, then: str) -> None:
        """Any tap, counted."""
        self.taps += 1
        self.tap(name, then)


def round_2_records() -> list:
    """Round 2 as the engine records it, every pass and skip written out."""
    return [
        Skip("summoning", W, "a"),
        Summon(W, by="a"),
        Summon(T, by="c"),
        Skip("summoning", T, "b"),
        Summon(T, by="b"),
        Skip("summoning", S, "c"),
        Summon(S, by="c"),
        Summon(S, by="c"),
        Skip("summoning", S, "b"),
        Summon(S, by="b"),
        Summon(S, by="b"),
        Skip("summoning", S, "a"),
        Summon(S, by="a"),
        Summon(S, by="a"),
        Skip("summoning"),
        Swap(by="a"),
        Pass(by="a"),
        Removal("b", S, by="c"),
        Skip("actions"),
        EnergyAndReset(
            placements=(
                Placement("th1", "c", T),
                Placement("th2", "c", S),
                Placement("rh1", "c", S),
                Placement("rc1", "b", T),
                Placement("rh2", "b", S),
                Placement("ss1", "a", W),
                Placement("ss2", "a", S),
                Placement("rc2", "a", S),
            ),
            declined=(Declined("a", "skalds-stair"),),
            removed=(),
        ),
    ]


def test_a_table_round_costs_at_most_four_taps_beyond_its_events(server, browser, artifacts):
    game_id = server.new_game(SETUP)
    ui = Counted(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}", "Alice: summon a Wyrm (1 left)")

    # Round 1, quiet: one tap ends Summoning (and with no creature, Actions too), one applies.
    ui.press("Nobody summons more", "Every creature is accounted for")
    ui.press("Apply", "Cara decides")
    round_1_taps, ui.taps = ui.taps, 0

    ui.shot("round-01-summoning")
    for name, kind, left in SUMMONS:
        ui.event(f"{name}: summon a {kind.title} ({left} left)", f"{name} summons a {kind.title}")
    ui.shot("round-02-summoned")
    ui.press("Nobody summons more", "Actions · Wyrms step")
    ui.event("Alice: Wyrm swap (1 energy)", "Wyrm trades places")
    ui.press("Alice: done with Wyrms", "Cara's Trolls act")
    ui.shot("round-03-actions")
    ui.event("Cara removed Bob's Sprite", "Cara removes Bob's Sprite")
    ui.press("Actions over", "Where is Cara's Troll now?")

    # Energy and Reset: the tally and Apply are on screen from the start, and stay there.
    apply = ui.page.locator("[flt-semantics-identifier=reset-apply]").first
    tally = ui.page.locator("[flt-semantics-identifier=reset-tally]").first
    assert box_in_view(ui, apply) is not None, "Apply is not on the first screen"
    assert box_in_view(ui, tally) is not None, "the tally is not on the first screen"
    asked = [creature for creature, _ in PLACES[1:]] + ["Every creature is accounted for"]
    for (creature, territory), then in zip(PLACES, asked, strict=True):
        ui.event(f"Put {creature} in {territory}", then)
    ui.shot("round-04-placed")
    ui.events += 1
    ui.taps += 1
    ui.click(ui.page.get_by_label("Alice takes Skald's Stair (+1)"))
    ui.wait_for("declines")
    assert box_in_view(ui, apply) is not None, "Apply scrolled out of view"
    ui.shot("round-05-declined")
    ui.press("Apply", "Round 3/6")
    ui.shot("round-06-next-round")

    budget = ui.events + 4
    print(
        f"\nround 1 (quiet): {round_1_taps} taps; round 2: {ui.taps} taps for {ui.events} "
        f"events (budget {budget}, events + 4)"
    )
    assert ui.events == 20
    assert ui.taps <= budget

    with open_store(server.db) as store:
        saved = store.load(game_id)
        check = store.new_game(SETUP)
        check = store.append_all(check.id, [Skip("summoning"), EnergyAndReset(removed=())], 0)
        check = store.append_all(check.id, round_2_records(), check.revision)
    assert saved.state.round == 3
    assert state_to_json(saved.state) == state_to_json(check.state)
    reset = saved.log[-1].command
    assert isinstance(reset, EnergyAndReset)
    assert reset.declined == (Declined("a", "skalds-stair"),)
    assert reset.removed == ()
