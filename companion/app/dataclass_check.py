"""Flet's encoder asks of every value it sends a page whether it is a dataclass: the same
answer, remembered per type.

Encoding a screen for a page asks `dataclasses.is_dataclass` of each control, each of its
properties and each value inside them (a border, a padding): about 5,000 questions for the
table screen. For a string or a number the standard function looks for an attribute the
type does not have, which is slow; a table screen drawn whole spent an eighth of its time
there (issue 22: 200 pages coming back at once to one process). The answer depends on the
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


def check_by_type() -> bool:
    """Have Flet's encoder ask `is_dataclass` here; False (its own kept) if it asks another
    function than the standard one, which this one stands for."""
    if protocol.is_dataclass is dataclasses.is_dataclass:
        # The standard function's overloads only narrow types for a checker.
        protocol.is_dataclass = is_dataclass  # type: ignore[assignment]
    return protocol.is_dataclass is is_dataclass
