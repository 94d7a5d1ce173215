"""One address's weight against a hosted process (`bench hostile N`).

While N tables play on one `--hosted` server process as `bench tables` plays them
(companion/load/tables.py), one more address, a stranger's, runs every heavy thing the
limits let one address do against the same process, all at once and for as long:

- importers: pages on Home sending the largest game log a file may hold (5,327
  corrections, 2.7 MiB, read as Flet's file picker sends a picked file) again and again;
- heavy routes: pages switching between that game's log and its table screen as fast as
  they are let;
- slow readers: pages that ask for that log and never read what they are sent, opened again
  once dropped;
- a route flood: pages sending route changes as fast as their socket takes them.

It reports the playing tables' tap-to-other-device latency (p50, p95, p99), how far the
process's memory rose above where it was once the tables sat down (sampled every half
second), and what became of the stranger's work.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.app.kept import STORED_CODE
from companion.load.client import AsyncPage
from companion.load.frames import EVENT, UPDATE, frame
from companion.load.servers import LoadError, collector_held, cpu_s, free_port, rss_kib, serve
from companion.load.table import SEATING, Table, Tally, open_table, play, seated_line
from companion.load.tables import percentile_ms
from companion.play.sharing.access import TableAccess
from companion.store.store import Store, open_store
from models.game_log import GameLog
from models.game_size import most_records

# The stranger's address, and its pages of each kind (32 at once is an address's most).
STRANGER = "127.250.0.1"
IMPORTERS = 4
HEAVY = 8
SLOW = 8
FLOOD = 8
# The seat the stranger's device takes in its game (a seat may see the game's log).
SEAT = "Player 0"
# Characters of each correction's reason in the largest log: its file stays under 3 MiB.
REASON_CHARS = 100


def largest_log(rng: random.Random | None = None) -> bytes:
    """The largest game log a file may hold that a store imports: 4 players, 7 rounds, as
    many corrections as such a game may record, each with a reason of 4-byte characters;
    with `rng`, of CJK characters drawn at random, which the database cannot compress."""

    def reason() -> str:
        if rng is None:
            return "\U0001f600" * REASON_CHARS
        return "".join(chr(rng.randrange(0x4E00, 0x9FA0)) for _ in range(REASON_CHARS))

    players = [{"id": f"p{n}", "name": f"Player {n}"} for n in range(4)]
    commands = [
        {
            "type": "correction",
            "player": "p0",
            "delta": -5 if n % 2 == 0 else 5,
            "reason": reason(),
        }
        for n in range(most_records(4, 7))
    ]
    data = {
        "format": "summoners-isle-game",
        "version": 2,
        "setup": {"players": players, "board": "gathering-isle", "final_round": 7},
        "commands": commands,
    }
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode()


@dataclass
class Stranger:
    """What the stranger's pages did."""

    imports_sent: int = 0
    routes_sent: int = 0
    slow_opened: int = 0
    slow_dropped: int = 0
    closed: int = 0
    not_opened: int = 0


class StrangerPage(AsyncPage):
    """A page of the stranger's: it asks for routes, sends files, and may stop reading."""

    def route(self, route: str) -> None:
        """Ask for another address (as the browser's address bar does), without waiting."""
        assert self._socket is not None and self.page_id is not None
        props = {"id": self.page_id, "props": {"route": route}}
        data = {"target": self.page_id, "name": "route_change", "data": {"route": route}}
        sending = asyncio.gather(
            self._socket.send(frame(UPDATE, props)), self._socket.send(frame(EVENT, data))
        )
        sending.add_done_callback(lambda done: done.exception())

    async def send_file(self, name: str, data: bytes) -> bool:
        """Send a picked file's bytes to the page's file picker; False if it has none."""
        picker = next(
            (c["_i"] for c in self.screen._controls.values() if c.get("_c") == "FilePicker"),
            None,
        )
        if picker is None or self._socket is None:
            return False
        files = [{"id": 0, "name": name, "size": len(data), "bytes": data}]
        body = {"target": picker, "name": "result", "data": {"files": files}}
        await self._socket.send(frame(EVENT, body))
        return True

    def stop_reading(self) -> None:
        """Read nothing more: what the server sends stays in the socket."""
        if self._reader is not None:
            self._reader.cancel()


