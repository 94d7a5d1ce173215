"""Errors the engine raises."""

from __future__ import annotations

from companion.language import Message


class IllegalCommand(ValueError):
    """A command the rules do not allow in this state; `message` says why, in any language.

    str() of it is the English sentence, as before messages had languages.
    """

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


class SetupError(ValueError):
    """A setup the engine cannot play on its board; `message` says why, in any language."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)
