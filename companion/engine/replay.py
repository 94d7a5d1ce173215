"""Rebuilding a state from a game's commands: the one way state comes to be."""

from __future__ import annotations

from collections.abc import Iterable

from companion.engine.errors import IllegalCommand
from companion.engine.state import Game, GameState
from models.commands import Command


class ReplayError(ValueError):
    """A command in a log that the rules refuse, with its index."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"command {index}: {reason}")
        self.index = index
        self.reason = reason


def replay(game: Game, commands: Iterable[Command]) -> GameState:
    """Apply every command in order from the initial state; ReplayError names the first bad one."""
    state = game.new_initial_state()
    for index, command in enumerate(commands):
        try:
            state.apply(command)
        except IllegalCommand as error:
            raise ReplayError(index, str(error)) from None
    return state
