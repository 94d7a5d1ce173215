"""Removal: at the table, the player whose turn it is removed a rival's creature (ruling 7).

The bounty is paid at once; the creature goes back to its owner for next round. Only a
removal the acting creatures could have made is accepted (flow.removal_blocker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import (
    Declaration,
    Moment,
    change,
    current,
    deciding,
    kind,
    name,
    seat_of,
    who,
)
from companion.engine.constants import BOUNTY, KIND_INDEX, KINDS, Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import gain, removal_blocker
from companion.engine.names import kind_term
from companion.language import Message
from models.commands import Command, Removal
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: Removal) -> None:
    """Send the rival's creature back and pay its bounty to the player whose turn it is."""
    seat = current(state, Phase.ACTIONS, Message("what.remove"))
    victim = seat_of(state, command.victim)
    if victim == seat:
        raise IllegalCommand(Message("refuse.own_creature", player=name(state, seat)))
    index = kind(command.kind)
    if state.on_board[victim][index] == 0:
        raise IllegalCommand(
            Message(
                "refuse.none_of_kind", player=name(state, victim), kind=kind_term(KIND_ORDER[index])
            )
        )
    reason = removal_blocker(state, seat, index)
    if reason is not None:
        raise IllegalCommand(reason)
    state.step_removals += 1
    state.on_board[victim][index] -= 1
    state.returning[victim][index] += 1
    gain(state, seat, BOUNTY[index])


def describe(state: GameState, command: Removal) -> Message:
    """'Ragna removes Bjorn's Troll and gains 2 (10 → 12)'."""
    index = KIND_INDEX[command.kind]
    bounty = BOUNTY[index]
    victim = state.game.labels[command.victim]
    return Message(
        "removal",
        player=who(state),
        victim=victim,
        kind=kind_term(KIND_ORDER[index]),
        bounty=bounty,
        change=change(state.energy[deciding(state)], bounty),
    )


def legal(state: GameState, out: list[Command]) -> None:
    """Each rival creature on the board that the acting creatures could have removed."""
    seat = state.turn_order[state.turn]
    players = state.game.players
    for victim, counts in enumerate(state.on_board):
        if victim == seat:
            continue
        out.extend(
            [
                Removal(players[victim], KIND_ORDER[index])
                for index in range(KINDS)
                if counts[index] and removal_blocker(state, seat, index) is None
            ]
        )


TABLE = Declaration(
    Removal,
    what=Message("what.record_removal"),
    apply=apply,
    describe=describe,
    legal=legal,
    moments=(Moment.ACTIONS,),
    rank=40,
)
DIGITAL = None
