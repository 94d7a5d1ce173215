"""A log told again between revisions says what telling it from the start says."""

import random

from companion.boards import shipped_board
from companion.engine import Game
from companion.engine.dice import with_rolls
from companion.engine.replay import narrate
from companion.play.told import Told
from models.seeded_dice import SeededDice
from models.setup import GameSetup


def played(count: int, seed: int = 3) -> tuple[Game, list]:
    setup = GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle", mode="digital")
    game = Game(setup, shipped_board("duel-isle"))
    state, rng, roll, commands = game.new_initial_state(), random.Random(seed), SeededDice(seed), []
    while len(commands) < count and not state.is_terminal:
        command = with_rolls(state, rng.choice(state.legal_commands()), roll)
        state.apply(command)
        commands.append(command)
    return game, commands


def test_a_log_told_record_by_record_undone_and_changed_reads_as_told_whole():
    game, commands = played(120)
    told = Told()
    for end in (10, 11, 40, 90, 60, 120):  # records added, then some undone, then more
        assert told.tell(game, commands[:end]) == tuple(
            narrate(game.new_initial_state(), commands[:end])
        )
    _, other = played(120, seed=4)  # another line from the start
    assert told.tell(game, other) == tuple(narrate(game.new_initial_state(), other))
