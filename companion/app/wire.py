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
- what Flet sends waits in the connection's own outbox (companion/app/outbox.py), never in
  Flet's queue: a client that stops reading is dropped once more than `unsent_bytes` wait,
  so a page cannot hold a process's memory by asking for screens it never reads;
- the work a page's events start is paid from its address's account
  (companion/app/shares.py): while it is overdrawn, that address's frames wait.

Each connection is a `Link` (companion/app/wire_link.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

from flet.controls.page import Page

from companion.app.guard import ASGIApp, Message, Receive, Scope, Send
from companion.app.outbox import Outbox
from companion.app.shares import PAYER, Accounts, metered_tasks
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
from companion.app.wire_link import _CURRENT, Link, WireLimits, client_key
from companion.play.sharing.limiter import TryLimiter

log = logging.getLogger("companion.wire")


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
        share = self.limits.share
        self._accounts = Accounts(share) if share is not None else None

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
        if self._accounts is not None:
            metered_tasks(asyncio.get_running_loop())
        self._open[client] += 1
        try:
            account = self._accounts.of(client) if self._accounts is not None else None
            link = Link(client, admitted=self.open_door, limits=self.limits, account=account)
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
        # What Flet sent that the client has not taken yet.
        self._outbox = Outbox(send, link.limits.unsent_bytes)
        # The client's next frame, being read (kept when the client is dropped meanwhile).
        self._reading: asyncio.Future[Message] | None = None

    async def run(self) -> None:
        """Accept, wait for a registration, then let Flet handle the rest."""
        try:
            await self._serve()
        finally:
            await self._outbox.flushed(self.link.limits.register_s)

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
        # The work this page's events start is paid from its address's account.
        paying = PAYER.set(self.link.account)
        try:
            await self.app(self.scope, self._app_receive, self._app_send)
        finally:
            PAYER.reset(paying)
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
        dropped = asyncio.ensure_future(self._outbox.dropped.wait())
        try:
            await asyncio.wait(
                (self._reading, dropped), timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            dropped.cancel()
        if not self._reading.done() or self._outbox.dropped.is_set():
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
            return await self._paced(route=False, size=len(data))
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
        return await self._paced(route, len(data))

    async def _paced(self, route: bool, size: int) -> bool:
        """Take the frame's turn: a stranger past its rate is closed; a device let in waits
        for its rate, then while its address's account is overdrawn, and pays the frame's
        deposit (a file's bytes by their size)."""
        link, limits = self.link, self.link.limits
        if not link.admitted:
            if link.stranger.take() > 0:
                raise BadFrame("too many frames without the code")
            return True
        wait = link.events.take()
        if route:
            wait = max(wait, link.routes.take())
        if wait > limits.max_wait_s:
            raise BadFrame("too many frames")
        if wait > 0:
            await asyncio.sleep(wait)
        account, share = link.account, limits.share
        if account is None or share is None:
            return True
        # Every connection of the address waits on one account: one woken first pays its
        # deposit, and the next waits again.
        while (owed := account.wait()) > 0:
            await asyncio.sleep(owed)
        deposit = limits.route_deposit_s if route else limits.frame_deposit_s
        if size > limits.stranger_bytes:
            deposit += size * share.file_s_per_byte
        account.charge(deposit)
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
        unsent = self._outbox.unsent
        if not self._outbox.post(message):
            log.warning(
                "dropped a websocket from %s: %d bytes it had not read", self.link.client, unsent
            )
            self.closed = True
            self.code = GOING_AWAY

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
