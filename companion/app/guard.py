"""Who may talk to the web server: the app's own pages, under the names it is served by.

A page of any other website, open in the same browser, could otherwise open the app's
websocket (browsers let any origin do that) and read or change every saved game; a host
name rebound by DNS to 127.0.0.1 would pass for the app's own origin. So every request
must name an allowed host in `Host`, and a browser's `Origin`, when sent, must be one of
the app's own. Flet's wildcard CORS header is dropped and FastAPI's API pages are off.
"""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from companion.language import Message as Sentence
from companion.language.render import language
from companion.play.language_setting import accepted_languages, device_language
from companion.play.sharing.links import url_name

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARD_HOSTS = ("", "0.0.0.0", "::", "*")
# FastAPI's generated API pages: the app has no API to document.
API_PAGES = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc", "/openapi.json"})
# The websocket close code for a policy violation; before the handshake it becomes HTTP 403.
POLICY_VIOLATION = 1008


def machine_names() -> set[str]:
    """This machine's name and addresses: what a wildcard bind is reachable by."""
    names = {socket.gethostname()}
    try:
        for *_, address in socket.getaddrinfo(socket.gethostname(), None):
            names.add(str(address[0]))
    except OSError:
        pass
    # The address of the interface that would carry traffic out (no packet is sent).
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            names.add(probe.getsockname()[0])
        except OSError:
            pass
    return {url_name(name) for name in names}


def allowed_hosts(host: str, port: int, extra_names: set[str] | None = None) -> frozenset[str]:
    """Every `Host` header the server answers when serving on host:port."""
    names = set(LOOPBACK_NAMES)
    if host.strip() in WILDCARD_HOSTS:
        names |= machine_names() if extra_names is None else extra_names
    else:
        names.add(url_name(host))
        names |= extra_names or set()
    hosts = {f"{name}:{port}" for name in names}
    if port == 80:
        # A browser leaves the default port out of the Host header.
        hosts |= names
    return frozenset(hosts)


def allowed_origins(host: str, port: int, extra_names: set[str] | None = None) -> frozenset[str]:
    """Every `Origin` the app's own pages send when served on host:port."""
    return frozenset(f"http://{name}" for name in allowed_hosts(host, port, extra_names))


def public_address(url: str) -> tuple[frozenset[str], frozenset[str]]:
    """The `Host` headers and the `Origin` a hosted server's public address (the URL its
    reverse proxy serves, e.g. https://isle.example.org) brings: (hosts, origins)."""
    parts = urlsplit(url.strip())
    name = url_name(parts.hostname or "")
    default = 443 if parts.scheme == "https" else 80
    port = parts.port or default
    hosts = {f"{name}:{port}"} | ({name} if port == default else set())
    origin = f"{parts.scheme}://{name}" + ("" if port == default else f":{port}")
    return frozenset(hosts), frozenset({origin})


class OriginGuard:
    """ASGI middleware: refuse foreign hosts and origins, drop wildcard CORS, hide API pages."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str], origins: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts
        self.origins = origins

    def permits(self, headers: list[tuple[bytes, bytes]]) -> bool:
        """Whether a request with these raw headers comes from the app's own pages."""
        hosts = [value for name, value in headers if name.lower() == b"host"]
        origins = [value for name, value in headers if name.lower() == b"origin"]
        # Two of either header leave open which one a check and the app would each read.
        if len(hosts) != 1 or len(origins) > 1:
            return False
        if hosts[0].decode("latin-1").lower() not in self.hosts:
            return False
        return not origins or origins[0].decode("latin-1").lower() in self.origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one request or websocket, or refuse it before the app sees it."""
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if not self.permits(scope.get("headers", [])):
            if kind == "websocket":
                await send({"type": "websocket.close", "code": POLICY_VIOLATION})
            else:
                await _plain(send, 403, _said(scope, "app.guard.foreign"))
            return
        if kind == "http" and scope.get("path") in API_PAGES:
            await _plain(send, 404, _said(scope, "app.guard.not_found"))
            return

        async def without_wildcard_cors(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if name.lower() != b"access-control-allow-origin"
                ]
            await send(message)

        await self.app(scope, receive, without_wildcard_cors)


def _said(scope: Scope, message: str) -> str:
    """A refusal in the language the browser asks for (Accept-Language), else English."""
    asked = b",".join(
        value for name, value in scope.get("headers", []) if name.lower() == b"accept-language"
    )
    code = device_language("", accepted_languages(asked.decode("latin-1")))
    return language(code).render(Sentence(message))


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
