"""Small pieces of English the engine's sentences share."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun agreeing: '1 action', '3 actions', '2 bonuses'."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {plural or noun + 's'}"
