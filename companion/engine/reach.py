"""What one tap at the table records: a player's command, after a skip to their turn.

At a real table nobody says "pass" out loud: when Bob summons a Troll, everyone before
him in the Trolls step (and in the steps before) chose not to. One tap on "Bob: Troll"
therefore records a Skip to Bob's turn in the Trolls step, then his summon; both are
checked here, on a copy, before anything is recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.ahead import own_stage, stage_of, turn_over
from companion.engine.constants import KIND_INDEX, Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import blocker, position
from companion.language import Message
from models.commands import Command, Skip
from models.rules import CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState


def reach(state: GameState, command: Command, kind: CreatureKind | None = None) -> list[Command]:
    """The records that make a player's command the next thing done; IllegalCommand if it
    cannot be done from here.

    `kind` is the step the tap names. The command's declaration says which step it belongs
    to: a summon's is its own kind, a swap's the Wyrms step, and a removal's the one said
    (the kind of the creature that removed).
    """
    phase, kind = state.game.rules.step(command, kind)
    by = getattr(command, "by", None)
    if kind is not None and by is not None:
        _refuse_if_over(state, phase, kind, by)
    records: list[Command] = []
    here = state.phase is phase and state.step_kind is kind
    # Table records (a correction, a skip) have no `by`: nobody's turn to skip to.
    if kind is not None and by is not None and not (here and state.current_player == by):
        records.append(Skip("summoning" if phase is Phase.SUMMONING else "actions", kind, by))
    trial = state.clone()
    try:
        for record in (*records, command):
            trial.apply(record)
    except IllegalCommand:
        reason = None if by is None or kind is None else passed_over_at(state, phase, kind, by)
        if reason is not None:
            raise IllegalCommand(reason) from None
        raise
    return [*records, command]


def _refuse_if_over(state: GameState, phase: Phase, kind: CreatureKind, player: str) -> None:
    """Refuse a player's command for a step of the round whose turn for them is over."""
    seat = state.game.seat.get(player)
    if seat is None or state.phase not in (Phase.SUMMONING, Phase.ACTIONS):
        return
    at = stage_of(phase, kind)
    if at < own_stage(state, seat):
        raise IllegalCommand(turn_over(state, seat, at))


def passed_over_at(
    state: GameState, phase: Phase, kind: CreatureKind, player: str
) -> Message | None:
    """Why this step or a later one of this round passes a player over (a tap for
    them is refused with the reason, not with whose turn it is); None if it does not, or the
    step is over."""
    seat = state.game.seat.get(player)
    if seat is None or phase not in (Phase.SUMMONING, Phase.ACTIONS):
        return None
    at = state.clone()
    at.phase, at.step, at.turn = phase, KIND_INDEX[kind], state.turn_order.index(seat)
    if position(at)[:2] < position(state)[:2]:
        return None
    if position(at) != position(state):
        at.step_removals = 0
    return blocker(at, seat)
