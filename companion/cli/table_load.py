"""A hosted server under load (`bench --tables N --processes P [--kill-one]`, issue 22).

It starts P `app --web --hosted` server processes on one PostgreSQL database, opens N tables
of 4 devices each, every device a websocket speaking Flet's protocol as its web client does
(no browser), seated as one player of its table's game, the four spread over the processes.
Then each table records at a human pace with bursts: a record is made through the store and
announced on the bus, as a tap on another process is, and the time until each of the
table's devices is sent its screen's change is its latency. `--kill-one` kills one process
mid-run; its devices reach another with what their browsers kept, and the time until each
shows its game again is reported.

What it measures is a record's way to the other devices (store, bus across processes, each
device's screen redrawn and sent); the tap's own way in (a click through a websocket to the
screen that records it) is not in these figures.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgpack  # type: ignore[import-untyped]
from websockets.exceptions import InvalidHandshake
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from companion.play.bus import game_topic
from companion.play.sharing.access import TableAccess
from companion.store.errors import StoreError
from companion.store.notices import PostgresBus
from companion.store.store import Store, open_store
from models.setup import GameSetup

REGISTER, EVENT, INVOKE = 1, 3, 5
# What the app's pages keep in the browser (companion/app/main.py's STORED_*).
STORED_CODE = "summoners-isle.table-code"
STORED_DEVICE = "summoners-isle.device"
NAMES = ("Ragna", "Bjorn", "Cyra", "Dag")
SEATS = ("red", "blue", "green", "yellow")
SETUP = GameSetup(
    players=[
        {"id": colour, "name": name}
        for colour, name in zip(("red", "blue", "green", "yellow"), NAMES, strict=True)
    ],
    board="gathering-isle",
)
# A table records about once every this many seconds; one record in BURST starts a burst.
PACE_S = 4.0
BURST = 5
BURST_RECORDS = 3
BURST_GAP_S = 0.3
# How long a device waits to be sent its screen's change before the record counts as lost.
UPDATE_TIMEOUT_S = 5.0


class LoadError(RuntimeError):
    """Why the load could not be run, in one sentence."""


class Device:
    """One phone's page, reduced to its websocket: it answers what a browser answers."""

    def __init__(self, port: int, kept: dict[str, Any], source: str = "127.0.0.1") -> None:
        # Each device connects from an address of its own (all of 127.0.0.0/8 is this
        # machine), as phones do: the server's limits per address do not lump them together.
        self.source = source
        self.kept = dict(kept)
        self.session_id = ""
        self.page_id: int | None = None
        self.received: list[tuple[float, bytes]] = []
        self.changed = threading.Condition()
        self.closed = False
        self.socket: ClientConnection = self._connect(port)
        self._reader = threading.Thread(target=self._read_all, daemon=True)
        self._reader.start()

    def _connect(self, port: int) -> ClientConnection:
        try:
            line = socket.create_connection(("127.0.0.1", port), 20, (self.source, 0))
            line.settimeout(None)
            return self._open(port, line)
        except (OSError, InvalidHandshake) as error:
            raise LoadError(f"a device could not connect to port {port}: {error}") from None

    def _open(self, port: int, line: socket.socket) -> ClientConnection:
        return connect(
            f"ws://127.0.0.1:{port}/ws",
            sock=line,
            origin=Origin(f"http://127.0.0.1:{port}"),
            open_timeout=20,
            max_size=None,
        ).__enter__()

    def register(self, route: str) -> None:
        """Open `route` as a page (or come back to this page's session)."""
        page = {"route": route, "width": 390, "height": 844, "web": True, "platform": "android"}
        self._send(REGISTER, {"session_id": self.session_id, "page_name": "", "page": page})

    def reconnect(self, port: int, route: str) -> None:
        """Reach another process, as a browser through the proxy after its process died."""
        self.received.clear()
        self.socket = self._connect(port)
        self._reader = threading.Thread(target=self._read_all, daemon=True)
        self._reader.start()
        self.register(route)

    def click_text(self, text: str) -> bool:
        """Tap the latest control with a click handler whose content holds `text`."""
        found = None
        for _, message in list(self.received):
            for control in _controls(msgpack.unpackb(message[1:], strict_map_key=False)):
                if control.get("on_click") and _holds(control, text):
                    found = control["_i"]
        if found is None:
            return False
        self._send(EVENT, {"target": found, "name": "click", "data": None})
        return True

    def wait(self, until: Callable[[], bool], timeout: float) -> bool:
        """Wait until `until()` holds, or `timeout` seconds pass."""
        with self.changed:
            return self.changed.wait_for(until, timeout)

    def shows(self, text: str, since: float = 0.0) -> bool:
        """Whether a message received after `since` holds `text`."""
        encoded = text.encode()
        return any(at > since and encoded in body for at, body in list(self.received))

    def first_after(self, since: float) -> float | None:
        """When the first message after `since` came, if one did."""
        return next((at for at, _ in list(self.received) if at > since), None)

    def close(self) -> None:
        """Close the page's websocket."""
        self.closed = True
        self.socket.close()

    def _send(self, action: int, body: Any) -> None:
        self.socket.send(b"\x00" + msgpack.packb([action, body]))

    def _read_all(self) -> None:
        socket_ = self.socket
        try:
            for message in socket_:
                if not isinstance(message, bytes) or not message or message[0] != 0:
                    continue
                action, body = msgpack.unpackb(message[1:], strict_map_key=False)
                if action == REGISTER:
                    self.session_id = body["session_id"]
                    self.page_id = body["page_patch"]["_i"]
                elif action == INVOKE:
                    self._answer(body)
                with self.changed:
                    self.received.append((time.monotonic(), message))
                    self.changed.notify_all()
        except Exception:
            return  # the connection went: a killed process, or the end of the run

    def _answer(self, call: dict[str, Any]) -> None:
        args = call.get("args") or {}
        result: Any = None
        if call["name"] == "get":
            result = self.kept.get(str(args.get("key")))
        elif call["name"] == "set":
            self.kept[args["key"]] = args["value"]
            result = True
        answer = {"control_id": call["control_id"], "call_id": call["call_id"]}
        self._send(INVOKE, answer | {"result": result, "error": None})


