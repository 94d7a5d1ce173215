"""The page's files travel compressed and are asked for again only when they changed.

A first visit downloads Flutter's engine and the app's code, ~17 MB as they are: on a
phone's network that is most of a minute. `PackedFiles` stands in front of the static
files: a client that accepts gzip gets them gzipped (each file compressed once, then kept),
and every file carries `Cache-Control: no-cache` with its ETag, so a visit after the first
asks "changed?" and is answered 304 with no body. Flet's file names carry no hash of their
content, so a file cannot be marked immutable: the same name serves a new Flet release.
"""

from __future__ import annotations

import gzip
import threading
from collections import OrderedDict

from companion.app.guard import ASGIApp, Message, Receive, Scope, Send

# What compresses well; images and already packed formats go as they are.
COMPRESSIBLE = (
    b"text/",
    b"application/javascript",
    b"application/json",
    b"application/wasm",
    b"image/svg+xml",
    b"font/ttf",
    b"font/otf",
)
# Smaller files gain too little for the work.
LEAST_BYTES = 1024
# The compressed files kept, at most, in bytes (Flet's largest two come to ~5 MB gzipped).
KEPT_BYTES = 48 * 1024 * 1024
LEVEL = 6
CACHE_CONTROL = (b"cache-control", b"no-cache")


def _header(headers: list[tuple[bytes, bytes]], name: bytes) -> bytes:
    return next((value for key, value in headers if key.lower() == name), b"")


def accepts_gzip(scope: Scope) -> bool:
    """Whether the request's client takes a gzipped body."""
    for key, value in scope.get("headers", []):
        if key.lower() == b"accept-encoding":
            codings = [part.split(b";")[0].strip().lower() for part in value.split(b",")]
            return b"gzip" in codings
    return False


class Packed:
    """Compressed bodies by path and ETag, the oldest forgotten past KEPT_BYTES."""

    def __init__(self, most: int = KEPT_BYTES) -> None:
        self.most = most
        self._kept: OrderedDict[tuple[str, bytes], bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def packed(self, path: str, etag: bytes, body: bytes) -> bytes:
        """`body` gzipped: computed once per path and ETag (without one, every time)."""
        key = (path, etag)
        if etag:
            with self._lock:
                if key in self._kept:
                    self._kept.move_to_end(key)
                    return self._kept[key]
        squeezed = gzip.compress(body, compresslevel=LEVEL, mtime=0)
        if etag and len(squeezed) <= self.most:
            with self._lock:
                self._kept[key] = squeezed
                self._bytes += len(squeezed)
                while self._bytes > self.most:
                    _, dropped = self._kept.popitem(last=False)
                    self._bytes -= len(dropped)
        return squeezed


class PackedFiles:
    """ASGI middleware: static files gzipped for clients that take it, all revalidated."""

    def __init__(self, app: ASGIApp, packed: Packed | None = None) -> None:
        self.app = app
        self.packed = packed or Packed()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve a request; a GET's successful compressible answer goes gzipped if it may."""
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        gzip_ok = scope.get("method") == "GET" and accepts_gzip(scope)
        start: Message | None = None
        chunks: list[bytes] = []

        async def through(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = [
                    (k, v) for k, v in message.get("headers", []) if k.lower() != b"cache-control"
                ]
                message = {**message, "headers": [*headers, CACHE_CONTROL]}
                wanted = (
                    gzip_ok
                    and message["status"] == 200
                    and _header(headers, b"content-type").startswith(COMPRESSIBLE)
                    and not _header(headers, b"content-encoding")
                )
                if wanted:
                    start = message  # held until the whole body is in
                    return
                await send(message)
                return
            if start is None:
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            await self._send_packed(scope, start, b"".join(chunks), send)

        await self.app(scope, receive, through)

    async def _send_packed(self, scope: Scope, start: Message, body: bytes, send: Send) -> None:
        headers: list[tuple[bytes, bytes]] = list(start["headers"])
        if len(body) < LEAST_BYTES:
            await send(start)
            await send({"type": "http.response.body", "body": body})
            return
        etag = _header(headers, b"etag")
        squeezed = self.packed.packed(scope.get("path", ""), etag, body)
        kept = [(k, v) for k, v in headers if k.lower() not in (b"content-length", b"etag")]
        kept += [
            (b"content-encoding", b"gzip"),
            (b"vary", b"Accept-Encoding"),
            (b"content-length", str(len(squeezed)).encode()),
        ]
        if etag:
            # Another body than the file's own: a weak tag, still matched on revalidation.
            kept.append((b"etag", etag if etag.startswith(b"W/") else b"W/" + etag))
        await send({**start, "headers": kept})
        await send({"type": "http.response.body", "body": squeezed})
