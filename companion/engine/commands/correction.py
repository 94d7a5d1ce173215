"""Correction: at the table, a player's energy fixed by hand, with the reason on record."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import change, name, seat_of, who
from companion.engine.commands._declaration import Declaration
from companion.engine.errors import IllegalCommand
from companion.language import Message
from models.commands import Correction
from models.rules import MAX_TRACK_ENERGY

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: Correction) -> None:
    """Change the energy by the delta, staying on the track: a win comes from play, not a fix."""
    seat = seat_of(state, command.player)
    if command.made_by is not None:
        seat_of(state, command.made_by)
    if not command.reason.strip():
        raise IllegalCommand(Message("refuse.correction_reason"))
    if command.delta == 0:
        raise IllegalCommand(Message("refuse.correction_zero"))
    after = state.energy[seat] + command.delta
    if not 0 <= after <= MAX_TRACK_ENERGY:
        raise IllegalCommand(
            Message(
                "refuse.correction_range",
                player=name(state, seat),
                after=after,
                most=MAX_TRACK_ENERGY,
            )
        )
    state.energy[seat] = after


def describe(state: GameState, command: Correction) -> Message:
    """'Ragna's energy corrected by +2 (10 → 12): miscounted', with ', by Bjorn' when a
    player's phone made it: every phone reads who corrected what."""
    seat = state.game.seat[command.player]
    player = who(state, seat)
    moved = change(state.energy[seat], command.delta)
    if command.made_by is None:
        return Message(
            "correction", player=player, delta=command.delta, change=moved, reason=command.reason
        )
    return Message(
        "correction.by",
        player=player,
        delta=command.delta,
        change=moved,
        reason=command.reason,
        by=state.game.labels[command.made_by],
    )


# Its amount and reason are free: a correction is typed in, never listed.
TABLE = Declaration(
    Correction, what=Message("what.correct"), apply=apply, describe=describe, legal=None
)
DIGITAL = None
