"""The result screen's chart in Chromium: a legend names each player's line and how it is drawn."""

from __future__ import annotations

from browser_ui import PHONE, Screen, seats

from companion.boards import shipped_board
from companion.bots import make_bot
from companion.engine import Game
from companion.engine.dice import with_rolls
from companion.store.store import open_store
from models.commands import Command
from models.game_log import GameLog
from models.seeded_dice import SeededDice
from models.setup import GameSetup

LEGEND = "[flt-semantics-identifier=chart-legend]"


def finished_game(server) -> str:
    """A 2-player game played to its end by greedy bots, saved; its id."""
    setup = GameSetup(players=seats("red", "blue"), board="duel-isle", mode="digital")
    state = Game(setup, shipped_board("duel-isle")).new_initial_state()
    bot, dice = make_bot("greedy", seed=5), SeededDice(5)
    commands: list[Command] = []
    while not state.is_terminal:
        command = with_rolls(state, bot.choose(state), dice)
        state.apply(command)
        commands.append(command)
    with open_store(server.db) as store:
        return store.import_log(GameLog.of(setup, commands)).id


def test_the_energy_chart_has_a_legend_naming_each_players_line(server, browser, artifacts):
    game_id = finished_game(server)
    ui = Screen(browser.new_page(viewport=PHONE), artifacts)
    ui.open(f"{server.url}/game/{game_id}/end", "Energy by round")
    # Each line has its own dash pattern besides its colour, and the legend says which is whose.
    for words in ("Ragna: solid line", "Bjorn: dashed line"):
        ui.wait_for(words)
    legend = ui.page.locator(LEGEND).first
    legend.scroll_into_view_if_needed()
    ui.shot("phone-32-result-legend", tall=1300)
