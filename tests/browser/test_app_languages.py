"""The app in French in Chromium: the device's language, per device.

A browser whose locale is French opens the app in French; one set to English stays in
English. Switching on Home changes that device only, at once, and the choice outlives a
reload. Screenshots of the general screens in French at 360x740 and 1280x800 land in
tests/artifacts/ as fr-<screen>-<size>.png.
"""

from __future__ import annotations

import time

from browser_ui import HAS_TEXT, PHONE, TABLET, Screen, seats
from test_result_legend import finished_game
from test_share_table import shared  # noqa: F401 - the shared table fixture

from companion.store.store import open_store
from models.commands import Pass
from models.setup import GameSetup

DUEL = GameSetup(players=seats("red", "blue"), board="duel-isle")
SIZES = {"360x740": PHONE, "1280x800": TABLET}


def device(browser, artifacts, locale: str, viewport: dict = PHONE) -> Screen:
    """A phone of its own (a browser context: its own kept settings) in a locale."""
    context = browser.new_context(viewport=viewport, locale=locale)
    return Screen(context.new_page(), artifacts)


def played_game(server) -> str:
    """A duel with a few turns recorded: its id."""
    with open_store(server.db) as store:
        saved = store.new_game(DUEL)
        for _ in range(3):
            saved = store.append(saved.id, Pass(), saved.revision)
        return saved.id


def test_a_french_browser_opens_in_french_an_english_one_in_english(server, browser, artifacts):
    played_game(server)
    french = device(browser, artifacts, "fr-CA")
    english = device(browser, artifacts, "en-US")
    french.open(server.url, "Nouvelle partie")
    french.wait_for("Manche 1/6")
    french.wait_for("Île du Duel · à l'instant")
    english.open(server.url, "New game")
    english.wait_for("Round 1/6")


def test_switching_the_language_changes_this_device_only_and_is_kept(server, browser, artifacts):
    game_id = played_game(server)
    log = f"{server.url}/game/{game_id}/log"
    mine = device(browser, artifacts, "en-US")
    theirs = device(browser, artifacts, "en-US")
    theirs.open(log, "Game log")
    mine.open(server.url, "New game")
    mine.tap("Français", "Nouvelle partie")
    assert mine.page.locator("[flt-semantics-identifier=language-fr]").count() == 1
    # The same game's log: French here, told again from its commands...
    mine.open(log, "Journal de la partie")
    mine.wait_for("Annuler")
    # ... and still English on the other device, even opened again.
    theirs.open(log, "Game log")
    theirs.wait_for("Undo")
    assert not shows(theirs, "Journal de la partie")
    # Kept on the device: a reload comes back in French; and back to English on a tap.
    mine.open(server.url, "Nouvelle partie")
    mine.tap("English", "New game")
    mine.open(server.url, "New game")


def shows(ui: Screen, text: str) -> bool:
    """Whether some visible text or label on the page contains `text` now."""
    return ui.page.evaluate(
        f"({HAS_TEXT})",
        text,
    )


def shoot(ui: Screen, name: str) -> None:
    """The screen at a phone's and a tablet's size: tests/artifacts/fr-<name>-<size>.png."""
    for size, viewport in SIZES.items():
        ui.page.set_viewport_size(viewport)
        time.sleep(1.5)
        ui.page.screenshot(path=str(ui.artifacts / f"fr-{name}-{size}.png"))
    ui.page.set_viewport_size(PHONE)
    time.sleep(0.5)


def test_screenshots_of_the_general_screens_in_french(server, browser, artifacts):
    game_id = played_game(server)
    ended = finished_game(server)
    ui = device(browser, artifacts, "fr-FR")
    screens = [
        ("home", server.url, "Nouvelle partie"),
        ("new-game", f"{server.url}/new", "Commencer la partie"),
        ("log", f"{server.url}/game/{game_id}/log", "Journal de la partie"),
        ("end", f"{server.url}/game/{ended}/end", "Énergie par manche"),
        ("history", f"{server.url}/history", "Historique"),
    ]
    for name, url, ready in screens:
        ui.open(url, ready)
        shoot(ui, name)
        ui.shot(f"fr-{name}-360x740-full")
    # The longest form: four seats on the digital board, each with who plays it.
    ui.open(f"{server.url}/new", "Commencer la partie")
    # Flutter's own words too: a name field's counter.
    ui.wait_for("caractères restants")
    ui.tap("Plateau numérique", "Le joueur 1 est joué par", exact=False)
    ui.tap("4 joueurs", "Joueur 4", exact=False)
    ui.shot("fr-new-game-digital-360x740-full", tall=2000)
    ui.open(f"{server.url}/game/{ended}/end", "Énergie par manche")
    ui.wait_for("Ragna\u202f: trait plein")


def test_screenshots_of_the_shared_tables_screens_in_french(shared, browser, artifacts):  # noqa: F811
    server, game_id = shared
    code = device(browser, artifacts, "fr-FR")
    code.open(server.base, "Rejoindre la table")
    shoot(code, "join")
    host = device(browser, artifacts, "fr-FR")
    host.open(server.links["Host"], "Partager cette table")
    host.tap("Partager cette table", "Appareils")
    shoot(host, "share")
    host.open(f"{server.base}/game/{game_id}", "Qui utilise cet appareil")
    shoot(host, "seat")
    watcher = device(browser, artifacts, "fr-FR")
    watcher.open(server.links["Watch"], "Regarder la partie de Ragna et de Bjorn")
    shoot(watcher, "watch-home")
    watcher.open(f"{server.base}/game/{game_id}", "Au tour de Ragna")
    shoot(watcher, "watch")
