"""Small pieces of English the engine's sentences share."""

from __future__ import annotations

from collections.abc import Sequence


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun agreeing: '1 action', '3 actions', '2 bonuses'."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {plural or noun + 's'}"


def joined(names: Sequence[str]) -> str:
    """Names as a list in a sentence: 'A', 'A and B', 'A, B and C'."""
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
