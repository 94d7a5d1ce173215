"""The state as plain JSON-ready data, for the CLI (`--json`) and the tests."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.engine.constants import KINDS
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.state import GameState


def _by_kind(counts: list[int]) -> dict[str, int]:
    return {KIND_ORDER[k].value: counts[k] for k in range(KINDS)}


def state_to_json(state: GameState) -> dict[str, Any]:
    """Everything a screen or a saved game needs to know about the state."""
    game = state.game
    ids = game.isle.location_ids
    players = {
        player: {
            "energy": state.energy[seat],
            "reserve": _by_kind(state.reserve[seat]),
            "on_board": _by_kind(state.on_board[seat]),
            "returning": _by_kind(state.returning[seat]),
        }
        for seat, player in enumerate(game.players)
    }
    board = {
        ids[i]: {
            "player": game.players[token[0]],
            "creature": KIND_ORDER[token[1]].value,
            "face_down": state.face_down[i],
        }
        for i, token in enumerate(state.occupant)
        if token is not None
    }
    active = None
    if state.active is not None:
        active = {"location": ids[state.active], "actions_left": state.actions_left}
    return {
        "round": state.round,
        "final_round": game.final_round,
        "phase": state.phase.value,
        "step": None if state.step_kind is None else state.step_kind.value,
        "current_player": state.current_player,
        "turn_order": [game.players[seat] for seat in state.turn_order],
        "players": players,
        "board": board,
        "active": active,
        "pending_domination": [
            {"player": game.players[seat], "territory": game.isle.territory_ids[t]}
            for seat, t in state.pending
        ],
        "winner": state.winner_id,
        "summoner": state.summoner,
        "game_over": state.is_terminal,
    }
