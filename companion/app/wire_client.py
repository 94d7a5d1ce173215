"""Flet's websocket protocol spoken from Python, as its web client speaks it, without a browser.

A frame is one byte of type (0: a MessagePack message) and `[action, body]`. The client
registers with its page's properties; the server answers, sends the screen as patches and
asks the browser what it keeps (SharedPreferences); the client sends events (a route change,
a click) and control properties (a typed value). Like the web client, a page keeps the
controls it was sent and changes them by each patch (`Screen`): what it may tap is what it
shows now.

`FletClient` is one page read on demand (the tests: `pump` until something shows);
`AsyncPage` is one page read as it comes on an event loop (the load generator: hundreds of
pages in one process, each message stamped when it arrives).
"""

from __future__ import annotations

import asyncio
import copy
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import msgpack  # type: ignore[import-untyped]
from websockets.asyncio.client import ClientConnection as AsyncConnection
from websockets.asyncio.client import connect as async_connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

REGISTER, PATCH, EVENT, UPDATE, INVOKE, CRASHED = 1, 2, 3, 4, 5, 6
# How many of the latest messages an `AsyncPage` keeps (a long load's pages stay small).
KEPT_MESSAGES = 200


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
        follow_routes: bool = False,
    ) -> None:
        """A page on the server at 127.0.0.1:`port`, connecting from `source` (any address
        of 127.0.0.0/8 is this machine: each stands for another device on the network).
        With `follow_routes` it goes where the server sends it, as a browser does (the screen
        is drawn again there: a tap meant for the screen before is then lost)."""
        self.port = port
        self.follow_routes = follow_routes
        self.kept: dict[str, Any] = dict(kept or {})
        self.socket: ClientConnection = connect(
            f"ws://127.0.0.1:{port}/ws",
            sock=open_socket(port, source, open_timeout),
            origin=Origin(f"http://127.0.0.1:{port}"),
            user_agent_header=user_agent,
            additional_headers=headers,
            open_timeout=open_timeout,
            max_size=None,
        ).__enter__()
        self.page_id: int | None = None
        self.session_id = ""
        self.received = b""
        self.messages: list[tuple[int, Any]] = []
        self.screen = Screen()
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
        self.socket.send(registration(route, session_id))
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
        read = read_message(message)
        if read is None:
            return
        action, body = read
        self.messages.append(read)
        if action == REGISTER:
            self.session_id = body["session_id"]
            self.page_id = body["page_patch"]["_i"]
            self.screen.registered(body["page_patch"])
        elif action == PATCH:
            self.screen.patch(body)
        elif action == INVOKE:
            self.socket.send(answer(body, self.kept))
            if self.follow_routes and body["name"] == "push_route":
                # The browser goes to the address the server pushed, and says so.
                self.route((body.get("args") or {})["route"])

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
        self.socket.send(click(control_id, self.screen.event_of(control_id)))

    def shows(self, text: str, since: int = 0) -> bool:
        """Whether anything the server sent (after the first `since` bytes) holds `text`."""
        return text.encode() in self.received[since:]

    def wait_for(self, text: str, timeout: float = 10, since: int = 0) -> bool:
        """Read until the server has sent `text` (after `since` bytes); whether it did."""
        return self.pump(lambda: self.shows(text, since), timeout)

    def tappable(self, text: str) -> int | None:
        """The id of the shown control that takes taps and holds `text`."""
        return self.screen.tappable(text)


class AsyncPage:
    """One phone's page on an event loop: every message is read as it comes, stamped with
    the time it arrived, and what the server asks the browser is answered at once."""

    def __init__(self, kept: dict[str, Any], source: str = "127.0.0.1") -> None:
        # Each page connects from an address of its own (all of 127.0.0.0/8 is this machine),
        # as phones do: the server's limits per address do not lump them together.
        self.source = source
        self.kept = dict(kept)
        self.session_id = ""
        self.page_id: int | None = None
        # (when it arrived, the raw message, its body) for each message since connecting.
        self.received: list[tuple[float, bytes, Any]] = []
        # The page's controls as they stand (a new connection registers them anew).
        self.screen = Screen()
        self.changed = asyncio.Event()
        self.closed = asyncio.Event()
        # When the page's current connection was opened.
        self.opened_at = 0.0
        self._socket: AsyncConnection | None = None
        self._reader: asyncio.Task[None] | None = None

    async def open(self, port: int, route: str, timeout: float = 20) -> None:
        """Connect to the server at 127.0.0.1:`port` and register on `route` (coming back to
        this page's session when it had one, as Flet's client does after a reconnect)."""
        line = await asyncio.to_thread(open_socket, port, self.source, timeout)
        self._socket = await async_connect(
            f"ws://127.0.0.1:{port}/ws",
            sock=line,
            origin=Origin(f"http://127.0.0.1:{port}"),
            open_timeout=timeout,
            max_size=None,
            ping_interval=None,
        )
        self.received.clear()
        self.closed.clear()
        self.opened_at = time.monotonic()
        self._reader = asyncio.create_task(self._read_all(self._socket))
        await self._socket.send(registration(route, self.session_id))

    async def click(self, control_id: int) -> float:
        """Tap a control; when the tap left the phone."""
        assert self._socket is not None
        at = time.monotonic()
        await self._socket.send(click(control_id, self.screen.event_of(control_id)))
        return at

    def tappable(self, text: str) -> int | None:
        """The id of the shown control that takes taps and holds `text`."""
        return self.screen.tappable(text)

    def shows(self, text: str, since: float = 0.0) -> bool:
        """Whether a message that arrived after `since` holds `text`."""
        encoded = text.encode()
        return any(at > since and encoded in raw for at, raw, _ in self.received)

    def first_after(self, since: float) -> float | None:
        """When the first message after `since` arrived, if one did."""
        return next((at for at, _, _ in self.received if at > since), None)

    async def wait(self, until: Callable[[], bool], timeout: float) -> bool:
        """Wait until `until()` holds, or `timeout` seconds pass; whether it held."""
        deadline = time.monotonic() + timeout
        while not until():
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return until()
        return True

    async def close(self) -> None:
        """Close the page's websocket, as a closed tab does."""
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    async def _read_all(self, line: AsyncConnection) -> None:
        try:
            async for message in line:
                if not isinstance(message, bytes):
                    continue
                arrived = time.monotonic()
                read = read_message(message)
                if read is None:
                    continue
                action, body = read
                if action == REGISTER:
                    self.session_id = body["session_id"]
                    self.page_id = body["page_patch"]["_i"]
                    self.screen.registered(body["page_patch"])
                elif action == PATCH:
                    self.screen.patch(body)
                elif action == INVOKE:
                    await line.send(answer(body, self.kept))
                self.received.append((arrived, message, body))
                if len(self.received) > KEPT_MESSAGES:
                    del self.received[:-KEPT_MESSAGES]
                self.changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self.changed.set()
