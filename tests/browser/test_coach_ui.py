"""The coach on the screens in Chromium.

- The chance line after an Energy and Reset, behind this device's switch: off at first (no
  spoilers), on when turned on (and still on after a reload), off again when turned off.
- The result's chances round by round, and the review of a finished table game and of a
  digital game with its costly decisions marked.
- A sandbox game started from a table game's round 3: a new digital game, the original
  untouched.

Screenshots of the new screens at four sizes in both themes: tests/artifacts/coach-*.png.
"""

from __future__ import annotations

import re
import time
from functools import cache

from browser_ui import PHONE, Screen, seats

from companion.boards import shipped_board
from companion.bots import make_bot
from companion.bots.playout import play
from companion.coach import review
from companion.coach.review import chances_message
from companion.coach.tabled import as_table
from companion.engine import Game
from companion.language.render import render
from companion.play.coach_work import chances_after
from companion.store.store import open_store
from models.commands import EnergyAndReset, Skip, Summon
from models.game_log import GameLog
from models.rules import CreatureKind
from models.seeded_dice import SeededDice
from models.setup import GameSetup, Mode

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
TRIO = GameSetup(players=seats("red", "blue", "green"), board="gathering-isle")
ROUND_1 = [
    Summon(W, by="red"),
    Skip("summoning", T, "blue"),
    Summon(T, by="blue"),
    Skip("summoning", S, "green"),
    Summon(S, by="green"),
    Summon(S, by="green"),
    Skip("summoning"),
    Skip("actions"),
]
SIZES = {
    "360x740": {"width": 360, "height": 740},
    "390x844": {"width": 390, "height": 844},
    "844x390": {"width": 844, "height": 390},
    "1280x800": {"width": 1280, "height": 800},
}
# Every button's name and height, among those wholly on the screen: one that reaches the
# screen's bottom margin (12 px) may be cut off by the scrolling column there (scrolling,
# not a short button).
BUTTONS = """() => [...document.querySelectorAll('flt-semantics[role=button]')]
    .map(e => [e.innerText || e.getAttribute('aria-label') || '?', e.getBoundingClientRect()])
    .filter(([, r]) => r.height > 0 && r.top >= 0 && r.bottom < window.innerHeight - 12)
    .map(([name, r]) => [name, r.height])"""


@cache
def greedy_game(mode: Mode, players: int = 3, seed: int = 7, first: str = "greedy"):
    """A whole game between greedy seats (Ragna, Bjorn, Sigrid), the first one played by
    `first`: the table's way or digital."""
    ids = ("red", "blue", "green")[:players]
    board = "gathering-isle" if players == 3 else "duel-isle"
    setup = GameSetup(players=seats(*ids), board=board, mode="digital")
    game = Game(setup, shipped_board(board))
    bots = [make_bot(first if s == 0 else "greedy", seed=seed * 10 + s) for s in range(players)]
    played = play(game, bots, SeededDice(seed))
    if mode is Mode.DIGITAL:
        return game, list(played.commands)
    return as_table(game, played.commands)


def saved(server, game: Game, records) -> str:
    """The game saved in the server's store; its id."""
    with open_store(server.db) as store:
        return store.import_log(GameLog.of(game.setup, records)).id


def shots(ui: Screen, name: str, targets: bool = True) -> None:
    """The screen at every size: tests/artifacts/coach-<name>-<size>.png; with `targets`,
    every button whole in the window at least one tap target tall."""
    first = ui.page.viewport_size
    for size, viewport in SIZES.items():
        ui.page.set_viewport_size(viewport)
        time.sleep(1.2)
        ui.page.screenshot(path=str(ui.artifacts / f"coach-{name}-{size}.png"))
        short = [(n, h) for n, h in ui.page.evaluate(BUTTONS) if h < 47.5 and targets]
        assert short == [], f"{name} at {size}: buttons under 48 px: {short}"
    ui.page.set_viewport_size(first)
    time.sleep(0.5)


def chance_line(ui: Screen) -> str:
    """What the chance line's card says (its whole label or text)."""
    card = ui.page.locator("[flt-semantics-identifier=chance-line]").first
    return (card.get_attribute("aria-label") or "") + card.inner_text()


