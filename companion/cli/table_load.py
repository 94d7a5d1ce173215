"""A hosted server under load (`bench tables N --processes P [--kill-one]`).

It starts P `app --web --hosted` server processes on one PostgreSQL database, opens N tables
of 4 devices each, every device a websocket speaking Flet's protocol as its web client does
(no browser, companion/app/wire_client.py), seated as one player of its table's game, the
four spread over the processes. Then each table plays at a human pace with bursts: the
device whose turn it is taps a control of its turn card (a click event on its websocket, as
a phone sends), and the time until each other device's websocket receives its screen's
change is that tap's latency. A table's next tap waits for the four screens, as people do.

At the end every table's stored log is compared with the taps the devices saw acknowledged:
a tap recorded twice or not at all is counted. `--kill-one` kills one process at half time;
its devices reconnect as Flet's web client does (after half a second, doubling) to a live
process, as through a proxy, and the time until each is back on its screen and seat is
reported.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed

from companion.app.kept import STORED_CODE, STORED_DEVICE
from companion.app.wire_client import AsyncPage
from companion.cli.load_proxy import ProxyError, nginx_in_front
from companion.language.render import render
from companion.play.session import GameSession
from companion.play.sharing.access import TableAccess
from companion.play.table_turn import turn_view
from companion.store.store import Store, open_store
from models.setup import GameSetup

NAMES = ("Ragna", "Bjorn", "Cyra", "Dag")
SEATS = ("red", "blue", "green", "yellow")
SETUP = GameSetup(
    players=[{"id": colour, "name": name} for colour, name in zip(SEATS, NAMES, strict=True)],
    board="gathering-isle",
)
# A table taps about once every this many seconds; one tap in BURST starts a burst.
PACE_S = 4.0
BURST = 5
BURST_TAPS = 3
# A burst's next tap comes this long after the last screen showed the one before: past the
# tap guard's 0.35 s, as a person reading a new screen is (companion/play/tap_guard.py).
BURST_GAP_S = 0.5
# How long a device waits for its screen's change before the update counts as missed.
UPDATE_TIMEOUT_S = 5.0
# Flet's web client reconnects this long after its websocket closed, doubling each time.
RECONNECT_S = 0.5
# A page whose connection has not closed this long after the kill was on a live process.
CLOSED_WITHIN_S = 3.0
# Tables seated at once while the load is set up.
SEATING = 8


class LoadError(RuntimeError):
    """Why the load could not be run, in one sentence."""


@dataclass
class Table:
    """One table of the load: its game, its code, its four pages and the ports they reach."""

    id: str
    game_id: str
    join: str
    pages: list[AsyncPage] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    # Taps sent, taps the tapping device saw answered, and answered with a refusal.
    sent: int = 0
    acked: int = 0
    refused: int = 0
    # Set while a page of this table is away (its process killed, reconnecting).
    away: set[int] = field(default_factory=set)
    # When the last tap left, and which page sent it.
    last_tap: tuple[float, int] | None = None
    # The last tap answered, until it is known whether its answer was a refusal.
    unsettled: tuple[float, int] | None = None


@dataclass
class Tally:
    """What the whole load saw."""

    latencies: list[float] = field(default_factory=list)
    own: list[float] = field(default_factory=list)
    # What each other device received for a tap, until the next tap at its table.
    update_bytes: list[int] = field(default_factory=list)
    missed: int = 0
    errors: int = 0
    back: list[float] = field(default_factory=list)
    unanswered: int = 0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _serve(db: str, port: int, data: str, proxy: int | None) -> subprocess.Popen[bytes]:
    """A `--hosted` server process on `port`; behind the proxy on port `proxy`, if one."""
    public = f"http://127.0.0.1:{proxy or port}"
    trusted = ("--trusted-proxy", "127.0.0.1") if proxy else ()
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "companion", "app", "--web", "--hosted"),
            *("--public-url", public, *trusted),
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


def _seated_line(name: str) -> str:
    """What a device's table screen says once it sits as `name` (en-app.po)."""
    return f"This device records {name}'s turns."


def _address(table: int, seat: int) -> str:
    """The address a device connects from: one of its own in 127.0.0.0/8, as phones have."""
    return f"127.{1 + table // 60}.{table % 60 + 1}.{seat + 2}"


def _p(ordered: list[float], share: float) -> float | None:
    if not ordered:
        return None
    return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)


