"""The private functions of Flet the websocket gate reads a client's frames with.

companion/app/wire_frames.py reads each frame before Flet does, as Flet will read it: with
the decoder of Flet's MessagePack extensions, and an event's data made into the event its
handler takes. Each is None where this Flet has no such function; the gate then reads an
extension as MessagePack's raw ExtType, and leaves an event's data for Flet to check.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def _found(module: str, name: str) -> Callable[..., Any] | None:
    """Flet's `module.name`, or None if this Flet has none."""
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    return found if callable(found) else None


# (code, data) -> the value Flet's client sent as a MessagePack extension.
decode_ext = _found("flet.messaging.protocol", "decode_ext_from_msgpack")
# (control, "on_x") -> the type of event that handler takes.
event_field_type = _found("flet.controls.control_event", "get_event_field_type")
# (type, dict) -> the event made from an event's data, as Flet makes it.
from_dict = _found("flet.utils.from_dict", "from_dict")


def missing() -> list[str]:
    """The names of the functions this Flet does not have."""
    named = {
        "decode_ext_from_msgpack": decode_ext,
        "get_event_field_type": event_field_type,
        "from_dict": from_dict,
    }
    return [name for name, found in named.items() if found is None]
