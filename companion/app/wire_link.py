"""A websocket's link: who its client counts as, what it may send, whether it is let in.

`WireLimits` holds what one websocket may send and one client address may hold; a `Link` is
one connection, made from what the client cannot choose: the address its connection comes
from (`client_key`). The app reads the link of the connection an event came on with
`current_link()` and says when its device is let in (`Link.admitted`). The gate that holds
connections to them is companion/app/wire.py.
"""

from __future__ import annotations

import asyncio
import ipaddress
import time
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from companion.app.shares import Account, Share


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
    # What one client address's pages may take of the process (companion/app/shares.py),
    # and what each frame of a device let in pays before it is read: a screen's building,
    # an event's work, a file's bytes by their size. None: not metered (a server for one
    # device or one table, whose devices are the people at it; a hosted server meters).
    share: Share | None = None
    frame_deposit_s: float = 0.005
    route_deposit_s: float = 0.02


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
        self,
        client: str,
        admitted: bool = False,
        limits: WireLimits | None = None,
        account: Account | None = None,
    ) -> None:
        self.client = client
        self.admitted = admitted
        self.limits = limits or WireLimits()
        # What its address's pages' work is paid from (shared by its connections); None on a
        # server that does not meter.
        share = self.limits.share
        self.account = account or (Account(share) if share is not None else None)
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
