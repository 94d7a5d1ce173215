"""The health check a reverse proxy or a supervisor asks: GET /healthz.

200 "ok" while this process answers and reaches its database; 503 with one line saying why
when the database cannot be reached. Nothing about any table or game is in the answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from companion.app.guard import ASGIApp, Receive, Scope, Send

PATH = "/healthz"


class Health:
    """ASGI middleware: answers GET /healthz itself; every other request goes to the app."""

    def __init__(self, app: ASGIApp, check: Callable[[], None]) -> None:
        self.app = app
        # Raises when the database cannot be reached (run off the event loop).
        self.check = check

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer the health check, or pass the request on."""
        if scope["type"] != "http" or scope.get("path") != PATH:
            await self.app(scope, receive, send)
            return
        try:
            await asyncio.wait_for(asyncio.to_thread(self.check), 5)
            status, body = 200, b"ok\n"
        except Exception:
            status, body = 503, b"database unreachable\n"
        headers = [(b"content-type", b"text/plain"), (b"cache-control", b"no-store")]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
