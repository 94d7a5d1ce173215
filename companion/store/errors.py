"""What can go wrong with saved games, each said in one line a user can act on."""

from __future__ import annotations

from companion.language import Message, quoted
from models.problems import SaidError


class StoreError(SaidError):
    """A saved-games problem to show the user as one line, said in any language
    (`error.message`, models/problems.py)."""


class GameNotFound(StoreError):
    """No saved game has this id."""

    def __init__(self, game_id: str) -> None:
        super().__init__(Message("store.not_found", game=quoted(game_id)))
        self.game_id = game_id


class GameMovedOn(StoreError):
    """A write named a revision that is no longer the game's latest: someone else wrote first."""

    def __init__(self, game_id: str, expected: int, current: int) -> None:
        said = "store.moved_on" if current > expected else "store.no_revision"
        super().__init__(Message(said, game=game_id, current=current, expected=expected))
        self.game_id = game_id
        self.expected = expected
        self.current = current


class NothingToUndo(StoreError):
    """Undo on a game with no active commands."""


class NothingToRedo(StoreError):
    """Redo with no undone commands left (or a new command recorded since)."""


class LogError(StoreError):
    """A game log (import) or a stored log (replay) that the rules refuse."""


class DraftMovedOn(StoreError):
    """A change to a game's Energy and Reset draft was made from an older version of it:
    another device changed it first."""

    def __init__(self, game_id: str, expected: int) -> None:
        super().__init__(Message("store.draft_moved_on", game=game_id, expected=expected))
        self.game_id = game_id
        self.expected = expected
