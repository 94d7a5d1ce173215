"""Pass: the player whose turn it is is done with the current step (rulings 3 and 5).

A creature being activated when its player passes turns face-down: it has acted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import active_at, creature, where, who
from companion.engine.commands._declaration import Declaration, Moment
from companion.engine.constants import Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import flip_active, next_turn
from companion.engine.names import kinds_term
from companion.language import Message
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
        raise IllegalCommand(Message("refuse.no_turn", now=where(state)))
    if state.active is not None:
        flip_active(state)
    next_turn(state)


def describe(state: GameState, command: Pass) -> Message:
    """'Ragna is done summoning Trolls'."""
    kinds = kinds_term(KIND_ORDER[state.step])
    if command.by is not None and command.by != state.current_player:
        # A version 2 log's pass for a player the engine had passed over (rulesets).
        player = state.game.labels[command.by]
        if state.phase is Phase.SUMMONING:
            return Message("pass.summoning", player=player, kinds=kinds)
        return Message("pass.actions", player=player, kinds=kinds)
    if state.phase is Phase.SUMMONING:
        return Message("pass.summoning", player=who(state), kinds=kinds)
    if state.active is not None:
        return Message(
            "pass.active",
            creature=creature(state, active_at(state)),
            player=who(state),
            kinds=kinds,
        )
    return Message("pass.actions", player=who(state), kinds=kinds)


TABLE = DIGITAL = Declaration(
    Pass,
    what=Message("what.pass"),
    apply=apply,
    describe=describe,
    legal=None,
    always=_PASS,
    moments=(Moment.SUMMONING, Moment.ACTIONS, Moment.ACTIVATION),
    rank=90,
)
