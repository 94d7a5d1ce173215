"""A board compiled for the engine: locations as indices, neighbours as tuples."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from models.board import Board


@dataclass(frozen=True, slots=True)
class Isle:
    """The static graph of a board, indexed for speed."""

    board: Board
    location_ids: tuple[str, ...]
    # What players call each location: its territory's name, numbered within it.
    location_names: tuple[str, ...]
    index: dict[str, int]
    # territory_of[i] is the index of the territory holding location i.
    territory_of: tuple[int, ...]
    territory_ids: tuple[str, ...]
    territory_members: tuple[tuple[int, ...], ...]
    territory_index: dict[str, int]
    neighbours: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        """How many summoning locations the isle has."""
        return len(self.location_ids)


@lru_cache(maxsize=64)
def compile_isle(board: Board) -> Isle:
    """Index a validated board for the engine (cached: boards are immutable)."""
    location_ids = board.location_ids
    index = {name: i for i, name in enumerate(location_ids)}
    territory_of = [0] * len(location_ids)
    members = []
    for t, territory in enumerate(board.territories):
        members.append(tuple(index[name] for name in territory.locations))
        for name in territory.locations:
            territory_of[index[name]] = t
    adjacent = board.neighbours
    names = board.location_names
    return Isle(
        board=board,
        location_ids=location_ids,
        location_names=tuple(names[name] for name in location_ids),
        index=index,
        territory_of=tuple(territory_of),
        territory_ids=tuple(t.id for t in board.territories),
        territory_members=tuple(members),
        territory_index={t.id: i for i, t in enumerate(board.territories)},
        neighbours=tuple(tuple(index[n] for n in adjacent[name]) for name in location_ids),
    )
