"""The rules at a glance in Chromium: one tap from Home and every game screen, opened at the
part where the player is (Summoning, Actions, an attack, Energy and Reset), at 360x740 and
1280x800, in English and in French; a search for 'bounty' finds the parts that say it.

Screenshots land in tests/artifacts/ as aid-<case>-<language>-<size>.png (aid-bar-...: the
table screen before the aid opens), and aid-home-<theme>-<size>.png at four sizes in both
themes.
"""

from __future__ import annotations

import time

from browser_ui import (
    HAS_TEXT,
    PHONE,
    TABLET,
    Screen,
    box_in_view,
    click_until,
    seats,
    tap_location,
)

from companion.engine import Phase
from companion.language import Message
from companion.language.render import language
from companion.play.aid_view import aid_parts, opening_part
from companion.store.store import open_store
from models.commands import Pass, Skip, Summon
from models.game_log import GameLog
from models.setup import GameSetup

DUEL = GameSetup(players=seats("red", "blue"), board="duel-isle")
DIGITAL = GameSetup(players=seats("red", "blue"), board="duel-isle", mode="digital")
# Ragna's Wyrm at rh1 beside Bjorn's Sprites at rh2 and rh3: Ragna's Wyrm acts first.
ATTACK = [
    Summon("wyrm", "rh1"),
    Pass(),
    Pass(),
    Summon("sprite", "rh2"),
    Summon("sprite", "rh3"),
    Pass(),
]
SIZES = {"360x740": PHONE, "1280x800": TABLET}
SHOT_SIZES = {
    "360x740": PHONE,
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "1280x800": TABLET,
}
LOCALES = {"en": "en-US", "fr": "fr-FR"}


def games(server) -> dict[str, str]:
    """A table game at Summoning, one at Energy and Reset, a digital one at Actions and one
    whose round 1 tally is read: ids."""
    with open_store(server.db) as store:
        summoning = store.new_game(DUEL).id
        reset = store.import_log(GameLog.of(DUEL, [Skip("summoning")]))
        actions = store.import_log(GameLog.of(DIGITAL, ATTACK))
        # Everyone passed every step: round 1's Energy and Reset is done, its tally to read.
        read = store.import_log(GameLog.of(DIGITAL, [Pass()] * 6))
    assert reset.state.phase is Phase.ENERGY_AND_RESET
    assert actions.state.phase is Phase.ACTIONS
    assert read.state.round == 2 and read.log[-1].reset is not None
    return {"summoning": summoning, "reset": reset.id, "actions": actions.id, "read": read.id}


def say(code: str, message_id: str, **values) -> str:
    """A message in a language, as the app renders it."""
    return language(code).render(Message(message_id, **values))


def open_aid(ui: Screen, code: str) -> None:
    """Tap the aid's button (a game bar's icon, named by its tooltip; Home's, by its words)
    and wait for the search field."""
    title = say(code, "aid.app.title")
    page = ui.page
    button = page.get_by_label(title, exact=True).or_(page.get_by_role("button", name=title)).first
    ui.wait_until_shown(button)
    ui.pace()
    # A tap just after the theme switched or the page resized can land before Flutter listens.
    click_until(ui, button, say(code, "aid.app.search"))


def close_aid(ui: Screen, code: str) -> None:
    """Close the aid; the screen under it shows again."""
    ui.click(ui.page.get_by_label(say(code, "aid.app.close"), exact=True).first)
    ui.page.wait_for_function(
        f"t => !({HAS_TEXT})(t)", arg=say(code, "aid.app.search"), timeout=10000
    )


def shot(ui: Screen, name: str) -> None:
    """A screenshot once the page has painted what its semantics already say (a large page
    paints in software a while after)."""
    time.sleep(1.5)
    ui.page.screenshot(path=str(ui.artifacts / f"{name}.png"))


def opened_at(ui: Screen, code: str, key: str) -> None:
    """The aid shows the part keyed `key` marked where the player is, its title in view."""
    here = say(code, "aid.app.here")
    ui.wait_for(here)
    marker = box_in_view(ui, ui.page.get_by_text(here, exact=True).first)
    assert marker is not None, f"the aid opened, but not at {key}"
    title = {part.key: part.title for part in aid_parts(language(code))}[key]
    heading = ui.page.get_by_text(title, exact=True)
    boxes = [heading.nth(i).bounding_box() for i in range(heading.count())]
    assert any(box and 0 < box["y"] - marker["y"] < 60 for box in boxes), f"{title} not marked"


