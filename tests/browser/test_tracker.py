"""A real table game through the real app in Chromium, checked against the engine and the store.

Round 1 and the start of round 2 of a 2-player game: summons from the grid, a removal,
Energy and Reset with a domination bonus declined, a Wyrm swap, undo and redo, a page
reload and a killed server. Timings are printed for the closing report; they are read,
not asserted (benchmarks live in `python -m companion bench`).
"""

from __future__ import annotations

import random
import time

from browser_ui import PHONE, TABLET, Screen, devices, seats

from companion.engine.dice import with_rolls
from companion.store.store import open_store
from models.game_log import GameLog
from models.seeded_dice import SeededDice
from models.setup import GameSetup


def saved_game(server):
    """The only game in the server's database, as the store rebuilds it."""
    with open_store(server.db) as store:
        (summary,) = store.games()
        return store.load(summary.id)


def energy_text(saved) -> str:
    """What the energy track must say for a saved game, from the engine's state."""
    state = saved.state
    parts = [
        f"{saved.game.labels[state.game.players[s]]} {state.energy[s]}" for s in state.turn_order
    ]
    return "Energy track: " + (
        ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)
    )


def test_a_round_at_the_table(server, browser, artifacts):
    page = browser.new_page(viewport=PHONE)
    ui = Screen(page, artifacts)
    first_screen_s = ui.open(server.url, "New game")
    interactive_after_spawn_s = time.perf_counter() - server.started_at
    answered_after_spawn_s = server.answered_at - server.started_at
    ui.shot("phone-01-home")

    ui.tap("New game", "Start game")
    ui.shot("phone-02-new-game")
    ui.tap("Start game", "Ragna decides")
    ui.shot("phone-03-table-summoning")

    # Summoning: Ragna summons her Wyrm (5 -> 0); she cannot afford anything else, and the
    # grid offers her nothing more.
    ui.tap("Ragna: summon a Wyrm (1 left)", "Bjorn decides")
    assert ui.page.get_by_role("button", name="Ragna: summon a Sprite (9 left)").is_disabled()
    assert len(saved_game(server).log) == 1
    # Bjorn passes on his Wyrm: one tap on his Troll says so and summons it.
    ui.tap("Bjorn: summon a Troll (3 left)", "Bjorn summons a Troll")
    ui.tap("Bjorn: summon a Sprite (9 left)", "Bjorn summons a Sprite")
    ui.tap("Bjorn: summon a Sprite (8 left)", "Ragna's Wyrms act")
    assert ui.energy_label() == energy_text(saved_game(server))

    # Actions, Wyrms: Ragna's Wyrm removes one of Bjorn's Sprites (+1).
    ui.shot("phone-04-table-actions")
    ui.tap("Ragna removed Bjorn's Sprite", "Ragna removes Bjorn's Sprite and gains 1")
    saved = saved_game(server)
    assert ui.energy_label() == energy_text(saved) == "Energy track: Ragna 1 and Bjorn 0"
    # Nothing else happens this round: one tap, and the app goes on to Energy and Reset.
    ui.tap("Actions over", "Where is Ragna's Wyrm now?")

    # Energy and Reset: Ragna's Wyrm in Rune Hollow; Bjorn's Troll and Sprite hold Skald's Strand.
    ui.tap("Put Ragna's Wyrm in Rune Hollow", "Where is Bjorn's Troll now?")
    ui.tap("Put Bjorn's Troll in Skald's Strand", "Where is Bjorn's Sprite now?")
    ui.tap("Put Bjorn's Sprite in Skald's Strand", "Every creature is accounted for")
    ui.shot("phone-06-reset")
    # Declining the bonus: Bjorn 0 +5 (band 0-9) +1 uncontested Sprite = 6, not 7.
    ui.click(page.get_by_label("Bjorn takes Skald's Strand (+1)"))
    ui.wait_for("declines")
    ui.wait_for("0 → 6")
    # Ragna 1 +5 = 6; tied on 6, Bjorn was later this round so goes first (ruling 12).
    ui.wait_for("Next: Bjorn → Ragna")
    ui.shot("phone-07-reset-declined")
    ui.tap("Apply", "Round 2/6")
    saved = saved_game(server)
    assert saved.state.round == 2
    assert [saved.game.players[s] for s in saved.state.turn_order] == ["blue", "red"]
    assert saved.state.energy_of("red") == saved.state.energy_of("blue") == 6
    assert ui.energy_label() == energy_text(saved)

    # Round 2: Bjorn summons his Wyrm; Ragna a Troll, Bjorn and Ragna a Sprite each; then
    # Ragna swaps her Wyrm (Bjorn's turn in the Wyrms step comes first).
    ui.tap("Bjorn: summon a Wyrm (1 left)", "Bjorn summons a Wyrm")
    ui.tap("Ragna: summon a Troll (3 left)", "Ragna summons a Troll")
    # One of Bjorn's Sprites was removed last round: it is back in his reserve.
    ui.tap("Bjorn: summon a Sprite (8 left)", "Bjorn summons a Sprite")
    ui.tap("Ragna: summon a Sprite (9 left)", "Ragna summons a Sprite")
    ui.tap("Nobody summons more", "Bjorn's Wyrms act")
    ui.tap("Bjorn: done with Wyrms", "Ragna's Wyrms act")
    ui.tap("Ragna: Wyrm swap (1 energy)", "Wyrm trades places")
    assert saved_game(server).state.energy_of("red") == 1

    # Undo and redo, labelled with what they take back (written in the turn card too).
    ui.wait_for("Ragna's Wyrm trades places with another of their creatures")
    ui.tap_matching(
        r"^Undo: Ragna's Wyrm trades places .* for 1 energy \(2 → 1\)", "Undone:", icon=True
    )
    assert saved_game(server).state.energy_of("red") == 2
    ui.tap_matching(r"^Redo: Ragna's Wyrm trades places", "Redone:", icon=True)
    saved = saved_game(server)
    assert saved.state.energy_of("red") == 1
    ui.shot("phone-08-table-round-2")

    # Reload: the same game, the same numbers.
    ui.open(f"{server.url}/game/{saved.id}", "Ragna's Wyrms act")
    assert ui.energy_label() == energy_text(saved)

    tablet = Screen(browser.new_page(viewport=TABLET), artifacts)
    tablet.open(f"{server.url}/game/{saved.id}", "Ragna's Wyrms act")
    tablet.shot("tablet-01-table")
    tablet.open(f"{server.url}/", "New game")
    tablet.shot("tablet-02-home")
    tablet.page.close()

    # Kill the server mid-game and start it again: nothing is lost.
    server.kill()
    server.start()
    ui.open(f"{server.url}/game/{saved.id}", "Ragna's Wyrms act")
    assert ui.energy_label() == energy_text(saved_game(server)) == energy_text(saved)

    ui.tap_matching("^Game log$", "Ragna removes Bjorn's Sprite", icon=True)
    ui.shot("phone-09-log")

    print(
        f"\nserver answering {answered_after_spawn_s:.2f} s after its process was spawned; "
        f"first screen interactive {first_screen_s:.2f} s after the page was opened on the "
        f"started server ({interactive_after_spawn_s:.2f} s after the spawn); "
        f"tap to updated screen: median {ui.median_tap_ms():.0f} ms over {len(ui.tap_ms)} taps "
        f"by the page's clock ({ui.median_round_trip_ms():.0f} ms as the test's driver sees it)"
    )


