"""LateSwap: at the table's Energy and Reset, a Wyrm swap of this round nobody entered then.

Ruling 8: a swap costs 1 energy, paid now; as when it is recorded in the Wyrms step, the
player needs a Wyrm and another creature of their own on the board by the record, and the
energy. Where each creature stands is what the table then places.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import change, energy, name, seat_of
from companion.engine.commands._declaration import Declaration
from companion.engine.commands.late_summon import check_late
from companion.engine.commands.swap import pay_table_swap
from companion.language import Message
from models.commands import LateSwap
from models.rules import WYRM_SWAP_COST

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: LateSwap) -> None:
    """Pay for the swap, if the player's Wyrm had a creature of theirs to swap with."""
    check_late(state)
    pay_table_swap(state, seat_of(state, command.player))


def describe(state: GameState, command: LateSwap) -> Message:
    """'Recorded late: Ann's Wyrm traded places with another of her creatures this round,
    for 1 energy (7 → 6)'."""
    seat = state.game.seat[command.player]
    return Message(
        "late_swap",
        player=name(state, seat),
        cost=energy(WYRM_SWAP_COST),
        change=change(state.energy[seat], -WYRM_SWAP_COST),
    )


# Who swapped is the table's to say: a late record is entered, never listed.
TABLE = Declaration(
    LateSwap, what=Message("what.late_swap"), apply=apply, describe=describe, legal=None
)
DIGITAL = None