def _controls(value: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(value, dict):
        if "_i" in value and "_c" in value:
            found.append(value)
        for item in value.values():
            found += _controls(item)
    elif isinstance(value, list):
        for item in value:
            found += _controls(item)
    return found


def _holds(value: Any, text: str) -> bool:
    if isinstance(value, str):
        return text in value
    if isinstance(value, dict):
        return any(_holds(item, text) for item in value.values())
    if isinstance(value, list):
        return any(_holds(item, text) for item in value)
    return False


@dataclass
class Table:
    """One table of the load: its game, its code and its four devices with their ports."""

    id: str
    game_id: str
    join: str
    devices: list[Device] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(db: str, port: int, data: str) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion", "app", "--web", "--hosted"),
            *("--public-url", f"http://127.0.0.1:{port}"),
            *("--host", "127.0.0.1", "--port", str(port), "--db", db),
        ],
        env=dict(os.environ, SUMMONERS_ISLE_DATA=data),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise LoadError(f"a server process on port {port} did not start") from None
            time.sleep(0.2)


def _seat(device: Device, name: str, taken: Callable[[str], bool]) -> None:
    """Pick `name`'s seat on the seat screen, again while it is not `taken(device id)`: a
    seat screen drawn anew as another device sits down has new controls."""
    if not device.wait(lambda: device.shows(name), 30):
        raise LoadError("a device was not shown its table's game")
    deadline = time.monotonic() + 30
    while not taken(str(device.kept.get(STORED_DEVICE, ""))):
        if time.monotonic() > deadline or not device.click_text(name):
            raise LoadError("a device could not take its seat")
        time.sleep(1.0)


def _seated(store: Store, table: Table, seat: str) -> Callable[[str], bool]:
    """Whether a device (by its id) holds `seat` in its table's game."""

    def holds(device: str) -> bool:
        return store.tables.seat_of(table.id, table.game_id, device) == seat

    return holds


