"""A phone on its side plays like a tablet: the isle takes the screen's height.

At 844x390, 740x360 and 915x412 every space of Gathering Isle (38, the most of any shipped
board) is inside the visible isle without scrolling, none is under a control (a button's
box, read from the semantics tree, overlaps no space's), and each is drawn at least 36 px
wide; also after the phone turns mid-game. The spaces' boxes are their semantics nodes
(`space-<id>`), as tests/browser/test_board_fit.py reads them. Screenshots of the board at
the three sizes in both themes and both languages land in
tests/artifacts/board-sideways-<lang>-<theme>-<size>.png.
"""

from __future__ import annotations

import time

import pytest
from browser_ui import BOARD, HAS_TEXT, Screen, seats
from test_board_fit import GATHERING, mid_game

from models.setup import GameSetup

SIDEWAYS = {
    "844x390": {"width": 844, "height": 390},
    "740x360": {"width": 740, "height": 360},
    "915x412": {"width": 915, "height": 412},
}
UPRIGHT = {"width": 390, "height": 844}
ACTIVE = "has 2 actions left"
# Drawn at least this wide (a node's box is the space's disc's square), to half a pixel.
DRAWN = 36 - 0.5

_BOXES = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
  const spaces = {}, controls = [];
  for (const e of document.querySelectorAll('[flt-semantics-identifier^="space-"]'))
    spaces[e.getAttribute('flt-semantics-identifier').slice(6)] = box(e);
  for (const e of document.querySelectorAll('[role=button], [role=slider], [role=checkbox], input'))
    if (!e.closest('[flt-semantics-identifier=board]')) controls.push(box(e));
  const board = document.querySelector('[flt-semantics-identifier=board]');
  return {spaces, controls, board: board ? box(board) : null};
}"""


def overlaps(a: list[float], b: list[float]) -> bool:
    """Whether two boxes (x, y, width, height) share more than a hairline."""
    return (
        min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) > 0.5
        and min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) > 0.5
    )


def isle_problems(ui: Screen) -> list[str]:
    """What is wrong with the isle as it is on screen now, without scrolling: a space missing,
    outside the visible isle, under a control or drawn under 36 px."""
    page = ui.page
    size = page.viewport_size
    seen = page.evaluate(_BOXES)
    board = seen["board"]
    if board is None:
        return ["the isle is not on screen"]
    left, top = max(board[0], 0), max(board[1], 0)
    right = min(board[0] + board[2], size["width"])
    bottom = min(board[1] + board[3], size["height"])
    problems = []
    for location in GATHERING.location_ids:
        box = seen["spaces"].get(location)
        if box is None:
            problems.append(f"{location} is not in the semantics tree")
            continue
        x, y, w, h = box
        if not (left - 1 <= x and x + w <= right + 1 and top - 1 <= y and y + h <= bottom + 1):
            problems.append(f"{location} {box} is outside the visible isle")
        if min(w, h) < DRAWN:
            problems.append(f"{location} is drawn {min(w, h):.1f} px")
        under = [control for control in seen["controls"] if overlaps(control, box)]
        if under:
            problems.append(f"{location} is under a control {under[0]}")
    return problems


def assert_isle_plays(ui: Screen, ready: str = ACTIVE, timeout: float = 15) -> None:
    """Wait until the isle fits the screen as it is (a turn may still be settling), the
    game's turn card (`ready`) in sight and no error in its place."""
    deadline = time.monotonic() + timeout
    while True:
        problems = isle_problems(ui)
        if ui.page.evaluate(f"({HAS_TEXT})", "Error running app"):
            problems.append("the app stopped with an error")
        elif not ui.page.evaluate(f"({HAS_TEXT})", ready):
            problems.append(f"{ready!r} is not on screen")
        if not problems:
            return
        assert time.monotonic() < deadline, problems
        time.sleep(0.3)