def test_the_chance_line_shows_after_an_energy_and_reset_only_when_switched_on(
    server, browser, artifacts
):
    with open_store(server.db) as store:
        game_id = store.import_log(GameLog.of(TRIO, ROUND_1)).id
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}/reset", "Where is Ragna's Wyrm now?")
    for creature, territory, then in (
        ("Ragna's Wyrm", "Rune Hollow", "Where is Bjorn's Troll now?"),
        ("Bjorn's Troll", "Ashgrove", "Where is Sigrid's Sprite now?"),
        ("Sigrid's Sprite", "Skald's Stair", "Where is Sigrid's Sprite now?"),
        ("Sigrid's Sprite", "Skald's Stair", "Every creature is accounted for"),
    ):
        ui.tap(f"Put {creature} in {territory}", then)
    ui.tap("Apply", "Round 2/6")
    with open_store(server.db) as store:
        kept = store.load(game_id)
    records = [entry.command for entry in kept.log]
    assert isinstance(records[-1], EnergyAndReset)
    expected = render(chances_message(chances_after(kept.game, records), kept.game.labels), "en")
    assert re.fullmatch(r"Ragna \d+% · Bjorn \d+% · Sigrid \d+%", expected)

    # Off until this device turns it on: no chances on screen, and it says so.
    ui.wait_for("Hidden on this device: no spoilers until you turn them on.")
    time.sleep(1)
    assert "%" not in chance_line(ui)
    ui.shot("coach-table-chances-off", tall=1400)

    switch = ui.page.get_by_role("switch", name="Show win chances")
    ui.click(switch)
    ui.wait_for("Win chances after round 1's Energy and Reset")
    ui.wait_for(expected, timeout=60)
    ui.shot("coach-table-chances-on", tall=1400)

    # The device keeps its choice: a reload shows the chances again.
    ui.page.reload()
    ui.open(f"{server.url}/game/{game_id}", "Round 2/6")
    ui.wait_for(expected, timeout=60)
    for theme in ("dark", "light"):
        if theme == "light":
            ui.open(server.url, "Import a game")
            ui.click(ui.page.get_by_label("Light or dark theme"))
            time.sleep(1)
            ui.click(ui.page.get_by_role("button", name=re.compile("Ragna, Bjorn and Sigrid")))
            ui.wait_for(expected, timeout=60)
        # The table's own controls are not this test's: the switch's row is checked instead.
        shots(ui, f"table-{theme}", targets=False)

    # Off again: the chances go, and the device keeps that too.
    ui.click(ui.page.get_by_role("switch", name="Show win chances"))
    ui.wait_for("Hidden on this device")
    time.sleep(1)
    assert expected not in chance_line(ui)
    ui.page.reload()
    ui.open(f"{server.url}/game/{game_id}", "Hidden on this device")
    # Nothing of the chances went into the game's log.
    with open_store(server.db) as store:
        assert [entry.command for entry in store.load(game_id).log] == records


def test_the_result_and_the_review_tell_the_games_story(server, browser, artifacts):
    table, records = greedy_game(Mode.TABLE)
    game_id = saved(server, table, records)
    told = review(table, records)
    labels = table.labels
    assert told.turning_points, "the scripted game has turning points to show"
    turning = [render(point.message(labels), "en") for point in told.turning_points]

    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}/end", "Show win chances round by round")
    # Energy round by round at once; the chances on demand (this device has not turned them on).
    ui.click(ui.button("Show win chances round by round"))
    start = told.by_round()[0].chances
    shares = [round(start.chance(p) * 100) for p in table.players]
    ui.wait_for(f"Start, Ragna: 5 energy, {shares[0]}% chance to win", timeout=60)
    ui.shot("coach-result-rounds", tall=2600)
    shots(ui, "result-dark")

    ui.click(ui.button("Review the game"))
    ui.wait_for("Turning points", timeout=60)
    for said in turning:
        ui.wait_for(said)
    ui.wait_for("At the table, the records between two Energy and Resets cannot be marked")
    shots(ui, "review-table-dark")
    # The light theme: chosen on Home, then the review reached through History and the result.
    ui.open(server.url, "Import a game")
    ui.click(ui.page.get_by_label("Light or dark theme"))
    time.sleep(1)
    ui.tap("History", "Wins by player")
    ui.click(ui.page.get_by_role("button", name=re.compile(" won")).first)
    ui.wait_for("Show win chances round by round")
    shots(ui, "result-light")
    ui.click(ui.button("Review the game"))
    ui.wait_for(turning[0], timeout=60)
    shots(ui, "review-table-light")

    # A digital game's review marks its costly decisions with a sign and a word: Ragna
    # plays at random against greedy, who plays what the search finds.
    digital, commands = greedy_game(Mode.DIGITAL, players=2, first="random")
    digital_id = saved(server, digital, commands)
    marked = review(digital, commands).marked()
    assert marked, "the scripted digital game has costly decisions"
    ui.open(f"{server.url}/game/{digital_id}/review", "Costly decisions", timeout=90)
    first = marked[0]
    ui.wait_for(f"Round {first.played_in}, record {first.number}: ")
    signs = {"inaccuracy": "?! An inaccuracy", "mistake": "? A mistake", "blunder": "?? A blunder"}
    ui.wait_for(signs[first.mark.value])
    shots(ui, "review-digital")


