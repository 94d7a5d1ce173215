"""The websocket gate (companion/app/wire.py) in-process, and the page's offline assets.

The gate stands between the server and Flet's handler: here a small stand-in for Flet's
handler and a scripted client show what reaches Flet, what closes the connection, and what
waits. tests/test_network.py measures the same on the real server.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import flet as ft
import msgpack
import pytest

from companion.app.web_page import FALLBACK_FONTS, STUB_PATH, OfflinePage, font_manifest
from companion.app.wire import WireGate
from companion.app.wire_frames import BadFrame, check_event, check_update, read_frame
from companion.app.wire_link import Bucket, Rate, WireLimits, client_key, current_link
from companion.play.tap_guard import GUARD_S

ASSETS = Path(__file__).resolve().parent.parent / "assets"


def frame(action: int, body: object) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


REGISTRATION = frame(1, {"session_id": "", "page_name": "", "page": {"route": "/"}})
CLICK = frame(3, {"target": 1, "name": "click", "data": None})


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# --- who a client is ------------------------------------------------------------------------


def test_a_client_is_its_address_and_an_ipv6_one_its_64_network():
    assert client_key("192.168.1.20") == "192.168.1.20"
    # A phone picks any address of its network's /64: they are all one client.
    assert (
        client_key("2001:db8:1:2::5") == client_key("2001:db8:1:2:aaaa::7") == "2001:db8:1:2::/64"
    )
    assert client_key("::ffff:10.0.0.7") == "10.0.0.7"
    assert client_key(None) == "unknown"


# --- what a frame may be --------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"\x00\xc1",  # not MessagePack
        b"\x00" + msgpack.packb([1]),  # not [action, body]
        frame(2, {"id": 1, "patch": []}),  # the server's patch, not a client's message
        frame(3, {"target": 1, "name": "click", "data": None, "extra": 1}),
        frame(3, {"target": "1", "name": "click", "data": None}),
        frame(3, {"target": 1, "name": "connect", "data": None}),  # the server raises it
        frame(3, {"target": 1, "name": "on click", "data": None}),
        frame(4, {"id": 1, "props": {"client_ip": "10.0.0.9"}}),  # the server sets it
        frame(4, {"id": 1, "props": {"on_click": "x"}}),  # Flet sets whatever comes, as is
        frame(4, {"id": 1, "props": {"__class__": "x"}}),
        frame(4, {"id": 1, "props": {"media": {"_values": {}}}}),
        frame(1, {"session_id": 5, "page_name": "", "page": {}}),
    ],
)
def test_a_frame_that_is_not_what_flets_client_sends_is_refused(data):
    with pytest.raises(BadFrame):
        read_frame(data)


def test_a_clients_frames_are_read_as_flet_reads_them():
    assert read_frame(CLICK) == (3, {"target": 1, "name": "click", "data": None})
    assert read_frame(frame(4, {"id": 14, "props": {"value": "K7QM"}}))[0] == 4
    assert read_frame(REGISTRATION)[0] == 1


def test_a_client_sets_its_own_private_state_never_flets():
    snack_bar = ft.SnackBar(ft.Text("Undone"))
    check_update(snack_bar, {"_dismissed": True})
    snack_bar._dismissed = True  # as Flet sets it: the next dismissal is the client's again
    check_update(snack_bar, {"_dismissed": True, "_unknown_to_flet": 1})
    for name in ("_i", "_c", "_values"):
        with pytest.raises(BadFrame):
            check_update(snack_bar, {name: 5})


def test_an_event_is_checked_against_the_handler_of_its_control():
    drag = ft.GestureDetector(on_pan_update=lambda _: None)
    position = {"x": 1.0, "y": 2.0}
    assert check_event(drag, "pan_update", {"l": position, "g": position, "ts": 5})
    # Data that cannot make the event its handler takes (Flet would fail in the handler).
    with pytest.raises(BadFrame):
        check_event(drag, "pan_update", {})
    # An event nobody handles is dropped before Flet looks for its control.
    assert not check_event(drag, "tap", None)


def test_a_bucket_lets_a_burst_through_then_makes_frames_wait_at_its_rate():
    clock = Clock()
    bucket = Bucket(Rate(2, 4.0), clock)
    assert bucket.take() == 0 and bucket.take() == 0
    assert bucket.take() == pytest.approx(0.25)
    assert bucket.take() == pytest.approx(0.5)
    clock.now += 10
    assert bucket.take() == 0


# --- the gate, in-process --------------------------------------------------------------------


class Client:
    """The server's side of one websocket: what the client sends, what it was sent."""

    def __init__(self, *frames: bytes | str, leaves: bool = True, address: str = "10.0.0.5"):
        self.scope = {"type": "websocket", "path": "/ws", "client": (address, 5555)}
        self.incoming: asyncio.Queue = asyncio.Queue()
        self.incoming.put_nowait({"type": "websocket.connect"})
        for data in frames:
            key = "text" if isinstance(data, str) else "bytes"
            self.incoming.put_nowait({"type": "websocket.receive", key: data})
        if leaves:
            self.incoming.put_nowait({"type": "websocket.disconnect", "code": 1001})
        self.sent: list[dict] = []
        self.gone = False

    async def receive(self) -> dict:
        message = await self.incoming.get()
        if message["type"] == "websocket.disconnect":
            self.gone = True
        return message

    async def send(self, message: dict) -> None:
        if self.gone:
            raise OSError("client disconnected")  # as uvicorn's ClientDisconnected
        self.sent.append(message)

    @property
    def closed_with(self) -> int | None:
        closes = [m["code"] for m in self.sent if m["type"] == "websocket.close"]
        return closes[0] if closes else None


