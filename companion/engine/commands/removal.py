"""Removal: at the table, a player's creatures removed a rival's creature (ruling 7), on
the player's turn or said ahead of it (engine/ahead.py).

The bounty is paid at once; the creature goes back to its owner for next round. Only a
removal the acting creatures could have made is accepted (flow.removal_blocker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import change, current, deciding, kind, name, seat_of, who
from companion.engine.commands._declaration import Declaration, Moment, Step
from companion.engine.constants import ACTIONS, BOUNTY, KIND_INDEX, KINDS, Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import done_if_nothing_left, gain, removal_blocker, removals_used
from companion.engine.names import kind_term, kinds_term
from companion.language import Message, by_semicolons
from models.commands import Command, Removal
from models.rules import KIND_ORDER, CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: Removal) -> None:
    """Send the rival's creature back and pay its bounty to the player whose turn it is."""
    seat = current(state, Phase.ACTIONS, Message("what.remove"))
    if command.attacker is not None and KIND_INDEX[command.attacker] != state.step:
        raise IllegalCommand(
            Message(
                "refuse.other_step",
                step=kinds_term(KIND_ORDER[state.step]),
                kinds=kinds_term(command.attacker),
            )
        )
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
    done_if_nothing_left(state, seat)


def describe(state: GameState, command: Removal) -> Message:
    """'Ragna removes Bjorn's Troll and gains 2 (10 → 12)', and when that was all her
    creatures could do, '; Ragna's Wyrms have used all their actions'."""
    index = KIND_INDEX[command.kind]
    bounty = BOUNTY[index]
    victim = state.game.labels[command.victim]
    seat = deciding(state)
    said = Message(
        "removal",
        player=who(state),
        victim=victim,
        kind=kind_term(KIND_ORDER[index]),
        bounty=bounty,
        change=change(state.energy[seat], bounty),
    )
    # The engine then passes the player over by itself: the log says why.
    after = state.clone()
    try:
        apply(after, command)
    except IllegalCommand:
        return said
    if after.phase is Phase.GAME_OVER or after.current_seat == seat:
        return said
    kinds = kinds_term(KIND_ORDER[state.step])
    if removals_used(state, seat) + 1 >= _most(state, seat):
        done = Message("blocker.removals_done", player=who(state), kinds=kinds)
    else:
        done = Message("blocker.nothing_to_remove", player=who(state), kinds=kinds)
    joined = by_semicolons([said, done])
    assert isinstance(joined, Message), "clauses joined are a message"
    return joined


def _most(state: GameState, seat: int) -> int:
    """How many removals the player's creatures of the step's kind can make in all."""
    return state.on_board[seat][state.step] * ACTIONS[state.step]


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


def step(command: Removal, kind: CreatureKind | None) -> Step:
    """A removal belongs to the step of the kind of creatures that made it: the one it says,
    else the one the tap names."""
    return Phase.ACTIONS, command.attacker or kind


TABLE = Declaration(
    Removal,
    what=Message("what.record_removal"),
    apply=apply,
    describe=describe,
    legal=legal,
    moments=(Moment.ACTIONS,),
    rank=40,
    step=step,
)
DIGITAL = None
