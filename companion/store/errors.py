"""What can go wrong with saved games, each said in one line a user can act on."""

from __future__ import annotations

from companion.language import Message, quoted
from models.problems import as_message


class StoreError(Exception):
    """A saved-games problem to show the user as one line.

    Raised with a `Message`, it is said in any language (`error.message`); raised with a
    string, that English string is its message in every language. str() is English.
    """

    @property
    def message(self) -> Message:
        """Why, as a message to render in the user's language."""
        said = self.args[0] if len(self.args) == 1 else str(self)
        return as_message(said if isinstance(said, Message) else str(said))

    def __str__(self) -> str:
        if len(self.args) == 1 and isinstance(self.args[0], Message):
            return str(self.args[0])
        return super().__str__()


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
