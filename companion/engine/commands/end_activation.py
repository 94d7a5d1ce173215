"""EndActivation: the active creature turns face-down, giving up the actions it has left."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import acting, active_at, creature
from companion.engine.commands._declaration import Declaration, Moment
from companion.engine.flow import end_activation
from companion.language import Message
from models.commands import EndActivation

if TYPE_CHECKING:
    from companion.engine.state import GameState

# An activation may end at any point (ruling 5: taking 0 actions is allowed).
_END = EndActivation()


def apply(state: GameState, command: EndActivation) -> None:
    """Flip the active creature face-down; the player goes on with the step."""
    acting(state)
    end_activation(state)


def describe(state: GameState, command: EndActivation) -> Message:
    """'Ragna's Troll at West 1 ends its activation'."""
    return Message("end_activation", creature=creature(state, active_at(state)))


DIGITAL = Declaration(
    EndActivation,
    what=Message("what.end_activation"),
    apply=apply,
    describe=describe,
    legal=None,
    always=_END,
    moments=(Moment.ACTIVATION,),
    rank=60,
)
TABLE = None
