"""LateSummon: at the table's Energy and Reset, a summon of this round nobody entered then.

A real table forgets: a summon noticed only when the board is counted is recorded late,
pays its cost (ruling 1), needs a vacant place by the record like any summon, and is placed
on the board like every other creature.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import change, energy, kind, name, seat_of, where
from companion.engine.commands._declaration import Declaration
from companion.engine.constants import COSTS, Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import table_full
from companion.engine.names import kind_term
from companion.language import Message
from models.commands import LateSummon
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.state import GameState


def check_late(state: GameState) -> None:
    """A late record belongs to Energy and Reset: during the round, the tap itself is made."""
    if state.phase is not Phase.ENERGY_AND_RESET:
        raise IllegalCommand(Message("refuse.late_only_at_reset", now=where(state)))


def apply(state: GameState, command: LateSummon) -> None:
    """Pay for the creature and count it on the board, where it is then placed."""
    check_late(state)
    seat = seat_of(state, command.player)
    index = kind(command.kind)
    creature = kind_term(KIND_ORDER[index])
    player = name(state, seat)
    if state.reserve[seat][index] == 0:
        back = state.returning[seat][index]
        if back:
            raise IllegalCommand(
                Message("refuse.none_left_back", player=player, kind=creature, count=back)
            )
        raise IllegalCommand(Message("refuse.none_left", player=player, kind=creature))
    if state.energy[seat] < COSTS[index]:
        raise IllegalCommand(
            Message(
                "refuse.cannot_pay",
                player=player,
                energy=energy(state.energy[seat]),
                kind=creature,
                cost=COSTS[index],
            )
        )
    if table_full(state):
        raise IllegalCommand(Message("refuse.isle_full", count=state.game.isle.size))
    state.energy[seat] -= COSTS[index]
    state.reserve[seat][index] -= 1
    state.on_board[seat][index] += 1


def describe(state: GameState, command: LateSummon) -> Message:
    """'Recorded late: Ann summoned a Troll this round, for 3 energy (7 → 4)'."""
    seat = state.game.seat[command.player]
    index = kind(command.kind)
    return Message(
        "late_summon",
        player=name(state, seat),
        kind=kind_term(KIND_ORDER[index]),
        cost=energy(COSTS[index]),
        change=change(state.energy[seat], -COSTS[index]),
    )


# Who and what are the table's to say: a late record is entered, never listed.
TABLE = Declaration(
    LateSummon, what=Message("what.late_summon"), apply=apply, describe=describe, legal=None
)
DIGITAL = None