def test_the_new_game_form_follows_every_change(server, browser, artifacts):
    """Each choice redraws the form on screen, the second and third as well as the first."""
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/new", "Start game")
    ui.tap("3 players", "Player 3")
    ui.tap("Digital board", "any seat can be the computer")
    ui.tap("4 players", "Player 4")
    # A 7th round is for 3-4 players: offered now, and chosen.
    ui.tap("7 rounds", "Start game")
    ui.tap("Start game", "Round 1/7")
    saved = saved_game(server)
    assert len(saved.setup.players) == 4 and saved.setup.mode.value == "digital"
    assert saved.state.game.final_round == 7


def test_result_history_and_log_screens(server, browser, artifacts):
    """A finished game (imported through the store) shows its winner as the engine decided."""

    setup = GameSetup(
        players=seats("red", "blue", "green"),
        board="gathering-isle",
        mode="digital",
    )
    with open_store(server.db) as store:
        game = store.new_game(setup).game
        state, rng, roll, commands = game.new_initial_state(), random.Random(4), SeededDice(4), []
        while not state.is_terminal:
            command = with_rolls(state, rng.choice(state.legal_commands()), roll)
            state.apply(command)
            commands.append(command)
        saved = store.import_log(GameLog.of(setup, commands))
    winner = saved.game.labels[saved.state.winner_id]

    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{saved.id}/end", "Energy by round")
    ui.wait_for(f"{winner} is a Summoner!" if saved.state.summoner else f"{winner} wins")
    ui.wait_for(f"most energy ({saved.state.energy_of(saved.state.winner_id)})")
    ui.shot("phone-10-result", tall=1000)
    ui.open(f"{server.url}/history", "Finished games: 1")
    ui.wait_for(f"{winner} won")
    ui.shot("phone-11-history", tall=740)
    ui.open(f"{server.url}/game/{saved.id}/log", str(saved.log[-1].sentence))
    ui.shot("phone-12-log", tall=740)


def test_two_phones_at_one_table_see_each_others_records(server, browser, artifacts):
    """What one phone records shows on another phone on the same game, without a reload."""
    setup = GameSetup(
        players=seats("red", "blue"),
        board="duel-isle",
    )
    game_id = server.new_game(setup)
    url = f"{server.url}/game/{game_id}"
    first, second = devices(browser, artifacts, url, "Ragna decides", PHONE, PHONE)

    first.tap("Ragna: summon a Wyrm (1 left)", "Bjorn decides")
    second.wait_for("Bjorn decides")
    assert second.energy_label() == energy_text(saved_game(server))
    # Both are out of energy, so the rest of Summoning passes by itself.
    second.tap("Bjorn: summon a Wyrm (1 left)", "Ragna's Wyrms act")
    first.wait_for("Ragna's Wyrms act")
    second.tap_matching("^Undo: ", "Undone:", icon=True)
    first.wait_for("Bjorn decides")
    assert first.energy_label() == second.energy_label() == energy_text(saved_game(server))
