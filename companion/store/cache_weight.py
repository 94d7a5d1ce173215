"""What a game kept in the store's memory weighs, estimated from what it holds.

The store keeps the games a process used, so an append or a notice needs no replay; it
bounds them in bytes as well as in number, since one game may hold a few records or 5,327,
each with a reason of up to 200 characters, on a shipped board or on one of 512 places.
The figures are measured (tracemalloc, a game read back from the database) and rounded up:
a record with a short sentence takes about 400 bytes, each character of a correction's
reason 2 to 14 more (kept in the command and its stored sentence; Python keeps a text in 1,
2 or 4 bytes a character by its widest one), a game on a shipped board about 40 KB, the
largest board a setup may carry about 2.5 MB.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from models.board import Board

# A game's state, setup and rules on a shipped board.
GAME_BYTES = 64 * 1024
# A board carried in the setup: per place, and per path.
PLACE_BYTES = 4 * 1024
PATH_BYTES = 256
# A record, and each character of the text typed into it, per byte Python keeps it in.
RECORD_BYTES = 768
CHARACTER_BYTES = 4


class _Entry(Protocol):
    @property
    def command(self) -> object: ...


def game_bytes(board: object, entries: Iterable[_Entry]) -> int:
    """The estimated bytes of a game on `board` (an id, or a board carried in its setup)
    holding `entries` (its log and its undone records)."""
    weight = GAME_BYTES
    if isinstance(board, Board):
        places = sum(len(territory.locations) for territory in board.territories)
        weight += PLACE_BYTES * places + PATH_BYTES * len(board.paths)
    for entry in entries:
        reason = getattr(entry.command, "reason", None)
        weight += RECORD_BYTES
        if isinstance(reason, str) and reason:
            widest = max(map(ord, reason))
            width = 1 if widest < 0x100 else 2 if widest < 0x10000 else 4
            weight += CHARACTER_BYTES * width * len(reason)
    return weight


class Weights:
    """What each game kept weighs, and all of them together (shared by a store's views)."""

    def __init__(self) -> None:
        self.of: dict[str, int] = {}
        self.total = 0

    def set(self, game_id: str, weight: int) -> None:
        """`game_id` now weighs `weight`."""
        self.total += weight - self.of.get(game_id, 0)
        self.of[game_id] = weight

    def drop(self, game_id: str) -> None:
        """`game_id` is no longer kept."""
        self.total -= self.of.pop(game_id, 0)