@pytest.mark.parametrize("size", list(SIDEWAYS))
def test_on_a_phone_on_its_side_every_space_is_in_sight_and_at_least_36_px(
    server, browser, artifacts, size
):
    game_id = mid_game(server)
    ui = Screen(browser.new_page(viewport=SIDEWAYS[size]), artifacts)
    ui.open(f"{server.url}/game/{game_id}", ACTIVE)
    assert_isle_plays(ui)
    # The turn card and its buttons stand beside the isle, in sight.
    board = ui.page.locator(BOARD).first.bounding_box()
    for name in ("End activation", "Done with Wyrms"):
        button = ui.button(name).first.bounding_box()
        assert button is not None and button["x"] >= board["x"] + board["width"], name
        assert button["y"] + button["height"] <= SIDEWAYS[size]["height"] + 1, name


def test_turning_the_phone_mid_game_keeps_every_space_in_sight(server, browser, artifacts):
    game_id = mid_game(server)
    ui = Screen(browser.new_page(viewport=UPRIGHT), artifacts)
    ui.open(f"{server.url}/game/{game_id}", ACTIVE)
    for viewport in (
        *SIDEWAYS.values(),
        UPRIGHT,
        SIDEWAYS["844x390"],
        {"width": 1280, "height": 800},
    ):
        ui.page.set_viewport_size(viewport)
        time.sleep(1.5)
        if viewport["width"] > viewport["height"] and viewport["height"] < 560:
            assert_isle_plays(ui)
    # Turned back to a sideways phone from a tablet's size (no new screen built): still fits.
    ui.page.set_viewport_size(SIDEWAYS["915x412"])
    time.sleep(1.5)
    assert_isle_plays(ui)
    ui.wait_for(ACTIVE)


def test_screenshots_sideways_in_both_themes_and_languages(server, browser, artifacts):
    mid_game(server)
    for lang, theme_label, resume in (
        ("en", "Light or dark theme", "Resume"),
        ("fr", "Thème clair ou sombre", "Reprendre"),
    ):
        context = browser.new_context(viewport=SIDEWAYS["844x390"], locale=lang)
        ui = Screen(context.new_page(), artifacts)
        ui.open(f"{server.url}/", resume)
        for theme in ("dark", "light"):
            if theme == "light":
                ui.page.get_by_label(theme_label).first.click()
                time.sleep(1)
            ui.page.get_by_label(resume).first.click()
            ready = ACTIVE if lang == "en" else "a encore 2 actions"
            ui.wait_for(ready)
            for size, viewport in SIDEWAYS.items():
                ui.page.set_viewport_size(viewport)
                time.sleep(1.5)
                assert_isle_plays(ui, ready)
                ui.page.screenshot(
                    path=str(artifacts / f"board-sideways-{lang}-{theme}-{size}.png")
                )
            ui.page.get_by_label("Home" if lang == "en" else "Accueil").first.click()
            ui.wait_for(resume)
        context.close()


def test_reloads_and_leaving_a_sideways_board_while_computers_play_print_no_traceback(
    server, browser, artifacts
):
    """A browser that reloads or leaves during computer turns (here on a phone on its side,
    turned upright and back) leaves the server's output clean.

    The computers are greedy ones: their turns are paced as any computer's, and their quick
    choices keep this test about what the server prints. How long a page waits while searching
    computers hold the process is a measure of its own (`bench waits-app`)."""
    setup = GameSetup(
        players=seats("red", "blue", "green", **dict.fromkeys(("red", "blue", "green"), "greedy")),
        board="gathering-isle",
        mode="digital",
    )
    game = server.new_game(setup)
    ui = Screen(browser.new_page(viewport=SIDEWAYS["844x390"]), artifacts)
    ui.open(f"{server.url}/game/{game}", "Computer")
    for turn, viewport in enumerate((UPRIGHT, SIDEWAYS["740x360"], SIDEWAYS["844x390"])):
        time.sleep(1.5 + turn * 0.5)
        # Generous: a loaded 2-core box running the whole suite can be slow to answer.
        ui.page.reload(wait_until="domcontentloaded", timeout=90000)
        ui.page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60000)
        ui.page.set_viewport_size(viewport)
    time.sleep(2)
    ui.page.goto(f"{server.url}/", wait_until="domcontentloaded")
    time.sleep(2)
    ui.page.close()
    time.sleep(3)
    said = server.said()
    assert not any(sign in said for sign in ("Traceback", "Receive loop error", "Exception in")), (
        said
    )
