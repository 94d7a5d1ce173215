"""No other website reaches the app: foreign origins and host names are refused at the door.

The guard is tested on a small ASGI app in-process, then once on the real server: a page of
another site (a foreign Origin) and a DNS-rebound name (a foreign Host) are refused at the
websocket handshake, while the app's own page opens it and is shown the saved games.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import msgpack
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from companion.app.guard import OriginGuard, allowed_hosts, allowed_origins
from companion.store.store import open_store
from models.setup import GameSetup

PORT = 8550
OWN = "http://127.0.0.1:8550"
SOCKET = "ws://127.0.0.1:8550"


def test_loopback_serving_answers_only_loopback_names_with_the_port():
    assert allowed_hosts("127.0.0.1", PORT) == {"127.0.0.1:8550", "localhost:8550", "[::1]:8550"}
    assert allowed_origins("localhost", PORT) == {
        "http://127.0.0.1:8550",
        "http://localhost:8550",
        "http://[::1]:8550",
    }


def test_a_served_address_is_added_to_the_loopback_names():
    assert "192.168.1.20:9000" in allowed_hosts("192.168.1.20", 9000)
    assert "[fe80::1]:9000" in allowed_hosts("FE80::1", 9000)
    assert "http://192.168.1.20:9000" in allowed_origins("192.168.1.20", 9000)


def test_a_wildcard_bind_answers_the_names_it_is_reachable_by():
    hosts = allowed_hosts("0.0.0.0", 8550, extra_names={"10.0.0.7", "tabletop"})
    assert hosts == {
        "127.0.0.1:8550",
        "localhost:8550",
        "[::1]:8550",
        "10.0.0.7:8550",
        "tabletop:8550",
    }


def test_port_80_is_also_answered_without_the_port():
    assert {"localhost", "localhost:80"} <= allowed_hosts("127.0.0.1", 80)


async def _page(request):
    response = PlainTextResponse("the app")
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


async def _socket(websocket: WebSocket):
    await websocket.accept()
    await websocket.send_text("games")
    await websocket.close()


@pytest.fixture
def client():
    inner = Starlette(
        routes=[Route("/", _page), Route("/openapi.json", _page), WebSocketRoute("/ws", _socket)]
    )
    guarded = OriginGuard(
        inner, allowed_hosts("127.0.0.1", PORT), allowed_origins("127.0.0.1", PORT)
    )
    return TestClient(guarded, base_url=OWN)


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "http://evil.example"},
        {"origin": "null"},
        {"origin": "http://127.0.0.1:8551"},
        {"origin": "https://127.0.0.1:8550"},
        {"host": "evil.example:8550"},
        {"host": "rebound.evil.example:8550", "origin": "http://rebound.evil.example:8550"},
        {"host": "127.0.0.1"},
    ],
)
def test_a_foreign_origin_or_host_is_refused(client, headers):
    response = client.get("/", headers=headers)
    assert response.status_code == 403
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(f"{SOCKET}/ws", headers=dict(headers)),
    ):
        pass
    assert refused.value.code == 1008


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"origin": OWN},
        {"host": "localhost:8550", "origin": "http://localhost:8550"},
        {"host": "[::1]:8550", "origin": "http://[::1]:8550"},
    ],
)
def test_the_apps_own_pages_are_answered(client, headers):
    response = client.get("/", headers=headers)
    assert response.status_code == 200
    assert response.text == "the app"
    with client.websocket_connect(f"{SOCKET}/ws", headers=dict(headers)) as websocket:
        assert websocket.receive_text() == "games"


@pytest.mark.parametrize(
    ("accept_language", "said"),
    [
        (None, "This server only answers the Summoner's Isle app."),
        ("fr-CA,fr;q=0.9,en;q=0.8", "Ce serveur ne répond qu'à l'application Summoner's Isle."),
        ("de-DE,en;q=0.5,fr;q=0.7", "Ce serveur ne répond qu'à l'application Summoner's Isle."),
        ("de-DE", "This server only answers the Summoner's Isle app."),
        ("fr;q=0,en", "This server only answers the Summoner's Isle app."),
    ],
)
def test_a_refusal_speaks_the_browsers_language(client, accept_language, said):
    # Every sentence the app says is in the device's language, this one included.
    headers = {"host": "evil.example:8550"}
    if accept_language is not None:
        headers["accept-language"] = accept_language
    response = client.get("/", headers=headers)
    assert response.status_code == 403
    assert response.text == said


def test_no_wildcard_cors_and_no_api_pages(client):
    response = client.get("/", headers={"origin": OWN})
    assert "access-control-allow-origin" not in response.headers
    assert client.get("/openapi.json").status_code == 404


# --- the real server ------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def served(tmp_path: Path):
    """The app served on a port of its own, with one unfinished game of Ragnhild and Bjorn."""
    db = tmp_path / "games.sqlite3"
    with open_store(str(db)) as store:
        store.new_game(
            GameSetup(
                players=[{"id": "red", "name": "Ragnhild"}, {"id": "blue", "name": "Bjorn"}],
                board="duel-isle",
            )
        )
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "app", "--web", "--port", str(port), "--db", str(db)],
        env=dict(os.environ, SUMMONERS_ISLE_DATA=str(tmp_path)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _home_screen(port: int, origin: str | None, host: str | None = None) -> bytes:
    """What the app sends a client that registers as Flet's does, until a player's name shows."""
    url = f"ws://{host or f'127.0.0.1:{port}'}/ws"
    # A foreign Host is reached as a rebound name would be: the name resolves to 127.0.0.1.
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    with connect(url, sock=sock, origin=origin, open_timeout=5) as websocket:
        page = {"route": "/", "width": 400, "height": 800, "web": True, "platform": "linux"}
        register = [1, {"session_id": "", "page_name": "", "page": page}]
        websocket.send(b"\x00" + msgpack.packb(register))
        seen = b""
        deadline = time.monotonic() + 15
        while b"Ragnhild" not in seen and time.monotonic() < deadline:
            message = websocket.recv(timeout=deadline - time.monotonic())
            seen += message if isinstance(message, bytes) else message.encode()
        return seen


def test_the_real_server_refuses_other_sites_and_serves_its_own(served):
    port = served
    with pytest.raises(InvalidStatus) as foreign_origin:
        _home_screen(port, "http://evil.example")
    assert foreign_origin.value.response.status_code == 403
    with pytest.raises(InvalidStatus) as foreign_host:
        _home_screen(port, f"http://rebound.example:{port}", host=f"rebound.example:{port}")
    assert foreign_host.value.response.status_code == 403

    assert b"Ragnhild" in _home_screen(port, f"http://127.0.0.1:{port}")
    assert b"Ragnhild" in _home_screen(port, f"http://localhost:{port}", host=f"localhost:{port}")

    for page in ("docs", "redoc", "openapi.json"):
        with pytest.raises(urllib.error.HTTPError) as hidden:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/{page}", timeout=5)
        assert hidden.value.code == 404
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
        assert page.headers.get("Access-Control-Allow-Origin") is None


def _fetch(port: int, path: str, **headers: str):
    """A GET of the real server: its status, headers and body (a 304 is an answer too)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, b""


