"""The game screens in French in Chromium: a digital game and a table game, phone and tablet.

Each device is a browser whose locale is French, so the app's language setting starts in
French, as on a French phone. The screenshots in tests/artifacts/ are for a reviewer to check
that nothing is clipped or overlaps at 360x740 and 1280x800.
"""

from __future__ import annotations

import time

from browser_ui import PHONE, TABLET, Screen, seats, tap_location
from test_reset_screen import ROUND_1, SETUP

from companion.store.store import open_store
from models.commands import Pass, Skip, Summon
from models.game_log import GameLog
from models.rules import CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE


def page(browser, viewport):
    """A page in a French browser: the app's language setting follows the locale."""
    return browser.new_context(viewport=viewport, locale="fr-FR").new_page()


def settle(ui: Screen) -> None:
    """Let a page just opened paint before its screenshot (software rendering is slow)."""
    ui.page.wait_for_timeout(2500)


def imported(server, setup: GameSetup, commands: list) -> str:
    """Save a game with these commands played; its id."""
    with open_store(server.db) as store:
        return store.import_log(GameLog.of(setup, commands)).id


def test_a_digital_game_in_french(server, browser, artifacts):
    setup = GameSetup(
        players=seats("red", "blue", blue="greedy"), board="duel-isle", mode="digital"
    )
    # Ragna's Wyrm at rh1; Bjorn's Sprites at rh2 and rh3: her Wyrm may attack.
    game = imported(
        server,
        setup,
        [Summon(W, "rh1"), Pass(), Pass(), Summon(S, "rh2"), Summon(S, "rh3"), Pass()],
    )
    ui = Screen(page(browser, PHONE), artifacts)
    ui.open(f"{server.url}/game/{game}", "Les Wyrms agissent")
    ui.wait_for("Au tour de Ragna")
    ui.wait_for("Ordre du tour")
    ui.shot("fr-phone-board-actions", tall=740)
    ui.shot("fr-phone-board-actions-whole", tall=1900)
    with open_store(server.db) as store:
        board = store.load(game).game.board
    tap_location(ui.page, board, "rh1")
    ui.wait_for("Votre Wyrm au Creux des Runes 1 a encore 2 actions")
    ui.wait_for("Fin de l'activation")
    ui.shot("fr-phone-board-active", tall=740)
    tap_location(ui.page, board, "rh2")
    ui.wait_for("Chances")
    ui.shot("fr-phone-attack-odds", tall=740)
    ui.click(ui.button("Lancer"))
    ui.wait_for("Les dés")
    ui.shot("fr-phone-attack-dice", tall=740)

    # A whole round played: the Energy and Reset card waits for Continue.
    reset = imported(
        server,
        setup,
        [Pass(), Pass(), Summon(T, "ss1"), Pass(), Summon(S, "ss2"), *[Pass()] * 4],
    )
    ui.open(f"{server.url}/game/{reset}", "Vous occupez toutes les cases")
    ui.wait_for("Prendre +")
    ui.shot("fr-phone-domination", tall=1300)
    ui.click(ui.button("Refuser"))
    ui.wait_for("Énergie et Réinitialisation, manche 1")
    ui.wait_for("Continuer vers la manche 2")
    ui.shot("fr-phone-reset-card", tall=740)
    ui.shot("fr-phone-reset-card-whole", tall=1900)
    ui.page.close()

    tablet = Screen(page(browser, TABLET), artifacts)
    fresh = imported(server, setup, [Summon(W, "rh1"), Pass(), Pass(), Summon(S, "rh2"), Pass()])
    tablet.open(f"{server.url}/game/{fresh}", "Les Wyrms agissent")
    # A first tap on a page just shown can land before the isle listens: tapped again then
    # (a second tap on the active Wyrm changes nothing).
    for attempt in range(3):
        tap_location(tablet.page, board, "rh1")
        try:
            tablet.wait_for("Votre Wyrm au Creux des Runes 1", timeout=8)
            break
        except Exception:
            if attempt == 2:
                raise
            time.sleep(0.6)
    settle(tablet)
    tablet.shot("fr-tablet-board-active", tall=800)
    tablet.open(f"{server.url}/game/{reset}", "Continuer vers la manche 2")
    settle(tablet)
    tablet.shot("fr-tablet-reset-card", tall=800)


def test_a_table_game_in_french(server, browser, artifacts):
    summoning = imported(server, SETUP, [Summon(W, by="red")])
    ui = Screen(page(browser, PHONE), artifacts)
    ui.open(f"{server.url}/game/{summoning}", "Invocation · étape des Wyrms")
    ui.wait_for("Plus personne n'invoque")
    ui.shot("fr-phone-table-summoning", tall=740)
    ui.shot("fr-phone-table-summoning-whole", tall=2000)
    tablet = Screen(page(browser, TABLET), artifacts)
    tablet.open(f"{server.url}/game/{summoning}", "Invocation · étape des Wyrms")
    settle(tablet)
    tablet.shot("fr-tablet-table-summoning", tall=800)

    acting = imported(server, SETUP, ROUND_1)
    ui.open(f"{server.url}/game/{acting}", "Invocation")
    ui.click(ui.button("Plus personne n'invoque", exact=False))
    ui.wait_for("agissent sur le plateau")
    ui.shot("fr-phone-table-actions", tall=740)

    at_reset = imported(server, SETUP, [*ROUND_1, Skip("summoning"), Skip("actions")])
    ui.open(f"{server.url}/game/{at_reset}/reset", "Appliquer")
    ui.wait_for("Décompte")
    ui.shot("fr-phone-table-reset", tall=740)
    ui.shot("fr-phone-table-reset-whole", tall=1800)
    # A Troll summoned this round: the screen asks where it stands.
    asking = imported(
        server,
        SETUP,
        [
            *ROUND_1,
            Skip("summoning", T, "red"),
            Summon(T, by="red"),
            Skip("summoning"),
            Skip("actions"),
        ],
    )
    ui.open(f"{server.url}/game/{asking}/reset", "Où est le Troll de Ragna maintenant")
    ui.wait_for("1 à placer")
    ui.shot("fr-phone-table-reset-asking", tall=740)
    tablet.open(f"{server.url}/game/{at_reset}/reset", "Appliquer")
    settle(tablet)
    tablet.shot("fr-tablet-table-reset", tall=800)
