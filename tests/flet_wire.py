"""Flet's websocket protocol spoken from Python, as its web client speaks it, without a browser.

A frame is one byte of type (0: a MessagePack message) and `[action, body]`. The client
registers with its page's properties; the server answers, sends the screen as patches and
asks the browser what it keeps (SharedPreferences); the client sends events (a route change,
a click) and control properties (a typed value).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import msgpack
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

REGISTER, PATCH, EVENT, UPDATE, INVOKE, CRASHED = 1, 2, 3, 4, 5, 6


def frame(action: int, body: Any) -> bytes:
    """One message as Flet's client sends it."""
    return b"\x00" + msgpack.packb([action, body])


def open_socket(port: int, source: str = "127.0.0.1", timeout: float = 10) -> socket.socket:
    """A TCP connection to the server on this machine, from the address `source`."""
    connection = socket.create_connection(("127.0.0.1", port), timeout, (source, 0))
    connection.settimeout(None)
    return connection


def page_properties(route: str) -> dict[str, Any]:
    """What a phone's browser says of its page when it registers."""
    return {"route": route, "width": 390, "height": 844, "web": True, "platform": "android"}


class FletClient:
    """One browser tab, reduced to its websocket: it keeps what a browser would keep."""

    def __init__(
        self,
        port: int,
        kept: dict[str, Any] | None = None,
        *,
        user_agent: str = "flet-wire-test",
        open_timeout: float = 10,
        source: str = "127.0.0.1",
        headers: dict[str, str] | None = None,
    ) -> None:
        """A page on the server at 127.0.0.1:`port`, connecting from `source` (any address
        of 127.0.0.0/8 is this machine: each stands for another device on the network)."""
        self.port = port
        self.kept: dict[str, Any] = dict(kept or {})
        self.socket: ClientConnection = connect(
            f"ws://127.0.0.1:{port}/ws",
            sock=open_socket(port, source, open_timeout),
            origin=f"http://127.0.0.1:{port}",
            user_agent_header=user_agent,
            additional_headers=headers,
            open_timeout=open_timeout,
            max_size=None,
        ).__enter__()
        self.page_id: int | None = None
        self.session_id = ""
        self.received = b""
        self.messages: list[tuple[int, Any]] = []
        self.closed = False

    def __enter__(self) -> FletClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the websocket as a closed tab does."""
        self.socket.close()
        self.closed = True

    def send(self, action: int, body: Any) -> None:
        """Send one message."""
        self.socket.send(frame(action, body))

    def register(self, route: str = "/", session_id: str = "", timeout: float = 10) -> None:
        """Register as a new page on `route` (or come back to `session_id`), and wait for the
        server's answer."""
        self.send(
            REGISTER, {"session_id": session_id, "page_name": "", "page": page_properties(route)}
        )
        if not self.pump(lambda: self.page_id is not None, timeout):
            raise TimeoutError("the server did not answer the registration")

    def pump(self, until: Callable[[], bool] | None = None, timeout: float = 5) -> bool:
        """Read and answer what the server sends until `until()` holds (True) or time is up."""
        deadline = time.monotonic() + timeout
        while True:
            if until is not None and until():
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                message = self.socket.recv(timeout=left)
            except TimeoutError:
                return until is not None and until()
            self._read(message)

    def _read(self, message: str | bytes) -> None:
        assert isinstance(message, bytes)
        self.received += message
        if not message or message[0] != 0:
            return
        action, body = msgpack.unpackb(message[1:], strict_map_key=False)
        self.messages.append((action, body))
        if action == REGISTER:
            self.session_id = body["session_id"]
            self.page_id = body["page_patch"]["_i"]
        elif action == INVOKE:
            self.send(INVOKE, self._answer(body))

    def _answer(self, call: dict[str, Any]) -> dict[str, Any]:
        """What a browser answers a method call: its kept values; nothing for the rest."""
        args = call.get("args") or {}
        result: Any = None
        if call["name"] == "get":
            result = self.kept.get(args.get("key"))
        elif call["name"] == "set":
            self.kept[args["key"]] = args["value"]
            result = True
        return {
            "control_id": call["control_id"],
            "call_id": call["call_id"],
            "result": result,
            "error": None,
        }

    def hung_up(self, timeout: float = 5) -> bool:
        """Read until the server closes the connection; whether it did within `timeout`."""
        try:
            self.pump(None, timeout)
        except ConnectionClosed:
            return True
        return False

    def route(self, route: str) -> None:
        """Ask for another address, as the browser's address bar or back button does."""
        self.send(UPDATE, {"id": self.page_id, "props": {"route": route}})
        self.send(EVENT, {"target": self.page_id, "name": "route_change", "data": {"route": route}})

    def click(self, control_id: int) -> None:
        """Tap a control."""
        self.send(EVENT, {"target": control_id, "name": "click", "data": None})

    def shows(self, text: str, since: int = 0) -> bool:
        """Whether anything the server sent (after the first `since` bytes) holds `text`."""
        return text.encode() in self.received[since:]

    def wait_for(self, text: str, timeout: float = 10, since: int = 0) -> bool:
        """Read until the server has sent `text` (after `since` bytes); whether it did."""
        return self.pump(lambda: self.shows(text, since), timeout)

    def tappable(self, text: str) -> int | None:
        """The id of the latest control sent with a click handler whose content holds `text`."""
        found = None
        for _, body in self.messages:
            for control in _controls(body):
                if control.get("on_click") and _holds(control, text):
                    found = control["_i"]
        return found


def _controls(value: Any) -> Iterator[dict[str, Any]]:
    """Every control (a map with an id and a class) inside a message, outermost first."""
    if isinstance(value, dict):
        if "_i" in value and "_c" in value:
            yield value
        for item in value.values():
            yield from _controls(item)
    elif isinstance(value, list):
        for item in value:
            yield from _controls(item)


def _holds(value: Any, text: str) -> bool:
    if isinstance(value, str):
        return text in value
    if isinstance(value, dict):
        return any(_holds(item, text) for item in value.values())
    if isinstance(value, list):
        return any(_holds(item, text) for item in value)
    return False
