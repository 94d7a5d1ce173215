"""LateRemoval: at the table's Energy and Reset, a removal of this round nobody entered then.

The bounty is paid now (ruling 7) and, as any bounty, reaching 36 wins at once (ruling 11):
the removal happened in the Actions phase, before any of Energy and Reset's passes. Only a
removal some creature of the player's on the board could have made is accepted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import change, kind, name, seat_of
from companion.engine.commands._declaration import Declaration
from companion.engine.commands.late_summon import check_late
from companion.engine.constants import BOUNTY, KINDS
from companion.engine.dice import chances
from companion.engine.errors import IllegalCommand
from companion.engine.flow import gain
from companion.engine.names import kind_term
from companion.language import Message
from models.commands import LateRemoval
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: LateRemoval) -> None:
    """Send the victim's creature back for next round and pay the bounty to the remover."""
    check_late(state)
    seat = seat_of(state, command.player)
    victim = seat_of(state, command.victim)
    if victim == seat:
        raise IllegalCommand(Message("refuse.own_creature", player=name(state, seat)))
    index = kind(command.kind)
    creature = kind_term(KIND_ORDER[index])
    if state.on_board[victim][index] == 0:
        raise IllegalCommand(
            Message("refuse.none_of_kind", player=name(state, victim), kind=creature)
        )
    # Ruling 7: some creature of the remover's on the board must be able to beat it.
    if not any(
        state.on_board[seat][attacker] and chances(attacker, index).success is not None
        for attacker in range(KINDS)
    ):
        raise IllegalCommand(
            Message("refuse.late_cannot_remove", player=name(state, seat), kind=creature)
        )
    state.on_board[victim][index] -= 1
    state.returning[victim][index] += 1
    gain(state, seat, BOUNTY[index])


def describe(state: GameState, command: LateRemoval) -> Message:
    """'Recorded late: Ann removed Bob's Troll this round and gains 2 (10 → 12)'."""
    seat = state.game.seat[command.player]
    index = kind(command.kind)
    return Message(
        "late_removal",
        player=name(state, seat),
        victim=state.game.labels[command.victim],
        kind=kind_term(KIND_ORDER[index]),
        bounty=BOUNTY[index],
        change=change(state.energy[seat], BOUNTY[index]),
    )


# Who removed what is the table's to say: a late record is entered, never listed.
TABLE = Declaration(
    LateRemoval, what=Message("what.late_removal"), apply=apply, describe=describe, legal=None
)
DIGITAL = None
