"""Flet's encoder asks of every value it sends a page whether it is a dataclass: the same
answer, remembered per type.

Encoding a screen for a page asks `dataclasses.is_dataclass` of each control, each of its
properties and each value inside them (a border, a padding): about 5,000 questions for the
table screen. For a string or a number the standard function looks for an attribute the
type does not have, which is slow; a table screen drawn whole spent an eighth of its time
there (200 pages of a hosted server coming back at once to one process). The answer depends on the
type alone, so it is looked up once per type; a class itself (not an instance) is asked
of the standard function each time, as its type says nothing.
"""

from __future__ import annotations

import dataclasses

from flet.messaging import protocol

# Per type of instance: whether it is a dataclass's.
_known: dict[type, bool] = {}


def is_dataclass(value: object) -> bool:
    """Whether `value` is a dataclass or an instance of one (`dataclasses.is_dataclass`)."""
    kind = type(value)
    known = _known.get(kind)
    if known is not None:
        return known
    answer = dataclasses.is_dataclass(value)
    if not isinstance(value, type):
        _known[kind] = answer
    return answer


def why_not() -> str | None:
    """Why this check does not fit the Flet installed, or None if it does."""
    if protocol.is_dataclass not in (dataclasses.is_dataclass, is_dataclass):
        return "Flet's encoder asks another function than dataclasses.is_dataclass"
    return None


def install() -> None:
    """Have Flet's encoder ask `is_dataclass` here, in place of the standard function."""
    # The standard function's overloads only narrow types for a checker.
    protocol.is_dataclass = is_dataclass  # type: ignore[assignment]


def undo() -> None:
    """Have Flet's encoder ask the standard function again."""
    protocol.is_dataclass = dataclasses.is_dataclass
