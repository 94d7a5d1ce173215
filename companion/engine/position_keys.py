"""The position as keys and views, for search's and the coach's tables and for play's pacing.

Search keeps tables of positions it has seen (`position_key`, `full_key`), draws an attack's
dice from a position's bytes (`dice_text`), caches the Energy and Reset preview
(`reset_key`), reads the state's arrays without copying them (`search_view`), and paces a
computer's turn (`turn_key`). Like `queries`, these never change the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from companion.engine.constants import Token

if TYPE_CHECKING:
    from companion.engine.state import GameState


class SearchView(NamedTuple):
    """The seat- and location-indexed arrays search reads, as the state holds them (not copied).

    For bots only, where a copy per evaluated position would cost: never change them.
    """

    occupant: list[Token | None]
    face_down: list[bool]
    energy: list[int]
    on_board: list[list[int]]
    active: int | None
    actions_left: int
    winner: int | None


def turn_key(state: GameState) -> tuple[object, ...]:
    """What stays the same through one seat's turn and changes when another turn begins."""
    return (state.round, state.phase, state.step_kind, state.turn, state.current_seat)


def search_view(state: GameState) -> SearchView:
    """The arrays search reads, for bots' evaluation (not copied: never change them)."""
    return SearchView(
        state.occupant,
        state.face_down,
        state.energy,
        state.on_board,
        state.active,
        state.actions_left,
        state.winner,
    )


def position_key(state: GameState) -> tuple[object, ...]:
    """The position as a hashable key, for search's tables: equal positions, equal keys."""
    return (
        tuple(state.occupant),
        tuple(state.face_down),
        tuple(state.energy),
        state.phase,
        state.active,
        state.actions_left,
        state.round,
        tuple(state.turn_order),
        tuple((player, tuple(refused)) for player, refused in state.declined.items()),
        state.reset_from,
    )


def full_key(state: GameState) -> tuple[object, ...]:
    """The whole position as a hashable key (all its position text holds), cheaper than the
    text: for tables of playouts from a position."""
    return (
        position_key(state),
        state.step,
        state.turn,
        state.step_removals,
        tuple(map(tuple, state.reserve)),
        tuple(map(tuple, state.returning)),
        tuple(map(tuple, state.ready)),
        tuple(state.pending),
        state.summoner,
    )


def dice_text(state: GameState) -> bytes:
    """The board, the energies and where in the round, as bytes: cheap to make, a function of
    the position (dice drawn for an attack from it are drawn from these)."""
    where = (state.round, state.phase.value, state.step, state.turn, state.active)
    return repr((state.occupant, state.face_down, where, state.actions_left, state.energy)).encode()


def reset_key(state: GameState) -> tuple[object, ...]:
    """What the Energy and Reset preview depends on, as a hashable key."""
    return (
        tuple(state.occupant),
        tuple(state.energy),
        tuple(state.turn_order),
        state.round,
        tuple((player, tuple(refused)) for player, refused in state.declined.items()),
        state.reset_from,
    )
