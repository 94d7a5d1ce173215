"""Table taps in Chromium: a tap records what its person meant, once, on every phone.

- A double tap (two taps 80-250 ms apart, at one spot, as a finger makes them) records once,
  on every kind of table control: a summon square, a player's "done", the whole table's skip,
  a removal chip, Undo, a territory at Energy and Reset, and Apply.
- Nothing moves under the finger: the grid stays put when the undo line first fills in.
- The Energy and Reset draft is the table's: two phones placing at once both keep their
  placement and see the other's, a reload shows it, and undoing the applied record brings
  every placement back.
"""

from __future__ import annotations

import time

from browser_ui import PHONE, Screen, seats

from companion.play.tap_guard import GUARD_S
from companion.store.store import open_store
from models.commands import Skip, Summon
from models.game_log import GameLog
from models.rules import CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
SETUP = GameSetup(players=seats("red", "blue", "green"), board="gathering-isle")
# A finger's double taps: the gaps the issue names, and one in between.
GAPS_S = (0.08, 0.12, 0.25)


def records(server, game_id: str) -> int:
    """How many records the game's active log holds now."""
    with open_store(server.db) as store:
        return len(store.load(game_id).log)


def spot(ui, name: str) -> tuple[float, float]:
    """The middle of the button named `name`, once it shows."""
    target = ui.button(name).first
    target.wait_for(timeout=20000)
    box = target.bounding_box()
    assert box is not None, f"{name!r} has no box"
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def double_tap(ui, name: str, gap_s: float) -> None:
    """Two taps at one spot, `gap_s` apart, on whatever the screen shows there each time."""
    x, y = spot(ui, name)
    time.sleep(GUARD_S + 0.3)  # a person's pace since the test's last tap
    ui.page.mouse.click(x, y)
    time.sleep(gap_s)
    ui.page.mouse.click(x, y)
    # Whatever the second tap did has reached the server and the store by now.
    time.sleep(1.5)


def test_a_double_tap_on_every_kind_of_table_control_records_once(server, browser, artifacts):
    game_id = server.new_game(SETUP)
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}", "Ragna: summon a Wyrm (1 left)")

    # A summon square: one Wyrm, not a second tap on the next square drawn there.
    double_tap(ui, "Ragna: summon a Wyrm (1 left)", GAPS_S[1])
    assert records(server, game_id) == 1
    ui.wait_for("Ragna summons a Wyrm")

    # "Bjorn: done with Wyrms": the second tap would have hit "Sigrid: done with Wyrms".
    for gap, player in zip(GAPS_S[:2], ("Bjorn", "Sigrid"), strict=True):
        before = records(server, game_id)
        double_tap(ui, f"{player}: done with Wyrms", gap)
        assert records(server, game_id) == before + 1, f"{player}'s done, {gap * 1000:.0f} ms"
    # Undo, twice at once: one record taken back, not two.
    before = records(server, game_id)
    double_tap(ui, "Undo", GAPS_S[2])
    assert records(server, game_id) == before - 1
    ui.wait_for("Sigrid: done with Wyrms")

    # The whole table's skip, then a removal chip in the Actions phase.
    ui.tap("Sigrid: done with Wyrms", "Trolls step")
    ui.tap("Bjorn: summon a Troll (3 left)", "Bjorn summons a Troll")
    before = records(server, game_id)
    double_tap(ui, "Nobody summons more", GAPS_S[0])
    assert records(server, game_id) == before + 1
    ui.wait_for("Ragna removed Bjorn's Troll")
    before = records(server, game_id)
    double_tap(ui, "Ragna removed Bjorn's Troll", GAPS_S[1])
    assert records(server, game_id) == before + 1
    ui.shot("taps-after-double-taps", tall=844)


def test_a_double_tap_that_ends_a_phase_does_not_also_tap_the_next_phase(
    server, browser, artifacts
):
    """A double tap on "Nobody summons more" records it once, never also "Ragna is done
    with her Wyrms", drawn where it is when the Actions phase begins."""
    game_id = server.new_game(SETUP)
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}", "Ragna: summon a Wyrm (1 left)")
    ui.tap("Ragna: summon a Wyrm (1 left)", "Ragna summons a Wyrm")
    ui.tap("Bjorn: summon a Troll (3 left)", "Bjorn summons a Troll")
    before = records(server, game_id)
    double_tap(ui, "Nobody summons more", GAPS_S[1])
    ui.wait_for("Ragna: done with Wyrms")
    assert records(server, game_id) == before + 1


