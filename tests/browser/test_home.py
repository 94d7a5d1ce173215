"""Home, New game, History and the game log in Chromium.

Names refused as they are typed, the resume list saying where each game stands, a game
deleted after a confirmation, a log exported to a file and imported back, wins by name.
Screenshots of each screen at four sizes in both themes land in tests/artifacts/.
"""

from __future__ import annotations

import json
import random
import time

from browser_ui import HAS_TEXT, PHONE, Screen, seats

from companion.engine import Phase
from companion.engine.dice import with_rolls
from companion.store.store import open_store
from models.commands import Pass
from models.game_log import GameLog
from models.seeded_dice import SeededDice
from models.setup import GameSetup

SIZES = {
    "360x740": {"width": 360, "height": 740},
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "1280x800": {"width": 1280, "height": 800},
}
DUEL = GameSetup(players=seats("red", "blue"), board="duel-isle")
TRIO = GameSetup(players=seats("red", "blue", "green"), board="gathering-isle")


def shots(ui: Screen, name: str) -> None:
    """The screen as it is, at every size: tests/artifacts/home-<name>-<size>.png."""
    first = ui.page.viewport_size
    for size, viewport in SIZES.items():
        ui.page.set_viewport_size(viewport)
        time.sleep(1.2)
        ui.page.screenshot(path=str(ui.artifacts / f"home-{name}-{size}.png"))
    ui.page.set_viewport_size(first)
    time.sleep(0.5)


def shows(ui: Screen, text: str) -> bool:
    """Whether some visible text or label on the page contains `text` now."""
    return ui.page.evaluate(
        f"({HAS_TEXT})",
        text,
    )


def type_into(ui: Screen, field: str, text: str) -> None:
    """Replace what a text field (by its label) holds with `text`, typed key by key."""
    # A click on the field being edited would not reach it: leave it first.
    ui.page.evaluate("document.activeElement?.blur()")
    time.sleep(0.3)
    # Flutter may still be moving its text inputs about after the blur, and a click then can
    # land on the field beside it: click until the field asked for has the focus.
    focused = "document.activeElement?.getAttribute('aria-label')"
    for _ in range(5):
        ui.click(ui.page.get_by_role("textbox", name=field, exact=True))
        time.sleep(0.3)
        if ui.page.evaluate(focused) == field:
            break
    assert ui.page.evaluate(focused) == field, f"{field} never took the focus"
    # Select all may reach Flutter's editor before it has the field's text: type again until
    # the field holds just what was typed.
    for _ in range(3):
        ui.page.keyboard.press("Control+a")
        ui.page.keyboard.type(text)
        time.sleep(0.3)
        if ui.page.evaluate("document.activeElement?.value") == text:
            return
    raise AssertionError(f"{field} holds {ui.page.evaluate('document.activeElement?.value')!r}")


def games(server):
    with open_store(server.db) as store:
        return store.games()


def at_energy_and_reset(store, setup: GameSetup) -> str:
    """A saved table game whose players are all done: the round waits for Energy and Reset."""
    saved = store.new_game(setup)
    while saved.state.phase is not Phase.ENERGY_AND_RESET:
        saved = store.append(saved.id, Pass(), saved.revision)
    return saved.id


def test_new_game_refuses_alike_names_as_they_are_typed(server, browser, artifacts):
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/new", "Start game")
    type_into(ui, "Player 2", "ragna ")
    ui.wait_for("Player 2's name is already Ragna's.")
    # The first turn order follows the name as typed (a field's text is in neither the page's
    # text nor its labels: this is the order list), and the counter counts it.
    ui.wait_for("2.\nR■\nragna")
    ui.wait_for("18 characters remaining")
    ui.click(ui.button("Start game"))
    time.sleep(1.5)
    assert games(server) == []
    assert shows(ui, "Start game")

    type_into(ui, "Player 2", "\u200b ")
    ui.wait_for("Player 2's name is blank.")
    ui.wait_for("2.\n?■\nPlayer 2")
    type_into(ui, "Player 2", "Astrid")
    ui.wait_for("2.\nA■\nAstrid")
    # The note under the field is gone (the refusal's message may still be at the bottom).
    assert not shows(ui, "⚠ Player 2's name")
    ui.tap("Start game", "Ragna decides")
    (summary,) = games(server)
    assert summary.labels == ("Ragna", "Astrid")


