"""What can go wrong with saved games, each said in one line a user can act on."""

from __future__ import annotations


class StoreError(Exception):
    """A saved-games problem to show the user as one line."""


class GameNotFound(StoreError):
    """No saved game has this id."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no saved game with id {game_id!r}")
        self.game_id = game_id


class GameMovedOn(StoreError):
    """A write named a revision that is no longer the game's latest: someone else wrote first."""

    def __init__(self, game_id: str, expected: int, current: int) -> None:
        if current > expected:
            message = (
                f"the game moved on: game {game_id} is at revision {current}, "
                f"not {expected}; reload it and try again"
            )
        else:
            message = f"game {game_id} is at revision {current}; there is no revision {expected}"
        super().__init__(message)
        self.game_id = game_id
        self.expected = expected
        self.current = current


class NothingToUndo(StoreError):
    """Undo on a game with no active commands."""


class NothingToRedo(StoreError):
    """Redo with no undone commands left (or a new command recorded since)."""


class LogError(StoreError):
    """A game log (import) or a stored log (replay) that the rules refuse."""
