"""The web page asks nothing of any host but this server, and nothing the app does not use.

Flet's page, even served with `no_cdn`, still reached out: Flutter's Rive package adds a
script from a CDN (cdn.jsdelivr.net) on every page, and Flutter fetches Noto fonts for any
glyph it lays out before the app's own font has loaded (from `assets/fonts/`, where they are
not shipped: 404). `OfflinePage` stands in front of Flet's static files:

- every HTML page gets a few lines of script that point a script of another origin at a
  stub served here, which tells Rive's loader that its runtime is not part of this app,
  and links that fetch the fonts with the page rather than after the app has started;
- and a few that take a finger's double tap as one tap, by the times the phone gave its
  pointer events (`DOUBLE_TAP`);
- Flutter's font manifest loses the fonts of packages the app never draws with (KaTeX's
  18 faces for formulas, Cupertino's icons) and gains the app's own font, so that font is
  there before the first frame;
- a fallback font Flutter asks for is answered with the app's own font, which covers every
  character the app shows (tests/test_app_logic.py checks it);
- the player aid's printable page (/aid) is answered here too (companion/app/aid_page.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from companion.app import aid_page
from companion.app.guard import ASGIApp, Message, Receive, Scope, Send
from companion.play.tap_guard import GUARD_S

STUB_PATH = "/not-shipped.js"
STUB = (
    b"// A script Flutter's packages would load from a CDN: not part of this app.\n"
    b"// Rive's loader asks for its runtime here; it is told there is none.\n"
    b'window.RiveNative = () => Promise.reject(new Error("Rive is not part of this app"));\n'
)
SCRIPT = """<script>
(() => {
  // A script of another origin (Rive's runtime, from a CDN) is loaded from this server's
  // stub instead: no request leaves the server.
  const source = Object.getOwnPropertyDescriptor(HTMLScriptElement.prototype, "src");
  Object.defineProperty(HTMLScriptElement.prototype, "src", {
    configurable: true,
    enumerable: source.enumerable,
    get() { return source.get.call(this); },
    set(value) {
      const url = new URL(String(value), document.baseURI);
      source.set.call(this, url.origin === location.origin ? value : "__STUB__");
    },
  });
})();
</script>
""".replace("__STUB__", STUB_PATH).encode()
# A finger's double tap is one tap, told apart on the phone by the pointer events' own
# times (`timeStamp`, when the press happened on the device, however late the page gets to
# it): a press less than the tap guard's time after the last release, within a few pixels,
# is the second half of a double tap, and it never reaches Flutter (nor does the click a
# browser makes of it). The server only learns when each tap arrived, and a slow phone busy
# drawing the first tap's answer sends the second one late (companion/play/tap_guard.py).
DOUBLE_TAP = """<script>
(() => {
  const WINDOW_MS = __WINDOW__, NEAR_PX = 24;
  let last = null, dropped = new Set(), noClickUntil = -1;
  const drop = e => { e.stopImmediatePropagation(); e.preventDefault(); };
  // Only a person's own events: Flutter hands some on again itself (its own, later copies).
  addEventListener("pointerdown", e => {
    if (e.isTrusted && e.isPrimary && last && e.timeStamp > last.t &&
        e.timeStamp - last.t < WINDOW_MS &&
        Math.hypot(e.clientX - last.x, e.clientY - last.y) < NEAR_PX) {
      dropped.add(e.pointerId);
      drop(e);
    }
  }, true);
  addEventListener("pointermove", e => { if (dropped.has(e.pointerId)) drop(e); }, true);
  for (const name of ["pointerup", "pointercancel"]) {
    addEventListener(name, e => {
      if (dropped.delete(e.pointerId)) {
        noClickUntil = e.timeStamp + 500;
        drop(e);
      } else if (name === "pointerup" && e.isTrusted && e.isPrimary) {
        last = {t: e.timeStamp, x: e.clientX, y: e.clientY};
      }
    }, true);
  }
  addEventListener("click", e => { if (e.timeStamp < noClickUntil) drop(e); }, true);
})();
</script>
""".replace("__WINDOW__", str(round(GUARD_S * 1000))).encode()
FONT_MANIFEST = "/assets/FontManifest.json"
# Where Flutter looks for the Noto fonts it falls back on (Flet's `fontFallbackBaseUrl`).
FALLBACK_FONTS = "/assets/fonts/noto"
# Font families of Flutter packages bundled with Flet that this app never draws with.
UNUSED_FONTS = ("packages/flutter_math_fork/", "packages/cupertino_icons/")


def font_manifest(manifest: bytes, family: str, font_url: str) -> bytes:
    """Flutter's font manifest without the unused packages' fonts, with the app's own."""
    families = [
        entry
        for entry in json.loads(manifest)
        if not str(entry.get("family", "")).startswith(UNUSED_FONTS)
    ]
    # An asset is fetched from `assets/` + its path: the app's font is served from /fonts/.
    families.append({"family": family, "fonts": [{"asset": f"..{font_url}"}]})
    return json.dumps(families).encode()


