"""The Energy and Reset screen in Chromium: nothing assumed, every creature accounted for.

After a recorded removal the screen offers no creature the record says is gone
and guesses nothing it cannot know; a creature left unplaced is refused by name, not taken
as removed; one tap places a creature, and Apply and the tally stay in view on a phone.
Each game is imported at round 2's Energy and Reset (round 1's board already recorded).
"""

from __future__ import annotations

import time

from browser_ui import HAS_TEXT, PHONE, TABLET, Screen, box_in_view, click_until, seats
from test_share_table import SharedServer, joined

from companion.engine.table_reset import reset_draft
from companion.store.store import open_store
from models.commands import (
    EnergyAndReset,
    Placement,
    Removal,
    Removed,
    Skip,
    Summon,
)
from models.game_log import GameLog
from models.rules import CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
SETUP = GameSetup(players=seats("red", "blue", "green"), board="gathering-isle")
# Round 1: Ragna's Wyrm in Rune Hollow; Bjorn's Troll and a Sprite in Ashgrove, his other
# Sprite in Troll Mire; Sigrid's two Sprites hold Skald's Stair (2 places, bonus 1).
ROUND_1 = [
    Summon(W, by="red"),
    Skip("summoning", T, "blue"),
    Summon(T, by="blue"),
    Skip("summoning", S, "blue"),
    Summon(S, by="blue"),
    Summon(S, by="blue"),
    Summon(S, by="green"),
    Summon(S, by="green"),
    Skip("summoning"),
    Skip("actions"),
    EnergyAndReset(
        (
            Placement("rh1", "red", W),
            Placement("ag1", "blue", T),
            Placement("ag2", "blue", S),
            Placement("tm1", "blue", S),
            Placement("ss1", "green", S),
            Placement("ss2", "green", S),
        ),
        (),
        (),
    ),
]
# Round 2's Actions open with Ragna's Wyrm (lowest energy): it removes Bjorn's Troll and one
# of his Sprites; which Sprite, Ashgrove's or Troll Mire's, the record does not say.
REMOVALS = [Removal("blue", T, by="red"), Removal("blue", S, by="red")]
PHONE_TALL = {"width": 390, "height": 844}
LANDSCAPE = {"width": 844, "height": 390}


def at_reset(server, round_2: list) -> str:
    """Save a game at round 2's Energy and Reset for the server; its id."""
    with open_store(server.db) as store:
        return at_reset_in(store, round_2)


def at_reset_in(store, round_2: list) -> str:
    """Save a game at round 2's Energy and Reset in a store; its id."""
    saved = store.import_log(GameLog.of(SETUP, [*ROUND_1, *round_2, Skip("actions")]))
    assert saved.state.phase.value == "energy_and_reset"
    return saved.id


def load(server, game_id: str):
    """The game as the store has it now."""
    with open_store(server.db) as store:
        return store.load(game_id)


def open_reset(browser, artifacts, server, game_id: str, ready: str, viewport=PHONE_TALL):
    """A phone showing the game's Energy and Reset screen."""
    ui = Screen(browser.new_page(viewport=viewport), artifacts)
    ui.open(f"{server.url}/game/{game_id}/reset", ready)
    return ui


def buttons_named(ui, start: str) -> int:
    """How many buttons' names start with `start`."""
    return ui.page.evaluate(
        """s => [...document.querySelectorAll('flt-semantics[role=button]')]
             .filter(e => (e.getAttribute('aria-label') || e.innerText).startsWith(s)).length""",
        start,
    )


def tally_label(ui) -> str:
    """The bar's one-sentence tally, e.g. 'Tally: Ragna 5 → 10, ... Next: ...'."""
    label = ui.page.locator("[flt-semantics-identifier=reset-tally]").first
    text = label.get_attribute("aria-label") or label.inner_text()
    return text.replace("\u00a0", " ")  # the app keeps '5 → 10' on one line


def expected_tally(saved, draft, *, left: int) -> str:
    """What the bar must say for a draft: the engine's numbers for its trial record."""
    trial = saved.state.clone()
    trial.apply(draft.trial())
    tally = trial.last_tally
    labels = saved.game.labels
    numbers = ", ".join(f"{labels[t.player]} {t.before} → {t.after}" for t in tally.players)
    heading = f"Tally so far ({left} to place)" if left else "Tally"
    order = " → ".join(labels[p] for p in tally.turn_order)
    return f"{heading}: {numbers}. Next: {order}"


