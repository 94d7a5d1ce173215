"""Computers that play like players: no actions spent for nothing, the stronger of two wins.

Positions are written as position text (docs/engine.md) on duel-isle (24 locations).
"""

import pytest

from companion.boards import shipped_board
from companion.bots import make_bot
from companion.bots.evaluation import Evaluator
from companion.bots.playout import play
from companion.bots.trail import Trail, purposeful, wasted_activations
from companion.engine import Game, GameState
from models.commands import Activate, Dominate, EndActivation, Move
from models.seeded_dice import SeededDice
from models.setup import GameSetup

# The final round's Energy and Reset: Red, on 34 after the Sprites' pass, decides whether
# to take Frostholm's 2, the round's last choice. Taking it reaches 36 (a Summoner's win);
# declining it ends the game, won on most energy.
TWO_WAYS_TO_WIN = (
    "asaS1aTaSaSaS2aw1aTbs1bTbSasbTbs1aTbTbSbS 6/6 energy_and_reset:2:0 ab 34,20@34,20 "
    "002/136/001/034,004/035/100/033 -:0 a1 - 0 -"
)
# Round 1's Troll step: Red's Troll at the isle's first location, nothing else on it.
ONE_TROLL = "aT23 1/6 actions:1:0 ab 5,5 129/010/000/010,139/000/000/000 -:0 - - 0 -"


def game(players: int) -> Game:
    board = "duel-isle" if players == 2 else "gathering-isle"
    setup = GameSetup(
        players=[{"id": seat} for seat in ("red", "blue", "green", "yellow")[:players]],
        board=board,
        mode="digital",
    )
    return Game(setup, shipped_board(board))


def test_an_activation_that_moves_away_and_back_is_counted_as_for_nothing():
    duel = game(2)
    start = GameState.from_position(duel, ONE_TROLL)
    home = duel.isle.location_ids[0]
    away = duel.isle.location_ids[duel.isle.neighbours[0][0]]
    there_and_back = [Activate(home), Move(away), Move(home), EndActivation()]
    assert wasted_activations(start, there_and_back) == 1
    assert wasted_activations(start, [Activate(home), Move(away), EndActivation()]) == 0
    assert start.position() == ONE_TROLL


def test_a_bot_never_moves_the_creature_back_where_it_stood_this_activation():
    duel = game(2)
    state = GameState.from_position(duel, ONE_TROLL)
    home = duel.isle.location_ids[0]
    away = duel.isle.location_ids[duel.isle.neighbours[0][0]]
    state.apply(Activate(home))
    trail = Trail()
    assert trail.stood(state) == {home}
    trail.played(Move(away))
    state.apply(Move(away))
    assert trail.stood(state) == {home, away}
    legal = state.legal_commands()
    assert Move(home) in legal
    assert Move(home) not in purposeful(legal, trail.stood(state))
    # A trail that did not follow the activation knows only where the creature stands.
    assert Trail().stood(state) == {away}


@pytest.mark.parametrize(("bot", "players", "number"), [("greedy", 4, 0), ("mcts:normal", 2, 2)])
def test_computers_spend_no_activation_for_nothing(bot, players, number):
    # Games in which, before bots kept their trail, a creature ended where it began.
    played_on = game(players)
    bots = [make_bot(bot, seed=number * 10 + seat) for seat in range(players)]
    played = play(played_on, bots, SeededDice(number))
    assert wasted_activations(played_on.new_initial_state(), played.commands) == 0


@pytest.mark.parametrize("bot", ["greedy", "mcts:easy", "mcts:normal", "mcts:hard"])
def test_given_two_ways_to_win_every_level_takes_the_summoners(bot):
    duel = game(2)
    state = GameState.from_position(duel, TWO_WAYS_TO_WIN)
    take, decline = Dominate("frostholm", True, by="red"), Dominate("frostholm", False, by="red")
    taken, declined = state.clone(), state.clone()
    taken.apply(take)
    declined.apply(decline)
    assert taken.winner_id == declined.winner_id == "red"
    assert taken.summoner and not declined.summoner
    for seed in range(6):
        assert make_bot(bot, seed=seed).choose(state.clone()).take


def test_win_chances_rank_a_summoners_win_above_a_win_on_most_energy_above_play_going_on():
    duel = game(2)
    state = GameState.from_position(duel, TWO_WAYS_TO_WIN)
    evaluator = Evaluator()
    taken, declined = state.clone(), state.clone()
    taken.apply(Dominate("frostholm", True, by="red"))
    declined.apply(Dominate("frostholm", False, by="red"))
    assert taken.is_terminal and declined.is_terminal
    summoner = evaluator.values(taken, 6)[0]
    most_energy = evaluator.values(declined, 6)[0]
    going_on = evaluator.values(state, 6)[0]
    assert summoner == 1.0
    assert going_on < most_energy < summoner
