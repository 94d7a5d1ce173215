"""A whole digital game through the real app in Chromium: a person on the canvas, a greedy bot.

The person's taps land on exact canvas coordinates, computed from the board data and the
board's on-screen box (the board leaves the semantics tree, so a click reaches the canvas
where it falls). Between taps the test waits until the board's description matches the
engine's position read from the store. Timings are printed for the report, not asserted.
"""

from __future__ import annotations

import json
import re
import time

from browser_ui import (
    BOARD,
    PHONE,
    TABLET,
    Screen,
    click_until,
    devices,
    scroll_to,
    seats,
    tap_location,
)

from companion.app.screens.board_motion import die_face
from companion.boards import shipped_board
from companion.engine import Phase
from companion.engine.dice import attack_odds
from companion.engine.replay import replay
from companion.engine.serialize import state_to_json
from companion.play.board_draft import BoardDraft
from companion.play.board_layout import Layout
from companion.play.board_taps import describe_board, targets
from companion.store.store import open_store
from models.board import Board
from models.commands import Activate, Attack, Dominate, EndActivation, Move, Pass, Summon
from models.game_log import GameLog
from models.rules import CreatureKind
from models.setup import GameSetup

PERSON = "red"


def saved_game(server, game_id=None):
    """A game as the store rebuilds it from its log (the only one when no id is given)."""
    with open_store(server.db) as store:
        if game_id is None:
            (summary,) = store.games()
            game_id = summary.id
        return store.load(game_id)


def board_label(page) -> str:
    """The board's description as the screen shows it."""
    board = page.locator(BOARD).first
    return board.get_attribute("aria-label") or board.inner_text()


def expected_label(state) -> str:
    """The description the board must show for a position where the person decides."""
    return describe_board(
        state.creatures(), state.game.labels, targets(state), state.game.board.location_names
    )


# The bar's button that goes on from an Energy and Reset.
CONTINUE = r"^(Continue to round \d+|See the result)$"


def go_on_from_reset(ui, saved) -> bool:
    """If the screen shows the Energy and Reset the log ends with, check its sentences and tap
    Continue; whether it did. Play waits for that tap."""
    button = ui.page.get_by_role("button", name=re.compile(CONTINUE))
    if not saved.log or saved.log[-1].reset is None or not button.count():
        return False
    tally = saved.state.last_tally
    labels = saved.game.labels
    ui.wait_for(f"Energy and Reset of round {tally.round}")
    for line in tally.players:
        ui.wait_for(str(line.explanation(labels[line.player])))
    ui.wait_for(str(tally.winner_message) if tally.game_over else "Next round's order: ")
    ui.click(button.first)
    time.sleep(1)
    return True


def wait_for_person(ui, server, game_id, after_revision, timeout=180):
    """Wait until the bot is done and the screen shows the person's decision (or the result),
    going on from each Energy and Reset shown on the way."""
    deadline = time.monotonic() + timeout
    went_on: set[int] = set()
    while time.monotonic() < deadline:
        saved = saved_game(server, game_id)
        state = saved.state
        if saved.revision > after_revision:
            if saved.revision not in went_on and go_on_from_reset(ui, saved):
                went_on.add(saved.revision)
                continue
            if state.is_terminal:
                if saved.log[-1].reset is not None and saved.revision not in went_on:
                    # A game ended by its last Energy and Reset shows it before the result:
                    # the card may still be on its way to the screen.
                    ui.wait_for("See the result", timeout=60)
                    assert go_on_from_reset(ui, saved)
                ui.wait_for("Energy by round", timeout=60)
                return saved
            # The board's description names every creature and every space a tap would use:
            # equal to the engine's, the screen shows this position and waits for the person.
            if state.current_player == PERSON and board_label(ui.page) == expected_label(state):
                return saved
        time.sleep(0.2)
    raise AssertionError(
        f"the person's turn did not come within {timeout} s: the store has {saved.state!r} at "
        f"revision {saved.revision} (after {after_revision}), which the board should describe "
        f"as {expected_label(saved.state)!r}; it says {board_label(ui.page)!r}"
    )