class FakeFlet:
    """Flet's websocket handler, reduced: accept, read until the end, then send once more."""

    def __init__(self, controls: dict | None = None) -> None:
        self.controls = controls if controls is not None else {1: ft.Button(on_click=print)}
        self.called = False
        self.frames: list[bytes] = []
        self.ended_with: int | None = None

    async def __call__(self, scope, receive, send) -> None:
        self.called = True
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                self.ended_with = message["code"]
                break
            self.frames.append(message["bytes"])
            if len(self.frames) == 1:
                link = current_link()
                assert link is not None
                link.controls = self.controls  # the app starts its page after registering
        # Flet's send loop may still have a patch for a page that has gone.
        await send({"type": "websocket.send", "bytes": b"\x00late"})


def serve(client: Client, flet: FakeFlet, open_door: bool = False, **limits) -> None:
    gate = WireGate(flet, WireLimits(**limits), open_door=open_door)
    asyncio.run(asyncio.wait_for(gate(client.scope, client.receive, client.send), 10))


def test_an_event_before_registering_closes_the_connection_without_calling_flet():
    client, flet = Client(CLICK), FakeFlet()
    serve(client, flet)
    assert client.closed_with == 1008 and not flet.called


def test_a_connection_that_never_registers_is_closed_in_time():
    client, flet = Client(leaves=False), FakeFlet()
    serve(client, flet, register_s=0.05)
    assert client.closed_with == 1008 and not flet.called


def test_a_bad_frame_after_registering_ends_flets_handler_as_a_closed_tab_does():
    client, flet = Client(REGISTRATION, b"\x00\x92\x03\x81", CLICK), FakeFlet()
    serve(client, flet)
    assert flet.frames == [REGISTRATION]
    assert flet.ended_with == 1008 and client.closed_with == 1008


def test_a_page_that_leaves_while_flet_still_sends_ends_quietly():
    client, flet = Client(REGISTRATION, CLICK), FakeFlet()
    serve(client, flet)  # FakeFlet's last send meets a client that has gone: no error
    assert flet.frames == [REGISTRATION, CLICK] and flet.ended_with == 1001


def test_a_stranger_past_its_rate_is_closed_and_a_device_let_in_waits_instead():
    clicks = [CLICK] * 5
    client, flet = Client(REGISTRATION, *clicks), FakeFlet()
    serve(client, flet, stranger=Rate(3, 0.001))
    assert len(flet.frames) == 1 + 3 and client.closed_with == 1008
    client, flet = Client(REGISTRATION, *clicks), FakeFlet()
    started = time.monotonic()
    serve(client, flet, events=Rate(3, 20.0), open_door=True)
    assert len(flet.frames) == 1 + 5 and client.closed_with is None
    assert time.monotonic() - started >= 0.09  # two frames waited 1/20 s each


def test_a_stranger_sends_only_the_code_screens_events_and_small_frames():
    drag = frame(3, {"target": 1, "name": "pan_update", "data": None})
    client, flet = Client(REGISTRATION, drag), FakeFlet()
    serve(client, flet)
    assert client.closed_with == 1008
    client = Client(REGISTRATION, frame(4, {"id": 1, "props": {"value": "x" * 70_000}}))
    serve(client, FakeFlet())
    assert client.closed_with == 1009


def test_an_answer_for_a_control_the_page_no_longer_has_is_dropped():
    answer = frame(5, {"control_id": 99, "call_id": "abc", "result": None, "error": None})
    client, flet = Client(REGISTRATION, answer, CLICK), FakeFlet()
    serve(client, flet)
    assert flet.frames == [REGISTRATION, CLICK] and client.closed_with is None


def test_one_address_holds_a_bounded_number_of_websockets():
    async def two_at_once() -> tuple[Client, Client]:
        gate = WireGate(FakeFlet(), WireLimits(connections=1))
        first, second = Client(REGISTRATION, leaves=False), Client(REGISTRATION)
        holding = asyncio.create_task(gate(first.scope, first.receive, first.send))
        await asyncio.sleep(0.05)
        await gate(second.scope, second.receive, second.send)
        first.incoming.put_nowait({"type": "websocket.disconnect", "code": 1001})
        await holding
        return first, second

    first, second = asyncio.run(asyncio.wait_for(two_at_once(), 10))
    assert first.sent[0]["type"] == "websocket.accept"
    # Refused before the handshake is accepted: the server answers HTTP 403.
    assert second.sent == [{"type": "websocket.close", "code": 1008}]