def laid_out(ui, wide: bool) -> None:
    """Wait for the screen's layout at the viewport's width: the tally explained beside the
    cards when wide, one tap away (Why?) on a phone (the app builds it anew across 800 px)."""
    ui.page.wait_for_function(
        """([text, wide]) => (document.body.innerText.includes(text) ||
             [...document.querySelectorAll('[aria-label]')]
               .some(e => e.getAttribute('aria-label').includes(text))) === wide""",
        arg=[" starts on ", wide],
        timeout=20000,
    )


def test_a_removed_creature_is_not_pre_filled_and_what_is_placed_is_recorded(
    server, browser, artifacts
):
    game_id = at_reset(server, [Skip("summoning"), *REMOVALS])
    before = load(server, game_id)
    ui = open_reset(browser, artifacts, server, game_id, "Where is Bjorn's Sprite now?")
    # The removed Troll is offered nowhere; both Sprites' places are named, neither is guessed.
    ui.wait_for("last seen: Ashgrove, Troll Mire; 1 removed this round")
    assert buttons_named(ui, "Bjorn's Troll") == 0
    assert buttons_named(ui, "Bjorn's Sprite in ") == 0
    assert buttons_named(ui, "Ragna's Wyrm in Rune Hollow") == 1
    assert buttons_named(ui, "Sigrid's Sprite in Skald's Stair") == 2
    draft = reset_draft(before.state)
    assert tally_label(ui) == expected_tally(before, draft, left=1)

    # One tap places it; then Apply.
    ui.tap("Put Bjorn's Sprite in Troll Mire", "Every creature is accounted for")
    draft.place(draft.next_to_place(None), "troll-mire")
    assert tally_label(ui) == expected_tally(before, draft, left=0)
    ui.shot("reset-removed-placed", tall=844)
    # The tally explained is one tap from the pinned numbers, then closed again.
    ui.tap("Why?", " starts on ")
    # Escape closes the sheet; one pressed while it is still sliding in can be lost: again.
    for attempt in range(3):
        ui.page.keyboard.press("Escape")
        try:
            ui.page.wait_for_function(
                f"t => !({HAS_TEXT})(t)", arg=" starts on ", timeout=5000 * (attempt + 1)
            )
            break
        except Exception:
            if attempt == 2:
                raise
    ui.tap("Apply", "Round 3/6")

    saved = load(server, game_id)
    assert len(saved.log) == len(before.log) + 1
    assert saved.log[-1].command == EnergyAndReset(
        (
            Placement("ss1", "green", S),
            Placement("ss2", "green", S),
            Placement("rh1", "red", W),
            Placement("tm1", "blue", S),
        ),
        (),
        (),
    )
    blue = saved.game.seat["blue"]
    assert saved.state.on_board[blue] == [0, 0, 1]
    assert saved.state.reserve[blue] == [1, 3, 8]
    expected = before.state.clone()
    expected.apply(draft.command())
    assert saved.state.energy == expected.energy
    assert saved.state.occupant == expected.occupant


def test_an_unplaced_creature_is_refused_by_name_until_marked_not_on_the_board(
    server, browser, artifacts
):
    game_id = at_reset(
        server, [Skip("summoning", S, "green"), Summon(S, by="green"), Skip("summoning")]
    )
    before = load(server, game_id)
    ui = open_reset(browser, artifacts, server, game_id, "Where is Sigrid's Sprite now?")
    ui.wait_for("1 summoned this round")

    # Apply says how many are still to place and cannot be taken for ready: a tap
    # on it stores nothing.
    waiting = ui.button("1 to place").first
    waiting.wait_for(timeout=20000)
    assert waiting.get_attribute("aria-disabled") == "true"
    waiting.click(force=True)
    time.sleep(1)
    assert len(load(server, game_id).log) == len(before.log)

    ui.tap("Not on the board (removed)", "Every creature is accounted for")
    ui.wait_for("Sigrid's Sprite: not on the board, tap to place after all")
    ui.tap("Apply", "Round 3/6")
    saved = load(server, game_id)
    assert len(saved.log) == len(before.log) + 1
    record = saved.log[-1].command
    assert record.removed == (Removed("green", S),)
    assert len(record.placements) == 6
    green = saved.game.seat["green"]
    # Back in reserve for round 3, and nobody was paid a bounty for it.
    assert saved.state.on_board[green] == [0, 0, 2]
    assert saved.state.reserve[green] == [1, 3, 7]


