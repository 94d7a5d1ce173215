"""The table's tools and Energy and Reset's late records in Chromium (their screens
draw the play layer's view-models, tests/test_play_table_tools.py and
tests/test_play_late_records.py): the odds the engine gives, a correction refused field by
field then recorded, and a late summon said before it is recorded, its fields named for a
screen reader."""

from __future__ import annotations

import time

from browser_ui import SEATS, Screen, seats
from test_home import type_into

from companion.engine.dice import attack_odds
from companion.store.store import open_store
from models.commands import Correction, LateSummon, Skip
from models.game_log import GameLog
from models.rules import CreatureKind
from models.setup import GameSetup

SETUP = GameSetup(players=seats("red", "blue"), board="duel-isle")
# Tall enough that the table's tools card is on screen, so its semantics are there.
TALL = {"width": 1280, "height": 2000}


def saved_game(server, commands: list) -> str:
    """Save a table game with these commands recorded; its id."""
    with open_store(server.db) as store:
        return store.import_log(GameLog.of(SETUP, commands)).id


def last_command(server, game_id: str):
    with open_store(server.db) as store:
        return store.load(game_id).log[-1].command


def test_the_odds_and_a_correction_refused_then_recorded(server, browser, artifacts):
    game_id = saved_game(server, [])
    ui = Screen(browser.new_page(viewport=TALL), artifacts)
    ui.open(f"{server.url}/game/{game_id}", "Table tools")
    # Ruling 7: a Troll (d6 + 2) against a lone Sprite (d6), the tool's first pick.
    ui.wait_for("5 in 6 · 83")
    # Each picker is named for a screen reader by its question, and tells its choice.
    for identifier, said in (("attacker", "Attacker Troll"), ("defender", "Defender Sprite")):
        picker = ui.page.locator(f"[flt-semantics-identifier=odds-{identifier}]")
        assert " ".join(picker.inner_text().split()) == said
    ui.click(ui.page.get_by_role("button", name="Defender").first)
    # The open menu's choices are buttons named by their text, drawn after the screen.
    ui.click(ui.page.get_by_role("button", name="Wyrm", exact=True).last)
    odds = attack_odds(CreatureKind.TROLL, CreatureKind.WYRM)
    ui.wait_for(f"{odds.numerator} in {odds.denominator}")
    defender = ui.page.locator("[flt-semantics-identifier=odds-defender]")
    assert " ".join(defender.inner_text().split()) == "Defender Wyrm"
    ui.tap("Correct energy by hand", "Reason (required)")
    type_into(ui, "Change (e.g. 2 or -3)", "two")
    ui.tap("Save", "Write a whole number, e.g. 2 or -3")
    ui.wait_for("Say why, for the log")
    ui.shot("table-correction-refused", tall=2000)
    type_into(ui, "Change (e.g. 2 or -3)", "2")
    type_into(ui, "Reason (required)", "a Sprite we forgot")
    ui.tap("Save", f"{SEATS['red']}'s energy corrected by +2 (5 → 7): a Sprite we forgot")
    assert last_command(server, game_id) == Correction("red", 2, "a Sprite we forgot")


def test_a_late_summon_is_said_before_it_is_recorded(server, browser, artifacts):
    # Nobody summoned, so nobody acts: round 1 waits for Energy and Reset.
    game_id = saved_game(server, [Skip("summoning")])
    ui = Screen(browser.new_page(viewport={"width": 390, "height": 844}), artifacts)
    ui.open(f"{server.url}/game/{game_id}/reset", "Energy and Reset")
    ui.tap_matching("A record made late", "A summon nobody entered", icon=True)
    ui.click(ui.page.get_by_role("menuitem", name="A summon nobody entered"))
    ui.wait_for("It pays its cost now")
    # The preview is the record's own sentence, for the player and kind the form starts on.
    ui.wait_for("Ragna summoned a Sprite this round, for 1 energy (5 → 4)")
    # Each field is named for a screen reader by its question, and tells its choice.
    who = ui.page.locator("[flt-semantics-identifier=late-who]")
    assert who.inner_text().split() == ["Who", "summoned", "Ragna"]
    assert ui.page.get_by_role("button", name="Which creature").count() == 1
    ui.shot("reset-late-summon", tall=844)
    ui.tap("Record", "Where is Ragna's Sprite now?")
    time.sleep(0.5)
    assert last_command(server, game_id) == LateSummon("red", CreatureKind.SPRITE)