class Screens(FakeFlet):
    """Flet's handler sending a screen of `size` bytes `count` times once the page started."""

    def __init__(self, count: int, size: int, closes: bool = False) -> None:
        super().__init__()
        self.count, self.size, self.closes = count, size, closes

    async def __call__(self, scope, receive, send) -> None:
        self.called = True
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        self.frames.append((await receive())["bytes"])
        for _ in range(self.count):
            await send({"type": "websocket.send", "bytes": b"\x00" * self.size})
        if self.closes:
            await send({"type": "websocket.close", "code": 1000})
            return
        message = await receive()
        self.ended_with = message.get("code")


class Reader(Client):
    """A client that reads what it is sent slowly, or `stops` after its first message."""

    def __init__(self, *frames: bytes, stops: bool, leaves: bool = True) -> None:
        super().__init__(*frames, leaves=leaves)
        self.stops = stops

    async def send(self, message: dict) -> None:
        if self.stops and self.sent:
            await asyncio.Event().wait()  # it never reads again
        await asyncio.sleep(0.01)
        await super().send(message)


def test_a_client_that_stops_reading_is_dropped_once_its_unsent_frames_pass_the_bound(caplog):
    client, flet = Reader(REGISTRATION, stops=True, leaves=False), Screens(20, 1024 * 1024)
    started = time.monotonic()
    serve(client, flet, unsent_bytes=4 * 1024 * 1024)
    # Flet's handler ended as for a closed tab, at once, holding nothing unsent.
    assert flet.ended_with == 1001 and time.monotonic() - started < 2
    assert [m["type"] for m in client.sent] == ["websocket.accept"]
    assert "dropped a websocket from 10.0.0.5" in caplog.text


def test_a_client_that_reads_slowly_gets_every_frame_in_order():
    client = Reader(REGISTRATION, stops=False, leaves=False)
    serve(client, Screens(3, 1024 * 1024, closes=True), unsent_bytes=4 * 1024 * 1024)
    sent = ["websocket.accept", *["websocket.send"] * 3, "websocket.close"]
    assert [m["type"] for m in client.sent] == sent


# --- the page asks nothing of another host -------------------------------------------------


async def _static(scope, receive, send) -> None:
    """Flet's static files, reduced: the page and the font manifest."""
    if scope["path"] == "/assets/FontManifest.json":
        body = json.dumps(
            [
                {
                    "family": "MaterialIcons",
                    "fonts": [{"asset": "fonts/MaterialIcons-Regular.otf"}],
                },
                {"family": "packages/flutter_math_fork/KaTeX_Main", "fonts": [{"asset": "k.ttf"}]},
                {
                    "family": "packages/cupertino_icons/CupertinoIcons",
                    "fonts": [{"asset": "c.ttf"}],
                },
            ]
        ).encode()
        kind = b"application/json"
    else:
        body, kind = b"<html><head><title>x</title></head><body></body></html>", b"text/html"
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", kind)]})
    await send({"type": "http.response.body", "body": body})


def _get(path: str) -> tuple[dict, bytes]:
    page = OfflinePage(_static, "Isle Sans", ASSETS / "fonts" / "DejaVuSans.ttf")
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    async def receive() -> dict:
        return {"type": "http.request", "body": b""}

    scope = {"type": "http", "method": "GET", "path": path, "headers": []}
    asyncio.run(page(scope, receive, send))
    return sent[0], b"".join(m.get("body", b"") for m in sent[1:])


def test_every_page_points_scripts_of_other_hosts_at_the_servers_stub():
    start, body = _get("/")
    assert b"HTMLScriptElement.prototype" in body and STUB_PATH.encode() in body
    # And the script that takes a finger's double tap as one, by the phone's clock.
    assert f"WINDOW_MS = {round(GUARD_S * 1000)}".encode() in body
    assert dict(start["headers"])[b"content-length"] == str(len(body)).encode()
    start, stub = _get(STUB_PATH)
    assert start["status"] == 200 and b"window.RiveNative" in stub


def test_the_font_manifest_drops_unused_fonts_and_brings_the_apps_own():
    _, body = _get("/assets/FontManifest.json")
    families = [family["family"] for family in json.loads(body)]
    assert families == ["MaterialIcons", "Isle Sans"]
    assert json.loads(font_manifest(b"[]", "F", "/fonts/f.ttf")) == [
        {"family": "F", "fonts": [{"asset": "../fonts/f.ttf"}]}
    ]


def test_a_fallback_font_flutter_asks_for_is_the_apps_own_font():
    start, body = _get(f"{FALLBACK_FONTS}sanssymbols2/v24/abc.woff2")
    assert start["status"] == 200 and body == (ASSETS / "fonts" / "DejaVuSans.ttf").read_bytes()
