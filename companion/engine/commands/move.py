"""Move: the active creature goes to an empty location it can reach (ruling 6).

One action per location entered, through empty locations and its owner's creatures,
never through anyone else's; the move costs its shortest way (movement.reachable).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import (
    acting,
    active_at,
    creature,
    location,
    place,
    place_named,
    relocate,
    token_at,
    who,
)
from companion.engine.commands._declaration import Declaration, Moment, Tapped
from companion.engine.constants import Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import after_action
from companion.engine.movement import reachable
from companion.engine.names import kind_term
from companion.language import Message
from models.commands import Command, Move
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: Move) -> None:
    """Move the active creature, paying the way's length in actions."""
    here = acting(state)
    to = location(state, command.to)
    cost = reachable(state, here, state.actions_left).get(to)
    if cost is None:
        if to == here:
            raise IllegalCommand(Message("refuse.already_there", place=place(state, to)))
        if state.occupant[to] is not None:
            seat, kind = token_at(state, to)
            raise IllegalCommand(
                Message(
                    "refuse.taken",
                    place=place(state, to),
                    player=who(state, seat),
                    kind=kind_term(KIND_ORDER[kind]),
                )
            )
        raise IllegalCommand(
            Message(
                "refuse.cannot_reach",
                place=place(state, here),
                to=place(state, to),
                actions=Message("count.action", count=state.actions_left),
            )
        )
    relocate(state, here, to)
    state.actions_left -= cost
    after_action(state)


def describe(state: GameState, command: Move) -> Message:
    """'Ragna's Troll at West 1 moves to West 3 (2 actions)'."""
    here = active_at(state)
    cost = reachable(state, here, state.actions_left)[state.game.isle.index[command.to]]
    to = place_named(state, command.to)
    return Message(
        "move", creature=creature(state, here), to=to, actions=Message("count.action", count=cost)
    )


def legal(state: GameState, out: list[Command]) -> None:
    """Every empty location the active creature reaches with the actions it has left."""
    if state.actions_left:
        assert state.active is not None, "moves are listed while a creature is active"
        moves = state.game.moves
        out.extend([moves[i] for i in reachable(state, state.active, state.actions_left)])


def places(state: GameState, command: Move) -> tuple[str, ...]:
    """Where the creature starts and where it ends."""
    here = () if state.active is None else (state.game.isle.location_ids[state.active],)
    return (*here, command.to)


def space(state: GameState, command: Move) -> str | None:
    """A tap on the empty location moves there."""
    return command.to


def tap(tapped: Tapped) -> Move | None:
    """While a creature is active, a tap on an empty space moves it there."""
    if tapped.phase is Phase.ACTIONS and tapped.active is not None and tapped.owner is None:
        return Move(tapped.location)
    return None


DIGITAL = Declaration(
    Move,
    what=Message("what.move"),
    apply=apply,
    describe=describe,
    legal=legal,
    moments=(Moment.ACTIVATION,),
    rank=30,
    places=places,
    space=space,
    tap=tap,
)
TABLE = None