def _rss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cpu_s(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


def run_table_load(
    db: str, tables: int, processes: int, seconds: float, kill_one: bool, seed: int = 1
) -> dict[str, Any]:
    """Serve `tables` tables of 4 devices from `processes` processes on the PostgreSQL
    database `db` for `seconds`, and report the latencies, errors, memory and CPU."""
    if not db.startswith("postgresql"):
        raise LoadError("--tables needs --db with a PostgreSQL URL (postgresql+psycopg://...)")
    rng = random.Random(seed)
    data = tempfile.mkdtemp(prefix="summoners-load-")
    ports = [_free_port() for _ in range(processes)]
    servers = [_serve(db, port, data) for port in ports]
    store = open_store(db)
    bus = PostgresBus(store.shared_url or db)
    made: list[Table] = []
    try:
        base_rss = sum(_rss_kib(server.pid) for server in servers)
        for number in range(tables):
            access = TableAccess(store.tables, hosted=True, started_by="bench")
            game = store.scoped(access.id).new_game(SETUP)
            table = Table(access.id, game.id, access.join_code)
            for seat in range(4):
                port = ports[(number + seat) % processes]
                address = f"127.0.{len(made) // 60 + 1}.{4 * (len(made) % 60) + seat + 2}"
                device = Device(port, {STORED_CODE: table.join}, address)
                device.register(f"/game/{game.id}")
                table.devices.append(device)
                table.ports.append(port)
            for device, name, colour in zip(table.devices, NAMES, SEATS, strict=True):
                _seat(device, name, _seated(store, table, colour))
            made.append(table)
        time.sleep(1.0)
        rss = sum(_rss_kib(server.pid) for server in servers)
        cpu_before = sum(_cpu_s(server.pid) for server in servers)
        latencies: list[float] = []
        lost = errors = records = 0
        back: list[float] = []
        started = time.monotonic()
        killed = False
        due = {table.id: started + rng.expovariate(1 / PACE_S) for table in made}
        while time.monotonic() - started < seconds:
            if kill_one and not killed and time.monotonic() - started >= seconds / 2:
                # What the killed process spent counts, though its process is gone.
                cpu_before -= _cpu_s(servers[0].pid)
                back = _kill_one(servers, ports, made)
                killed = True
            table = min(made, key=lambda t: due[t.id])
            time.sleep(max(0.0, due[table.id] - time.monotonic()))
            burst = BURST_RECORDS if rng.randrange(BURST) == 0 else 1
            for _ in range(burst):
                saved = store.load(table.game_id)
                legal = saved.state.legal_commands()
                if saved.state.is_terminal or not legal:
                    break
                try:
                    saved = store.append(table.game_id, rng.choice(legal), saved.revision)
                except StoreError:
                    errors += 1
                    continue
                at = time.monotonic()
                bus.publish(game_topic(table.game_id), saved.revision)
                records += 1
                for device in table.devices:
                    first = _first_after(device, at)
                    if first is None:
                        lost += 1
                    else:
                        latencies.append(first - at)
                time.sleep(BURST_GAP_S)
            due[table.id] = time.monotonic() + rng.expovariate(1 / PACE_S)
        if kill_one and not killed:
            # The run ended within a table's pause past half time: the kill comes now.
            cpu_before -= _cpu_s(servers[0].pid)
            back = _kill_one(servers, ports, made)
        cpu = sum(_cpu_s(server.pid) for server in servers) - cpu_before
        devices = 4 * tables
        ordered = sorted(latencies)
        return {
            "tables": tables,
            "processes": processes,
            "devices": devices,
            "records": records,
            "update_p50_ms": round(1000 * statistics.median(ordered), 1) if ordered else None,
            "update_p99_ms": (
                round(1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 1)
                if ordered
                else None
            ),
            "updates_missed": lost,
            "errors": errors,
            "memory_per_device_kib": round((rss - base_rss) / devices) if devices else None,
            "server_cpu_ms_per_record": round(1000 * cpu / records, 1) if records else None,
            "killed_devices_back_s_max": round(max(back), 2) if back else None,
        }
    finally:
        for table in made:
            for device in table.devices:
                device.close()
            store.tables.remove(table.id)
        bus.close()
        store.close()
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()


def _kill_one(
    servers: list[subprocess.Popen[bytes]], ports: list[int], tables: list[Table]
) -> list[float]:
    """Kill the first process; each of its devices reaches the next one: their times back."""
    servers[0].send_signal(signal.SIGKILL)
    servers[0].wait()
    killed = time.monotonic()
    moved: list[tuple[Device, str]] = []
    for table in tables:
        for index, device in enumerate(table.devices):
            if table.ports[index] == ports[0]:
                device.reconnect(ports[1], f"/game/{table.game_id}")
                table.ports[index] = ports[1]
                moved.append((device, NAMES[index]))
    back: list[float] = []
    for device, name in moved:
        if _shown(device, name, killed):
            back.append(time.monotonic() - killed)
    return back


def _first_after(device: Device, at: float) -> float | None:
    """When `device` was first sent something after `at` (None: not within the timeout)."""
    device.wait(lambda: device.first_after(at) is not None, UPDATE_TIMEOUT_S)
    return device.first_after(at)


def _shown(device: Device, name: str, since: float) -> bool:
    """Whether `device` was sent `name` after `since` (within 30 s)."""
    return device.wait(lambda: device.shows(name, since), 30)
