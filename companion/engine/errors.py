"""Errors the engine raises."""


class IllegalCommand(ValueError):
    """A command the rules do not allow in this state; the message says why."""
