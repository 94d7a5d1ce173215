"""The pure rules engine: no I/O, no clock, no randomness of its own.

>>> from companion.boards import shipped_board
>>> from models.setup import GameSetup
>>> game = Game(GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle",
...                       mode="digital"), shipped_board("duel-isle"))
>>> state = game.new_initial_state()
>>> state.current_player, state.phase.value, state.step_kind.value
('red', 'summoning', 'wyrm')
>>> state.apply(state.legal_commands()[0])
>>> state.energy_of("red")
0
"""

# First of all: a compiled engine whose installed sources were edited loads from them.
from companion.engine.compiled import use_sources_if_edited

use_sources_if_edited()

from companion.engine.constants import Phase
from companion.engine.errors import IllegalCommand, SetupError
from companion.engine.game import Game
from companion.engine.position import PositionError
from companion.engine.reset_phase import Tally, reset_phase
from companion.engine.state import GameState

__all__ = [
    "Game",
    "GameState",
    "IllegalCommand",
    "Phase",
    "PositionError",
    "SetupError",
    "Tally",
    "reset_phase",
]
