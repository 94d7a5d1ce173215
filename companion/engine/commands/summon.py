"""Summon: pay a creature's cost and bring it from the reserve onto the isle (rulings 1, 3).

At the table the summon records the payment; on the digital board it names the vacant
location the creature takes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import (
    change,
    current,
    deciding,
    energy,
    kind,
    location,
    name,
    place,
    place_named,
    who,
)
from companion.engine.commands._declaration import Declaration, Moment, Step, Tapped
from companion.engine.constants import COSTS, KIND_INDEX, Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import can_summon, settle, table_full
from companion.engine.names import kind_term, kinds_term
from companion.language import Message
from models.commands import Command, Summon
from models.rules import KIND_ORDER, CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState


# Made once: a summon is applied in every playout, and refused in few.
WHAT = Message("what.summon")


def _pay(state: GameState, command: Summon) -> tuple[int, int]:
    """Check the summon may be paid for now: (seat, kind index)."""
    seat = current(state, Phase.SUMMONING, WHAT)
    index = kind(command.kind)
    creature = KIND_ORDER[index]
    if index != state.step:
        raise IllegalCommand(
            Message(
                "refuse.other_step",
                step=kinds_term(KIND_ORDER[state.step]),
                kinds=kinds_term(creature),
            )
        )
    player = name(state, seat)
    if state.reserve[seat][index] == 0:
        back = state.returning[seat][index]
        if back:
            raise IllegalCommand(
                Message(
                    "refuse.none_left_back", player=player, kind=kind_term(creature), count=back
                )
            )
        raise IllegalCommand(Message("refuse.none_left", player=player, kind=kind_term(creature)))
    if state.energy[seat] < COSTS[index]:
        raise IllegalCommand(
            Message(
                "refuse.cannot_pay",
                player=player,
                energy=energy(state.energy[seat]),
                kind=kind_term(creature),
                cost=COSTS[index],
            )
        )
    return seat, index


def apply_table(state: GameState, command: Summon) -> None:
    """Record a summon at the table: the cost, and the creature now on the board."""
    seat, index = _pay(state, command)
    if command.location is not None:
        raise IllegalCommand(Message("refuse.table_summon_place"))
    refuse_if_full(state)
    state.energy[seat] -= COSTS[index]
    state.reserve[seat][index] -= 1
    state.on_board[seat][index] += 1
    settle(state)


def refuse_if_full(state: GameState) -> None:
    """At the table, a summon needs a vacant location by the record (rulebook: a summoned
    creature goes on a vacant location)."""
    if table_full(state):
        size = state.game.isle.size
        raise IllegalCommand(Message("refuse.isle_full", count=size))


def apply_digital(state: GameState, command: Summon) -> None:
    """Put the creature on a vacant location and pay for it."""
    seat, index = _pay(state, command)
    where = location(state, command.location)
    if state.occupant[where] is not None:
        raise IllegalCommand(Message("refuse.not_vacant", place=place(state, where)))
    state.occupant[where] = state.game.tokens[seat][index]
    state.face_down[where] = False
    state.ready[seat][index] += 1
    state.energy[seat] -= COSTS[index]
    state.reserve[seat][index] -= 1
    state.on_board[seat][index] += 1
    settle(state)


def describe(state: GameState, command: Summon) -> Message:
    """'Ragna summons a Wyrm onto Rune Hollow 1 for 5 energy (5 → 0)'."""
    index = KIND_INDEX[command.kind]
    cost = COSTS[index]
    paid = change(state.energy[deciding(state)], -cost)
    kind = kind_term(KIND_ORDER[index])
    if command.location:
        onto = place_named(state, command.location)
        return Message(
            "summon.onto", player=who(state), kind=kind, place=onto, cost=energy(cost), change=paid
        )
    return Message("summon", player=who(state), kind=kind, cost=energy(cost), change=paid)


def legal_table(state: GameState, out: list[Command]) -> None:
    """The step's summon, if the player can pay for it and a location is vacant."""
    if can_summon(state, state.turn_order[state.turn]) and not table_full(state):
        out.append(Summon(KIND_ORDER[state.step]))


def legal_digital(state: GameState, out: list[Command]) -> None:
    """A summon onto each vacant location, if the player can pay for it."""
    if can_summon(state, state.turn_order[state.turn]):
        summons = zip(state.game.summons[state.step], state.occupant, strict=True)
        out.extend([summon for summon, token in summons if token is None])


def step(command: Summon, kind: CreatureKind | None) -> Step:
    """A summon belongs to its own kind's Summoning step."""
    return Phase.SUMMONING, CreatureKind(command.kind)


def places(state: GameState, command: Summon) -> tuple[str, ...]:
    """The location summoned onto (none at the table)."""
    return (command.location,) if command.location else ()


def space(state: GameState, command: Summon) -> str | None:
    """The location a tap summons onto."""
    return command.location


TABLE = Declaration(
    Summon,
    what=WHAT,
    apply=apply_table,
    describe=describe,
    legal=legal_table,
    moments=(Moment.SUMMONING,),
    rank=10,
    places=places,
    space=space,
    step=step,
)


def tap(tapped: Tapped) -> Summon | None:
    """During Summoning a tap on a space summons the step's kind there."""
    if tapped.phase is Phase.SUMMONING:
        return Summon(tapped.kind, tapped.location)
    return None


DIGITAL = Declaration(
    Summon,
    what=WHAT,
    apply=apply_digital,
    describe=describe,
    legal=legal_digital,
    moments=(Moment.SUMMONING,),
    rank=10,
    places=places,
    space=space,
    step=step,
    tap=tap,
)