async def _opened(
    kept: dict[str, Any], port: int, route: str, ready: str, seen: Stranger
) -> StrangerPage | None:
    """A stranger's page showing `ready` (`kept`: what its device's browser keeps); None
    (counted) if the server would not open it or show it within 30 s (its address past a
    limit, its account overdrawn)."""
    page = StrangerPage(kept, STRANGER)
    try:
        await page.open(port, route)
        if await page.wait(lambda: page.shows(ready), 30):
            kept.update(page.kept)
            return page
    except Exception:  # refused at the handshake, or closed while opening
        pass
    seen.not_opened += 1
    with contextlib.suppress(Exception):
        await asyncio.wait_for(page.close(), 2)
    await asyncio.sleep(1.0)
    return None


async def _importer(
    kept: dict[str, Any], port: int, data: bytes, until: float, seen: Stranger
) -> None:
    while time.monotonic() < until:
        page = await _opened(kept, port, "/", "Import a game", seen)
        if page is None:
            continue
        while time.monotonic() < until and not page.closed.is_set():
            if not await page.send_file("big.json", data):
                break
            seen.imports_sent += 1
            # The next file once the server said what became of this one (or 30 s passed).
            await page.wait(_told(page, time.monotonic()), 30)
        seen.closed += page.closed.is_set()
        await page.close()


def _told(page: StrangerPage, at: float) -> Callable[[], bool]:
    """Whether the page was told what became of a file sent at `at`, or closed."""
    return lambda: page.shows("mport", at) or page.closed.is_set()


async def _heavy(kept: dict[str, Any], port: int, game: str, until: float, seen: Stranger) -> None:
    while time.monotonic() < until:
        page = await _opened(kept, port, f"/game/{game}/log", "Page 1 of", seen)
        if page is None:
            continue
        routes = [f"/game/{game}", f"/game/{game}/log"]
        while time.monotonic() < until and not page.closed.is_set():
            page.route(routes[seen.routes_sent % 2])
            seen.routes_sent += 1
            await asyncio.sleep(0.05)
        seen.closed += page.closed.is_set()
        await page.close()


async def _slow(kept: dict[str, Any], port: int, game: str, until: float, seen: Stranger) -> None:
    while time.monotonic() < until:
        page = await _opened(kept, port, f"/game/{game}/log", "Page 1 of", seen)
        if page is None:
            continue
        seen.slow_opened += 1
        page.stop_reading()
        routes = [f"/game/{game}", f"/game/{game}/log"]
        turns = 0
        while time.monotonic() < until:
            try:
                page.route(routes[turns % 2])
            except Exception:
                break
            turns += 1
            await asyncio.sleep(0.25)
            if page._socket is not None and page._socket.close_code is not None:
                seen.slow_dropped += 1
                break
        with contextlib.suppress(Exception):
            await asyncio.wait_for(page.close(), 2)


async def _flood(kept: dict[str, Any], port: int, until: float, seen: Stranger) -> None:
    while time.monotonic() < until:
        page = await _opened(kept, port, "/", "Import a game", seen)
        if page is None:
            continue
        routes = ["/history", "/"]
        while time.monotonic() < until and not page.closed.is_set():
            page.route(routes[seen.routes_sent % 2])
            seen.routes_sent += 1
            await asyncio.sleep(0.001)
        seen.closed += page.closed.is_set()
        await page.close()


async def _seated(join: str, port: int, game: str) -> dict[str, Any]:
    """What the browser of a stranger's device seated as SEAT in `game` keeps."""
    page = StrangerPage({STORED_CODE: join}, STRANGER)
    await page.open(port, f"/game/{game}")
    try:
        if not await page.wait(lambda: page.tappable(SEAT) is not None, 30):
            raise LoadError("the stranger's device was not shown its game's seats")
        at = await page.click(page.tappable(SEAT) or 0)
        if not await page.wait(lambda: page.shows(seated_line(SEAT), at), 30):
            raise LoadError("the stranger's device could not take its seat")
        return dict(page.kept)
    finally:
        await page.close()


