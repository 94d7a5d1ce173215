"""The page asks nothing of another host, and a browser that reloads or leaves is no error.

The page asks no CDN for Rive's runtime and the server for no font it does not ship
(a 404). Every browser test fails when a page asks a host other than the app server
(conftest.py, `OwnHostsOnly`); the first test shows that check catching a request.
Closing a tab, or reloading while the computers play, prints no traceback in the server's
output.
"""

from __future__ import annotations

import time

from browser_ui import PHONE, Screen, seats, tap_location

from companion.boards import shipped_board
from companion.store.store import open_store
from models.commands import Pass
from models.setup import GameSetup

TABLE = GameSetup(players=seats("red", "blue"), board="duel-isle")
DIGITAL = GameSetup(players=seats("red", "blue"), board="duel-isle", mode="digital")


def _clean(said: str) -> bool:
    return not any(sign in said for sign in ("Traceback", "Receive loop error", "Exception in"))


def test_the_check_fails_a_test_whose_page_asks_another_host(server, browser):
    page = browser.new_page(viewport=PHONE)
    page.goto(server.url, wait_until="domcontentloaded")
    page.evaluate("fetch('http://cdn.example.invalid/runtime.js').catch(() => {})")
    browser.settle()
    assert [url for url in browser.foreign if "cdn.example.invalid" in url]
    browser.foreign.clear()  # this test made that request on purpose


def test_no_screen_asks_another_host_or_a_file_the_server_lacks(server, browser, artifacts):
    with open_store(server.db) as store:
        table = store.new_game(TABLE)
        store.append(table.id, Pass(), table.revision)
        digital = store.new_game(DIGITAL).id
    screens = {
        "/": ("New game", "Nouvelle partie"),
        "/new": ("Start game", "Commencer la partie"),
        f"/game/{table.id}": ("Nobody summons more", "Plus personne n'invoque"),
        f"/game/{table.id}/log": ("Game log", "Journal de la partie"),
        f"/game/{digital}": ("tap a marked space", "touchez une case marquée"),
        "/history": ("Finished games", "Parties terminées"),
        "/board-editor": ("Board editor", "Éditeur de plateau"),
    }
    missing: list[str] = []

    def answered(answer) -> None:
        if answer.status >= 400:
            missing.append(answer.url)

    for locale, said in (("en-US", 0), ("fr-FR", 1)):
        context = browser.new_context(viewport=PHONE, locale=locale)
        context.on("response", answered)
        ui = Screen(context.new_page(), artifacts)
        for route, ready in screens.items():
            ui.open(f"{server.url}{route}", ready[said])
            # The app's font loads after the first screen: fallback fonts are asked for then.
            ui.page.wait_for_timeout(1500)
        browser.settle()
        assert not missing, f"{locale}: {missing}"
        context.close()
    assert _clean(server.said()), server.said()


def test_a_reload_and_a_closed_tab_while_the_computer_plays_leave_the_servers_output_clean(
    server, browser, artifacts
):
    setup = GameSetup(
        players=seats("red", "blue", blue="mcts:hard"), board="duel-isle", mode="digital"
    )
    game = server.new_game(setup)
    url, ready = f"{server.url}/game/{game}", "Summon Wyrms: tap a marked space"
    phone = Screen(browser.new_page(viewport=PHONE), artifacts)
    phone.open(url, ready)
    tap_location(phone.page, shipped_board("duel-isle"), "rh1")
    phone.wait_for("Bjorn is thinking")
    phone.page.reload(wait_until="domcontentloaded")
    phone.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60000)
    time.sleep(2)
    phone.page.close()
    # Another page, the computer still to play, then SIGTERM: it stops at once, quietly.
    tablet = Screen(browser.new_page(viewport=PHONE), artifacts)
    tablet.open(url, "Bjorn")
    time.sleep(2)
    assert server.process is not None
    started = time.monotonic()
    server.process.terminate()
    server.process.wait(timeout=30)
    took = time.monotonic() - started
    server.process = None
    print(f"\nSIGTERM stopped the server in {took:.2f} s while the computer played")
    assert took <= 5, f"SIGTERM took {took:.1f} s"
    assert _clean(server.said()), server.said()