def test_the_grid_does_not_move_when_the_undo_line_fills_in(server, browser, artifacts):
    game_id = server.new_game(SETUP)
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}", "Nothing recorded yet")
    square = "Sigrid: summon a Sprite (9 left)"
    before = ui.button(square).first.bounding_box()
    ui.tap("Ragna: summon a Wyrm (1 left)", "Ragna summons a Wyrm")
    after_first = ui.button(square).first.bounding_box()
    ui.tap("Bjorn: summon a Troll (3 left)", "Bjorn summons a Troll")
    after_longer = ui.button(square).first.bounding_box()
    assert before is not None and after_first is not None and after_longer is not None
    assert after_first["y"] == before["y"], "the grid moved when the first record showed"
    assert after_longer["y"] == before["y"], "the grid moved when the undo line grew"


# --- the Energy and Reset draft, shared by every phone --------------------------------------

ROUND_1 = [
    Summon(W, by="red"),
    Skip("summoning", T, "blue"),
    Summon(T, by="blue"),
    Skip("summoning", S, "green"),
    Summon(S, by="green"),
    Summon(S, by="green"),
    Skip("summoning"),
    Skip("actions"),
]


def at_reset(server) -> str:
    """A game at round 1's Energy and Reset: Ragna's Wyrm, Bjorn's Troll, Sigrid's two
    Sprites, all to place; its id."""
    with open_store(server.db) as store:
        saved = store.import_log(GameLog.of(SETUP, ROUND_1))
    assert saved.state.phase.value == "energy_and_reset"
    return saved.id


def stored_placements(server, game_id: str) -> list[tuple[str, str, str]]:
    """The draft's placements as the store has them: (territory, player, kind)."""
    with open_store(server.db) as store:
        entries = store.draft(game_id).entries
    assert entries is not None
    return sorted((p.territory, p.player, p.kind.value) for p in entries.placed)


def test_two_phones_place_at_once_and_both_see_every_placement(server, browser, artifacts):
    game_id = at_reset(server)
    url = f"{server.url}/game/{game_id}/reset"
    first = Screen(browser.new_page(viewport=PHONE), artifacts)
    second = Screen(browser.new_page(viewport=PHONE), artifacts)
    first.open(url, "Where is Ragna's Wyrm now?")
    second.open(url, "Where is Ragna's Wyrm now?")
    # The second phone asks about Sigrid's Sprites instead; then both place at the same moment.
    second.tap(
        "Sigrid's Sprites \N{MULTIPLICATION SIGN}2: to place", "Where is Sigrid's Sprite now?"
    )
    mine = first.button("Put Ragna's Wyrm in Rune Hollow").first
    theirs = second.button("Put Sigrid's Sprite in Ashgrove").first
    mine.wait_for()
    theirs.wait_for()
    mine.click(force=True)
    theirs.click(force=True)
    for phone in (first, second):
        phone.wait_for("Ragna's Wyrm in Rune Hollow: tap to take it off")
        phone.wait_for("Sigrid's Sprite in Ashgrove: tap to take it off")
    assert stored_placements(server, game_id) == [
        ("ashgrove", "green", "sprite"),
        ("rune-hollow", "red", "wyrm"),
    ]
    first.shot("reset-shared-first", tall=844)

    # A reload (or a third phone) shows the same draft.
    second.page.reload()
    second.open(url, "Sigrid's Sprite in Ashgrove: tap to take it off")
    second.wait_for("Ragna's Wyrm in Rune Hollow: tap to take it off")


def test_undoing_an_applied_energy_and_reset_brings_its_placements_back(server, browser, artifacts):
    game_id = at_reset(server)
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}/reset", "Where is Ragna's Wyrm now?")
    for creature, territory, then in (
        ("Ragna's Wyrm", "Rune Hollow", "Where is Bjorn's Troll now?"),
        ("Bjorn's Troll", "Ashgrove", "Where is Sigrid's Sprite now?"),
        ("Sigrid's Sprite", "Skald's Stair", "Where is Sigrid's Sprite now?"),
        ("Sigrid's Sprite", "Skald's Stair", "Every creature is accounted for"),
    ):
        ui.tap(f"Put {creature} in {territory}", then)
    placed = stored_placements(server, game_id)
    ui.tap("Apply", "Round 2/6")
    with open_store(server.db) as store:
        assert store.draft(game_id).entries is None
    ui.tap("Undo", "Energy and Reset of round 1")
    ui.tap("Energy and Reset", "Every creature is accounted for")
    ui.wait_for("Ragna's Wyrm in Rune Hollow: tap to take it off")
    assert stored_placements(server, game_id) == placed


def test_a_double_tap_on_a_territory_places_once_and_keeps_it_there(server, browser, artifacts):
    """The second tap of a double tap never lands on the creature just drawn to take it off."""
    game_id = at_reset(server)
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}/reset", "Where is Ragna's Wyrm now?")
    for gap in GAPS_S:
        double_tap(ui, "Put Ragna's Wyrm in Rune Hollow", gap)
        assert stored_placements(server, game_id) == [("rune-hollow", "red", "wyrm")]
        ui.wait_for("Where is Bjorn's Troll now?")
        ui.tap("Ragna's Wyrm in Rune Hollow: tap to take it off", "Where is Ragna's Wyrm now?")
