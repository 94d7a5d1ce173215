"""Flet's set-up walk over a new screen's controls, made to visit only what can hold a control.

When a screen is sent for the first time (a page opening, or coming back after its server
process died), Flet walks every field of every new control to set it up
(`DiffBuilder._configure_dataclass`): it gives each nested object its parent, builds each
control, and clears what each recorded as changed. The table screen has about 400
controls of 30 to 80 fields each, nearly all of them a default, a string or a number: that
walk was half of what drawing the screen cost, and 200 returning pages are drawn one after
another on the process left when the other is killed (a hosted server's pages coming back,
`bench tables 100 --kill-one`).

Flet's controls keep their non-default properties in `_values` and name their other fields
in `_structural_fields`, so the walk here visits those only, in the fields' order, and
never a plain value (what Flet does with a string, a number, a flag or None is nothing).
A class without that bookkeeping, or with a property whose default could hold a control
(a dataclass, a dict or a list), is walked field by field as Flet does. Everything else
(parents, frozen objects, building, the changes cleared) is done as Flet's own walk does
it, in the same order: the patches sent and every control's set-up are the same
(tests/test_diff_walk.py).

This stands in for a method of Flet's own, so it is used only with the version of that
method it was checked against (its source's digest); with another, Flet's is left alone
(`companion.app.flet_patches.install`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import weakref
from collections.abc import Iterator
from typing import Any

from flet.controls import object_patch
from flet.controls.object_patch import DiffBuilder, ObjectPatchException

from companion.app.flet_patches.dataclass_check import is_dataclass

# Exactly these types: a subclass (an enum of str, say) still takes the full way.
PLAIN = frozenset({str, int, float, bool, type(None)})

# The digest of the source of Flet's walk this one was checked against (flet 1.0.5).
CHECKED = "fbbb21ab0ef5bcaa78b15d04710e34bc0c2fdfd9b9f310915cca91f7f516ca37"

_FLETS_OWN = DiffBuilder._configure_dataclass

# Per class: (field name -> its place) and the structural fields for the short way; None
# for the long way, with the names of every field Flet walks.
_Plan = tuple[dict[str, int], tuple[str, ...]] | None
_plans: dict[type, tuple[_Plan, tuple[str, ...]]] = {}


def flets_source_digest() -> str:
    """The digest of the source of Flet's own walk, as installed."""
    return hashlib.sha256(inspect.getsource(_FLETS_OWN).encode()).hexdigest()


def _plan(cls: type) -> tuple[_Plan, tuple[str, ...]]:
    found = _plans.get(cls)
    if found is not None:
        return found
    walked = tuple(f.name for f in dataclasses.fields(cls) if not f.metadata.get("skip", False))
    structural = cls.__dict__.get("_structural_fields")
    defaults = cls.__dict__.get("_prop_defaults")
    short: _Plan = None
    if (
        structural is not None
        and defaults is not None
        and set(walked) == set(structural) | set(defaults)
        and not any(_may_hold_a_control(default) for default in defaults.values())
    ):
        short = ({name: place for place, name in enumerate(walked)}, tuple(structural))
    _plans[cls] = (short, walked)
    return short, walked


def _may_hold_a_control(value: object) -> bool:
    # What Flet's walk looks into; anything else (an enum, a number) it passes by.
    return is_dataclass(value) or isinstance(value, (dict, list))


def _fields(item: Any) -> list[Any]:
    """The values of `item`'s walked fields that may hold a control, in the fields' order."""
    short, walked = _plan(type(item))
    if short is None:
        values = (getattr(item, name) for name in walked)
        return [value for value in values if type(value) not in PLAIN]
    place, structural = short
    found = [
        (place[name], value)
        for name, value in item._values.items()
        if type(value) not in PLAIN and name in place
    ]
    for name in structural:
        value = getattr(item, name)
        if type(value) not in PLAIN:
            found.append((place[name], value))
    if len(found) > 1:
        found.sort(key=_place)
    return [value for _, value in found]


def _place(pair: tuple[int, Any]) -> int:
    return pair[0]


def _is_dataclass(value: object) -> bool:
    # Not a type guard: the object set up is a control, more than a dataclass to the checker.
    return is_dataclass(value)


def _walk(
    builder: DiffBuilder,
    item: Any,
    parent: Any,
    frozen: bool,
    configure_setattr_only: bool = False,
) -> Iterator[Any]:
    """Set up `item` and what it holds, yielding each control found (Flet's walk, shorter)."""
    if type(item) in PLAIN:
        return
    node: Any = item
    if _is_dataclass(node):
        if parent is None:
            known = getattr(node, "_parent", None)
            parent = known() if known else None
        if parent:
            if parent is node:
                raise ObjectPatchException(f"Parent is the same as item: {node}")
            node._parent = weakref.ref(parent)
        if hasattr(node, "_frozen"):
            frozen = node._frozen
        elif frozen:
            node._frozen = frozen
        if getattr(node.__class__, "__flet_control_cls__", None) is None:
            node.__class__.__flet_control_cls__ = builder.control_cls
        kind = builder.control_cls
        control = kind is not None and isinstance(node, kind)
        if control:
            if not configure_setattr_only:
                node.build()
                node._before_update_safe()
                object.__setattr__(node, "_initialized", True)
            yield node
        if not configure_setattr_only:
            holder = node if control else parent
            for value in _fields(node):
                yield from _walk(builder, value, holder, frozen)
        if not frozen:
            dirty = getattr(node, "_dirty", None)
            if dirty is not None:
                dirty.clear()
            else:
                # A plain dataclass records its changes for the next diff, as Flet sets it.
                kind_of_node: Any = type(node)
                if kind_of_node.__setattr__ is not object_patch._control_setattr:
                    kind_of_node.__setattr__ = object_patch._control_setattr
                object.__setattr__(node, "__changes", {})
    elif isinstance(item, dict):
        for value in item.values():
            yield from _walk(builder, value, parent, frozen)
    elif isinstance(item, list):
        for value in item:
            yield from _walk(builder, value, parent, frozen)


def why_not() -> str | None:
    """Why the shorter walk does not fit the Flet installed, or None if it does."""
    if flets_source_digest() != CHECKED:
        return "Flet's DiffBuilder._configure_dataclass is not the one it was checked against"
    return None


def install() -> None:
    """Use the shorter walk in place of Flet's own."""
    DiffBuilder._configure_dataclass = _walk  # type: ignore[method-assign,assignment]


def undo() -> None:
    """Put Flet's own walk back."""
    DiffBuilder._configure_dataclass = _FLETS_OWN  # type: ignore[method-assign]
