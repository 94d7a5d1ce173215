"""Commands between log versions: who made them, and what an Energy and Reset left out.

Version 1 logs did not say who made a command, and their Energy and Reset took every
creature it left out as removed. `upgrade` writes such a command as version 2 says it,
from the state it is applied to, so that it means exactly what it meant before.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from companion.engine.constants import KIND_INDEX
from models.commands import PLAYER_COMMANDS, Command, EnergyAndReset, Pass, Removed
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.state import GameState


def sign(state: GameState, command: Command) -> Command:
    """The command with `by` set to the player whose decision it is, if it is a player's and
    says nobody."""
    if isinstance(command, PLAYER_COMMANDS) and command.by is None:
        player = state.current_player
        if player is not None:
            return command._replace(by=player)
    return command


def upgrade(state: GameState, command: Command) -> Command:
    """The command as a version 2 log writes it, meaning what it meant in version 1."""
    if isinstance(command, EnergyAndReset) and command.removed is None:
        return command._replace(removed=_left_out(state, command))
    if isinstance(command, Pass) and command.by is None and state.waived:
        # The pass of a player the engine now passes over by itself (rulesets._said_before).
        return command._replace(by=state.game.players[state.waived[0]])
    return sign(state, command)


def _left_out(state: GameState, command: EnergyAndReset) -> tuple[Removed, ...]:
    """The creatures on the board by the record that a version 1 Energy and Reset left out."""
    game = state.game
    placed = Counter(
        (placement.player, KIND_INDEX.get(placement.kind)) for placement in command.placements
    )
    removed = []
    for seat in state.turn_order:
        player = game.players[seat]
        for kind, count in enumerate(state.on_board[seat]):
            missing = count - placed[player, kind]
            removed.extend([Removed(player, KIND_ORDER[kind])] * max(missing, 0))
    return tuple(removed)
