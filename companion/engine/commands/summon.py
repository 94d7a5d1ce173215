"""Summon: pay a creature's cost and bring it from the reserve onto the isle (rulings 1, 3).

At the table the summon records the payment; on the digital board it names the vacant
location the creature takes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import (
    Declaration,
    Moment,
    Step,
    change,
    current,
    deciding,
    kind,
    location,
    name,
    place,
    place_named,
    who,
)
from companion.engine.constants import COSTS, KIND_INDEX, Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import can_summon, settle
from models.commands import Command, Summon
from models.rules import KIND_ORDER, CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState


def _pay(state: GameState, command: Summon) -> tuple[int, int]:
    """Check the summon may be paid for now: (seat, kind index)."""
    seat = current(state, Phase.SUMMONING, "summoning")
    index = kind(command.kind)
    creature = KIND_ORDER[index]
    if index != state.step:
        raise IllegalCommand(
            f"it is the {KIND_ORDER[state.step].plural} step, not {creature.plural}"
        )
    player = name(state, seat)
    if state.reserve[seat][index] == 0:
        back = state.returning[seat][index]
        later = f" ({back} come back next round)" if back else ""
        raise IllegalCommand(f"{player} has no {creature.title} left to summon{later}")
    if state.energy[seat] < COSTS[index]:
        raise IllegalCommand(
            f"{player} has {state.energy[seat]} energy; a {creature.title} costs {COSTS[index]}"
        )
    return seat, index


def apply_table(state: GameState, command: Summon) -> None:
    """Record a summon at the table: the cost, and the creature now on the board."""
    seat, index = _pay(state, command)
    if command.location is not None:
        raise IllegalCommand("table games do not record locations for summons")
    state.energy[seat] -= COSTS[index]
    state.reserve[seat][index] -= 1
    state.on_board[seat][index] += 1
    settle(state)


def apply_digital(state: GameState, command: Summon) -> None:
    """Put the creature on a vacant location and pay for it."""
    seat, index = _pay(state, command)
    where = location(state, command.location)
    if state.occupant[where] is not None:
        raise IllegalCommand(f"{place(state, where)} is not vacant")
    state.occupant[where] = state.game.tokens[seat][index]
    state.face_down[where] = False
    state.ready[seat][index] += 1
    state.energy[seat] -= COSTS[index]
    state.reserve[seat][index] -= 1
    state.on_board[seat][index] += 1
    settle(state)


def describe(state: GameState, command: Summon) -> str:
    """'Ragna summons a Wyrm onto Rune Hollow 1 for 5 energy (5 → 0)'."""
    index = KIND_INDEX[command.kind]
    cost = COSTS[index]
    onto = f" onto {place_named(state, command.location)}" if command.location else ""
    return (
        f"{who(state)} summons a {KIND_ORDER[index].title}{onto} for {cost} energy "
        f"{change(state.energy[deciding(state)], -cost)}"
    )


def legal_table(state: GameState, out: list[Command]) -> None:
    """The step's summon, if the player can pay for it."""
    if can_summon(state, state.turn_order[state.turn]):
        out.append(Summon(KIND_ORDER[state.step]))


def legal_digital(state: GameState, out: list[Command]) -> None:
    """A summon onto each vacant location, if the player can pay for it."""
    if can_summon(state, state.turn_order[state.turn]):
        summons = state.game.summons[state.step]
        out.extend([summons[i] for i, token in enumerate(state.occupant) if token is None])


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
    what="summoning",
    apply=apply_table,
    describe=describe,
    legal=legal_table,
    moments=(Moment.SUMMONING,),
    rank=10,
    places=places,
    space=space,
    step=step,
)
DIGITAL = Declaration(
    Summon,
    what="summoning",
    apply=apply_digital,
    describe=describe,
    legal=legal_digital,
    moments=(Moment.SUMMONING,),
    rank=10,
    places=places,
    space=space,
    step=step,
)