def recorded(server, game_id, revision, timeout=15) -> bool:
    """Whether the store moves past a revision within a few seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open_store(server.db) as store:
            (summary,) = [g for g in store.games() if g.id == game_id]
        if summary.revision > revision:
            return True
        time.sleep(0.05)
    return False


def tap_button(page, pattern: str) -> None:
    """Click the first button whose name matches a regular expression."""
    button = page.get_by_role("button", name=re.compile(pattern)).first
    button.wait_for(timeout=60000)
    button.click()


def test_a_whole_game_against_a_greedy_bot_by_touch(server, browser, artifacts):
    started = time.perf_counter()
    page = browser.new_page(viewport=PHONE)
    ui = Screen(page, artifacts)
    ui.open(f"{server.url}/new", "Start game")

    # New game: the digital board, Bjorn played by the quick computer opponent.
    click_until(ui, ui.button("Digital board"), "any seat can be the computer")
    click_until(ui, page.locator("[flt-semantics-identifier=played-by-2]"), "Computer: hard")
    ui.click(ui.button("Computer: quick"))
    # A screen reader hears the choice with the question.
    chosen = page.locator("[flt-semantics-identifier=played-by-2]").first
    page.wait_for_function(
        "e => e.textContent.includes('Player 2 is played by Computer: quick')",
        arg=chosen.element_handle(),
        timeout=10000,
    )
    ui.shot("phone-20-new-digital-game", tall=1100)
    ui.click(ui.button("Start game"))
    ui.wait_for("Summon Wyrms: tap a marked space")
    saved = saved_game(server)
    game_id, board = saved.id, saved.game.board
    assert saved.setup.players[1].bot == "greedy" and saved.state.current_player == PERSON
    assert board_label(page) == expected_label(saved.state)
    ui.shot("phone-21-board-summoning", tall=740)

    did = dict.fromkeys(("summon", "activate", "move", "shot", "tablet", "bot shot"), False)
    lost: list[str] = []
    tap_ms: list[float] = []
    waits: list[float] = []
    while not saved.state.is_terminal:
        state = saved.state
        legal = state.legal_commands()
        marks = targets(state)
        if state.phase is Phase.SUMMONING and not did["summon"]:
            # One summon by tapping a vacant space.
            spaces = [c.location for c in legal if isinstance(c, Summon)]
            where = "rh1" if "rh1" in spaces else spaces[0]
            tap = ("space", where)
            did["summon"] = True
        elif state.phase is Phase.ACTIONS and state.active is None and not did["activate"]:
            (activate, *_) = [c for c in legal if isinstance(c, Activate)]
            tap = ("space", activate.location)
            did["activate"] = True
        elif state.active is not None and not did["move"]:
            # The nearest space the active creature can move to.
            moves = [c for c in legal if isinstance(c, Move)]
            nearest = min(moves, key=lambda move: marks[move.to].cost)
            tap = ("space", nearest.to)
            did["move"] = True
        elif state.phase is Phase.ENERGY_AND_RESET:
            assert any(isinstance(c, Dominate) for c in legal)
            ui.shot("phone-25-domination", tall=1200)
            tap = ("button", r"^Take \+")
        elif any(type(c) is EndActivation for c in legal):
            if not did["shot"]:
                did["shot"] = True
                ui.shot("phone-22-board-active", tall=740)
            tap = ("button", "^End activation$")
        else:
            tap = ("button", "^Done ")
        for _attempt in range(3):
            tapped = time.perf_counter()
            if tap[0] == "space":
                tap_location(page, board, tap[1])
            else:
                tap_button(page, tap[1])
            if recorded(server, game_id, saved.revision):
                break
            # A click that reached Flutter while it was busy redrawing can be lost: again.
            lost.append(tap[1])
        else:
            raise AssertionError(f"three taps did not record anything in {state!r}")
        tap_ms.append((time.perf_counter() - tapped) * 1000)
        if not did["bot shot"]:
            # Just after Ragna's summon, Bjorn (the bot) is thinking or showing his command.
            did["bot shot"] = True
            time.sleep(0.7)
            page.screenshot(path=str(artifacts / "phone-23-bot-turn.png"))
        waited = time.perf_counter()
        saved = wait_for_person(ui, server, game_id, saved.revision)
        waits.append(time.perf_counter() - waited)
        if saved.state.round == 2 and not saved.state.is_terminal and not did["tablet"]:
            did["tablet"] = True
            ui.shot("phone-24-board-round-2", tall=740)
            tablet = Screen(browser.new_page(viewport=TABLET), artifacts)
            tablet.open(f"{server.url}/game/{game_id}", "Energy and Reset of round 1")
            # Opened just after the round ended, it shows the Energy and Reset first.
            go_on_from_reset(tablet, saved)
            # Drawn, and not behind Flet's "Working..." screen (a busy machine shows it a while).
            tablet.page.wait_for_function(
                f"t => document.querySelector('{BOARD}')?.innerText.includes(t) && "
                "!document.body.innerText.includes('Working...')",
                arg="Tap to",
            )
            tablet.shot("tablet-20-board", tall=800)
            tablet.page.close()

    assert did["summon"] and did["activate"] and did["move"]
    ui.shot("phone-26-digital-result", tall=1000)

    # The store's record: every command the server played, the person's and the bot's, replays
    # through the engine to the state the server saved, winner and all.
    with open_store(server.db) as store:
        (summary,) = store.games()
        exported = store.export(game_id)
    final = saved_game(server, game_id)
    fresh = replay(final.game, [entry.command for entry in final.log])
    assert state_to_json(fresh) == state_to_json(final.state)
    assert (summary.status, summary.round, summary.winner, summary.summoner) == (
        final.status,
        fresh.round,
        fresh.winner_id,
        fresh.summoner,
    )
    again = GameLog.model_validate_json(exported.model_dump_json())
    assert state_to_json(replay(final.game, again.parsed_commands())) == state_to_json(fresh)
    assert all(
        entry.command.attack_roll is not None
        for entry in final.log
        if isinstance(entry.command, Attack)
    )
    print(
        f"\ndigital game: {len(final.log)} commands ({len(tap_ms)} by the person, taps "
        f"repeated: {lost}), "
        f"round {fresh.round}, winner {fresh.winner_id}; person's tap to recorded: median "
        f"{sorted(tap_ms)[len(tap_ms) // 2]:.0f} ms; wait for the bot and the screen: median "
        f"{sorted(waits)[len(waits) // 2]:.1f} s, max {max(waits):.1f} s; "
        f"whole test {time.perf_counter() - started:.0f} s"
    )


def test_attack_dice_and_domination_panels(server, browser, artifacts):
    """Set positions: an attack's odds, rolled and typed dice; a bonus declined with its tally."""
    setup = GameSetup(
        players=seats("red", "blue", blue="greedy"),
        board="duel-isle",
        mode="digital",
    )
    with open_store(server.db) as store:
        # Ragna's Wyrm at rh1; Bjorn's Sprites at rh2 and rh3 (one supporting the other).
        log = GameLog.of(
            setup,
            [
                Summon("wyrm", "rh1"),
                Pass(),
                Pass(),
                Summon("sprite", "rh2"),
                Summon("sprite", "rh3"),
                Pass(),
            ],
        )
        saved = store.import_log(log)
    assert saved.state.current_player == "red" and saved.state.phase is Phase.ACTIONS
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{saved.id}", "Wyrms act")
    board = saved.game.board
    tap_location(ui.page, board, "rh1")
    ui.wait_for("Your Wyrm at Rune Hollow 1 has 2 actions left")
    ui.shot("phone-27-board-targets", tall=740)
    tap_location(ui.page, board, "rh2")
    # A Wyrm's d6+4 against a Sprite's d6+1 (one other Sprite in Rune Hollow), by the engine.
    odds = attack_odds(CreatureKind.WYRM, CreatureKind.SPRITE, 1)
    ui.wait_for(f"Chance: {odds.numerator} in {odds.denominator} · {float(odds):.0%}")
    ui.shot("phone-28-attack-odds", tall=740)
    ui.click(ui.button("Roll"))
    ui.wait_for("Continue")
    # The roll is recorded as its dice are drawn: read it once the store has it.
    deadline = time.monotonic() + 20
    rolled = saved_game(server, saved.id).log[-1]
    while not isinstance(rolled.command, Attack) and time.monotonic() < deadline:
        time.sleep(0.1)
        rolled = saved_game(server, saved.id).log[-1]
    assert isinstance(rolled.command, Attack) and rolled.command.defence_roll is not None
    # The dice land on the faces the store rolled and logged, and the sentence says the rest.
    ui.wait_for(str(rolled.sentence))
    ui.wait_for(die_face(rolled.command.attack_roll))
    ui.shot("phone-29-attack-dice", tall=740)
    ui.click(ui.button("Continue"))
    after = saved_game(server, saved.id)
    if after.state.active is not None and any(
        isinstance(c, Attack) for c in after.state.legal_commands()
    ):
        (attack, *_) = [c for c in after.state.legal_commands() if isinstance(c, Attack)]
        ui.page.wait_for_function(
            f"t => document.querySelector('{BOARD}')?.innerText === t",
            arg=expected_label(after.state),
        )
        tap_location(ui.page, board, attack.target)
        ui.click(ui.button("Enter my dice"))
        # Nothing to attack with until every die has a face: no tap spent on a refusal.
        assert ui.button("Attack with these dice").is_disabled()
        # Each face's name is its label and its die glyph, e.g. "Your die: 1 ⚀".
        ui.click(ui.button("Your die: 1", exact=False))
        ui.click(ui.button("The Sprite's die: 6", exact=False))
        ui.click(ui.button("Attack with these dice"))
        ui.wait_for("the attack fails")

        # The first attack may have failed too: read the typed one once the store has it.
        def typed_dice() -> tuple[object, object]:
            typed = saved_game(server, saved.id).log[-1].command
            return getattr(typed, "attack_roll", None), getattr(typed, "defence_roll", None)

        deadline = time.monotonic() + 20
        while typed_dice() != (1, 6) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert typed_dice() == (1, 6)

    # Ragna's Troll and Sprite fill Skald's Strand: at Energy and Reset she may take its bonus.
    with open_store(server.db) as store:
        commands = [Pass(), Pass(), Summon("troll", "ss1"), Pass(), Summon("sprite", "ss2")]
        saved = store.import_log(GameLog.of(setup, [*commands, Pass(), Pass(), Pass(), Pass()]))
    state = saved.state
    assert state.phase is Phase.ENERGY_AND_RESET and state.current_player == "red"
    ui.open(f"{server.url}/game/{saved.id}", "You hold every space of Skald's Strand")
    take, decline = (state.domination_preview(choice) for choice in (True, False))
    # A busy machine draws the bonus's choice a while after the screen's heading.
    ui.wait_for(f"Ragna: 1 → {take.player('red').after}", timeout=60)
    ui.wait_for(f"Ragna: 1 → {decline.player('red').after}")
    ui.wait_for(str(decline.player("red").explanation("Ragna")))
    ui.shot("phone-30-domination-choice", tall=1100)
    ui.click(ui.button("Decline"))
    ui.wait_for("Energy and Reset of round 1")
    final = saved_game(server, saved.id)
    assert final.log[-1].command == Dominate("skalds-strand", False, by="red")
    assert final.state.round == 2 and final.state.energy_of("red") == decline.player("red").after
    assert go_on_from_reset(ui, final)
    ui.wait_for("Summon Wyrms")


