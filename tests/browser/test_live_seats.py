"""Seats are live: when a player takes, changes or leaves a seat, every other phone at the
table locks or frees that player's squares within a second, and says who records them.

Ragna's phone is seated first; Bjorn's phone then takes his seat, changes it, and takes it
again. Each time Ragna's phone follows without a tap, and the time it took is measured from
the moment Bjorn's own phone showed its change (when the seat was stored).
"""

from __future__ import annotations

import time

from browser_ui import seats
from test_share_table import SharedServer, joined

from companion.store.store import open_store
from models.setup import GameSetup

# Bjorn's Wyrm square on Ragna's phone: a summon to tap while no device holds his seat,
# locked (and named so) while one does.
FREE = "Bjorn: summon a Wyrm (1 left)"
# A seat change reaches every phone at the table within a second on a quiet machine (0.1-0.3 s
# here, printed); the suite's four browsers on two cores can take a few times that.
FOLLOW_S = 3.0


def followed(page, free: bool, since: float, limit: float) -> float:
    """Seconds from `since` until Bjorn's Wyrm square on a phone is free to tap (or locked)."""
    button = page.get_by_role("button", name=FREE, exact=True)
    button.first.wait_for(state="visible" if free else "detached", timeout=limit * 1000)
    return time.monotonic() - since


def test_a_seat_taken_changed_and_taken_again_follows_on_every_phone(tmp_path, browser, artifacts):
    server = SharedServer(tmp_path)
    with open_store(server.db) as store:
        setup = GameSetup(
            players=seats("red", "blue"), board="duel-isle", turn_order=["blue", "red"]
        )
        game_id = store.new_game(setup).id
    server.start()
    try:
        game = f"{server.base}/game/{game_id}"
        ragna = joined(browser, artifacts, server)
        ragna.take_seat(game, "Ragna", "This device records Ragna's turns")
        # Nobody holds Bjorn's seat: Ragna's phone may record his turn.
        ragna.ui.wait_for(FREE)
        assert ragna.ui.button(FREE).count() == 1

        bjorn = joined(browser, artifacts, server)
        bjorn.goto(game, "Who is this device?")
        waits = []
        for step in range(3):
            if step == 1:
                bjorn.ui.tap("Change seat", "Who is this device?")
                since = time.monotonic()
                waits.append(followed(ragna.page, True, since, 10))
                continue
            bjorn.ui.tap("Bjorn", "This device records Bjorn's turns")
            since = time.monotonic()
            waits.append(followed(ragna.page, False, since, 10))
            ragna.ui.wait_for("Bjorn: a Wyrm (1 left), locked here")
        ragna.ui.shot("live-seats-locked", tall=740)
    finally:
        server.stop()
    print(f"\nseat changes followed on the other phone in {[round(w, 2) for w in waits]} s")
    assert max(waits) <= FOLLOW_S, waits
