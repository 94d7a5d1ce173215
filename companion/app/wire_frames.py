"""What Flet's client may send on its websocket, checked before Flet reads it.

Flet's server sets whatever a client sends (a property, an event's data) as it comes; these
checks say which frames are the protocol's, and which properties and events a client may
set or raise. `companion/app/wire.py`'s gate calls them on every frame. Flet's own functions
they read frames with come from companion/app/flet_patches/privates.py.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

import msgpack  # type: ignore[import-untyped]

from companion.app.flet_patches import privates

# Flet's actions (flet.messaging.protocol.MessageAction) a client sends, and their fields.
REGISTER, EVENT, UPDATE, INVOKE = 1, 3, 4, 5
FIELDS = {
    REGISTER: frozenset({"session_id", "page_name", "page"}),
    EVENT: frozenset({"target", "name", "data"}),
    UPDATE: frozenset({"id", "props"}),
    INVOKE: frozenset({"control_id", "call_id", "result", "error"}),
}
# Events the server itself raises on a page: a client sending one would pretend to connect.
SERVER_EVENTS = frozenset({"connect", "disconnect", "close", "login", "logout"})
# Page properties the server sets from the connection, never from the client.
SERVER_PROPERTIES = frozenset({"client_ip", "client_user_agent"})
# Private state Flet's client keeps on a control and sends back (a snack bar dismissed, a
# tab chosen); any other private name a control already has is Flet's own (its id `_i`, its
# values, a page's dialogs) and is never the client's to set (Flet sets what comes, as is).
CLIENT_STATE = frozenset({"_dismissed", "_selected_index", "_open", "_fullscreen"})
# What a page without the table's code may send: its page's own events (a resize, a route
# change), and the code screen's: typing in the field, submitting it, tapping Join.
CODE_SCREEN_EVENTS = frozenset({"change", "submit", "click", "focus", "blur"})
# Frames of Flet's data channels (type 1): this app opens none.
DATA_CHANNEL = 1
POLICY_VIOLATION = 1008
TOO_BIG = 1009
GOING_AWAY = 1001


class BadFrame(ValueError):
    """A frame that is not what Flet's client sends: the connection closes with `code`."""

    def __init__(self, why: str, code: int = POLICY_VIOLATION) -> None:
        super().__init__(why)
        self.code = code


def read_frame(data: bytes) -> tuple[int, dict[str, Any]]:
    """A client's message as Flet will read it: (action, body); BadFrame if it is not one."""
    try:
        message = msgpack.unpackb(data[1:], ext_hook=privates.decode_ext or msgpack.ExtType)
    except Exception as error:
        raise BadFrame("not MessagePack") from error
    if not isinstance(message, list) or len(message) != 2:
        raise BadFrame("not [action, body]")
    action, body = message
    fields = FIELDS.get(action) if isinstance(action, int) else None
    if fields is None or not isinstance(body, dict) or set(body) != fields:
        raise BadFrame(f"not a message a client sends: {action!r}")
    if action == REGISTER:
        if not isinstance(body["session_id"], str | None) or not isinstance(body["page_name"], str):
            raise BadFrame("a registration's ids")
        _check_properties(body["page"], private=False)
    elif action == EVENT:
        name = body["name"]
        if not isinstance(body["target"], int) or not isinstance(name, str):
            raise BadFrame("an event's target and name")
        if not name.isidentifier() or len(name) > 64 or name in SERVER_EVENTS:
            raise BadFrame(f"an event a client does not send: {name[:64]!r}")
    elif action == UPDATE:
        if not isinstance(body["id"], int):
            raise BadFrame("an update's control")
        _check_properties(body["props"])
    elif not isinstance(body["control_id"], int) or not isinstance(body["call_id"], str):
        raise BadFrame("a method's answer")
    return action, body


def _check_properties(properties: Any, private: bool = True) -> None:
    """Properties a client may set (Flet sets whatever comes): no handler, nothing the server
    sets, and private state (`_x`) only at the top, where `check_update` looks at it."""
    if not isinstance(properties, dict):
        raise BadFrame("properties are not a map")
    for name, value in properties.items():
        if (
            not isinstance(name, str)
            or name.startswith(("on_", "__"))
            or name in SERVER_PROPERTIES
            or (name.startswith("_") and not private)
        ):
            raise BadFrame(f"a property a client may not set: {str(name)[:64]!r}")
        if isinstance(value, dict):
            _check_properties(value, private=False)


def check_update(control: Any, properties: dict[str, Any]) -> None:
    """BadFrame if an update would overwrite a control's private attribute that is Flet's."""
    for name in properties:
        if name.startswith("_") and name not in CLIENT_STATE and hasattr(control, name):
            raise BadFrame(f"a private property of Flet's: {name[:64]!r}")


_EVENT_TYPES: dict[tuple[type, str], Any] = {}


def check_event(control: Any, name: str, data: Any) -> bool:
    """Whether an event for `control` would be handled: False if it has no such handler;
    BadFrame if its data cannot make the event its handler takes."""
    handler = f"on_{name}"
    if getattr(control, handler, None) is None:
        return False
    make_event, field_type = privates.from_dict, privates.event_field_type
    if isinstance(data, dict) and make_event is not None and field_type is not None:
        key = (type(control), handler)
        if key not in _EVENT_TYPES:
            # Called here: Flet's function resolves names in its caller's module.
            _EVENT_TYPES[key] = field_type(control, handler)
        event_type = _EVENT_TYPES[key]
        # A generic event (DragUpdateEvent[GestureDetector]) is made as its class is.
        event_class = typing.get_origin(event_type) or event_type
        if isinstance(event_class, type) and dataclasses.is_dataclass(event_class):
            try:
                make_event(event_type, {"control": control, "name": name, **data})
            except Exception as error:
                raise BadFrame(f"the data of a {name} event") from error
    return True
