"""One table of the load: four devices seated over Flet's websocket protocol, tapping their
turn cards at a human pace, each tap timed until the other devices' screens change."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

from websockets.exceptions import ConnectionClosed

from companion.app.kept import STORED_CODE, STORED_DEVICE
from companion.language.render import render
from companion.load.client import AsyncPage
from companion.load.servers import LoadError
from companion.play.session import GameSession
from companion.play.sharing.access import TableAccess
from companion.play.table_turn import turn_view
from companion.store.store import Store
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


def seated_line(name: str) -> str:
    """What a device's table screen says once it sits as `name` (en-app.po)."""
    return f"This device records {name}'s turns."


def _address(table: int, seat: int) -> str:
    """The address a device connects from: one of its own in 127.0.0.0/8, as phones have."""
    return f"127.{1 + table // 60}.{table % 60 + 1}.{seat + 2}"


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
        await _answered(page, await page.click(control), seated_line(name))
    if not await page.wait(lambda: page.shows(seated_line(name)), 30):
        raise LoadError("a seated device was not shown its table screen")


async def _answered(page: AsyncPage, at: float, words: str) -> None:
    """Give `page` a second to show `words` after `at`."""
    await page.wait(lambda: page.shows(words, at), 1.0)


async def open_table(
    store: Store, number: int, ports: list[int], limit: asyncio.Semaphore
) -> Table:
    """Make table `number` and its game, open its four pages (spread over `ports`) and seat
    them, at most `limit` tables at once."""
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


def settle(table: Table) -> None:
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
    settle(table)
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


async def play(store: Store, table: Table, rng: random.Random, tally: Tally, until: float) -> None:
    """Tap at a human pace with bursts until `until`, or until the table screen is done."""
    while True:
        await asyncio.sleep(rng.expovariate(1 / PACE_S))
        for _ in range(BURST_TAPS if rng.randrange(BURST) == 0 else 1):
            if time.monotonic() >= until:
                return
            if not await _tap(store, table, rng, tally):
                return
            await asyncio.sleep(BURST_GAP_S)


async def come_back(table: Table, index: int, port: int, killed: float, tally: Tally) -> None:
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
    if await page.wait(lambda: page.shows(seated_line(NAMES[index]), killed), 30):
        tally.back.append(time.monotonic() - killed)
    table.ports[index] = port
    table.away.discard(index)
