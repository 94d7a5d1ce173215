"""Flet's websocket protocol spoken from Python, as its web client speaks it: the frames.

A frame is one byte of type (0: a MessagePack message) and `[action, body]`. The client
registers with its page's properties; the server answers, sends the screen as patches and
asks the browser what it keeps (SharedPreferences); the client sends events (a route change,
a click) and control properties (a typed value).
"""

from __future__ import annotations

import socket
from typing import Any

import msgpack  # type: ignore[import-untyped]

REGISTER, PATCH, EVENT, UPDATE, INVOKE, CRASHED = 1, 2, 3, 4, 5, 6


def frame(action: int, body: Any) -> bytes:
    """One message as Flet's client sends it."""
    return b"\x00" + msgpack.packb([action, body])


def read_message(message: bytes) -> tuple[int, Any] | None:
    """A server's message as (action, body); None for a frame that is not a message."""
    if not message or message[0] != 0:
        return None
    action, body = msgpack.unpackb(message[1:], strict_map_key=False)
    return int(action), body


def open_socket(port: int, source: str = "127.0.0.1", timeout: float = 10) -> socket.socket:
    """A TCP connection to the server on this machine, from the address `source`."""
    connection = socket.create_connection(("127.0.0.1", port), timeout, (source, 0))
    connection.settimeout(None)
    return connection


def page_properties(route: str) -> dict[str, Any]:
    """What a phone's browser says of its page when it registers."""
    return {"route": route, "width": 390, "height": 844, "web": True, "platform": "android"}


def registration(route: str, session_id: str = "") -> bytes:
    """The frame that opens `route` as a page (or comes back to `session_id`)."""
    return frame(
        REGISTER, {"session_id": session_id, "page_name": "", "page": page_properties(route)}
    )


def click(control_id: int, event: str = "click") -> bytes:
    """The frame of a tap on a control: a button's "click", a gesture detector's "tap"."""
    return frame(EVENT, {"target": control_id, "name": event, "data": None})


def tap_event(control: dict[str, Any]) -> str | None:
    """The event a tap on `control` raises, if it takes taps."""
    if control.get("on_click"):
        return "click"
    if control.get("on_tap"):
        return "tap"
    return None


def answer(call: dict[str, Any], kept: dict[str, Any]) -> bytes:
    """What a browser answers a method call: its kept values (kept anew on `set`); nothing
    for the rest."""
    args = call.get("args") or {}
    result: Any = None
    if call["name"] == "get":
        result = kept.get(str(args.get("key")))
    elif call["name"] == "set":
        kept[args["key"]] = args["value"]
        result = True
    return frame(
        INVOKE,
        {
            "control_id": call["control_id"],
            "call_id": call["call_id"],
            "result": result,
            "error": None,
        },
    )
