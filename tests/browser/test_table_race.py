"""Two phones on one table game tap the same "done" a moment apart: only the first counts.

The second phone's screen is held back (its server messages are kept from it for a moment,
as a slow network would), so its player taps a button for a turn that is already over. The
tap must be refused with a sentence, and the next player's turn must be intact
(a tap on a screen that has since moved on is refused, never re-aimed).
"""

from __future__ import annotations

import re

from browser_ui import PHONE, Screen, seats

from companion.store.store import open_store
from models.rules import CreatureKind as K
from models.setup import GameSetup


class HeldBack:
    """A page whose messages from the server can be held back, then let through in order."""

    def __init__(self, page) -> None:
        self.holding = False
        self.held: list = []
        self.socket = None
        page.route_web_socket(re.compile(r"/ws$"), self.route)

    def route(self, socket) -> None:
        """Connect the page's websocket to the server, relaying what comes back ourselves."""
        server = socket.connect_to_server()
        self.socket = socket
        server.on_message(self.from_server)

    def from_server(self, message) -> None:
        """Pass a server message on to the page, unless it is being held back."""
        if self.holding:
            self.held.append(message)
        else:
            self.socket.send(message)

    def release(self) -> None:
        """Let every held message through, in order, and stop holding."""
        self.holding = False
        for message in self.held:
            self.socket.send(message)
        self.held.clear()


def test_a_late_tap_on_a_turn_that_is_over_is_refused_and_the_next_turn_is_intact(
    server, browser, artifacts
):
    setup = GameSetup(players=seats("red", "blue", "green"), board="gathering-isle")
    game_id = server.new_game(setup)
    url = f"{server.url}/game/{game_id}"
    first = Screen(browser.new_page(viewport=PHONE), artifacts)
    slow_page = browser.new_page(viewport=PHONE)
    held = HeldBack(slow_page)
    second = Screen(slow_page, artifacts)
    first.open(url, "Ragna: done with Wyrms")
    second.open(url, "Ragna: done with Wyrms")

    held.holding = True
    first.tap("Ragna: done with Wyrms", "Bjorn: done with Wyrms")
    # The second phone still shows Ragna's turn, and its player taps the same button.
    second.button("Ragna: done with Wyrms").click()
    second.page.wait_for_timeout(1500)
    held.release()
    second.wait_for("The game moved on before that tap")
    second.wait_for("Bjorn: done with Wyrms")
    second.shot("race-refused", tall=844)

    with open_store(server.db) as store:
        saved = store.load(game_id)
    assert [entry.command.by for entry in saved.log] == ["red"]
    assert saved.state.current_player == "blue"
    assert saved.state.phase.value == "summoning"


def test_a_late_tap_on_a_summon_square_is_refused_not_dropped(server, browser, artifacts):
    """A square's words and colours change in place, but what it records does not: the
    slower phone's tap on the square it still shows reaches that drawing's touch layer and is
    refused with a sentence (neither dropped without a word nor taken for the new state): what
    the rules say of it now, as a square that says one thing at any moment is read."""
    setup = GameSetup(players=seats("red", "blue", "green"), board="gathering-isle")
    game_id = server.new_game(setup)
    url = f"{server.url}/game/{game_id}"
    square = "Ragna: summon a Wyrm (1 left)"
    first = Screen(browser.new_page(viewport=PHONE), artifacts)
    slow_page = browser.new_page(viewport=PHONE)
    held = HeldBack(slow_page)
    second = Screen(slow_page, artifacts)
    first.open(url, square)
    second.open(url, square)

    held.holding = True
    first.tap(square, "Ragna summons a Wyrm")
    second.button(square).click()
    second.page.wait_for_timeout(1500)
    held.release()
    second.wait_for("Ragna has no Wyrms left to summon.")
    second.wait_for("Ragna summons a Wyrm")
    second.shot("race-square-refused", tall=844)

    with open_store(server.db) as store:
        saved = store.load(game_id)
    assert [type(entry.command).__name__ for entry in saved.log] == ["Summon"]
    assert saved.state.reserve_of("red", K.WYRM) == 0