async def _stranger(store: Store, port: int, until: float, seen: Stranger) -> list[Any]:
    """The stranger's table (its own, as anyone may start one) with the largest game in it,
    and its pages at work until `until`."""
    access = await asyncio.to_thread(TableAccess, store.tables, hosted=True, started_by=STRANGER)
    data = largest_log()
    log = GameLog.model_validate(json.loads(data))
    game = (await asyncio.to_thread(store.scoped(access.id).import_log, log)).id

    # Importers and floods are a device each; the log's readers are tabs of one device,
    # seated in the game (as its browser keeps its device id, each tab comes back to it).
    seated = await _seated(access.join_code, port, game)

    def kept() -> dict[str, Any]:
        return {STORED_CODE: access.join_code}

    work = [_importer(kept(), port, data, until, seen) for _ in range(IMPORTERS)]
    work += [_heavy(dict(seated), port, game, until, seen) for _ in range(HEAVY)]
    work += [_slow(dict(seated), port, game, until, seen) for _ in range(SLOW)]
    work += [_flood(kept(), port, until, seen) for _ in range(FLOOD)]
    results = await asyncio.gather(*work, return_exceptions=True)
    await asyncio.to_thread(store.tables.remove, access.id)
    return results


async def _watch_memory(pid: int, until: float, peak: list[int]) -> None:
    while time.monotonic() < until:
        peak[0] = max(peak[0], rss_kib(pid))
        await asyncio.sleep(0.5)


async def _hostile(db: str, tables: int, seconds: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    port = free_port()
    server = await asyncio.to_thread(
        serve, db, port, tempfile.mkdtemp(prefix="summoners-hostile-"), None
    )
    store = open_store(db)
    made: list[Table] = []
    try:
        limit = asyncio.Semaphore(SEATING)
        opened = await asyncio.gather(
            *(open_table(store, number, [port], limit) for number in range(tables)),
            return_exceptions=True,
        )
        made = [table for table in opened if isinstance(table, Table)]
        if len(made) < tables:
            raise LoadError(f"only {len(made)} of {tables} tables sat down")
        await asyncio.sleep(2.0)
        before = rss_kib(server.pid)
        seen, tally, peak = Stranger(), Tally(), [before]
        with collector_held():
            load_start = os.getloadavg()[0]
            cpu_start = cpu_s(server.pid)
            until = time.monotonic() + seconds
            stranger = asyncio.create_task(_stranger(store, port, until, seen))
            memory = asyncio.create_task(_watch_memory(server.pid, until, peak))
            await asyncio.gather(
                *(play(store, table, random.Random(rng.random()), tally, until) for table in made)
            )
            outcomes = await stranger
            await memory
            cpu = cpu_s(server.pid) - cpu_start
        failures = sorted({repr(error)[:120] for error in outcomes if error is not None})
        ordered = sorted(tally.latencies)
        return {
            "tables": len(made),
            "seconds": seconds,
            "taps": sum(table.sent for table in made),
            "update_p50_ms": round(1000 * statistics.median(ordered), 1) if ordered else None,
            "update_p95_ms": percentile_ms(ordered, 0.95),
            "update_p99_ms": percentile_ms(ordered, 0.99),
            "updates_missed": tally.missed,
            "server_cpu_share": round(cpu / seconds, 2),
            "memory_before_mib": round(before / 1024, 1),
            "memory_peak_mib": round(peak[0] / 1024, 1),
            "memory_rise_mib": round((peak[0] - before) / 1024, 1),
            "memory_after_mib": round(rss_kib(server.pid) / 1024, 1),
            "stranger_imports_sent": seen.imports_sent,
            "stranger_routes_sent": seen.routes_sent,
            "stranger_slow_readers": seen.slow_opened,
            "stranger_slow_readers_dropped": seen.slow_dropped,
            "stranger_pages_closed": seen.closed,
            "stranger_pages_not_opened": seen.not_opened,
            "stranger_failures": failures,
            "load_average": [round(load_start, 2), round(os.getloadavg()[0], 2)],
        }
    finally:
        await asyncio.gather(
            *(page.close() for table in made for page in table.pages), return_exceptions=True
        )
        for table in made:
            await asyncio.to_thread(store.tables.remove, table.id)
        store.close()
        server.terminate()
        try:
            await asyncio.to_thread(server.wait, 10)
        except Exception:
            server.kill()


def run_hostile_load(db: str, tables: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    """Serve `tables` tables of 4 devices from one process on the PostgreSQL database `db`
    while one more address runs every heavy thing it may against it for `seconds`; report
    the tables' latencies and the process's memory."""
    if not db.startswith("postgresql"):
        raise LoadError("bench hostile needs --db with a PostgreSQL URL (postgresql+psycopg://...)")
    return asyncio.run(_hostile(db, tables, seconds, seed))
