"""The coach on the digital board in Chromium.

- "What would the computer do?": asked on a person's turn, the computer's move is drawn on
  the isle (each space it is about has a `hint-<id>` node of the semantics tree, over that
  space's own) and said with the chance it keeps; it records nothing, and goes when the
  position moves on.
- The chance bars: off until this device turns them on, then each player's name and chance
  now, the coach's; off again when turned off.

Screenshots with the hint drawn and the bars shown at four sizes in both themes:
tests/artifacts/board-hint-<theme>-<size>.png.
"""

from __future__ import annotations

import re
import time

from browser_ui import BOARD, Screen, scroll_to, seats

from companion.boards import shipped_board
from companion.coach.review import percent
from companion.engine import Game, GameState, Phase
from companion.engine.replay import replay
from companion.language.render import render
from companion.play.board_hint import hint_marks
from companion.play.coach_work import chances_after
from companion.store.store import open_store
from models.commands import Activate, Command, Pass, Summon
from models.game_log import GameLog
from models.rules import CreatureKind
from models.setup import GameSetup

DUEL = shipped_board("duel-isle")
# Two people at one tablet (no computer plays: the game moves only when the test taps).
HOT_SEAT = GameSetup(players=seats("red", "blue"), board="duel-isle", mode="digital")
PHONE = {"width": 390, "height": 844}
SIZES = {
    "360x740": {"width": 360, "height": 740},
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "1280x800": {"width": 1280, "height": 800},
}
ASK = "What would the computer do?"
SAID = "The computer would play: "
ACTIVE = "has 2 actions left"
CHANCE = re.compile(r"(Ragna|Bjorn): (\d+)% chance to win")

_NODES = """prefix => Object.fromEntries(
  [...document.querySelectorAll(`[flt-semantics-identifier^="${prefix}"]`)].map(e => {
    const r = e.getBoundingClientRect();
    return [e.getAttribute('flt-semantics-identifier').slice(prefix.length),
            [r.x + r.width / 2, r.y + r.height / 2, r.width]];
  }))"""
# Every label and every leaf's text in the semantics tree.
_LABELS = """() => [...document.querySelectorAll('flt-semantics')]
    .flatMap(e => [e.getAttribute('aria-label'),
                   e.querySelector('flt-semantics') ? null : e.innerText])"""
# What a node of the semantics tree says: its labels and its descendants', and its text.
_SAYS = """selector => {
  const node = document.querySelector(selector);
  if (!node) return '';
  const labels = [node, ...node.querySelectorAll('[aria-label]')]
    .map(e => e.getAttribute('aria-label') || '');
  return [...labels, node.innerText].join(' ');
}"""
# Every button whole in the window, and its height.
_BUTTONS = """() => [...document.querySelectorAll('flt-semantics[role=button]')]
    .map(e => [e.innerText || e.getAttribute('aria-label') || '?', e.getBoundingClientRect()])
    .filter(([, r]) => r.height > 0 && r.top >= 0 && r.bottom < window.innerHeight - 12)
    .map(([name, r]) => [name, r.height])"""


def attack_ready(server) -> tuple[str, list[Command]]:
    """Round 1's Actions: Ragna's Wyrm (Rune Hollow 1) is active beside Bjorn's Sprite."""
    state = Game(HOT_SEAT, DUEL).new_initial_state()
    records: list[Command] = [
        Summon(CreatureKind.WYRM, "rh1"),
        Pass(),
        Summon(CreatureKind.TROLL, "tf1"),
        Summon(CreatureKind.SPRITE, "rh2"),
    ]
    for record in records:
        state.apply(record)
    while state.phase is Phase.SUMMONING:
        state.apply(Pass())
        records.append(Pass())
    records.append(Activate("rh1"))
    with open_store(server.db) as store:
        return store.import_log(GameLog.of(HOT_SEAT, records)).id, records