def test_the_screen_fits_phones_and_tablets_in_both_themes(server, browser, artifacts):
    """Screenshots at four sizes, dark and light; Apply and the tally never need a scroll."""
    game_id = at_reset(
        server,
        [Skip("summoning", S, "green"), Summon(S, by="green"), Skip("summoning"), *REMOVALS],
    )
    before = load(server, game_id)
    ui = open_reset(browser, artifacts, server, game_id, "Where is Bjorn's Sprite now?")
    ui.tap("Put Bjorn's Sprite in Troll Mire", "Where is Sigrid's Sprite now?")
    # Declining Sigrid's bonus for Skald's Stair is one tap on its switch.
    ui.click(ui.page.get_by_label("Sigrid takes Skald's Stair (+1)").first)
    ui.wait_for("declines")
    draft = reset_draft(before.state)
    draft.place(draft.next_to_place(None), "troll-mire")
    draft.decline("green", "skalds-stair", True)
    entered = expected_tally(before, draft, left=1)
    ui.wait_for(entered)
    sizes = {
        "360x740": PHONE,
        "390x844": PHONE_TALL,
        "844x390": LANDSCAPE,
        "1280x800": TABLET,
    }
    for theme in ("dark", "light"):
        if theme == "light":
            # The theme is the device's: switched at home, then back to the same screen, which
            # keeps what was entered.
            ui.page.set_viewport_size(PHONE_TALL)
            # A person taps once the screen has turned to its phone layout, not during it.
            laid_out(ui, wide=False)
            ui.click(ui.page.get_by_label("Back to the table").first)
            ui.wait_for("Every creature has acted")
            # A click while the table slides in can be lost: click until Home shows.
            click_until(ui, ui.page.get_by_label("Home").first, "New game")
            ui.click(ui.page.get_by_label("Light or dark theme").first)
            # Resume opens Energy and Reset itself: the game waits for it.
            ui.click(ui.page.get_by_role("button", name="Ragna").first)
            ui.wait_for("Where is Sigrid's Sprite now?")
        for name, viewport in sizes.items():
            ui.page.set_viewport_size(viewport)
            laid_out(ui, wide=viewport["width"] > 800)
            # What was entered is kept, through a rebuild across the two-column width too.
            ui.wait_for("Where is Sigrid's Sprite now?")
            assert tally_label(ui) == entered
            apply = box_in_view(ui, ui.button("1 to place").first)
            tally = box_in_view(ui, ui.page.locator("[flt-semantics-identifier=reset-tally]").first)
            assert apply is not None, f"Apply is out of view at {name} ({theme})"
            assert tally is not None, f"the tally is out of view at {name} ({theme})"
            assert apply["height"] >= 48
            time.sleep(1)
            ui.page.screenshot(path=str(artifacts / f"reset-{name}-{theme}.png"))
            if viewport is PHONE:
                # On a small phone the territories get half the screen or more.
                prompt = ui.page.locator("[flt-semantics-identifier=reset-prompt]").first
                top = prompt.bounding_box()
                assert top is not None
                room = tally["y"] - 8 - (top["y"] + top["height"])
                assert room >= viewport["height"] / 2, f"territories get {room} px ({theme})"


def test_another_seated_players_bonus_is_a_lock_saying_whose_and_follows_their_choice(
    tmp_path, browser, artifacts
):
    """Ruling 10: a domination bonus is its holder's to take or decline. On a shared table
    Ragna's phone shows Sigrid's bonus with a lock in place of the switch (a switch shown
    disabled reads as a bonus switched off), named for screen readers; Sigrid's own phone
    has the switch, and Ragna's phone follows what she chose."""
    server = SharedServer(tmp_path)
    with open_store(server.db) as store:
        game_id = at_reset_in(store, [Skip("summoning"), *REMOVALS])
    server.start()
    try:
        url = f"{server.base}/game/{game_id}"
        whose = "Sigrid's bonus is taken or declined on Sigrid's own device or the scorekeeper's."
        switch = "Sigrid takes Skald's Stair (+1)"
        seated = "Every creature has acted"
        sigrid = joined(browser, artifacts, server)
        sigrid.take_seat(url, "Sigrid", seated)
        sigrid.goto(f"{url}/reset", "takes +1")
        ragna = joined(browser, artifacts, server)
        ragna.take_seat(url, "Ragna", seated)
        ragna.goto(f"{url}/reset", whose)
        # The lock's sentence is what a screen reader reads there; no switch is offered.
        assert ragna.page.get_by_label(switch).count() == 0
        ragna.ui.shot("reset-bonus-locked", tall=844)
        sigrid.ui.wait_for(switch)
        assert not sigrid.page.evaluate(HAS_TEXT, whose)
        sigrid.ui.click(sigrid.page.get_by_label(switch).first)
        ragna.ui.wait_for("declined by Sigrid")
    finally:
        server.stop()
