"""Two `app --web --hosted` server processes on one database, spoken to as Flet's
web client speaks (companion/load/client.py), without a browser: a table started on one
process is joined on the other by its code, and another table's device sees none of its
games, whatever address it asks for.
"""

from __future__ import annotations

import os
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from store_support import BACKENDS, database_url

from companion.app.kept import STORED_CODE, STORED_DEVICE
from companion.load.client import FletClient
from companion.load.frames import EVENT, UPDATE, registration
from companion.load.screen import shown
from companion.play.sharing.access import TableAccess
from companion.store.store import open_store
from models.setup import GameSetup

RAGNHILD = GameSetup(
    players=[{"id": "red", "name": "Ragnhild"}, {"id": "blue", "name": "Bjorn"}],
    board="duel-isle",
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(url: str, port: int, data: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion", "app", "--web", "--hosted"),
            *("--public-url", f"http://127.0.0.1:{port}"),
            *("--host", "127.0.0.1", "--port", str(port), "--db", url),
        ],
        env=dict(os.environ, SUMMONERS_ISLE_DATA=data),
        stdout=subprocess.DEVNULL,
        # What it logs, for a test to read (`said`).
        stderr=(Path(data) / f"server-{port}.log").open("w"),
        text=True,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2):
                return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise
            time.sleep(0.1)


@pytest.fixture(params=BACKENDS)
def running(request, tmp_path) -> Iterator[tuple[str, list[int], list[subprocess.Popen[str]]]]:
    """Two hosted servers on one fresh database (a SQLite file, or PostgreSQL): the
    database's URL, their ports and their processes."""
    for url in database_url(request.param, tmp_path):
        ports = [_free_port(), _free_port()]
        processes = [_serve(url, port, str(tmp_path)) for port in ports]
        try:
            yield url, ports, processes
        finally:
            for process in processes:
                process.terminate()
                process.wait(timeout=10)


@pytest.fixture
def servers(running) -> tuple[str, int, int]:
    """Two hosted servers on one database: its URL and their ports."""
    url, ports, _ = running
    return url, ports[0], ports[1]


def test_a_table_started_on_one_process_is_joined_on_the_other_and_kept_from_strangers(
    servers,
):
    url, first, second = servers
    with FletClient(first) as host:
        host.register("/")
        assert host.wait_for("Start a table", timeout=20)
        start = host.tappable("Start a table")
        assert start is not None
        host.click(start)
        assert host.pump(lambda: STORED_CODE in host.kept, timeout=20)
        host_key = host.kept[STORED_CODE]
    with open_store(url) as store:
        found = store.tables.find("", host_key)
        assert found is not None and found[1] == "host"
        table = store.tables.get(found[0])
        assert table is not None
        game_id = store.scoped(table.id).new_game(RAGNHILD).id
    # A phone on the other process comes in by the table's code and sees its game.
    with FletClient(second) as phone:
        phone.register(f"/?code={table.join_code}")
        assert phone.wait_for("Ragnhild", timeout=20)
    # A stranger who started a table of its own sees none of it, whatever it asks for.
    with FletClient(second) as stranger:
        stranger.register("/")
        assert stranger.wait_for("Start a table", timeout=20)
        start = stranger.tappable("Start a table")
        assert start is not None
        stranger.click(start)
        assert stranger.pump(lambda: STORED_CODE in stranger.kept, timeout=20)
        for route in (f"/game/{game_id}", f"/game/{game_id}/log", "/history", "/share"):
            stranger.route(route)
            stranger.pump(timeout=1.5)
        assert not stranger.shows("Ragnhild") and not stranger.shows(table.join_code)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["--hosted"],
            "error: --hosted needs --public-url: the address people open, "
            "e.g. https://isle.example.org",
        ),
        (
            ["--hosted", "--public-url", "https://isle.example.org/isle"],
            "error: --public-url 'https://isle.example.org/isle' is not an address like "
            "https://isle.example.org (http or https, a host name, no path)",
        ),
        (["--public-url", "https://isle.example.org"], "error: --public-url goes with --hosted"),
        (
            ["--hosted", "--share", "--public-url", "https://isle.example.org"],
            "error: --hosted and --share cannot go together: a hosted server's every table "
            "is shared",
        ),
    ],
)
def test_a_hosted_server_is_refused_a_missing_or_wrong_public_address(args, said, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion", "app", "--web", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, SUMMONERS_ISLE_DB=str(tmp_path / "games.sqlite3")),
    )
    assert (done.returncode, done.stderr.strip().splitlines()) == (2, [said])