def test_the_real_server_sends_its_files_gzipped_and_revalidated(served):
    """A first visit is ~17 MB uncompressed; Flet's big two files
    must travel compressed where the client accepts it, and a second visit get 304s.

    A client that takes brotli too gets it once the file is packed (web_packs.py), gzip
    until then."""
    import gzip

    import brotli

    from companion.app.web_page import STUB_PATH

    port = served
    for path in ("/main.dart.js", "/canvaskit/canvaskit.wasm", "/"):
        status, plain_headers, plain = _fetch(port, path)
        assert status == 200 and plain_headers.get("Content-Encoding") is None
        status, headers, packed = _fetch(port, path, **{"Accept-Encoding": "gzip"})
        assert status == 200 and headers["Content-Encoding"] == "gzip"
        assert headers["Vary"] == "Accept-Encoding"
        assert gzip.decompress(packed) == plain
        status, either, either_body = _fetch(port, path, **{"Accept-Encoding": "gzip, br"})
        unpack = {"gzip": gzip.decompress, "br": brotli.decompress}
        assert status == 200 and unpack[either["Content-Encoding"]](either_body) == plain
        if path == "/":
            # The page's scripts went in before it was compressed (web_page.py's stub).
            assert STUB_PATH.encode() in plain
        if path != "/":
            assert len(packed) < len(plain) * 0.6, (path, len(packed), len(plain))
            # Revalidated, not refetched: the tag matches, the answer has no body.
            assert headers["Cache-Control"] == "no-cache"
            again = _fetch(port, path, **{"If-None-Match": headers["ETag"]})
            assert again[0] == 304 and again[2] == b""


# --- brotli, packed once per machine (companion/app/web_packs.py) ---------------------------


def test_a_file_goes_in_brotli_once_packed_and_gzip_until_then(tmp_path):
    """A client taking both gets gzip while the file is not packed, then brotli, smaller; a
    client refusing gzip (q=0) and taking only brotli gets the file as it is until then."""
    import gzip

    import brotli

    from companion.app.web_packing import Packed
    from companion.app.web_packs import PackStore

    file = tmp_path / "web" / "main.dart.js"
    file.parent.mkdir()
    file.write_bytes(b"".join(b"var x%d = %d;\n" % (n, n * n) for n in range(20_000)))
    body = file.read_bytes()
    store = PackStore(tmp_path / "packs")
    packed = Packed(store=store)
    coding, gzipped = packed.packed("/main.dart.js", b'"1"', body, {"gzip", "br"})
    assert coding == "gzip" and gzip.decompress(gzipped) == body
    assert packed.packed("/main.dart.js", b'"1"', body, {"br"}) is None
    assert store.pack([file]) == 2
    coding, squeezed = packed.packed("/main.dart.js", b'"1"', body, {"gzip", "br"})
    assert coding == "br" and brotli.decompress(squeezed) == body
    assert len(squeezed) < len(gzipped)
    assert store.pack([file]) == 0, "a file packed is never packed again"


def test_one_process_packs_at_a_time(tmp_path):
    """While another process holds the store's lock, packing leaves the work to it."""
    import fcntl

    from companion.app.web_packs import PackStore

    file = tmp_path / "app.js"
    file.write_bytes(b"x" * 5000)
    store = PackStore(tmp_path / "packs")
    store.directory.mkdir()
    with open(store.directory / "lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        assert store.pack([file]) == 0
    assert store.pack([file]) == 2


@pytest.mark.parametrize(
    ("header", "taken"),
    [
        ("gzip, deflate, br, zstd", {"gzip", "br"}),
        ("gzip;q=1.0, br;q=0", {"gzip"}),
        ("BR", {"br"}),
        ("identity", set()),
        ("gzip;q=x", set()),
    ],
)
def test_the_codings_a_client_takes_are_read_from_its_header(header, taken):
    """Accept-Encoding's codings, a zero or unreadable weight refusing one."""
    from companion.app.web_packing import accepted_codings

    scope = {"headers": [(b"accept-encoding", header.encode())]}
    assert accepted_codings(scope) == taken
