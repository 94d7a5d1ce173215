"""A double tap on a slow phone records one summon; two deliberate taps record two.

Chromium's CPU is throttled (DevTools' `Emulation.setCPUThrottlingRate`) as a slow phone's
would be: the page takes hundreds of milliseconds to draw the screen a tap changed, and the
second half of a double tap can reach the app well after the first. The page tells the two
apart on the phone, by its pointer events' own times (`companion.app.web_page.DOUBLE_TAP`).
"""

from __future__ import annotations

import time

from browser_ui import Finger, Screen

from companion.store.store import open_store
from models.commands import Correction, Skip, Summon
from models.rules import CreatureKind
from models.setup import GameSetup

PHONE = {"width": 390, "height": 844}
T, S = CreatureKind.TROLL, CreatureKind.SPRITE
NAMES = ("Ann", "Bob", "Cy", "Dag")
SETUP = GameSetup(
    players=[{"id": name.lower(), "name": name} for name in NAMES], board="gathering-isle"
)
# A finger's double taps: two taps at one spot, 80 to 270 ms apart.
GAPS_S = (0.08, 0.12, 0.17, 0.22, 0.27)
# Two taps a person means as two summons.
DELIBERATE_S = 0.7
# Long enough for a tap's second half to have reached the store, on a throttled page.
SETTLE_S = 1.2
# The squares of the Trolls and Sprites steps, in the order the test taps them: each player's
# Trolls, then each player's Sprites (a tap on a later player's square passes the others).
TROLLS = [(player, T, left) for player in NAMES for left in (3, 2)]
SPRITES = [(player, S, left) for player in NAMES for left in (9, 8, 7)]


def summons(server, game_id: str) -> int:
    """How many summons the game's log holds now."""
    with open_store(server.db) as store:
        return sum(isinstance(entry.command, Summon) for entry in store.load(game_id).log)


def wait_for_summons(server, game_id: str, count: int) -> int:
    """The game's summons once `count` are there (or 15 s passed), and a while after."""
    deadline = time.monotonic() + 15
    while summons(server, game_id) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(SETTLE_S)
    return summons(server, game_id)


def rich_game(server) -> str:
    """A game in its Trolls step in which every player can afford every creature left."""
    with open_store(server.db) as store:
        saved = store.new_game(SETUP)
        fixes = [Correction(name.lower(), 30, "rich for the test") for name in NAMES]
        saved = store.append_all(saved.id, [*fixes, Skip("summoning", T)], saved.revision)
        return saved.id


class SlowPhone:
    """A touch phone on a new rich game, its CPU throttled `rate` times, with no screen
    reader: its taps go through Flutter's gestures as a finger's do. A second page of the same
    size, with the semantics tree on, finds where each square is."""

    def __init__(self, server, browser, artifacts, rate: int) -> None:
        self.game_id = rich_game(server)
        url = f"{server.url}/game/{self.game_id}"
        self.map = Screen(browser.new_page(viewport=PHONE), artifacts)
        self.map.open(url, "Ann: summon a Troll (3 left)")
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        self.page = context.new_page()
        self.page.goto(url, wait_until="domcontentloaded")
        self.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60000)
        # The app draws its first screen a while after Flutter's placeholder shows.
        time.sleep(3)
        self.finger = Finger(self.page)
        self.finger.throttle(rate)

    def spot(self, name: str) -> tuple[float, float]:
        """The middle of the square named `name` once it shows."""
        target = self.map.page.get_by_role("button", name=name).first
        target.wait_for(timeout=60000)
        box = target.bounding_box()
        assert box is not None, f"{name!r} has no box"
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def two_taps(self, player: str, kind: CreatureKind, left: int, gap_s: float) -> None:
        """Two taps `gap_s` apart at the spot of the player's square for `kind`."""
        x, y = self.spot(f"{player}: summon a {kind.title} ({left} left)")
        self.finger.taps(x, y, gap_s)

    def close(self) -> None:
        """Close both pages."""
        self.page.context.close()
        self.map.page.close()


# A phone six times slower than this box: its redraws lag a finger's second tap most.
RATE = 6


def test_double_taps_on_a_slow_phone_record_one_summon_each(server, browser, artifacts):
    phone = SlowPhone(server, browser, artifacts, RATE)
    # Every gap of a finger's double tap, at least twice over.
    squares = TROLLS[::2] + SPRITES[:8]
    for made, (player, kind, left) in enumerate(squares, start=1):
        phone.two_taps(player, kind, left, GAPS_S[made % len(GAPS_S)])
        assert wait_for_summons(server, phone.game_id, made) == made, (
            f"a double tap on {player}'s {kind.title} recorded twice"
        )
    assert len(squares) == 12


def test_two_deliberate_taps_on_a_slow_phone_record_two_summons(server, browser, artifacts):
    phone = SlowPhone(server, browser, artifacts, RATE)
    made = 0
    for player, kind, left in [TROLLS[0], TROLLS[2], TROLLS[4], *SPRITES[:9:3]]:
        phone.two_taps(player, kind, left, DELIBERATE_S)
        made += 2
        assert wait_for_summons(server, phone.game_id, made) == made, (
            f"two taps on {player}'s {kind.title}, {DELIBERATE_S} s apart, did not record two"
        )
    assert made == 12
    phone.close()
