"""A game's log told again (each record's sentence, its Energy and Reset, whose decision it
was), kept between revisions: a new record is told from where the last telling ended,
so a screen drawn after every computer command does not replay the whole game each time."""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine import Game, GameState
from companion.engine.replay import Narration, narrate
from models.commands import Command


class Told:
    """The narrations of the last log told, and the position it ended in."""

    def __init__(self) -> None:
        self._commands: tuple[Command, ...] = ()
        self._narrations: tuple[Narration, ...] = ()
        self._end: GameState | None = None

    def tell(self, game: Game, commands: Sequence[Command]) -> tuple[Narration, ...]:
        """The narrations of `commands` played from `game`'s start; only the records after
        the last telling are told anew when it is a beginning of them."""
        end, kept = self._end, len(self._commands)
        same = end is not None and (end.game is game or end.game.setup == game.setup)
        if not same or tuple(commands[:kept]) != self._commands:
            end, kept = None, 0
        state = game.new_initial_state() if end is None else end.clone()
        told = narrate(state, commands[kept:])
        self._commands = tuple(commands)
        self._narrations = (*self._narrations[:kept], *told) if kept else tuple(told)
        self._end = state
        return self._narrations
