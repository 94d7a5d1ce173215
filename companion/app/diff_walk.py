"""Flet's walk over a new screen's controls, spared the plain values it cannot find a control in.

When a screen is sent for the first time (a page opening, or coming back after its server
process died), Flet walks every field of every new control to set it up
(`DiffBuilder._configure_dataclass`), and it enters a generator for each field's value,
though most are a string, a number, a flag or None and hold nothing to set up. The table
screen has about 450 controls of 30 to 80 fields each: that walk was a fifth of what a
returning page cost its server, and 200 returning pages are drawn one after another on
the process left when the other is killed (issue 22, `bench --tables 100 --kill-one`).

So the walk is wrapped: a plain value returns at once, anything else goes to Flet's own
code, unchanged. What Flet does with a plain value is nothing (it is no dataclass, dict or
list), so the patches sent are the same byte for byte (tests/test_diff_walk.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from flet.controls.object_patch import DiffBuilder

# Exactly these types: a subclass (an enum of str, say) still takes Flet's own way.
PLAIN = frozenset({str, int, float, bool, type(None)})
NOTHING: tuple[Any, ...] = ()

_FLETS_OWN = DiffBuilder._configure_dataclass


def _walk(
    builder: DiffBuilder,
    item: Any,
    parent: Any,
    frozen: bool,
    configure_setattr_only: bool = False,
) -> Iterable[Any]:
    if type(item) in PLAIN:
        return NOTHING
    return _FLETS_OWN(builder, item, parent, frozen, configure_setattr_only)


def skip_plain_values() -> None:
    """Make Flet's walk over new controls return at once from a plain value (idempotent)."""
    DiffBuilder._configure_dataclass = _walk  # type: ignore[method-assign,assignment]


def flets_own() -> None:
    """Put Flet's own walk back (for the test comparing the two)."""
    DiffBuilder._configure_dataclass = _FLETS_OWN  # type: ignore[method-assign]