def nodes(ui: Screen, prefix: str) -> dict[str, tuple[float, float, float]]:
    """The semantics nodes whose identifier starts with `prefix`: (centre x, y, width)."""
    return ui.page.evaluate(_NODES, prefix)


def says(ui: Screen, selector: str) -> str:
    """What a node of the semantics tree says ('' while it is not shown)."""
    return ui.page.evaluate(_SAYS, selector).replace("\u00a0", " ")


def hint_text(ui: Screen) -> str:
    """What the hint's card says (nothing while it is not shown)."""
    return says(ui, "[flt-semantics-identifier=computer-hint]")


def hinted_command(state: GameState, said: str) -> Command:
    """The legal command whose sentence the hint says."""
    found = [
        command
        for command in state.legal_commands()
        if f"{SAID}{render(state.sentence(command), 'en')}.".replace("\u00a0", " ") in said
    ]
    assert len(found) == 1, f"no legal command is said in {said!r}"
    return found[0]


def ask(ui: Screen) -> str:
    """Tap "What would the computer do?" and wait for its answer; what the card says."""
    ui.click(scroll_to(ui.page, ui.button(ASK)))
    ui.wait_for(SAID, timeout=90)
    return hint_text(ui)


def wait_gone(ui: Screen, when: str) -> None:
    """Wait until no hint is drawn on the isle nor said in its card."""
    deadline = time.monotonic() + 10
    while nodes(ui, "hint-") or SAID in hint_text(ui):
        assert time.monotonic() < deadline, f"the hint stayed {when}"
        time.sleep(0.3)


def wheel(ui: Screen, x: float, dy: float) -> None:
    """Scroll what is under the point (x, mid-height) with the mouse wheel."""
    ui.page.mouse.move(x, ui.page.viewport_size["height"] / 2)
    ui.page.mouse.wheel(0, dy)
    time.sleep(0.8)


def bar_chances(ui: Screen) -> dict[str, int]:
    """The chances the bars say, by player name (nothing while they are off)."""
    found = {}
    for label in ui.page.evaluate(_LABELS):
        match = CHANCE.fullmatch(label or "")
        if match:
            found[match.group(1)] = int(match.group(2))
    return found


def test_the_computers_move_is_drawn_on_the_isle_said_and_gone_when_play_moves_on(
    server, browser, artifacts
):
    game_id, records = attack_ready(server)
    state = replay(Game(HOT_SEAT, DUEL), records)
    with open_store(server.db) as store:
        before = store.load(game_id)
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}", ACTIVE)
    assert nodes(ui, "hint-") == {}
    said = ask(ui)
    command = hinted_command(state, said)
    assert re.search(r"Ragna would keep a \d+% chance to win", said), said
    # Drawn on the isle: a node over each space the engine says the move is about, where
    # that space is drawn; the isle's description says it too.
    marks = hint_marks(state, command)
    expected = set(marks.arrow[:1]) | set(marks.rings)
    assert expected, "the hint is about some space"
    scroll_to(ui.page, ui.page.locator(BOARD).first)
    hinted, spaces = nodes(ui, "hint-"), nodes(ui, "space-")
    assert set(hinted) == expected
    for location, (x, y, width) in hinted.items():
        sx, sy, swidth = spaces[location]
        assert abs(x - sx) < 1 and abs(y - sy) < 1 and abs(width - swidth) < 1
    assert SAID in says(ui, BOARD)
    ui.page.screenshot(path=str(artifacts / "board-hint-asked.png"))

    # The hint recorded nothing.
    with open_store(server.db) as store:
        after = store.load(game_id)
    assert after.revision == before.revision and after.log == before.log

    # A tap on the control hides it; another asks again (the coach kept the answer).
    ui.click(scroll_to(ui.page, ui.button("Hide the computer's move")))
    wait_gone(ui, "after the hint was hidden")
    assert hinted_command(state, ask(ui)) == command

    # Play moves on (Ragna ends the activation): the hint is gone from the isle and the card.
    ui.click(ui.button("End activation"))
    ui.wait_for("Bjorn's turn")
    wait_gone(ui, "after the position moved on")
    assert SAID not in says(ui, BOARD)


