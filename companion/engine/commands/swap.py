"""Swap: a Wyrm trades places with a creature of its owner for 1 energy (ruling 8).

On the digital board the active Wyrm swaps with an adjacent creature of its own, any
number of times, without spending actions. At the table the swap records the payment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import (
    acting,
    active_at,
    change,
    creature,
    current,
    deciding,
    energy,
    location,
    name,
    owner,
    place,
    who,
)
from companion.engine.commands._declaration import Declaration, Moment, Step, Tapped
from companion.engine.constants import WYRM, Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import (
    after_action,
    can_swap,
    can_swap_at_table,
    done_if_nothing_left,
)
from companion.language import Message
from models.commands import Command, Swap
from models.rules import WYRM_SWAP_COST, CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState

_TABLE_SWAP = Swap()
WHAT = Message("what.swap")


def apply_digital(state: GameState, command: Swap) -> None:
    """Trade the active Wyrm's place with its neighbour's, paying 1 energy."""
    here = acting(state)
    if state.step != WYRM:
        raise IllegalCommand(Message("refuse.only_wyrms_swap"))
    seat = owner(state, here)
    if state.energy[seat] < WYRM_SWAP_COST:
        raise IllegalCommand(
            Message("refuse.swap_cost", cost=energy(WYRM_SWAP_COST), player=name(state, seat))
        )
    there = location(state, command.with_location)
    token = state.occupant[there]
    if there not in state.game.isle.neighbours[here] or token is None or token[0] != seat:
        raise IllegalCommand(Message("refuse.no_partner", place=place(state, there)))
    state.occupant[here], state.occupant[there] = token, state.occupant[here]
    state.face_down[here], state.face_down[there] = state.face_down[there], state.face_down[here]
    state.active = there
    state.energy[seat] -= WYRM_SWAP_COST
    after_action(state)


def apply_table(state: GameState, command: Swap) -> None:
    """Record a Wyrm swap's payment, if the player's Wyrm has someone to swap with."""
    seat = current(state, Phase.ACTIONS, WHAT)
    if state.step != WYRM:
        raise IllegalCommand(Message("refuse.swap_step"))
    if command.with_location is not None:
        raise IllegalCommand(Message("refuse.table_swap_place"))
    pay_table_swap(state, seat)
    done_if_nothing_left(state, seat)


def pay_table_swap(state: GameState, seat: int) -> None:
    """Pay a swap recorded at the table (on its turn or late), if the player's Wyrm has one
    of their creatures to trade places with and the energy is there."""
    player = name(state, seat)
    if state.on_board[seat][WYRM] == 0:
        raise IllegalCommand(Message("refuse.no_wyrm", player=player))
    if sum(state.on_board[seat]) - state.on_board[seat][WYRM] == 0:
        raise IllegalCommand(Message("refuse.no_other_creature", player=player))
    if state.energy[seat] < WYRM_SWAP_COST:
        raise IllegalCommand(
            Message("refuse.swap_cost", cost=energy(WYRM_SWAP_COST), player=player)
        )
    state.energy[seat] -= WYRM_SWAP_COST


def describe(state: GameState, command: Swap) -> Message:
    """'Ragna's Wyrm at … trades places with Ragna's Troll at … for 1 energy (5 → 4)'."""
    cost = energy(WYRM_SWAP_COST)
    paid = change(state.energy[deciding(state)], -WYRM_SWAP_COST)
    if command.with_location is None:
        return Message("swap.table", player=who(state), cost=cost, change=paid)
    other = creature(state, state.game.isle.index[command.with_location])
    return Message(
        "swap", creature=creature(state, active_at(state)), other=other, cost=cost, change=paid
    )


def legal_digital(state: GameState, out: list[Command]) -> None:
    """A swap with each of the active Wyrm's own neighbours, if its player can pay."""
    if can_swap(state):
        here = state.active
        assert here is not None, "can_swap holds only while a creature is active"
        seat = state.turn_order[state.turn]
        occupant = state.occupant
        swaps = state.game.swaps
        out.extend(
            [
                swaps[there]
                for there in state.game.isle.neighbours[here]
                if (token := occupant[there]) is not None and token[0] == seat
            ]
        )


def legal_table(state: GameState, out: list[Command]) -> None:
    """A swap in the Wyrms step, for a player with a Wyrm, another creature and the energy."""
    if can_swap_at_table(state, state.turn_order[state.turn]):
        out.append(_TABLE_SWAP)


def step(command: Swap, kind: CreatureKind | None) -> Step:
    """A swap belongs to the Wyrms step, whatever the tap names."""
    return Phase.ACTIONS, CreatureKind.WYRM


def places(state: GameState, command: Swap) -> tuple[str, ...]:
    """The Wyrm's location and its partner's (none at the table)."""
    here = () if state.active is None else (state.game.isle.location_ids[state.active],)
    return (*here, command.with_location) if command.with_location else here


def space(state: GameState, command: Swap) -> str | None:
    """A tap on the Wyrm's own neighbour swaps with it."""
    return command.with_location


def tap(tapped: Tapped) -> Swap | None:
    """While a Wyrm is active, a tap on another of its player's creatures swaps with it."""
    wyrm = tapped.phase is Phase.ACTIONS and tapped.kind is CreatureKind.WYRM
    if wyrm and tapped.active not in (None, tapped.location) and tapped.owner == tapped.player:
        return Swap(tapped.location)
    return None


DIGITAL = Declaration(
    Swap,
    what=Message("what.swap_board"),
    apply=apply_digital,
    describe=describe,
    legal=legal_digital,
    moments=(Moment.ACTIVATION,),
    rank=50,
    places=places,
    space=space,
    step=step,
    tap=tap,
)
TABLE = Declaration(
    Swap,
    what=WHAT,
    apply=apply_table,
    describe=describe,
    legal=legal_table,
    moments=(Moment.ACTIONS,),
    rank=50,
    places=places,
    space=space,
    step=step,
)
