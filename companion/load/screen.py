"""A page's controls as Flet's web client keeps them: the page it was sent, changed by each
patch (`Screen`), and what of it is shown and takes taps."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from companion.load.frames import tap_event


def controls(value: Any) -> Iterator[dict[str, Any]]:
    """Every control (a map with an id and a class) inside a message, outermost first."""
    if isinstance(value, dict):
        if "_i" in value and "_c" in value:
            yield value
        for item in value.values():
            yield from controls(item)
    elif isinstance(value, list):
        for item in value:
            yield from controls(item)


def holds(value: Any, text: str) -> bool:
    """Whether `text` is in any string inside `value`."""
    if isinstance(value, str):
        return text in value
    if isinstance(value, dict):
        return any(holds(item, text) for item in value.values())
    if isinstance(value, list):
        return any(holds(item, text) for item in value)
    return False


def tappable(root: Any, text: str) -> int | None:
    """The id of the newest shown control that takes taps and holds `text`, or that a
    control naming `text` itself wraps (a square inside its semantic label).

    Hidden controls do not count: a screen keeps the drawing it replaced mounted but hidden,
    so that a tap made on it still reaches its handler.
    """
    found = None
    for control in shown(root):
        target = None
        if tap_event(control):
            if holds(control, text):
                target = control
        elif any(isinstance(value, str) and text in value for value in control.values()):
            # The newest of them: a square's touch layer of this drawing lies over the last one.
            target = max(
                (c for c in shown(control) if tap_event(c)), key=lambda c: c["_i"], default=None
            )
        if target is not None and (found is None or target["_i"] > found):
            found = target["_i"]
    return found


def shown(value: Any) -> Iterator[dict[str, Any]]:
    """Every control inside `value` that is not hidden, outermost first."""
    if isinstance(value, dict):
        if value.get("visible") is False:
            return
        if "_i" in value and "_c" in value:
            yield value
        for item in value.values():
            yield from shown(item)
    elif isinstance(value, list):
        for item in value:
            yield from shown(item)


REPLACE, ADD, REMOVE, MOVE = 0, 1, 2, 3


class Screen:
    """The page's controls as the client holds them: the page it was sent when it
    registered, changed by every patch since (Flet sends a control that stays the same
    object as the few values that changed)."""

    def __init__(self) -> None:
        self.page: dict[str, Any] = {}
        self._controls: dict[int, dict[str, Any]] = {}

    def registered(self, page: dict[str, Any]) -> None:
        """The page as the server sent it on registration (copied: the message stays as it
        came)."""
        self.page = copy.deepcopy(page)
        self._controls = {}
        self._index(self.page)

    def patch(self, body: dict[str, Any]) -> None:
        """Apply a patch: `[paths, *operations]` to the control `body["id"]`.

        `paths` is a tree of path segments ([number, {segment: subtree}]); an operation
        names its place as a node of that tree and a last segment, and operations apply in
        order, as JSON Patch's do.
        """
        root = self._controls.get(body["id"])
        if root is None:
            return
        paths, *operations = body["patch"]
        where: dict[int, list[Any]] = {}

        def walk(node: list[Any], path: list[Any]) -> None:
            where[node[0]] = path
            for segment, child in (node[1] if len(node) > 1 else {}).items():
                walk(child, [*path, segment])

        walk(paths, [])

        def place(node: int) -> Any:
            value: Any = root
            for segment in where[node]:
                value = value[segment]
            return value

        for operation in operations:
            kind = operation[0]
            if kind == MOVE:
                _, node, key, to_node, to_key = operation
                moved = _take(place(node), key)
                _put(place(to_node), to_key, moved, insert=True)
                continue
            container, key = place(operation[1]), operation[2]
            if kind == REMOVE:
                _take(container, key)
            else:
                value = copy.deepcopy(operation[3])
                _put(container, key, value, insert=kind == ADD)
                self._index(value)

    def _index(self, value: Any) -> None:
        if isinstance(value, dict):
            if "_i" in value and "_c" in value:
                self._controls[value["_i"]] = value
            for item in value.values():
                self._index(item)
        elif isinstance(value, list):
            for item in value:
                self._index(item)

    def tappable(self, text: str) -> int | None:
        """The id of the shown control that takes taps and holds `text`."""
        return tappable(self.page, text)

    def event_of(self, control_id: int) -> str:
        """The event a tap on a control raises ("click" for one not known)."""
        control = self._controls.get(control_id)
        return (tap_event(control) if control else None) or "click"


def _take(container: Any, key: Any) -> Any:
    if isinstance(container, list):
        return container.pop(key)
    return container.pop(key, None)


def _put(container: Any, key: Any, value: Any, *, insert: bool) -> None:
    if isinstance(container, list) and insert:
        container.insert(key, value)
    else:
        container[key] = value
