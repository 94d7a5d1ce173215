"""Playing a whole game between bots, dice from a seeded source."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.bots.base import Bot
from companion.engine import Game, GameState
from companion.engine.dice import with_rolls
from models.commands import Command


@dataclass
class PlayedGame:
    """The final state and every command played, dice included."""

    state: GameState
    commands: list[Command]


def play(game: Game, bots: Sequence[Bot], roll: Callable[[], int]) -> PlayedGame:
    """Play to the end; `bots[seat]` decides for that seat."""
    state = game.new_initial_state()
    commands: list[Command] = []
    while not state.is_terminal:
        seat = state.current_seat
        assert seat is not None, "until a digital game ends, someone decides"
        command = with_rolls(state, bots[seat].choose(state), roll)
        state.apply(command)
        commands.append(command)
    return PlayedGame(state, commands)