def test_the_aid_opens_where_the_player_is_in_both_languages(server, browser, artifacts):
    ids = games(server)
    for code, locale in LOCALES.items():
        for size, viewport in SIZES.items():
            context = browser.new_context(viewport=viewport, locale=locale)
            ui = Screen(context.new_page(), artifacts)
            title = say(code, "aid.app.title")

            ui.open(f"{server.url}/game/{ids['summoning']}", title)
            shot(ui, f"aid-bar-{code}-{size}")  # the game bar, its round beside four actions
            open_aid(ui, code)
            opened_at(ui, code, opening_part(Phase.SUMMONING) or "")
            shot(ui, f"aid-summoning-{code}-{size}")
            close_aid(ui, code)

            ui.open(f"{server.url}/game/{ids['actions']}", title)
            open_aid(ui, code)
            opened_at(ui, code, opening_part(Phase.ACTIONS) or "")
            shot(ui, f"aid-actions-{code}-{size}")
            close_aid(ui, code)
            # Ragna's Wyrm, then Bjorn's Sprite: the attack's panel, and from it the odds.
            with open_store(server.db) as store:
                board = store.load(ids["actions"]).game.board
            tap_location(ui.page, board, "rh1")
            time.sleep(1)
            tap_location(ui.page, board, "rh2")
            odds = say(code, "aid.app.odds")
            ui.wait_for(odds)
            ui.click(ui.page.get_by_role("button", name=odds).first)
            opened_at(ui, code, opening_part(attacking=True) or "")
            shot(ui, f"aid-attack-{code}-{size}")
            close_aid(ui, code)
            # The attack's panel shows again under it, as it was.
            ui.wait_for(odds)
            ui.click(ui.button(say(code, "game.attack.cancel")).first)
            ui.page.wait_for_function(f"t => !({HAS_TEXT})(t)", arg=odds, timeout=10000)

            ui.open(f"{server.url}/game/{ids['reset']}/reset", title)
            open_aid(ui, code)
            opened_at(ui, code, opening_part(Phase.ENERGY_AND_RESET) or "")
            shot(ui, f"aid-reset-{code}-{size}")
            close_aid(ui, code)

            # The digital board's tally of round 1, read while play is at round 2 already.
            ui.open(f"{server.url}/game/{ids['read']}", say(code, "game.tally.title", round=1))
            open_aid(ui, code)
            opened_at(ui, code, opening_part(Phase.ENERGY_AND_RESET) or "")
            close_aid(ui, code)
            context.close()


def test_a_search_finds_bounty_and_home_opens_the_aid_in_both_themes(server, browser, artifacts):
    ui = Screen(browser.new_context(viewport=PHONE, locale="en-US").new_page(), artifacts)
    ui.open(server.url, "Rules at a glance")
    open_aid(ui, "en")
    # From Home the aid opens at its top: no part is where the player is.
    ui.wait_for("The round")
    assert not ui.page.evaluate(HAS_TEXT, "Where you are")
    # Read down a while first: what a search finds still starts at its first part.
    ui.page.mouse.move(PHONE["width"] / 2, PHONE["height"] * 0.7)
    ui.page.mouse.wheel(0, 1500)
    time.sleep(1)
    field = ui.page.get_by_role("textbox").first
    field.click()
    ui.page.keyboard.type("bounty")
    ui.wait_for("2 parts say “bounty”.")
    assert box_in_view(ui, ui.page.get_by_text("The creatures", exact=True).first)
    assert not ui.page.evaluate(HAS_TEXT, "Movement")
    shot(ui, "aid-search-bounty-360x740")
    ui.page.keyboard.type(" dragon")
    ui.wait_for("No part of the rules says “bounty dragon”.")
    close_aid(ui, "en")

    theme = ui.page.get_by_label(say("en", "app.home.theme"), exact=True).first
    for size, viewport in SHOT_SIZES.items():
        ui.page.set_viewport_size(viewport)
        # Dark first (the app's own), then light; the switch back leaves it dark again.
        for shade in ("dark", "light"):
            time.sleep(1)
            open_aid(ui, "en")
            shot(ui, f"aid-home-{shade}-{size}")
            close_aid(ui, "en")
            ui.click(theme)
