"""A hosted server under load (`bench tables N --processes P [--kill-one]`).

It starts P `app --web --hosted` server processes on one PostgreSQL database, opens N tables
of 4 devices each, every device a websocket speaking Flet's protocol as its web client does
(no browser, companion/load/client.py), seated as one player of its table's game, the
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
import os
import random
import signal
import statistics
import subprocess
import tempfile
import time
from contextlib import ExitStack
from typing import Any

from companion.load.proxy import ProxyError, nginx_in_front
from companion.load.servers import (
    LoadError,
    collector_held,
    cpu_s,
    free_port,
    rss_kib,
    serve,
)
from companion.load.table import SEATING, Table, Tally, come_back, open_table, play, settle
from companion.store.store import Store, open_store


def percentile_ms(ordered: list[float], share: float) -> float | None:
    """The value `share` of the way up sorted seconds, in milliseconds; None for none."""
    if not ordered:
        return None
    return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)


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
            come_back(table, index, back_to, killed, tally)
            for table in tables
            for index, port in enumerate(table.ports)
            if port == held
        )
    )


def _lost_and_doubled(store: Store, tables: list[Table]) -> tuple[int, int]:
    """Taps answered but not in the stored log, and taps stored more often than sent."""
    lost = doubled = 0
    for table in tables:
        settle(table)
        stored = len({entry.tap for entry in store.load(table.game_id).log})
        lost += max(0, table.acked - table.refused - stored)
        doubled += max(0, stored - table.sent)
    return lost, doubled


async def _load(
    db: str, tables: int, processes: int, seconds: float, kill_one: bool, seed: int, proxy: bool
) -> dict[str, Any]:
    rng = random.Random(seed)
    data = tempfile.mkdtemp(prefix="summoners-load-")
    ports = [free_port() for _ in range(processes)]
    front = free_port() if proxy else None
    servers = [await asyncio.to_thread(serve, db, port, data, front) for port in ports]
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
        base_rss = sum(rss_kib(server.pid) for server in servers)
        limit = asyncio.Semaphore(SEATING)
        opened = await asyncio.gather(
            *(open_table(store, number, entries, limit) for number in range(tables)),
            return_exceptions=True,
        )
        made = [table for table in opened if isinstance(table, Table)]
        failed = next((error for error in opened if isinstance(error, BaseException)), None)
        if failed is not None:
            raise LoadError(str(failed)) if not isinstance(failed, LoadError) else failed
        await asyncio.sleep(2.0)
        seated = [rss_kib(server.pid) for server in servers]
        rss = sum(seated)
        # Idle: every device connected and seated, nobody tapping.
        idle_before, idle_at = sum(cpu_s(server.pid) for server in servers), time.monotonic()
        await asyncio.sleep(5.0)
        idle_cpu = sum(cpu_s(server.pid) for server in servers) - idle_before
        idle_share = idle_cpu / (time.monotonic() - idle_at)
        with collector_held():
            load_start = os.getloadavg()[0]
            tally = Tally()
            cpu_before = sum(cpu_s(server.pid) for server in servers)
            own_before = time.process_time()
            started = time.monotonic()
            until = started + seconds
            plays = [
                asyncio.create_task(play(store, table, random.Random(rng.random()), tally, until))
                for table in made
            ]
            if kill_one:
                await asyncio.sleep(seconds / 2)
                # What the killed process spent counts, though its process is gone.
                cpu_before -= cpu_s(servers[0].pid)
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
            cpu = sum(cpu_s(server.pid) for server, _ in live) - cpu_before
            own_cpu = time.process_time() - own_before
            grown = sum(rss_kib(server.pid) - kib for server, kib in live)
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
            "update_p99_ms": percentile_ms(ordered, 0.99),
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
