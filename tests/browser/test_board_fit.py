"""The isle fits every screen: a phone turned to landscape and back mid-game, a tablet resized.

Each space is a node of Flutter's semantics tree (`space-<id>`) drawn where the space is:
the test reads their boxes, as a screen reader would, and checks that no two spaces overlap
and that every one lies inside the canvas. Screenshots of the board at four sizes in both
themes land in tests/artifacts/board-fit-<theme>-<size>.png.
"""

from __future__ import annotations

import math
import random
import re
import time

from browser_ui import BOARD, Screen, tap_location

from companion.boards import shipped_board
from companion.engine import Game, Phase
from companion.store.store import open_store
from models.board import Board
from models.commands import Activate, Command, Pass, Summon
from models.game_log import GameLog
from models.rules import CreatureKind
from models.setup import GameSetup

SIZES = {
    "360x740": {"width": 360, "height": 740},
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "1280x800": {"width": 1280, "height": 800},
}
PORTRAIT, LANDSCAPE = SIZES["390x844"], SIZES["844x390"]
GATHERING = shipped_board("gathering-isle")
FOUR = GameSetup(
    players=[
        {"id": "red", "name": "Ragna", "colour": "red"},
        {"id": "blue", "name": "Bjorn", "colour": "blue"},
        {"id": "green", "name": "Sigrid", "colour": "green"},
        {"id": "yellow", "name": "Ylva", "colour": "yellow"},
    ],
    board="gathering-isle",
    mode="digital",
)
# What each player summons in round 1 of the set position.
SUMMONS = {CreatureKind.WYRM: 1, CreatureKind.TROLL: 1, CreatureKind.SPRITE: 2}
ACTIVE = "has 2 actions left"

_SPACE_BOXES = """() => Object.fromEntries(
  [...document.querySelectorAll('[flt-semantics-identifier^="space-"]')].map(e => {
    const r = e.getBoundingClientRect();
    return [e.getAttribute('flt-semantics-identifier').slice(6), [r.x, r.y, r.width, r.height]];
  }))"""


def mid_game(server) -> str:
    """A 4-player game in its first Actions phase: every seat has creatures out, Ragna's
    Wyrm is active (its moves marked); the game's id."""
    state = Game(FOUR, GATHERING).new_initial_state()
    rng = random.Random(11)
    summoned = {(p, kind): 0 for p in state.game.players for kind in SUMMONS}
    commands: list[Command] = []
    while state.phase is Phase.SUMMONING:
        legal = state.legal_commands()
        player = state.current_player
        summons = [c for c in legal if isinstance(c, Summon)]
        kind = state.step_kind
        if summons and kind is not None and summoned[(player, kind)] < SUMMONS[kind]:
            command: Command = rng.choice(summons)
            summoned[(player, kind)] += 1
        else:
            command = next(c for c in legal if isinstance(c, Pass))
        state.apply(command)
        commands.append(command)
    assert state.current_player == "red"
    activate = next(
        c
        for c in state.legal_commands()
        if isinstance(c, Activate) and state.creatures()[c.location].kind is CreatureKind.WYRM
    )
    commands.append(activate)
    with open_store(server.db) as store:
        return store.import_log(GameLog.of(FOUR, commands)).id


def spaces_seen(page) -> dict[str, tuple[float, float, float]]:
    """Spaces wholly on screen, as (centre x, centre y, diameter), from the semantics tree.

    A node cut by the screen's edge is left out: its box is clipped, not the space's.
    """
    boxes = page.evaluate(_SPACE_BOXES)
    return {
        location: (x + w / 2, y + h / 2, w)
        for location, (x, y, w, h) in boxes.items()
        if w > 0 and abs(w - h) < 1.5
    }


def fitting(page) -> dict[str, tuple[float, float, float]] | None:
    """The spaces wholly inside the canvas's box on screen, if no two spaces overlap; else None.

    The canvas's box is clipped to the screen: scrolled through, every space must show in it.
    """
    canvas = page.locator(BOARD).first.bounding_box()
    seen = spaces_seen(page)
    if canvas is None or not seen:
        return None
    spaces = list(seen.values())
    for i, (ax, ay, ad) in enumerate(spaces):
        for bx, by, bd in spaces[i + 1 :]:
            if math.dist((ax, ay), (bx, by)) < (ad + bd) / 2 - 0.5:
                return None
    left, top = canvas["x"] - 1, canvas["y"] - 1
    right, bottom = left + canvas["width"] + 2, top + canvas["height"] + 2
    return {
        location: (x, y, d)
        for location, (x, y, d) in seen.items()
        if left <= x - d / 2 and x + d / 2 <= right and top <= y - d / 2 and y + d / 2 <= bottom
    }


