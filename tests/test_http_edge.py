"""A process served without a proxy holds each HTTP connection to a deadline for its request's
headers, and each address to a number of connections at once (companion/app/http_edge.py):
half-sent requests no longer hold its sockets, and one address cannot take them all. Every
address of 127.0.0.0/8 is this machine: each stands for another device.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest
import uvicorn
from websockets.sync.client import connect

from companion.app.http_edge import PER_ADDRESS, HttpLimits, guarded_http

HALF = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow"
WHOLE = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


async def answer(scope, receive, send) -> None:
    """A tiny app: 'ok' to every request, and every websocket accepted and held."""
    if scope["type"] == "http":
        if scope["path"] == "/slow":
            await asyncio.sleep(1.2)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})
    elif scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        while (await receive())["type"] != "websocket.disconnect":
            pass


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def port() -> Iterator[int]:
    """The tiny app served with a half-second deadline for headers and 4 connections an
    address."""
    chosen = free_port()
    config = uvicorn.Config(
        answer,
        host="127.0.0.1",
        port=chosen,
        http=guarded_http(HttpLimits(header_s=0.5, per_address=4)),
        ws="websockets-sansio",
        log_level="warning",
        lifespan="off",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    yield chosen
    server.should_exit = True
    thread.join(timeout=10)


def opened(port: int, source: str, sent: bytes = HALF) -> socket.socket:
    """A connection from `source` that sent `sent`."""
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    sock.sendall(sent)
    return sock


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes the connection (nothing more to read) within `seconds`."""
    sock.settimeout(seconds)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def fetched(port: int, source: str) -> bytes:
    """A whole request from `source`: what came back."""
    whole = WHOLE.replace(b"127.0.0.1", f"127.0.0.1:{port}".encode())
    with opened(port, source, whole) as sock:
        sock.settimeout(5)
        return sock.recv(4096)


def test_a_request_whose_headers_are_late_is_closed(port):
    started = time.monotonic()
    slow = [opened(port, "127.0.0.5") for _ in range(3)]
    assert all(closed_within(sock, 5) for sock in slow)
    assert 0.4 < time.monotonic() - started < 3
    # A request answered, then half of the next one on the same connection: closed too.
    sock = opened(port, "127.0.0.5", WHOLE)
    sock.settimeout(5)
    assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    sock.sendall(HALF)
    assert closed_within(sock, 5)


def test_an_answer_slower_than_the_deadline_is_not_cut(port):
    slow = b"GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    # Two requests in one go (pipelined): the second is answered after the first, each
    # taking longer than the deadline for headers, which both had long sent.
    with opened(port, "127.0.0.11", slow + slow) as sock:
        sock.settimeout(5)
        received = b""
        while received.count(b"HTTP/1.1 200") < 2:
            data = sock.recv(4096)
            assert data, received
            received += data


def test_an_address_holds_a_few_connections_at_once_and_others_are_served(port):
    held = [opened(port, "127.0.0.6") for _ in range(4)]
    time.sleep(0.1)
    extra = opened(port, "127.0.0.6")
    assert closed_within(extra, 0.3)  # closed at once, long before the headers' deadline
    assert fetched(port, "127.0.0.7").startswith(b"HTTP/1.1 200")
    # Once they are gone, the address is served again.
    assert all(closed_within(sock, 5) for sock in held)
    assert fetched(port, "127.0.0.6").startswith(b"HTTP/1.1 200")


def test_a_websocket_is_not_counted_among_an_addresss_http_connections(port):
    sockets = []
    for _ in range(6):
        sock = socket.socket()
        sock.bind(("127.0.0.8", 0))
        sock.connect(("127.0.0.1", port))
        sockets.append(connect(f"ws://127.0.0.1:{port}/ws", sock=sock))
    time.sleep(1)  # past the headers' deadline: an open websocket is not closed by it
    for websocket in sockets:
        websocket.ping().wait(5)
    assert fetched(port, "127.0.0.8").startswith(b"HTTP/1.1 200")
    for websocket in sockets:
        websocket.close()


def test_the_app_served_without_a_proxy_counts_each_addresss_connections(tmp_path):
    chosen = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "app", "--web", "--port", str(chosen)],
        env=dict(os.environ, SUMMONERS_ISLE_DB=str(tmp_path / "games.sqlite3")),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{chosen}/", timeout=2):
                    break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.2)
        held = [opened(chosen, "127.0.0.9") for _ in range(PER_ADDRESS)]
        time.sleep(0.3)
        assert closed_within(opened(chosen, "127.0.0.9"), 1)
        assert fetched(chosen, "127.0.0.10").startswith(b"HTTP/1.1 200")
        for sock in held:
            sock.close()
    finally:
        process.terminate()
        process.wait(timeout=10)