def _next_tap(store: Store, table: Table, rng: random.Random) -> tuple[int, str] | None:
    """Which device taps next and the words of the control it taps (its turn card's, as the
    app draws them in English), or None when the table screen has nothing to tap."""
    state = store.load(table.game_id).state
    player = state.current_player
    if player is None or state.is_terminal:
        return None
    seat = SEATS.index(player)
    session = GameSession(store, table.game_id, seat=lambda: player, seated=lambda: SEATS)
    card = turn_view(session)
    choices = [chip.tap.label for chip in card.removals if chip.tap.refused is None]
    for row in card.grid:
        choices += [square.label for square in row.squares if square.open and row.now]
    if card.swap is not None and card.swap.refused is None:
        choices.append(card.swap.label)
    done = card.done
    # A person ends their turn about as often as they do one more thing.
    if done is not None and done.refused is None and (not choices or rng.random() < 0.4):
        return seat, render(done.label)
    if not choices:
        return None
    return seat, render(rng.choice(choices))


async def _seat(store: Store, table: Table, index: int) -> None:
    """Take seat `index` on its page's seat screen; again while the store does not have it
    (a seat screen drawn anew as another device sits down has new controls)."""
    page, name = table.pages[index], NAMES[index]
    if not await page.wait(lambda: page.shows(name), 30):
        raise LoadError("a device was not shown its table's game")
    deadline = time.monotonic() + 30
    while True:
        device = str(page.kept.get(STORED_DEVICE, ""))
        seat = await asyncio.to_thread(store.tables.seat_of, table.id, table.game_id, device)
        if seat == SEATS[index]:
            break
        control = page.tappable(name)
        if time.monotonic() > deadline or control is None:
            raise LoadError("a device could not take its seat")
        await _answered(page, await page.click(control), _seated_line(name))
    if not await page.wait(lambda: page.shows(_seated_line(name)), 30):
        raise LoadError("a seated device was not shown its table screen")


async def _answered(page: AsyncPage, at: float, words: str) -> None:
    """Give `page` a second to show `words` after `at`."""
    await page.wait(lambda: page.shows(words, at), 1.0)


async def _open_table(
    store: Store, number: int, ports: list[int], limit: asyncio.Semaphore
) -> Table:
    async with limit:
        access = await asyncio.to_thread(TableAccess, store.tables, hosted=True, started_by="bench")
        game = await asyncio.to_thread(store.scoped(access.id).new_game, SETUP)
        table = Table(access.id, game.id, access.join_code)
        for seat in range(4):
            port = ports[(number + seat) % len(ports)]
            page = AsyncPage({STORED_CODE: table.join}, _address(number, seat))
            await page.open(port, f"/game/{game.id}")
            table.pages.append(page)
            table.ports.append(port)
        for seat in range(4):
            await _seat(store, table, seat)
        return table


def _settle(table: Table) -> None:
    """Count the table's last answered tap as refused if its device was told a refusal (a
    snack bar) since, on the same connection."""
    if table.unsettled is None:
        return
    at, index = table.unsettled
    page = table.pages[index]
    if page.opened_at < at and any(
        when > at and b"SnackBar" in raw for when, raw, _ in page.received
    ):
        table.refused += 1
    table.unsettled = None


async def _tap(store: Store, table: Table, rng: random.Random, tally: Tally) -> bool:
    """One tap at `table` and its four screens' changes; False when nothing is left to tap."""
    _settle(table)
    chosen = await asyncio.to_thread(_next_tap, store, table, rng)
    if chosen is None:
        return False
    index, words = chosen
    if index in table.away:
        return True
    page = table.pages[index]
    control = page.tappable(words)
    if control is None:
        tally.errors += 1
        return True
    _count_bytes(table, tally)
    try:
        at = await page.click(control)
    except ConnectionClosed:
        # Closed by a live server (a keepalive ping unanswered on a starved machine): an
        # error of the run, not the end of it.
        tally.errors += 1
        return True
    table.last_tap = (at, index)
    table.sent += 1
    pages = list(enumerate(table.pages))
    await asyncio.gather(*(_changed(seen, at) for other, seen in pages if other not in table.away))
    for other, seen in pages:
        first = seen.first_after(at)
        if seen.opened_at > at:
            # Its connection went (its process killed) after the tap: what came since is
            # a new page's screen, not this tap's answer.
            if other == index:
                tally.unanswered += 1
            continue
        if other == index:
            if first is None:
                tally.unanswered += 1
                continue
            table.acked += 1
            tally.own.append(first - at)
            # Whether it was refused shows by the table's next tap (on a busy server its
            # sentence may come after the other screens changed).
            table.unsettled = (at, index)
        elif other not in table.away:
            if first is None:
                tally.missed += 1
            else:
                tally.latencies.append(first - at)
    return True


def _count_bytes(table: Table, tally: Tally) -> None:
    """What each other device received since the table's last tap: that tap's update."""
    if table.last_tap is None:
        return
    at, index = table.last_tap
    for other, page in enumerate(table.pages):
        if other != index and other not in table.away and page.opened_at < at:
            tally.update_bytes.append(sum(len(raw) for when, raw, _ in page.received if when > at))


