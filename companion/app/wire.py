"""Every websocket held to what this app's pages send, at a person's pace.

Flet's server runs every page's events on the server's one event loop and reads frames as
fast as they come: one client sending 10,000 route changes once kept every other device
waiting a minute, and a malformed frame, or an event sent before registering, left its
handler running forever. So `WireGate` stands in front of Flet's websocket:

- a connection must register first, within seconds, with a well-formed registration; until
  it has, Flet is not even called, so a connection that never does costs nothing;
- every frame is read before Flet reads it: one that is not Flet's protocol, names a
  private or server-set property, or an event the server makes (connect, disconnect), closes
  the connection cleanly (code 1008), and Flet's handler ends as for a closed tab;
- frames are rate-limited per connection: a device without the table's code gets the few
  frames a person typing a code sends, and is closed beyond them; a device let in waits
  (its frames stay unread, in its own socket) when it sends faster than a person taps;
- a closed tab or a dropped connection ends quietly: what Flet still sends goes nowhere;
- what Flet sends waits in the connection's own outbox, never in Flet's queue, while the
  client reads it: a client that stops reading is dropped (its page ends as a closed tab's)
  once more than `unsent_bytes` wait, so a page cannot hold a process's memory by asking
  for screens it never reads.

Each connection is a `Link`, made from what the client cannot choose: the address its
connection comes from (`client_key`). The app reads the link of the connection an event came
on with `current_link()` and says when its device is let in (`Link.admitted`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from flet.controls.page import Page

from companion.app.guard import ASGIApp, Message, Receive, Scope, Send
from companion.app.wire_frames import (
    CODE_SCREEN_EVENTS,
    DATA_CHANNEL,
    EVENT,
    GOING_AWAY,
    INVOKE,
    POLICY_VIOLATION,
    REGISTER,
    TOO_BIG,
    UPDATE,
    BadFrame,
    check_event,
    check_update,
    read_frame,
)
from companion.play.sharing.limiter import TryLimiter

log = logging.getLogger("companion.wire")


@dataclass(frozen=True)
class Rate:
    """A token bucket's size (frames at once) and refill (frames a second)."""

    burst: int
    per_s: float


@dataclass(frozen=True)
class WireLimits:
    """What one websocket may send, and how many one client address may hold."""

    # Flet's client registers at once: a connection silent this long is closed.
    register_s: float = 10.0
    # A page without the code that sends nothing this long is closed (it reconnects by itself).
    idle_s: float = 600.0
    # The biggest frame of a page without the code (its registration is ~2 kB) ...
    stranger_bytes: int = 64 * 1024
    # ... and of one let in: a game log file imported (4 MiB at most) comes as one event.
    admitted_bytes: int = 6 * 1024 * 1024
    # A person typing a code sends two frames a key; past this, the connection is closed.
    stranger: Rate = Rate(120, 10.0)
    # A device let in: every frame (a drag on the board editor sends 25 a second) ...
    events: Rate = Rate(240, 60.0)
    # ... and route changes (each builds a screen); past either, its frames wait.
    routes: Rate = Rate(20, 4.0)
    # A device let in that is further behind its rate than this is closed.
    max_wait_s: float = 10.0
    # What the server may have sent a connection that it has not read yet: past it, the
    # connection is dropped (a table screen is about 100 KB, a page of the log less).
    unsent_bytes: int = 4 * 1024 * 1024
    # Websockets open at once, and opened per minute, from one client address.
    connections: int = 32
    arrivals_per_minute: int = 120