def test_board_editor_adds_joins_drags_and_saves_a_layout(server, browser, artifacts):
    """From Duel Isle: a new space in Skald's Strand, a path to it, a drag; saved and offered."""
    duel = BoardDraft.from_board(shipped_board("duel-isle"))
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/board-editor", "Ready for the digital board: 24 spaces")
    page = ui.page

    def canvas():
        """The editor's canvas box and layout, once the whole board has settled in view."""
        box = None
        for _ in range(20):
            tap_location(page, duel.sketch(), "ss1", click=False)
            time.sleep(0.3)
            again = page.locator(BOARD).first.bounding_box()
            if again is not None and again == box:
                return box, Layout.fit(duel.sketch(), box["width"], box["height"], frame=True)
            box = again
        raise AssertionError("the editor's board did not settle")

    click_until(ui, ui.button("Add"), "Tap beside the spaces")
    scroll_to(page, page.locator("[flt-semantics-identifier=editor-territory]")).click()
    ui.click(ui.button("Skald's Strand · bonus 1 · 2 spaces"))
    box, layout = canvas()
    # Open sea to the right of ss1, at the isle's eastern edge.
    x, y = layout.points["ss1"]
    x += 3 * layout.radius
    page.mouse.click(box["x"] + x, box["y"] + y)
    added = duel.add_location("skalds-strand", layout.to_board(x, y))
    ui.wait_for("The isle is not connected")

    click_until(ui, ui.button("Paths"), "Tap two spaces to join them")
    box, layout = canvas()
    for location in ("ss2", added):
        px, py = layout.points[location]
        page.mouse.click(box["x"] + px, box["y"] + py)
        time.sleep(0.5)
    ui.wait_for("Ready for the digital board: 25 spaces in 7 territories, 35 paths")

    click_until(ui, ui.button("Move"), "Drag a space to move it")
    box, layout = canvas()
    px, py = layout.points[added]
    page.mouse.move(box["x"] + px, box["y"] + py)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(box["x"] + px + 2 * step, box["y"] + py + step)
        time.sleep(0.05)
    page.mouse.up()
    time.sleep(1)
    ui.shot("phone-31-board-editor", tall=1300)
    scroll_to(page, ui.button("Save board")).click()
    ui.wait_for("Saved My Duel Isle")

    saved = json.loads((server.data / "boards" / "my-duel-isle.json").read_text())
    board = Board.model_validate(saved)
    assert board.playable_digitally and added in board.territory_of(added).locations
    assert ("ss2", added) in board.paths or (added, "ss2") in board.paths
    moved = next(location for location in board.locations if location.id == added)
    # Dragged right and down from where it was added.
    assert (moved.x, moved.y) > duel.positions[added]

    ui.open(f"{server.url}/new", "Start game")
    click_until(ui, ui.button("Digital board"), "any seat can be the computer")
    click_until(ui, scroll_to(page, ui.button("Board", exact=False).last), "My Duel Isle")