def test_home_resumes_deletes_exports_and_imports(server, browser, artifacts):
    with open_store(server.db) as store:
        duel = store.new_game(DUEL)
        duel = store.append(duel.id, duel.state.legal_commands()[0], duel.revision)
        trio = at_energy_and_reset(store, TRIO)
    page = browser.new_page(viewport=PHONE, accept_downloads=True)
    ui = Screen(page, artifacts)
    ui.open(server.url, "Import a game")
    ui.wait_for("Round 1/6 · Bjorn's turn")
    ui.wait_for("Round 1/6 · Energy and Reset")
    ui.wait_for("Duel Isle · just now")
    ui.wait_for("Gathering Isle · just now")

    # Delete asks first, naming the game; keeping it changes nothing.
    ui.tap_matching("^Delete Ragna and Bjorn's game$", "Bjorn's game?", icon=True)
    ui.wait_for("Duel Isle, round 1/6, just now.")
    shots(ui, "delete-dialog-dark")
    ui.tap("Keep it", "Import a game")
    time.sleep(1)
    assert len(games(server)) == 2
    ui.tap_matching("^Delete Ragna and Bjorn's game$", "Bjorn's game?", icon=True)
    ui.tap("Delete", "Deleted Ragna and Bjorn's game.")
    assert [game.id for game in games(server)] == [trio]
    assert not shows(ui, "Bjorn's turn")

    # Export from the game log: a real download of the game log file.
    ui.open(f"{server.url}/game/{trio}/log", "Export")
    with page.expect_download() as download:
        ui.click(ui.button("Export"))
    assert download.value.suggested_filename == f"summoners-isle-game-{trio}.json"
    exported = download.value.path().read_bytes()
    with open_store(server.db) as store:
        assert json.loads(exported) == store.export(trio).to_json()
    ui.wait_for(f"Exported the game log as summoners-isle-game-{trio}.json.")

    # Import on Home: the file the browser picks becomes a new game, opened at once.
    ui.open(server.url, "Import a game")
    with page.expect_file_chooser() as chooser:
        ui.click(ui.button("Import a game"))
    chooser.value.set_files(
        files=[{"name": "trio.json", "mimeType": "application/json", "buffer": exported}]
    )
    ui.wait_for("Imported Ragna, Bjorn and Sigrid's game.")
    copies = [game.id for game in games(server) if game.id != trio]
    assert len(copies) == 1
    page.wait_for_url(f"{server.url}/game/{copies[0]}")
    with open_store(server.db) as store:
        assert store.export(copies[0]) == store.export(trio)

    # A file that is not a game log: one sentence, nothing saved.
    ui.open(server.url, "Import a game")
    with page.expect_file_chooser() as chooser:
        ui.click(ui.button("Import a game"))
    chooser.value.set_files(
        files=[{"name": "notes.json", "mimeType": "application/json", "buffer": b'{"a": 1}'}]
    )
    ui.wait_for("Not imported: that file is not a Summoner's Isle game log.")
    assert len(games(server)) == 2


def test_every_screen_at_every_size_in_both_themes(server, browser, artifacts):
    """Home, New game, History (wins by name) and the log, for a reviewer's eye."""
    setup = GameSetup(players=seats("red", "blue"), board="duel-isle", mode="digital")
    with open_store(server.db) as store:
        game = store.new_game(setup).game
        state, rng, roll, commands = game.new_initial_state(), random.Random(3), SeededDice(3), []
        while not state.is_terminal:
            command = with_rolls(state, rng.choice(state.legal_commands()), roll)
            state.apply(command)
            commands.append(command)
        finished = store.import_log(GameLog.of(setup, commands))
        game = store.new_game(TRIO)
        store.append(game.id, game.state.legal_commands()[0], game.revision)
    winner = finished.game.labels[finished.state.winner_id]

    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(server.url, "Import a game")
    for theme in ("dark", "light"):
        if theme == "light":
            ui.click(ui.page.get_by_label("Light or dark theme"))
            time.sleep(1)
        ui.wait_for("Round 1/6 · Bjorn's turn")
        shots(ui, f"home-{theme}")

        ui.tap("History", "Wins by player")
        ui.wait_for(f"{winner}: 1 win")
        shots(ui, f"history-{theme}")
        ui.page.go_back()

        ui.tap("New game", "Start game")
        type_into(ui, "Player 2", "ragna")
        ui.wait_for("Player 2's name is already Ragna's.")
        shots(ui, f"new-game-{theme}")
        ui.shot(f"home-new-game-tall-{theme}")
        ui.page.go_back()

        ui.tap("Ragna, Bjorn and Sigrid", "Bjorn's turn", exact=False)
        ui.tap_matching("^Game log$", "Export", icon=True)
        shots(ui, f"log-{theme}")
        ui.page.go_back()
        ui.page.go_back()
        ui.wait_for("Import a game")


# Every button's name and height, among those wholly inside the window.
WHOLE_BUTTONS = """() => [...document.querySelectorAll('flt-semantics[role=button]')]
    .map(e => [e.innerText || e.getAttribute('aria-label') || '?', e.getBoundingClientRect()])
    .filter(([, r]) => r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight)
    .map(([name, r]) => [name, r.height])"""


def test_every_button_on_new_game_is_a_full_target_on_a_desktop_and_a_phone(
    server, browser, artifacts
):
    """48 px targets: Flutter packs buttons to 32 px on a desktop browser unless told not to."""
    for viewport in (SIZES["1280x800"], SIZES["360x740"]):
        ui = Screen(browser.new_page(viewport=viewport), artifacts)
        ui.open(f"{server.url}/new", "Start game")
        # The picker segments ("2", "Table", "6 rounds") and the outlined buttons below them.
        ui.page.wait_for_function(
            "document.querySelectorAll('flt-semantics[role=button]').length >= 8"
        )
        # A node scrolled partly out of view is clipped: a button counts at its largest.
        heights: dict[str, float] = {}
        for _ in range(6):
            for name, height in ui.page.evaluate(WHOLE_BUTTONS):
                heights[name] = max(height, heights.get(name, height))
            ui.page.mouse.move(viewport["width"] / 2, viewport["height"] / 2)
            ui.page.mouse.wheel(0, 250)
            time.sleep(0.4)
        assert {"2 players", "Digital board", "7 rounds", "Start game"} <= set(heights)
        short = {name: height for name, height in heights.items() if height < 47.5}
        assert not short, f"{viewport}: {short}"
        ui.page.close()