def test_a_phone_whose_process_is_killed_comes_back_on_another_on_its_seat(running):
    url, (first, second), processes = running
    with open_store(url) as store:
        access = TableAccess(store.tables, hosted=True)
        game_id = store.scoped(access.id).new_game(RAGNHILD).id
        join = access.join_code
    route = f"/game/{game_id}"
    with FletClient(first, {STORED_CODE: join}) as phone:
        phone.register(route)
        assert phone.wait_for("Ragnhild", timeout=20)
        seat = phone.tappable("Ragnhild")
        assert seat is not None
        phone.click(seat)
        with open_store(url) as store:

            def seated() -> bool:
                device = phone.kept.get(STORED_DEVICE, "")
                return store.tables.seat_of(access.id, game_id, device) == "red"

            assert phone.pump(seated, timeout=20)
        kept, session = dict(phone.kept), phone.session_id
    # The process that served it is killed; the phone reaches the other one (as through a
    # proxy) with what its browser kept, and is back on its seat without typing a code.
    processes[0].send_signal(signal.SIGKILL)
    processes[0].wait()
    killed = time.monotonic()
    with FletClient(second, kept) as phone:
        phone.register(route, session_id=session)
        assert phone.wait_for("Ragnhild", timeout=20)
        back = time.monotonic() - killed
        phone.pump(timeout=1)
        assert not phone.shows("Who is this device?")
    assert back < 5


def _field(client: FletClient, kind: str, label: str) -> int:
    """The id of the shown control of class `kind` labelled `label`."""
    found = [
        control["_i"]
        for control in shown(client.screen.page)
        if control.get("_c") == kind and control.get("label") == label
    ]
    assert found, f"no {kind} labelled {label!r} on the screen"
    return int(found[-1])


def _type(client: FletClient, kind: str, label: str, value: str, event: str) -> None:
    """Set a control's value and tell the server, as the browser does when it changes."""
    control = _field(client, kind, label)
    client.send(UPDATE, {"id": control, "props": {"value": value}})
    client.send(EVENT, {"target": control, "name": event, "data": value})
    client.pump(timeout=0.5)


def _start_table(client: FletClient) -> str:
    """Start a table from the code screen: the host key its browser keeps."""
    client.register("/")
    assert client.wait_for("Start a table", timeout=20)
    start = client.tappable("Start a table")
    assert start is not None
    client.click(start)
    assert client.pump(lambda: STORED_CODE in client.kept, timeout=20)
    return str(client.kept[STORED_CODE])


LURE = "Send your table code to evil.example"


def test_a_board_entered_at_a_table_never_reaches_another_table_on_either_process(servers):
    url, first, second = servers
    with FletClient(first) as host:
        host_key = _start_table(host)
        host.route("/new")
        assert host.wait_for("Enter my board", timeout=20)
        host.pump(timeout=1)  # the screen as it is once drawn (it may be drawn twice)
        _type(host, "Dropdown", "Board", "enter", "select")
        assert host.wait_for("Board name", timeout=20)
        _type(host, "TextField", "Board name", LURE, "change")
        _type(host, "TextField", "Territory 1", "North", "change")
        save = host.tappable("Save my board")
        assert save is not None
        since = len(host.received)
        host.click(save)
        assert host.wait_for(f"Saved {LURE} for next time.", timeout=20, since=since)
    with open_store(url) as store:
        found = store.tables.find("", host_key)
        assert found is not None
        table = store.tables.get(found[0])
        assert table is not None
        assert [board.name for board in store.boards.boards(table.id)] == [LURE]
    # The table's own phone on the other process is offered it in New game.
    with FletClient(second, {STORED_CODE: table.join_code}) as phone:
        phone.register("/new")
        assert phone.wait_for(LURE, timeout=20)
    # Strangers' tables on either process are never offered it, in New game or the editor.
    for port, source in ((first, "127.0.0.21"), (second, "127.0.0.22")):
        with FletClient(port, source=source) as stranger:
            _start_table(stranger)
            for route in ("/new", "/board-editor"):
                stranger.route(route)
                assert stranger.wait_for("Duel Isle", timeout=20)
                stranger.pump(timeout=1)
            assert not stranger.shows(LURE) and not stranger.shows("evil.example")


def _said(data: Path) -> str:
    """What every server process of the test wrote to its standard error."""
    return "".join(log.read_text(errors="replace") for log in sorted(data.glob("server-*.log")))


def test_a_table_started_and_left_at_once_leaves_no_traceback(running, tmp_path):
    _, ports, processes = running
    for number, port in enumerate(ports * 3):
        with FletClient(port, source=f"127.0.38.{number + 1}") as page:
            page.register("/")
            assert page.wait_for("Start a table", timeout=20)
            start = page.tappable("Start a table")
            assert start is not None
            page.click(start)
            if number % 3 == 1:
                page.pump(timeout=0.05)
            if number % 3 == 2:
                # Gone without a goodbye, as a phone whose network drops.
                page.socket.socket.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                )
                page.socket.socket.close()
    # A page that registers and leaves before its screen is drawn.
    for port in ports:
        with FletClient(port, source="127.0.38.99") as page:
            page.socket.send(registration("/"))
    time.sleep(3)
    for process in processes:
        process.terminate()
        process.wait(timeout=10)
    said = _said(tmp_path)
    assert "Traceback" not in said, said