def test_the_chance_bars_show_each_players_chance_only_once_switched_on(server, browser, artifacts):
    game_id, records = attack_ready(server)
    game = Game(HOT_SEAT, DUEL)
    chances = chances_after(game, records)
    expected = {
        game.labels[line.player]: int(render(percent(line.chance), "en")[:-1])
        for line in chances.players
    }
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}", ACTIVE)
    switch = scroll_to(ui.page, ui.page.get_by_role("switch", name="Show win chances"))
    ui.wait_for("Hidden on this device: no spoilers until you turn them on.")
    assert bar_chances(ui) == {}
    ui.click(switch)
    ui.wait_for("Win chances now")
    # The bars grow the card under the switch: the whole card in view.
    scroll_to(ui.page, ui.page.locator("[flt-semantics-identifier=chance-bars]").first)
    deadline = time.monotonic() + 90
    while bar_chances(ui) != expected:
        assert time.monotonic() < deadline, f"bars {bar_chances(ui)}, expected {expected}"
        time.sleep(0.5)
    # Each bar says its player's name and percent as text, not by colour alone.
    for name, chance in expected.items():
        ui.wait_for(f"{name}: {chance}% chance to win")
    ui.page.screenshot(path=str(artifacts / "board-hint-bars-on.png"))
    ui.click(scroll_to(ui.page, ui.page.get_by_role("switch", name="Show win chances")))
    ui.wait_for("Hidden on this device: no spoilers until you turn them on.")
    deadline = time.monotonic() + 10
    while bar_chances(ui):
        assert time.monotonic() < deadline, "the bars stayed after the switch was turned off"
        time.sleep(0.3)


def test_screenshots_with_the_hint_drawn_and_the_bars_shown(server, browser, artifacts):
    attack_ready(server)
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    # The theme is the tab's: the game is opened from Home in the same tab, not by a new load.
    ui.open(f"{server.url}/", "Resume")
    for theme in ("dark", "light"):
        if theme == "light":
            ui.click(ui.page.get_by_label("Light or dark theme"))
            time.sleep(1)
        ui.click(ui.page.get_by_label(re.compile("^Resume")).first)
        ui.wait_for(ACTIVE)
        switch = scroll_to(ui.page, ui.page.get_by_role("switch", name="Show win chances"))
        if switch.get_attribute("aria-checked") != "true":
            ui.click(switch)
        ui.wait_for("% chance to win", timeout=90)
        ask(ui)
        for size, viewport in SIZES.items():
            ui.page.set_viewport_size(viewport)
            time.sleep(1.5)
            ui.wait_for(SAID)
            short = [(n, h) for n, h in ui.page.evaluate(_BUTTONS) if h < 47.5]
            assert short == [], f"{theme} {size}: buttons under 48 px: {short}"
            upright = viewport["width"] < 768 and viewport["height"] > viewport["width"]
            if upright:
                # The isle at the top, the turn card and the hint under it.
                wheel(ui, viewport["width"] / 2, -3000)
            ui.page.screenshot(path=str(artifacts / f"board-hint-{theme}-{size}.png"))
            if size == "844x390":
                # On its side the bars are in the panels' drawer, under the players.
                ui.click(
                    ui.page.get_by_label("Players, energy and the last Energy and Reset").first
                )
                time.sleep(1.2)
                wheel(ui, viewport["width"] - 150, 300)
                ui.page.screenshot(path=str(artifacts / f"board-hint-{theme}-{size}-panels.png"))
                ui.page.keyboard.press("Escape")
                time.sleep(0.8)
            if upright:
                ui.shot(f"board-hint-{theme}-{size}-whole", tall=1500)
        ui.page.set_viewport_size(PHONE)
        time.sleep(1)
        ui.click(ui.page.get_by_label("Home").first)
        ui.wait_for("Resume")