def test_a_sandbox_game_starts_from_a_table_games_round_3(server, browser, artifacts):
    table, records = greedy_game(Mode.TABLE)
    game_id = saved(server, table, records)
    with open_store(server.db) as store:
        before = store.export(game_id)
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}/review", "Turning points", timeout=60)
    ui.click(ui.button("Play on from a moment"))
    ui.wait_for("Play on in a new digital game")
    ui.click(ui.page.locator("[flt-semantics-identifier=play-on-moment]").first)
    ui.click(ui.button("Start of round 3"))
    ui.click(ui.page.locator("[flt-semantics-identifier=play-on-seat-2]").first)
    ui.click(ui.button("Computer: quick"))
    ui.wait_for("Bjorn is played by Computer: quick")
    # Sideways the dialog scrolls: a choice half out of its view is no short target.
    shots(ui, "play-on-dialog", targets=False)
    for name in ("Cancel", "Start the new game"):
        box = ui.button(name).bounding_box()
        assert box is not None and box["height"] >= 48, f"{name}: {box}"
    ui.click(ui.button("Start the new game"))
    ui.wait_for("New game from this moment: Start of round 3")
    ui.wait_for("Round 3/6")
    with open_store(server.db) as store:
        games = [game for game in store.games() if game.id != game_id]
        assert len(games) == 1
        new = store.load(games[0].id)
        assert store.export(game_id) == before
    assert new.setup.mode is Mode.DIGITAL and new.state.round == 3
    assert [p.bot for p in new.setup.players] == [None, "greedy", None]
    ui.page.wait_for_url(f"{server.url}/game/{new.id}")
    ui.shot("coach-play-on-board", tall=844)


def test_the_chances_and_the_review_speak_french(server, browser, artifacts):
    table, records = greedy_game(Mode.TABLE)
    finished = saved(server, table, records)
    first_reset = next(n for n, r in enumerate(records, 1) if isinstance(r, EnergyAndReset))
    playing = saved(server, table, records[:first_reset])
    labels = table.labels
    page = browser.new_context(viewport=PHONE, locale="fr-FR").new_page()
    ui = Screen(page, artifacts)

    # The table's line, switched on in French: '41 %' with a narrow no-break space.
    ui.open(f"{server.url}/game/{playing}", "Masquées sur cet appareil")
    ui.click(page.get_by_role("switch", name="Afficher les chances de victoire"))
    line = render(chances_message(chances_after(table, records[:first_reset]), labels), "fr")
    assert "\u202f%" in line
    ui.wait_for("Chances de victoire après l'Énergie et Réinitialisation de la manche 1")
    ui.wait_for(line, timeout=60)
    ui.shot("coach-fr-table", tall=1400)

    # The result fills in the chances at once (this device turned them on), then the review.
    told = review(table, records)
    ui.open(f"{server.url}/game/{finished}/end", "Énergie et chances de victoire")
    start = round(told.by_round()[0].chances.chance("red") * 100)
    ui.wait_for(f"Début, Ragna\u202f: 5 d'énergie, {start}\u202f% de chances de gagner", 60)
    ui.shot("coach-fr-result", tall=2600)
    ui.click(ui.button("Revoir la partie"))
    ui.wait_for(render(told.turning_points[0].message(labels), "fr"), timeout=60)
    ui.wait_for("À la table, les coups entre deux Énergie et Réinitialisation")
    shots(ui, "fr-review")
