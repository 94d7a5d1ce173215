"""The legal commands of a state.

Table games also accept records whose values are free (a Correction's amount and
reason, the placements of an EnergyAndReset); those are checked when applied and
are not listed here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.constants import COSTS, KINDS, WYRM, Phase
from companion.engine.flow import can_swap, removal_blocker
from companion.engine.movement import reachable
from models.commands import (
    Command,
    Dominate,
    EndActivation,
    Pass,
    Removal,
    Summon,
    Swap,
)
from models.rules import KIND_ORDER, WYRM_SWAP_COST

if TYPE_CHECKING:
    from companion.engine.state import GameState

_PASS = Pass()
_END = EndActivation()


def legal_commands(state: GameState) -> list[Command]:
    """Every command the rules allow now, in a stable order."""
    phase = state.phase
    if phase is Phase.SUMMONING:
        return _summoning(state)
    if phase is Phase.ACTIONS:
        return _actions(state) if state.game.digital else _table_actions(state)
    if phase is Phase.ENERGY_AND_RESET and state.pending:
        territory = state.game.isle.territory_ids[state.pending[0][1]]
        return [Dominate(territory, True), Dominate(territory, False)]
    return []


def _summoning(state: GameState) -> list[Command]:
    seat = state.turn_order[state.turn]
    kind = KIND_ORDER[state.step]
    if state.reserve[seat][state.step] == 0 or state.energy[seat] < COSTS[state.step]:
        return [_PASS]
    if not state.game.digital:
        return [Summon(kind), _PASS]
    summons = state.game.summons[state.step]
    commands: list[Command] = [summons[i] for i, t in enumerate(state.occupant) if t is None]
    commands.append(_PASS)
    return commands


def _actions(state: GameState) -> list[Command]:
    game = state.game
    if state.active is None:
        seat = state.turn_order[state.turn]
        mine = game.tokens[seat][state.step]
        face_down = state.face_down
        activations = game.activations
        commands: list[Command] = [
            activations[i]
            for i, token in enumerate(state.occupant)
            if token is mine and not face_down[i]
        ]
        commands.append(_PASS)
        return commands
    here = state.active
    mover = state.occupant[here]
    assert mover is not None, "the active creature is on the board"
    seat = mover[0]
    commands = []
    if state.actions_left:
        moves = game.moves
        commands.extend(moves[i] for i in reachable(state, here, state.actions_left))
        occupant = state.occupant
        for there in game.isle.neighbours[here]:
            token = occupant[there]
            if token is not None and token[0] != seat:
                commands.append(game.attacks[there])
    if can_swap(state):
        occupant = state.occupant
        commands.extend(
            game.swaps[there]
            for there in game.isle.neighbours[here]
            if (token := occupant[there]) is not None and token[0] == seat
        )
    commands.append(_END)
    commands.append(_PASS)
    return commands


def _table_actions(state: GameState) -> list[Command]:
    seat = state.turn_order[state.turn]
    players = state.game.players
    commands: list[Command] = []
    for victim, counts in enumerate(state.on_board):
        if victim == seat:
            continue
        commands.extend(
            Removal(players[victim], KIND_ORDER[kind])
            for kind in range(KINDS)
            if counts[kind] and removal_blocker(state, seat, kind) is None
        )
    others_on_board = sum(state.on_board[seat]) - state.on_board[seat][WYRM]
    if (
        state.step == WYRM
        and state.on_board[seat][WYRM]
        and others_on_board
        and state.energy[seat] >= WYRM_SWAP_COST
    ):
        commands.append(Swap())
    commands.append(_PASS)
    return commands