# What the app fetches only once its code has started: asked for with the page instead, so
# they come while the engine and the app's code are still arriving (~0.3 s sooner usable
# over a phone's network, `bench page-load`).
PRELOADED = (FONT_MANIFEST, "/assets/fonts/MaterialIcons-Regular.otf", "/assets/fonts/roboto.woff2")


def preloads(font_url: str) -> bytes:
    """Links in the page's head that fetch the font manifest and the fonts at once."""
    return "".join(
        f'<link rel="preload" href="{url}" as="fetch" crossorigin>\n'
        for url in (*PRELOADED, font_url)
    ).encode()


class HeadScript:
    """ASGI middleware: put a script into the head of every HTML page served."""

    def __init__(self, app: ASGIApp, script: bytes) -> None:
        self.app = app
        self.script = script

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve a request, adding the script to an HTML page's head."""
        if scope["type"] != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        await rewritten(
            self.app,
            scope,
            receive,
            send,
            lambda start: _content_type(start).startswith(b"text/html"),
            lambda body: body.replace(b"</head>", self.script + b"</head>", 1),
        )


class OfflinePage(HeadScript):
    """ASGI middleware: the page, its scripts and its fonts, all from this server."""

    def __init__(self, app: ASGIApp, family: str, font: Path) -> None:
        """`family` is the app's font as the page names it, `font` its file under /fonts/."""
        super().__init__(app, SCRIPT + DOUBLE_TAP + preloads(f"/fonts/{font.name}"))
        self.family = family
        self.font = font.read_bytes()
        self.font_url = f"/fonts/{font.name}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer the stub, fallback fonts and the aid here, the font manifest trimmed, the
        rest as is."""
        get = scope["type"] == "http" and scope.get("method") == "GET"
        path = scope.get("path", "") if get else ""
        if path == STUB_PATH:
            await _answer(send, STUB, b"text/javascript; charset=utf-8")
        elif path == aid_page.PATH:
            await aid_page.answer_aid(scope, send)
        elif path.startswith(FALLBACK_FONTS):
            await _answer(send, self.font, b"font/ttf")
        elif path == FONT_MANIFEST:
            await rewritten(
                self.app,
                scope,
                receive,
                send,
                lambda _: True,
                lambda body: font_manifest(body, self.family, self.font_url),
            )
        else:
            await super().__call__(scope, receive, send)


async def rewritten(
    app: ASGIApp,
    scope: Scope,
    receive: Receive,
    send: Send,
    wanted: Callable[[Message], bool],
    rewrite: Callable[[bytes], bytes],
) -> None:
    """Serve a request, its body rewritten when the response is a 200 that is `wanted`."""
    start: Message | None = None
    chunks: list[bytes] = []

    async def patched(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            if message.get("status") == 200 and wanted(message):
                start = message
                return
        elif message["type"] == "http.response.body" and start is not None:
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            body = rewrite(b"".join(chunks))
            headers = [
                (name, value)
                for name, value in start.get("headers", [])
                if name.lower() not in (b"content-length", b"etag")
            ]
            headers.append((b"content-length", str(len(body)).encode()))
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await send(message)

    await app(scope, receive, patched)


def _content_type(start: Message) -> bytes:
    for name, value in start.get("headers", []):
        if name.lower() == b"content-type":
            return bytes(value)
    return b""


async def _answer(send: Send, body: bytes, content_type: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", content_type),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