async def _changed(page: AsyncPage, at: float) -> bool:
    """Wait for `page`'s first message after `at`; whether one came in time."""
    return await page.wait(lambda: page.first_after(at) is not None, UPDATE_TIMEOUT_S)


async def _play(store: Store, table: Table, rng: random.Random, tally: Tally, until: float) -> None:
    """Tap at a human pace with bursts until `until`, or until the table screen is done."""
    while True:
        await asyncio.sleep(rng.expovariate(1 / PACE_S))
        for _ in range(BURST_TAPS if rng.randrange(BURST) == 0 else 1):
            if time.monotonic() >= until:
                return
            if not await _tap(store, table, rng, tally):
                return
            await asyncio.sleep(BURST_GAP_S)


async def _come_back(table: Table, index: int, port: int, killed: float, tally: Tally) -> None:
    """A page whose process died reconnects as Flet's client does, to a live process (or to
    the proxy, which sends it to one), and is timed until it is back on its table screen and
    seat. A page whose connection stays open (its process lives) is left alone."""
    page = table.pages[index]
    try:
        await asyncio.wait_for(page.closed.wait(), CLOSED_WITHIN_S)
    except TimeoutError:
        return
    table.away.add(index)
    wait = RECONNECT_S
    while True:
        await asyncio.sleep(wait)
        try:
            await page.open(port, f"/game/{table.game_id}")
            break
        except OSError:
            wait *= 2
    if await page.wait(lambda: page.shows(_seated_line(NAMES[index]), killed), 30):
        tally.back.append(time.monotonic() - killed)
    table.ports[index] = port
    table.away.discard(index)


async def _kill_one(
    servers: list[subprocess.Popen[bytes]],
    tables: list[Table],
    tally: Tally,
    held: int,
    back_to: int,
) -> None:
    """Kill the first process with SIGKILL; every page it served (of those that came in by
    port `held`: behind the proxy, all of them) comes back by port `back_to`."""
    servers[0].send_signal(signal.SIGKILL)
    await asyncio.to_thread(servers[0].wait)
    killed = time.monotonic()
    await asyncio.gather(
        *(
            _come_back(table, index, back_to, killed, tally)
            for table in tables
            for index, port in enumerate(table.ports)
            if port == held
        )
    )


