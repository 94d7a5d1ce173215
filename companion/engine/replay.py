"""Rebuilding a state from a game's commands: the one way state comes to be."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.engine.errors import IllegalCommand
from companion.engine.game import Game
from companion.engine.state import GameState
from companion.language import Message
from models.commands import Command


class ReplayError(ValueError):
    """A command in a log that the rules refuse, with its index; `message` says it in words."""

    def __init__(self, index: int, reason: Message) -> None:
        self.message = Message("replay.refused", index=index, reason=reason)
        super().__init__(str(self.message))
        self.index = index
        self.reason = reason


def replay(game: Game, commands: Iterable[Command]) -> GameState:
    """Apply every command in order from the initial state; ReplayError names the first bad one."""
    state = game.new_initial_state()
    for index, command in enumerate(commands):
        try:
            state.apply(command)
        except IllegalCommand as error:
            raise ReplayError(index, error.message) from None
    return state


@dataclass(frozen=True, slots=True)
class Narration:
    """A command as a log tells it: its sentence, the Energy and Reset it finished, and
    whose decision it was (None for the table's own records)."""

    sentence: Message
    reset: Message | None = None
    player: str | None = None


def narrate(state: GameState, commands: Iterable[Command]) -> list[Narration]:
    """Apply commands to `state` in place, saying each as it is played (the log's sentences,
    in any language); IllegalCommand if one is refused."""
    told = []
    for command in commands:
        sentence = state.sentence(command)
        player = state.current_player
        before = state.last_tally
        state.apply(command)
        tally = state.last_tally
        reset = None
        if tally is not None and tally is not before:
            reset = tally.log_message(state.game.labels)
        told.append(Narration(sentence, reset, player))
    return told
