"""What the server sends one websocket, waiting while its client reads it, and bounded.

Flet's send loop awaits each frame until the client's socket takes it, and keeps every later
frame in its own unbounded queue meanwhile: a client that asks for screens and never reads
them once grew a process by 1.2 GB in 30 s. Here Flet's frames are handed over at once, into
the connection's own outbox, which a task empties as the client reads; once more than its
bound waits unread, the client is dropped: what waits is forgotten and its page ends as a
closed tab's.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable

from companion.app.guard import Message


class Outbox:
    """The frames waiting for one client, at most `limit` bytes of them."""

    def __init__(self, send: Callable[[Message], Awaitable[None]], limit: int) -> None:
        self.send = send
        self.limit = limit
        self._waiting: deque[Message] = deque()
        self.unsent = 0
        self._writer: asyncio.Task[None] | None = None
        # Set once the client stopped reading and was dropped.
        self.dropped = asyncio.Event()
        # Set once the client is gone (its send failed).
        self.gone = False

    def post(self, message: Message) -> bool:
        """Send `message` after those waiting; False if that makes too much wait unread (the
        client is then dropped)."""
        size = _size(message)
        if self.unsent + size > self.limit:
            self._drop()
            return False
        self._waiting.append(message)
        self.unsent += size
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write())
        return True

    async def flushed(self, timeout: float) -> None:
        """Wait up to `timeout` for the client to take what waits."""
        writer = self._writer
        if writer is not None and not self.dropped.is_set():
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(asyncio.shield(writer), timeout)

    async def _write(self) -> None:
        while self._waiting:
            message = self._waiting[0]
            try:
                await self.send(message)
            except (OSError, RuntimeError):
                # The client went away while the server was still sending to it (uvicorn's
                # ClientDisconnected): nothing is left to tell it.
                self.gone = True
                self._forget()
                return
            self._waiting.popleft()
            self.unsent -= _size(message)

    def _drop(self) -> None:
        self._forget()
        if self._writer is not None:
            # It waits for a client that does not read: no close frame can pass either.
            self._writer.cancel()
        self.dropped.set()

    def _forget(self) -> None:
        self._waiting.clear()
        self.unsent = 0


def _size(message: Message) -> int:
    """The bytes a message to the client carries."""
    return len(message.get("bytes") or message.get("text") or b"")
