"""Done: at the table, a player says that they record nothing more in the rest of the
Summoning phase or of the round, whatever the turn (engine/ahead.py): the turn order passes
them over from then on, and nobody waits for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.ahead import UNTIL, describe_ahead, nothing_more
from companion.engine.commands._common import current, seat_of
from companion.engine.commands._declaration import Declaration, Moment
from companion.engine.constants import Phase
from companion.language import Message
from models.commands import Command, Done

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: Done) -> None:
    """The player records nothing more up to the point they said (a `Done` naming nobody is
    the player's whose turn it is, as a version 1 log's commands are)."""
    if command.by is None:
        seat = current(state, state.phase, Message("what.done"))
    else:
        seat = seat_of(state, command.by)
    nothing_more(state, seat, UNTIL[command.until])


def describe(state: GameState, command: Done) -> Message:
    """'Ragna records nothing more this round'."""
    said = describe_ahead(state, TABLE, command)
    if said is not None:
        return said
    seat = state.current_seat if command.by is None else state.game.seat.get(command.by)
    player = "" if seat is None else state.game.labels[state.game.players[seat]]
    which = "done.round" if command.until == "round" else "done.summoning"
    return Message(which, player=player)


def legal(state: GameState, out: list[Command]) -> None:
    """Nothing more this round, and in the Summoning phase nothing more summoned."""
    if state.phase is Phase.SUMMONING:
        out.append(_SUMMONING)
    out.append(_ROUND)


# Commands are immutable: every legal list shares these.
_SUMMONING, _ROUND = Done("summoning"), Done("round")

TABLE = Declaration(
    Done,
    what=Message("what.done"),
    apply=apply,
    describe=describe,
    legal=legal,
    moments=(Moment.SUMMONING, Moment.ACTIONS),
    rank=85,
)
DIGITAL = None
