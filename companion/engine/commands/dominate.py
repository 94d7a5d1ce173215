"""Dominate: take or decline the bonus of a territory the player holds whole (ruling 10).

The digital board asks each player in turn order about each territory they qualify for;
a table game records refusals inside its EnergyAndReset, so it never has one to decide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import name, where, who
from companion.engine.commands._declaration import Declaration, Moment
from companion.engine.constants import Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import finish_round, occupants_by_id, run_reset, show_passes
from companion.engine.names import territory_term
from companion.language import Message
from models.commands import Command, Dominate

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: Dominate) -> None:
    """Settle the bonus now in question; the round ends with the last one, or with a win."""
    if state.phase is not Phase.ENERGY_AND_RESET or not state.pending:
        raise IllegalCommand(Message("refuse.no_bonus", now=where(state)))
    seat, territory = state.pending[0]
    expected = state.game.isle.territory_ids[territory]
    if command.territory != expected:
        raise IllegalCommand(
            Message("refuse.other_bonus", player=name(state, seat), territory=expected)
        )
    if not command.take:
        state.declined.setdefault(state.game.players[seat], []).append(expected)
    state.pending.pop(0)
    occupants = occupants_by_id(state)
    if not state.pending:
        finish_round(state, run_reset(state, occupants, state.declined))
        return
    # Ruling 11: once the choices made so far reach 36 the game ends, whatever comes next.
    partial = show_passes(state, occupants)
    if partial.summoner:
        finish_round(state, partial)


def describe(state: GameState, command: Dominate) -> Message:
    """'Ragna takes the 2-energy bonus for holding North Cliffs'."""
    board = state.game.board
    territory = board.territories[state.game.isle.territory_index[command.territory]]
    named = territory_term(board, territory)
    if command.take:
        return Message("dominate.take", player=who(state), bonus=territory.bonus, territory=named)
    return Message("dominate.decline", player=who(state), bonus=territory.bonus, territory=named)


def legal(state: GameState, out: list[Command]) -> None:
    """Take or decline the bonus now in question, if one is."""
    if state.pending:
        territory = state.game.isle.territory_ids[state.pending[0][1]]
        out.append(Dominate(territory, True))
        out.append(Dominate(territory, False))


def places(state: GameState, command: Dominate) -> tuple[str, ...]:
    """Every location of the territory."""
    isle = state.game.isle
    members = isle.territory_members[isle.territory_index[command.territory]]
    return tuple(isle.location_ids[i] for i in members)


TABLE = DIGITAL = Declaration(
    Dominate,
    what=Message("what.dominate"),
    apply=apply,
    describe=describe,
    legal=legal,
    moments=(Moment.ENERGY_AND_RESET,),
    rank=10,
    places=places,
)