def wait_fitting(page, timeout: float = 15) -> dict[str, tuple[float, float, float]]:
    """Wait until no two spaces overlap (a resize may still be settling); the spaces seen
    wholly inside the canvas, possibly none when the isle is scrolled off the screen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seen = fitting(page)
        if seen is not None:
            return seen
        time.sleep(0.3)
    raise AssertionError(f"spaces overlap: {spaces_seen(page)}")


def scroll(page, dy: float) -> None:
    """Scroll the screen with the wheel, the pointer mid-screen, above any bar of buttons."""
    size = page.viewport_size
    page.mouse.move(size["width"] / 2, size["height"] * 0.55)
    page.mouse.wheel(0, dy)
    time.sleep(0.6)


def assert_whole_isle_fits(ui: Screen, board: Board) -> None:
    """Every space of the isle, found in the semantics tree, fits: a short screen is scrolled
    through from the top of the isle to its bottom."""
    page = ui.page
    scroll(page, -3000)
    seen: set[str] = set()
    for _ in range(12):
        seen |= set(wait_fitting(page))
        if seen == set(board.location_ids):
            return
        scroll(page, 120)
    raise AssertionError(f"spaces never shown whole: {set(board.location_ids) - seen}")


def resize(ui: Screen, viewport: dict) -> None:
    """Turn or resize the screen and give Flutter and the app a moment to lay it out again."""
    ui.page.set_viewport_size(viewport)
    time.sleep(1.5)


def test_the_isle_refits_when_a_phone_turns_and_a_tablet_resizes_mid_game(
    server, browser, artifacts
):
    game_id = mid_game(server)
    ui = Screen(browser.new_page(viewport=PORTRAIT), artifacts)
    ui.open(f"{server.url}/game/{game_id}", ACTIVE)
    tap_location(ui.page, GATHERING, "tm1", click=False)
    # Upright, the whole isle shows at once.
    deadline = time.monotonic() + 15
    while set(wait_fitting(ui.page)) != set(GATHERING.location_ids):
        assert time.monotonic() < deadline, "the isle never showed whole"
        time.sleep(0.3)
    # Turned to landscape and back, twice; then tablet sizes, upright and sideways.
    for viewport in (
        LANDSCAPE,
        PORTRAIT,
        LANDSCAPE,
        SIZES["1280x800"],
        {"width": 800, "height": 1280},
        SIZES["360x740"],
    ):
        resize(ui, viewport)
        assert_whole_isle_fits(ui, GATHERING)
    # Still the same game, still Ragna's Wyrm to move: the turn goes on after every turn.
    ui.wait_for(ACTIVE)


def test_a_reload_or_a_screen_opened_after_turning_fits_the_screen_as_it_is(
    server, browser, artifacts
):
    """Turned on the table screen, then the digital game opened; then reloaded turned back."""
    game_id = mid_game(server)
    table_id = server.new_game(GameSetup(players=FOUR.players, board="gathering-isle"))
    ui = Screen(browser.new_page(viewport=PORTRAIT), artifacts)
    ui.open(f"{server.url}/game/{table_id}", "Round 1")
    resize(ui, LANDSCAPE)
    resize(ui, PORTRAIT)
    ui.open(f"{server.url}/game/{game_id}", ACTIVE)
    assert_whole_isle_fits(ui, GATHERING)
    resize(ui, LANDSCAPE)
    ui.page.reload()
    ui.open(ui.page.url, ACTIVE)
    assert_whole_isle_fits(ui, GATHERING)
    resize(ui, PORTRAIT)
    ui.page.reload()
    ui.open(ui.page.url, ACTIVE)
    assert_whole_isle_fits(ui, GATHERING)


def test_the_board_editor_refits_when_the_phone_turns(server, browser, artifacts):
    duel = shipped_board("duel-isle")
    ui = Screen(browser.new_page(viewport=LANDSCAPE), artifacts)
    ui.open(f"{server.url}/board-editor", "Ready for the digital board")
    assert_whole_isle_fits(ui, duel)
    ui.page.screenshot(path=str(artifacts / "board-fit-editor-844x390.png"))
    resize(ui, PORTRAIT)
    assert_whole_isle_fits(ui, duel)
    scroll(ui.page, -3000)
    tap_location(ui.page, duel, "rh1", click=False)
    ui.page.screenshot(path=str(artifacts / "board-fit-editor-390x844.png"))


def test_screenshots_of_the_board_at_four_sizes_in_both_themes(server, browser, artifacts):
    mid_game(server)
    ui = Screen(browser.new_page(viewport=PORTRAIT), artifacts)
    # The theme is the tab's: the game is opened from Home in the same tab, not by a new load.
    ui.open(f"{server.url}/", "Resume")
    for theme in ("dark", "light"):
        if theme == "light":
            ui.click(ui.page.get_by_label("Light or dark theme"))
            time.sleep(1)
        ui.click(ui.page.get_by_label(re.compile("^Resume")).first)
        ui.wait_for(ACTIVE)
        for size, viewport in SIZES.items():
            resize(ui, viewport)
            scroll(ui.page, -3000)
            # The isle's top in view: on a phone the turn card sits above it.
            if viewport["width"] < 768:
                scroll(ui.page, 150)
            assert wait_fitting(ui.page)
            ui.page.screenshot(path=str(artifacts / f"board-fit-{theme}-{size}.png"))
        resize(ui, PORTRAIT)
        ui.click(ui.page.get_by_label("Home").first)
        ui.wait_for("Resume")