class Bucket:
    """A token bucket: `take` says how long a frame must wait for its token (0: none)."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.clock = clock
        self.tokens = float(rate.burst)
        self.stamp = clock()

    def take(self) -> float:
        """Take one token, waiting for it if need be: the seconds to wait."""
        now = self.clock()
        self.tokens = min(self.rate.burst, self.tokens + (now - self.stamp) * self.rate.per_s)
        self.stamp = now
        self.tokens -= 1
        return max(0.0, -self.tokens / self.rate.per_s)


def client_key(address: str | None) -> str:
    """What a client is counted by: its address; an IPv6 one by its /64 network.

    A device picks its IPv6 address within its network's /64 freely (privacy addresses), so a
    client is that network; an IPv4 address mapped into IPv6 is the IPv4 address.
    """
    if not address:
        return "unknown"
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Link:
    """One websocket connection: who it counts as, and whether its device is let in."""

    def __init__(
        self, client: str, admitted: bool = False, limits: WireLimits | None = None
    ) -> None:
        self.client = client
        self.admitted = admitted
        self.limits = limits or WireLimits()
        # Closes this connection soon (the app calls it, on the event loop).
        self.hang_up: Callable[[], None] | None = None
        self.stranger = Bucket(self.limits.stranger)
        self.events = Bucket(self.limits.events)
        self.routes = Bucket(self.limits.routes)
        self._controls: Mapping[int, Any] | None = None
        self._started = asyncio.Event()

    @property
    def controls(self) -> Mapping[int, Any] | None:
        """The page's controls by id (Flet's `Session.index`), once the app has said."""
        return self._controls

    @controls.setter
    def controls(self, controls: Mapping[int, Any]) -> None:
        self._controls = controls
        self._started.set()

    async def started(self, timeout: float) -> bool:
        """Wait until the app has shown its page on this connection; False if it has not."""
        try:
            await asyncio.wait_for(self._started.wait(), timeout)
        except TimeoutError:
            return False
        return True


_CURRENT: ContextVar[Link | None] = ContextVar("companion_link", default=None)


def current_link() -> Link | None:
    """The connection the running event came on (None outside a websocket's handling)."""
    return _CURRENT.get()


class WireGate:
    """ASGI middleware: each websocket registered, well-formed and paced, or closed cleanly."""

    def __init__(
        self, app: ASGIApp, limits: WireLimits | None = None, *, open_door: bool = False
    ) -> None:
        """`open_door`: every device is let in (no table code), so none is a stranger."""
        self.app = app
        self.limits = limits or WireLimits()
        self.open_door = open_door
        self._open: Counter[str] = Counter()
        # New websockets per client over a sliding minute, counted as the limiter counts tries.
        self._arrivals = TryLimiter(self.limits.arrivals_per_minute, 60.0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request, or hold one websocket to the rules above."""
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        address = scope.get("client")
        client = client_key(address[0] if address else None)
        if self._open[client] >= self.limits.connections or self._arrivals.attempt(client) > 0:
            # Before the handshake is accepted, a close is answered as HTTP 403.
            await send({"type": "websocket.close", "code": POLICY_VIOLATION})
            return
        self._open[client] += 1
        try:
            link = Link(client, admitted=self.open_door, limits=self.limits)
            await _Connection(self.app, link, scope, receive, send).run()
        finally:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]


class _Connection:
    """One websocket between the server and Flet's handler."""

    def __init__(
        self, app: ASGIApp, link: Link, scope: Scope, receive: Receive, send: Send
    ) -> None:
        self.app = app
        self.link = link
        self.scope = scope
        self.receive = receive
        self.send = send
        self.closed = False
        self.code = 1000
        self._queued: list[Message] = []
        self._closing: set[asyncio.Task[None]] = set()
        # What Flet sent that the client has not taken yet, and its bytes.
        self._outbox: deque[Message] = deque()
        self._unsent = 0
        self._writer: asyncio.Task[None] | None = None
        # Set when the client stopped reading and was dropped; the next frame read from it
        # waits until then at most.
        self._dropped = asyncio.Event()
        self._reading: asyncio.Future[Message] | None = None

    async def run(self) -> None:
        """Accept, wait for a registration, then let Flet handle the rest."""
        try:
            await self._serve()
        finally:
            await self._flushed()

    async def _serve(self) -> None:
        if (await self.receive())["type"] != "websocket.connect":
            return
        await self.send({"type": "websocket.accept"})
        registration = await self._registration()
        if registration is None:
            return
        # Flet's handler accepts the websocket itself, then reads the registration.
        self._queued = [{"type": "websocket.connect"}, registration]
        self.link.hang_up = self._hang_up
        token = _CURRENT.set(self.link)
        try:
            await self.app(self.scope, self._app_receive, self._app_send)
        finally:
            _CURRENT.reset(token)
            await self._close(1000)
            if self._reading is not None:
                self._reading.cancel()

    def _hang_up(self) -> None:
        """Close the connection as soon as the loop gets to it."""
        task = asyncio.get_running_loop().create_task(self._close(POLICY_VIOLATION, "hung up"))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def _registration(self) -> Message | None:
        """The first frame, if it is a well-formed registration in time; else closed."""
        try:
            message = await asyncio.wait_for(self.receive(), self.link.limits.register_s)
        except TimeoutError:
            await self._close(POLICY_VIOLATION, "no registration")
            return None
        if message["type"] != "websocket.receive":
            self.closed = True
            return None
        data = message.get("bytes")
        try:
            if not data or data[0] != 0 or len(data) > self.link.limits.stranger_bytes:
                raise BadFrame("not a registration")
            action, _ = read_frame(data)
            if action != REGISTER:
                raise BadFrame("an event before registering")
        except BadFrame as error:
            await self._close(error.code, str(error))
            return None
        return message

    async def _app_receive(self) -> Message:
        """The next frame for Flet: well-formed, in its turn, or the connection's end."""
        if self._queued:
            return self._queued.pop(0)
        while not self.closed:
            message = await self._next(None if self.link.admitted else self.link.limits.idle_s)
            if message is None:
                if not self.closed:
                    await self._close(GOING_AWAY, "idle without the code")
                break
            if message["type"] != "websocket.receive":
                self.closed = True
                return message
            try:
                if await self._admit_frame(message.get("bytes")):
                    return message
            except BadFrame as error:
                await self._close(error.code, str(error))
        return {"type": "websocket.disconnect", "code": self.code}

    async def _next(self, timeout: float | None) -> Message | None:
        """The client's next message; None if none came within `timeout` or the client was
        dropped meanwhile (a message on its way is kept for the next call)."""
        if self._reading is None:
            self._reading = asyncio.ensure_future(self.receive())
        dropped = asyncio.ensure_future(self._dropped.wait())
        try:
            await asyncio.wait(
                (self._reading, dropped), timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            dropped.cancel()
        if not self._reading.done() or self._dropped.is_set():
            return None
        message, self._reading = self._reading.result(), None
        return message

    async def _admit_frame(self, data: bytes | None) -> bool:
        """Whether Flet gets this frame (False: dropped); BadFrame closes the connection."""
        link, limits = self.link, self.link.limits
        if data is None:
            raise BadFrame("a text frame")
        if len(data) > (limits.admitted_bytes if link.admitted else limits.stranger_bytes):
            raise BadFrame(f"a frame of {len(data)} bytes", TOO_BIG)
        if not data:
            return False
        if data[0] == DATA_CHANNEL and link.admitted:
            return await self._paced(route=False)
        if data[0] != 0:
            raise BadFrame(f"a frame of type {data[0]}")
        action, body = read_frame(data)
        if action == REGISTER:
            raise BadFrame("a second registration")
        # Events are checked against the page, which the app starts just after registering.
        if not await link.started(limits.register_s) or link.controls is None:
            raise BadFrame("the page did not start")
        if action == INVOKE and body["control_id"] not in link.controls:
            # An answer for a control the page no longer has (it changed screens meanwhile):
            # Flet would fail on it.
            return False
        if action == UPDATE and (control := link.controls.get(body["id"])) is not None:
            check_update(control, body["props"])
        route = False
        if action == EVENT:
            name = body["name"]
            control = link.controls.get(body["target"])
            if (
                not link.admitted
                and not isinstance(control, Page)
                and name not in CODE_SCREEN_EVENTS
            ):
                raise BadFrame(f"a {name} event without the code")
            if control is not None and not check_event(control, name, body["data"]):
                return False
            route = name == "route_change"
        return await self._paced(route)

    async def _paced(self, route: bool) -> bool:
        """Take the frame's turn: a stranger past its rate is closed, a device let in waits."""
        link = self.link
        if not link.admitted:
            if link.stranger.take() > 0:
                raise BadFrame("too many frames without the code")
            return True
        wait = link.events.take()
        if route:
            wait = max(wait, link.routes.take())
        if wait > link.limits.max_wait_s:
            raise BadFrame("too many frames")
        if wait > 0:
            await asyncio.sleep(wait)
        return True

    async def _app_send(self, message: Message) -> None:
        """Send what Flet sends, unless the connection is gone (a closed tab, a reload): into
        the outbox, which the client empties as it reads."""
        if message["type"] == "websocket.accept":
            return  # accepted already, before the registration
        if self.closed:
            return
        if message["type"] == "websocket.close":
            self.closed = True
        self._post(message)

    def _post(self, message: Message) -> None:
        """Put a message in the outbox, or drop the client if too much waits unread."""
        size = _size(message)
        if self._unsent + size > self.link.limits.unsent_bytes:
            self._drop(size)
            return
        self._outbox.append(message)
        self._unsent += size
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        """Send the outbox's messages in order, each as the client takes it."""
        while self._outbox:
            message = self._outbox[0]
            try:
                await self.send(message)
            except (OSError, RuntimeError):
                # The client went away while Flet was still sending to it (uvicorn's
                # ClientDisconnected): nothing is left to tell it.
                self.closed = True
                self._outbox.clear()
                self._unsent = 0
                return
            self._outbox.popleft()
            self._unsent -= _size(message)

    def _drop(self, size: int) -> None:
        """The client stopped reading: forget what it was sent, and end its page."""
        log.warning(
            "dropped a websocket from %s: %d bytes it had not read, %d more to send",
            self.link.client,
            self._unsent,
            size,
        )
        self.closed = True
        self.code = GOING_AWAY
        self._outbox.clear()
        self._unsent = 0
        if self._writer is not None:
            # It waits for a client that does not read: no close frame can pass either.
            self._writer.cancel()
        self._dropped.set()

    async def _close(self, code: int, why: str = "") -> None:
        """Close the websocket once, after what waits in the outbox; a reason goes to the
        server's log, briefly."""
        if self.closed:
            return
        self.closed = True
        self.code = code
        if why:
            # A stranger's closed connection is routine; a device let in being closed is not.
            level = logging.WARNING if self.link.admitted else logging.INFO
            log.log(level, "closed a websocket from %s: %s", self.link.client, why)
        self._post({"type": "websocket.close", "code": code})

    async def _flushed(self) -> None:
        """Wait a while for the client to take what waits in the outbox (the server closes
        the connection when the app is done with it)."""
        writer = self._writer
        if writer is not None and not self._dropped.is_set():
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(asyncio.shield(writer), self.link.limits.register_s)


def _size(message: Message) -> int:
    """The bytes a message to the client carries."""
    return len(message.get("bytes") or message.get("text") or b"")
