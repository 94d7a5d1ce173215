"""Pass: the player whose turn it is is done with the current step (rulings 3 and 5).

A creature being activated when its player passes turns face-down: it has acted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import Declaration, Moment, active_at, creature, where, who
from companion.engine.constants import Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import flip_active, next_turn
from models.commands import Pass
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.state import GameState

# Passing is legal whenever it is someone's turn in a step; commands are immutable, so
# every legal list shares this one.
_PASS = Pass()


def apply(state: GameState, command: Pass) -> None:
    """End the player's part of the step, and any activation with it."""
    if state.phase not in (Phase.SUMMONING, Phase.ACTIONS):
        raise IllegalCommand(f"there is no turn to pass in {where(state)}")
    if state.active is not None:
        flip_active(state)
    next_turn(state)


def describe(state: GameState, command: Pass) -> str:
    """'Ragna is done summoning Trolls'."""
    kinds = KIND_ORDER[state.step].plural
    if state.phase is Phase.SUMMONING:
        return f"{who(state)} is done summoning {kinds}"
    if state.active is not None:
        return f"{creature(state, active_at(state))} stops, and {who(state)} is done with {kinds}"
    return f"{who(state)} is done with their {kinds}"


TABLE = DIGITAL = Declaration(
    Pass,
    what="passing",
    apply=apply,
    describe=describe,
    legal=None,
    always=_PASS,
    moments=(Moment.SUMMONING, Moment.ACTIONS, Moment.ACTIVATION),
    rank=90,
)
