"""One page of the app without a browser, over Flet's websocket protocol.

Like the web client, a page keeps the controls it was sent and changes them by each patch
(`Screen`): what it may tap is what it shows now. `FletClient` is one page read on demand
(the tests: `pump` until something shows); `AsyncPage` is one page read as it comes on an
event loop (the load generator: hundreds of pages in one process, each message stamped when
it arrives).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection as AsyncConnection
from websockets.asyncio.client import connect as async_connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from companion.load.frames import (
    EVENT,
    INVOKE,
    PATCH,
    REGISTER,
    UPDATE,
    answer,
    click,
    frame,
    open_socket,
    read_message,
    registration,
)
from companion.load.screen import Screen

# How many of the latest messages an `AsyncPage` keeps (a long load's pages stay small).
KEPT_MESSAGES = 200


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