def test_two_devices_on_one_digital_game_follow_each_other(server, browser, artifacts):
    """What one device records shows on the other without a reload; the bot plays once."""
    setup = GameSetup(
        players=seats("red", "blue", blue="greedy"), board="duel-isle", mode="digital"
    )
    game_id = server.new_game(setup)
    url, ready = f"{server.url}/game/{game_id}", "Summon Wyrms: tap a marked space"
    phone, tablet = devices(browser, artifacts, url, ready, PHONE, TABLET)
    board = shipped_board("duel-isle")

    # Ragna summons her Wyrm on the phone; Bjorn (the computer) answers, played by the phone.
    tap_location(phone.page, board, "rh1")
    assert recorded(server, game_id, 0)
    saved = wait_for_person(phone, server, game_id, 1)
    # The tablet shows the same position, reached without a reload.
    tablet.wait_for("Ragna's Wyrm at Rune Hollow 1")
    wait_for_person(tablet, server, game_id, 1)
    # One bot, one decision at a time: the log holds each command once, in turn.
    movers = [entry.command for entry in saved.log]
    assert movers[0] == Summon("wyrm", "rh1", by="red") and len(movers) == saved.revision

    # Now the tablet plays Ragna's next step; the phone follows it.
    before = saved.revision
    tap_button(tablet.page, "^Done ")
    assert recorded(server, game_id, before)
    after = wait_for_person(tablet, server, game_id, before)
    wait_for_person(phone, server, game_id, before)
    assert board_label(phone.page) == board_label(tablet.page) == expected_label(after.state)
    tablet.shot("tablet-21-board-followed", tall=800)
