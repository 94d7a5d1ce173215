"""The server's HTTP connections, before any request reaches the app: how long a request's
headers may take, and how many connections one address may hold open.

uvicorn waits for a request's headers as long as the client keeps its connection: 3,000
connections that each sent half a request held a process's sockets until the client gave
up. Here a connection must finish a request's headers within `header_s` of opening (or of
the answer to its last request), or it is closed; and an address holds at most
`per_address` connections at once that are not websockets (those the wire gate counts,
companion/app/wire.py), a newer one being closed at once. Behind a proxy every connection
comes from the proxy, so that count is off there (`per_address=None`).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from companion.app.wire_link import client_key

# A phone sends a request's headers in one packet or two: ten seconds is ample on any network.
HEADER_S = 10.0
# A browser opens six connections to a server, a few phones behind one router a few dozen.
PER_ADDRESS = 64


@dataclass(frozen=True)
class HttpLimits:
    """How long a request's headers may take, and the connections one address may hold open
    (None: no count, behind a proxy)."""

    header_s: float = HEADER_S
    per_address: int | None = PER_ADDRESS


def guarded_http(limits: HttpLimits) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol held to `limits` (given to uvicorn as its `http`)."""
    held: Counter[str] = Counter()

    class GuardedHttp(AutoHTTPProtocol):  # type: ignore[misc,valid-type]
        """One HTTP connection: closed if its headers are late or its address has too many."""

        _address: str | None = None
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            peer = transport.get_extra_info("peername")
            address = client_key(peer[0] if isinstance(peer, tuple) and peer else None)
            if limits.per_address is not None:
                if held[address] >= limits.per_address:
                    transport.close()
                    return
                held[address] += 1
                self._address = address
            self._await_headers()

        def connection_lost(self, exc: Exception | None) -> None:
            self._release()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._await_headers()

        def handle_websocket_upgrade(self, *args: Any) -> None:
            # The connection is a websocket's from here on: the wire gate counts it.
            self._release()
            super().handle_websocket_upgrade(*args)

        def _await_headers(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            waiting_on = self.cycle
            self._deadline = self.loop.call_later(limits.header_s, self._late, waiting_on)

        def _late(self, waiting_on: object) -> None:
            # Late if no request's headers came since the deadline was set (the cycle is the
            # one it was then) and none is being answered (a pipelined one may be).
            transport = self.transport
            cycle = self.cycle
            idle = cycle is None or cycle.response_complete
            mine = transport.get_protocol() is self
            if mine and idle and cycle is waiting_on and not transport.is_closing():
                transport.close()

        def _release(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None
            if self._address is not None:
                held[self._address] -= 1
                if held[self._address] <= 0:
                    del held[self._address]
                self._address = None

    return GuardedHttp
