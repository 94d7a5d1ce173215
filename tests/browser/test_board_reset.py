"""The digital board in Chromium: an Energy and Reset shown and logged before play goes on,
bonuses decided on true totals, and the computers taken over when their device leaves.
"""

from __future__ import annotations

import re
import time

from browser_ui import PHONE, TABLET, Screen, devices, seats, tap_location
from test_board import CONTINUE, go_on_from_reset, recorded, saved_game, wait_for_person

from companion.boards import shipped_board
from companion.engine import Phase
from companion.play.leases import BEAT_S, LEASE_S
from companion.store.store import open_store
from models.commands import Pass, Summon
from models.game_log import GameLog
from models.setup import GameSetup


def test_bonuses_on_true_totals_then_the_energy_and_reset_shown_and_logged(
    server, browser, artifacts
):
    """Ragna holds Skald's Strand and takes its bonus; Bjorn holds Troll Fen and declines."""
    setup = GameSetup(players=seats("red", "blue"), board="duel-isle", mode="digital")
    summons = [
        *(Pass(), Pass()),  # no Wyrms
        *(Summon("troll", "ss1"), Pass()),  # Ragna's Troll; Bjorn none
        *(Summon("sprite", "ss2"), Pass()),  # Ragna's Sprite, then she is done
        *(Summon("sprite", "tf1"), Summon("sprite", "tf2"), Summon("sprite", "tf3"), Pass()),
    ]
    quiet = [Pass(), Pass(), Pass()]  # nobody acts
    with open_store(server.db) as store:
        saved = store.import_log(GameLog.of(setup, [*summons, *quiet]))
    state = saved.state
    assert state.phase is Phase.ENERGY_AND_RESET and state.current_player == "red"
    # The modifier and Sprite passes have run: Ragna 1 +5 +1, Bjorn 2 +5 +3.
    assert (state.energy_of("red"), state.energy_of("blue")) == (7, 10)
    phone = Screen(browser.new_page(viewport=PHONE), artifacts)
    phone.open(f"{server.url}/game/{saved.id}", "You hold every space of Skald's Strand")
    assert phone.energy_label() == "Energy track: Ragna 7 and Bjorn 10"
    take = state.domination_preview(True)
    phone.wait_for(f"Ragna: 1 → {take.player('red').after}")
    phone.click(phone.button("Take +1"))

    # Bjorn decides on the totals as they stand: Ragna's bonus taken, his Sprites counted.
    phone.wait_for("You hold every space of Troll Fen")
    deciding = saved_game(server, saved.id).state
    assert (deciding.energy_of("red"), deciding.energy_of("blue")) == (8, 10)
    assert phone.energy_label() == "Energy track: Ragna 8 and Bjorn 10"
    decline = deciding.domination_preview(False)
    phone.wait_for(f"Bjorn: 2 → {decline.player('blue').after}")
    phone.wait_for(f"Bjorn: 2 → {deciding.domination_preview(True).player('blue').after}")
    phone.click(phone.button("Decline"))

    # The Energy and Reset takes the step guide's place; play waits for Continue.
    phone.wait_for("Energy and Reset of round 1")
    final = saved_game(server, saved.id)
    tally = final.state.last_tally
    assert [tally.player(p).after for p in ("red", "blue")] == [8, 10]
    assert tally.player("blue").dominated[0].taken is False
    for line in tally.players:
        phone.wait_for(str(line.explanation(final.game.labels[line.player])))
    phone.wait_for("Next round's order: Ragna → Bjorn")
    assert not phone.page.get_by_text("Summon Wyrms: tap a marked space").count()
    phone.shot("phone-32-energy-and-reset", tall=740)
    tablet = Screen(browser.new_page(viewport=TABLET), artifacts)
    tablet.open(f"{server.url}/game/{saved.id}", "Next round's order: Ragna → Bjorn")
    tablet.shot("tablet-22-energy-and-reset", tall=800)
    tablet.page.close()

    # Logged with its numbers, under the command that ended the round.
    line = str(final.log[-1].reset)
    assert line == (
        "Energy and Reset, round 1: Ragna 1 → 8 (band 0-9 +5, 1 Sprite in Skald's Strand, "
        "Skald's Strand +1), Bjorn 2 → 10 (band 0-9 +5, 3 Sprites in Troll Fen, Troll Fen "
        "declined); next order: Ragna → Bjorn."
    )
    assert go_on_from_reset(phone, final)
    phone.wait_for("Summon Wyrms: tap a marked space")
    # Turned to landscape, the screen is built again; having gone on, it does not ask again.
    phone.page.set_viewport_size({"width": 844, "height": 390})
    time.sleep(2)
    phone.wait_for("Summon Wyrms: tap a marked space")
    assert not phone.page.get_by_role("button", name=re.compile(CONTINUE)).count()
    phone.page.set_viewport_size(PHONE)
    phone.open(f"{server.url}/game/{saved.id}/log", "Game log")
    phone.wait_for(line)
    phone.shot("phone-33-log-energy-and-reset", tall=900)


def test_the_computers_move_to_another_device_when_theirs_is_closed(server, browser, artifacts):
    """The phone plays Bjorn (it recorded last); closed while he thinks, the tablet takes over."""
    setup = GameSetup(
        players=seats("red", "blue", blue="mcts:normal"), board="duel-isle", mode="digital"
    )
    game_id = server.new_game(setup)
    url, ready = f"{server.url}/game/{game_id}", "Summon Wyrms: tap a marked space"
    phone, tablet = devices(browser, artifacts, url, ready, PHONE, TABLET)
    tap_location(phone.page, shipped_board("duel-isle"), "rh1")
    assert recorded(server, game_id, 0)
    phone.page.close()
    closed = time.monotonic()
    left = saved_game(server, game_id)
    # Bjorn (thinking up to a second on the phone) had not finished his turn.
    assert left.state.current_player == "blue", left.log
    tablet.wait_for("Bjorn is thinking")
    after = wait_for_person(tablet, server, game_id, left.revision, timeout=60)
    taken = time.monotonic() - closed
    assert after.state.current_player == "red" and not after.state.is_terminal
    # Each command once, in turn: nobody played Bjorn twice.
    assert len(after.log) == after.revision
    # Within the lease, a watch tick, Bjorn's thinking and the showing, on a busy machine.
    assert taken < LEASE_S + BEAT_S + 15, taken
    print(f"\ntablet took over and Bjorn's turn was played {taken:.1f} s after the phone closed")
    assert not tablet.page.get_by_role("button", name=re.compile(CONTINUE)).count()
