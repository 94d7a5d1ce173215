"""Each client address's share of a process: what its pages' work costs, paid from an account.

Every page's events run on the server's one event loop, so what one address's pages make the
server do (a screen built, a game imported, a tap recorded) is time no other table gets.
Counting frames bounds how often, not what each costs: four sockets of one device asking
for a 5,000-record log screen four times a second once made another table's taps take up to
10 s. So the work done for a connection's events is metered, as CPU time of the loop's
thread, and paid from its address's account (`Account`): it refills at `share` of what the
process gets of a core (`Capacity`: all of it on an idle machine, less when other programs
keep the machine's cores busy, so a stranger's share shrinks with what is left for the
tables) and holds at most `burst` seconds. While an address's account is overdrawn, its connections'
frames wait unread (companion/app/wire.py), however many it opens; what others send is read
as ever. A file's bytes (an import) are priced as they arrive, by their size, before the
work they start is metered.

The metering is a task factory on the loop (`metered_tasks`): a task started while a
connection's event is handled (Flet starts one per event) carries that connection's account
in its context, and each of its steps is timed and charged to it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Generator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Share:
    """What one address may take of a process: `share` of a core, and `burst` seconds at once."""

    share: float = 0.25
    burst: float = 2.0
    # An imported file's bytes, priced as they arrive: about what reading the largest log a
    # game may hold (2.7 MiB) costs here, per byte.
    file_s_per_byte: float = 1.0 / (1024 * 1024)


class Capacity:
    """The part of a core the event loop's thread gets while it has work: the time it ran
    over the time it ran or waited for a core, read from Linux's scheduler statistics of the
    thread that asks (the loop's) at most every `every` seconds; 1.0 where there are none,
    and over a stretch in which the thread hardly asked for a core (an idle loop)."""

    PATH = "/proc/thread-self/schedstat"
    # Less than this of running and waiting in a stretch says nothing of the machine.
    BUSY_S = 0.01
    # Never less than this part of a core: an account always refills.
    LEAST = 0.1

    def __init__(self, every: float = 0.5, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.value = 1.0
        self._stamp = clock()
        # Read first by the loop's thread, whose statistics these are.
        self._seen: tuple[int, int] | None = None
        self._looked = False

    def _read(self) -> tuple[int, int] | None:
        try:
            with open(self.PATH, encoding="ascii") as stat:
                ran, waited = stat.read().split()[:2]
            return int(ran), int(waited)
        except (OSError, ValueError):
            return None

    def __call__(self) -> float:
        """The part of a core the loop's thread got over the latest stretch."""
        now = self.clock()
        if self._looked and now - self._stamp < self.every:
            return self.value
        seen = self._read()
        if seen is not None and self._seen is not None:
            ran, waited = seen[0] - self._seen[0], seen[1] - self._seen[1]
            busy = ran + waited
            got = ran / busy if busy >= self.BUSY_S * 1e9 else 1.0
            self.value = min(1.0, max(self.LEAST, got))
        self._stamp, self._seen, self._looked = now, seen, True
        return self.value


def whole() -> float:
    """All of a core (an account that does not look at the machine)."""
    return 1.0


class Account:
    """One address's CPU seconds: spent by its pages' work, refilled at its share of what
    the process gets (`capacity`)."""

    def __init__(
        self,
        share: Share,
        clock: Callable[[], float] = time.monotonic,
        capacity: Callable[[], float] = whole,
    ) -> None:
        self.share = share
        self.clock = clock
        self.capacity = capacity
        self.balance = share.burst
        self.stamp = clock()

    def _rate(self) -> float:
        return self.share.share * self.capacity()

    def _refill(self) -> None:
        now = self.clock()
        self.balance = min(self.share.burst, self.balance + (now - self.stamp) * self._rate())
        self.stamp = now

    def charge(self, seconds: float) -> None:
        """Pay for `seconds` of the process's time."""
        self._refill()
        self.balance -= seconds

    def wait(self) -> float:
        """Seconds until the account is no longer overdrawn (0: now)."""
        self._refill()
        return max(0.0, -self.balance / self._rate())

    @property
    def full(self) -> bool:
        """Whether it holds all it may (an address that asked nothing for a while)."""
        self._refill()
        return self.balance >= self.share.burst


class Accounts:
    """The accounts of a process's client addresses."""

    # Past this many, the full ones are forgotten (a new account starts full anyway).
    KEPT = 4096

    def __init__(
        self, share: Share | None = None, capacity: Callable[[], float] | None = None
    ) -> None:
        self.share = share or Share()
        # One look at the machine for every account of the process.
        self.capacity = capacity or Capacity()
        self._of: dict[str, Account] = {}

    def of(self, client: str) -> Account:
        """The account of `client` (an address, as `client_key` says)."""
        account = self._of.get(client)
        if account is None:
            if len(self._of) >= self.KEPT:
                self._of = {key: kept for key, kept in self._of.items() if not kept.full}
            account = self._of[client] = Account(self.share, capacity=self.capacity)
        return account


# The account the running task's work is charged to (None: the server's own work).
PAYER: ContextVar[Account | None] = ContextVar("companion_payer", default=None)


class _Metered(Coroutine[Any, Any, Any]):
    """A coroutine whose every step's CPU time is charged to an account."""

    def __init__(self, coro: Coroutine[Any, Any, Any], account: Account) -> None:
        self._coro = coro
        self._account = account

    def send(self, value: Any) -> Any:
        started = time.thread_time()
        try:
            return self._coro.send(value)
        finally:
            self._account.charge(time.thread_time() - started)

    def throw(self, *error: Any) -> Any:
        started = time.thread_time()
        try:
            return self._coro.throw(*error)
        finally:
            self._account.charge(time.thread_time() - started)

    def close(self) -> None:
        self._coro.close()

    def __await__(self) -> Generator[Any, None, Any]:
        return self._coro.__await__()

    def __getattr__(self, name: str) -> Any:
        # What asyncio reads of a coroutine for its names and reprs (cr_frame, __qualname__).
        return getattr(self._coro, name)


def metered_tasks(loop: asyncio.AbstractEventLoop) -> None:
    """Charge every task started on `loop` under an account (`PAYER`) to that account."""
    if getattr(loop.get_task_factory(), "metering", False):
        return

    def factory(
        loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **options: Any
    ) -> asyncio.Task[Any]:
        context = options.get("context")
        account = context.get(PAYER) if context is not None else PAYER.get()
        if account is not None:
            coro = _Metered(coro, account)
        return asyncio.Task(coro, loop=loop, **options)

    factory.metering = True  # type: ignore[attr-defined]
    loop.set_task_factory(factory)  # type: ignore[arg-type]
