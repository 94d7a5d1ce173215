"""The page's files travel compressed and are asked for again only when they changed.

A first visit downloads Flutter's engine and the app's code, ~17 MB as they are: on a
phone's network that is most of a minute. `PackedFiles` stands in front of the static
files: a client that accepts brotli gets a file's brotli form once it is packed
(companion/app/web_packs.py packs them in the background, once per machine), one that
accepts gzip gets it gzipped (compressed once off the event loop, then kept), and every
file carries `Cache-Control: no-cache` with its ETag, so a visit after the first asks
"changed?" and is answered 304 with no body. Flet's file names carry no hash of their
content, so a file cannot be marked immutable: the same name serves a new Flet release.
"""

from __future__ import annotations

import asyncio
import gzip
import threading
from collections import OrderedDict

from companion.app.guard import ASGIApp, Message, Receive, Scope, Send
from companion.app.web_packs import CODINGS, LEAST_BYTES, PackStore, digest_of

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
# The compressed files kept, at most, in bytes (Flet's largest two come to ~5 MB gzipped).
KEPT_BYTES = 48 * 1024 * 1024
LEVEL = 6
CACHE_CONTROL = (b"cache-control", b"no-cache")


def _header(headers: list[tuple[bytes, bytes]], name: bytes) -> bytes:
    return next((value for key, value in headers if key.lower() == name), b"")


def accepted_codings(scope: Scope) -> set[str]:
    """The codings the request's client takes a body in, of 'br' and 'gzip' (q=0 refuses)."""
    taken: set[str] = set()
    for key, value in scope.get("headers", []):
        if key.lower() != b"accept-encoding":
            continue
        for part in value.decode("latin-1").split(","):
            name, *params = (piece.strip() for piece in part.split(";"))
            weights = [param[2:] for param in params if param.lower().startswith("q=")]
            try:
                wanted = not weights or float(weights[0]) > 0
            except ValueError:
                wanted = False
            if wanted:
                taken.add(name.lower())
    return taken & set(CODINGS)


class Packed:
    """Compressed bodies by content and coding, the oldest forgotten past KEPT_BYTES.

    A body's brotli form comes from the pack store once made there; its gzip form from the
    store or, until then, made here at a quick level.
    """

    def __init__(self, most: int = KEPT_BYTES, store: PackStore | None = None) -> None:
        self.most = most
        self.store = store or PackStore()
        self._kept: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self._digests: dict[tuple[str, bytes], str] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    def packed(
        self, path: str, etag: bytes, body: bytes, codings: set[str]
    ) -> tuple[str, bytes] | None:
        """`body` in the best of `codings` ready now, with its coding; None for as it is.

        Slow (hashing, reading, compressing): called off the event loop.
        """
        digest = self._digests.get((path, etag)) if etag else None
        if digest is None:
            digest = digest_of(body)
            if etag:
                self._digests[(path, etag)] = digest
        for coding in CODINGS:
            if coding not in codings:
                continue
            found = self._recall((digest, coding)) or self.store.get(digest, coding)
            if found is None and coding == "gzip":
                found = gzip.compress(body, compresslevel=LEVEL, mtime=0)
            if found is not None:
                self._keep((digest, coding), found)
                return coding, found
        return None

    def _recall(self, key: tuple[str, str]) -> bytes | None:
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        return None

    def _keep(self, key: tuple[str, str], packed: bytes) -> None:
        if len(packed) > self.most:
            return
        with self._lock:
            if key in self._kept:
                return
            self._kept[key] = packed
            self._bytes += len(packed)
            while self._bytes > self.most:
                _, dropped = self._kept.popitem(last=False)
                self._bytes -= len(dropped)


class PackedFiles:
    """ASGI middleware: static files compressed for clients that take it, all revalidated."""

    def __init__(self, app: ASGIApp, packed: Packed | None = None) -> None:
        self.app = app
        self.packed = packed or Packed()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve a request; a GET's successful compressible answer goes compressed if it may."""
        if scope["type"] != "http" or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        codings = accepted_codings(scope) if scope.get("method") == "GET" else set()
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
                    bool(codings)
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
            await self._send_packed(scope, start, b"".join(chunks), codings, send)

        await self.app(scope, receive, through)

    async def _send_packed(
        self, scope: Scope, start: Message, body: bytes, codings: set[str], send: Send
    ) -> None:
        headers: list[tuple[bytes, bytes]] = list(start["headers"])
        etag = _header(headers, b"etag")
        packed = None
        if len(body) >= LEAST_BYTES:
            path = scope.get("path", "")
            packed = await asyncio.to_thread(self.packed.packed, path, etag, body, codings)
        if packed is None:
            await send(start)
            await send({"type": "http.response.body", "body": body})
            return
        coding, squeezed = packed
        kept = [(k, v) for k, v in headers if k.lower() not in (b"content-length", b"etag")]
        kept += [
            (b"content-encoding", coding.encode()),
            (b"vary", b"Accept-Encoding"),
            (b"content-length", str(len(squeezed)).encode()),
        ]
        if etag:
            # Another body than the file's own: a weak tag, still matched on revalidation.
            kept.append((b"etag", etag if etag.startswith(b"W/") else b"W/" + etag))
        await send({**start, "headers": kept})
        await send({"type": "http.response.body", "body": squeezed})