@contextmanager
def _collector_held() -> Iterator[None]:
    """The load's own cycle collector held off while it times the servers: a pause of the
    load's event loop (400 pages' screens are about two million objects) would be counted
    as the servers' latency. What the load allocated before is frozen, after."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def _lost_and_doubled(store: Store, tables: list[Table]) -> tuple[int, int]:
    """Taps answered but not in the stored log, and taps stored more often than sent."""
    lost = doubled = 0
    for table in tables:
        _settle(table)
        stored = len({entry.tap for entry in store.load(table.game_id).log})
        lost += max(0, table.acked - table.refused - stored)
        doubled += max(0, stored - table.sent)
    return lost, doubled


async def _load(
    db: str, tables: int, processes: int, seconds: float, kill_one: bool, seed: int, proxy: bool
) -> dict[str, Any]:
    rng = random.Random(seed)
    data = tempfile.mkdtemp(prefix="summoners-load-")
    ports = [_free_port() for _ in range(processes)]
    front = _free_port() if proxy else None
    servers = [await asyncio.to_thread(_serve, db, port, data, front) for port in ports]
    with ExitStack() as stack:
        if front is not None:
            try:
                stack.enter_context(nginx_in_front(front, ports))
            except ProxyError as error:
                for server in servers:
                    server.kill()
                raise LoadError(str(error)) from None
        # The devices' way in: the proxy, else each process directly.
        entries = [front] if front is not None else ports
        return await _measure(db, servers, ports, entries, tables, seconds, kill_one, rng)


async def _measure(
    db: str,
    servers: list[subprocess.Popen[bytes]],
    ports: list[int],
    entries: list[int],
    tables: int,
    seconds: float,
    kill_one: bool,
    rng: random.Random,
) -> dict[str, Any]:
    store = open_store(db)
    made: list[Table] = []
    try:
        base_rss = sum(_rss_kib(server.pid) for server in servers)
        limit = asyncio.Semaphore(SEATING)
        opened = await asyncio.gather(
            *(_open_table(store, number, entries, limit) for number in range(tables)),
            return_exceptions=True,
        )
        made = [table for table in opened if isinstance(table, Table)]
        failed = next((error for error in opened if isinstance(error, BaseException)), None)
        if failed is not None:
            raise LoadError(str(failed)) if not isinstance(failed, LoadError) else failed
        await asyncio.sleep(2.0)
        seated = [_rss_kib(server.pid) for server in servers]
        rss = sum(seated)
        # Idle: every device connected and seated, nobody tapping.
        idle_before, idle_at = sum(_cpu_s(server.pid) for server in servers), time.monotonic()
        await asyncio.sleep(5.0)
        idle_cpu = sum(_cpu_s(server.pid) for server in servers) - idle_before
        idle_share = idle_cpu / (time.monotonic() - idle_at)
        with _collector_held():
            load_start = os.getloadavg()[0]
            tally = Tally()
            cpu_before = sum(_cpu_s(server.pid) for server in servers)
            own_before = time.process_time()
            started = time.monotonic()
            until = started + seconds
            plays = [
                asyncio.create_task(_play(store, table, random.Random(rng.random()), tally, until))
                for table in made
            ]
            if kill_one:
                await asyncio.sleep(seconds / 2)
                # What the killed process spent counts, though its process is gone.
                cpu_before -= _cpu_s(servers[0].pid)
                # Directly: the first process's pages come back to the last; behind the proxy,
                # every page that lost its connection comes back through the proxy.
                back_to = entries[0] if len(entries) == 1 else ports[-1]
                await _kill_one(servers, made, tally, entries[0], back_to)
            await asyncio.gather(*plays)
            live = [
                (server, kib)
                for server, kib in zip(servers, seated, strict=True)
                if server.poll() is None
            ]
            cpu = sum(_cpu_s(server.pid) for server, _ in live) - cpu_before
            own_cpu = time.process_time() - own_before
            grown = sum(_rss_kib(server.pid) - kib for server, kib in live)
        # Let the last answers land before the logs are read.
        await asyncio.sleep(1.0)
        lost, doubled = await asyncio.to_thread(_lost_and_doubled, store, made)
        sent = sum(table.sent for table in made)
        devices = 4 * len(made)
        ordered, own = sorted(tally.latencies), sorted(tally.own)
        return {
            "tables": len(made),
            "processes": len(servers),
            "behind_nginx": len(entries) == 1 and entries[0] not in ports,
            "devices": devices,
            "taps": sent,
            "taps_answered": sum(table.acked for table in made),
            "taps_refused": sum(table.refused for table in made),
            "taps_unanswered": tally.unanswered,
            "update_p50_ms": round(1000 * statistics.median(ordered), 1) if ordered else None,
            "update_p99_ms": _p(ordered, 0.99),
            "own_screen_p50_ms": round(1000 * statistics.median(own), 1) if own else None,
            "update_bytes_p50": (
                statistics.median(tally.update_bytes) if tally.update_bytes else None
            ),
            "updates_missed": tally.missed,
            "errors": tally.errors + sum(table.refused for table in made),
            "lost": lost,
            "doubled": doubled,
            "memory_per_device_kib": round((rss - base_rss) / devices) if devices else None,
            # What the servers' memory grew by while the tables played (kill-one: the live one).
            "memory_growth_in_play_kib": grown,
            "idle_server_cpu_percent": round(100 * idle_share, 1),
            "server_cpu_ms_per_tap": round(1000 * cpu / sent, 1) if sent else None,
            # The devices' side runs on the same machine: what it took of it.
            "load_cpu_ms_per_tap": round(1000 * own_cpu / sent, 1) if sent else None,
            "killed_devices_back": len(tally.back),
            "killed_devices_back_s_p50": (
                round(statistics.median(tally.back), 2) if tally.back else None
            ),
            "killed_devices_back_s_max": round(max(tally.back), 2) if tally.back else None,
            "load_average": [round(load_start, 2), round(os.getloadavg()[0], 2)],
        }
    finally:
        await asyncio.gather(
            *(page.close() for table in made for page in table.pages), return_exceptions=True
        )
        for table in made:
            await asyncio.to_thread(store.tables.remove, table.id)
        store.close()
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                await asyncio.to_thread(server.wait, 10)
            except subprocess.TimeoutExpired:
                server.kill()


def run_table_load(
    db: str,
    tables: int,
    processes: int,
    seconds: float,
    kill_one: bool,
    seed: int = 1,
    proxy: bool = False,
) -> dict[str, Any]:
    """Serve `tables` tables of 4 devices from `processes` processes on the PostgreSQL
    database `db`, tap at a human pace for `seconds`, and report latencies, taps lost or
    doubled, errors, memory and CPU."""
    if not db.startswith("postgresql"):
        raise LoadError("bench tables needs --db with a PostgreSQL URL (postgresql+psycopg://...)")
    if kill_one and processes < 2:
        raise LoadError("--kill-one needs at least 2 processes")
    return asyncio.run(_load(db, tables, processes, seconds, kill_one, seed, proxy))
