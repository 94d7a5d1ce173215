"""The coach's work for the screens: win chances and reviews worked out off the pages' thread,
one at a time, and kept while the server runs. Plain Python.

Chances and reviews are derived data (docs/coach.md): a pure function of the records, the
budget and the seed, recomputable at will and never part of a game's log. A server keeps
the newest ones it worked out, by the game's records, so every page showing the same game
(a phone and a tablet at one table) asks once; a page that asks while the work is under way
waits for the same result. One worker thread does it all: on a small machine the coach
never takes more than one core from the computers' turns and the pages.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from companion.coach import Chances, Review, review
from companion.coach.chances import Estimator
from companion.engine import Game
from companion.engine.replay import replay
from models.commands import Command, EnergyAndReset

# How many results a server keeps (the oldest asked for goes first).
KEPT = 64
Result = TypeVar("Result")


def records_key(game_id: str, records: Sequence[Command]) -> str:
    """A name for a game's records as they are: the same records, the same name."""
    digest = hashlib.sha256()
    for record in records:
        digest.update(repr(record).encode())
        digest.update(b"\n")
    return f"{game_id}/{len(records)}/{digest.hexdigest()[:16]}"


def last_reset(records: Sequence[Command]) -> int | None:
    """The moment right after the newest Energy and Reset (as a record count), if any."""
    for index in range(len(records), 0, -1):
        if isinstance(records[index - 1], EnergyAndReset):
            return index
    return None


def chances_after(game: Game, records: Sequence[Command], seed: int = 0) -> Chances:
    """Every player's chance right after these records (a table game: after its reset)."""
    return Estimator(seed).chances(replay(game, records))


class CoachWork:
    """Chances and reviews worked out by one thread and kept by their records' name."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._lock = threading.Lock()
        self._results: OrderedDict[str, Future[object]] = OrderedDict()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach")

    def known(self, key: str) -> object | None:
        """A result already worked out, if any (no waiting)."""
        with self._lock:
            future = self._results.get(key)
        if future is None or not future.done() or future.exception() is not None:
            return None
        return future.result()

    def submit(self, key: str, work: Callable[[], Result]) -> Future[Result]:
        """The future of `work`'s result: the one under way or kept for `key`, else started."""
        with self._lock:
            future = self._results.get(key)
            if future is None or (future.done() and future.exception() is not None):
                future = self._worker.submit(work)
                self._results[key] = future
                while len(self._results) > self._kept:
                    self._results.popitem(last=False)
            self._results.move_to_end(key)
        return future  # type: ignore[return-value]

    async def chances(self, game_id: str, game: Game, records: Sequence[Command]) -> Chances:
        """The chances right after `records`, worked out off the caller's thread."""
        key = "chances/" + records_key(game_id, records)
        kept = tuple(records)
        return await asyncio.wrap_future(self.submit(key, lambda: chances_after(game, kept)))

    async def review(
        self,
        game_id: str,
        game: Game,
        records: Sequence[Command],
        numbers: Sequence[int] | None = None,
    ) -> Review:
        """The game's review, worked out off the caller's thread; `numbers` are the records'
        numbers in the game's log (default 1, 2, ...)."""
        kept = tuple(records)
        shown = tuple(numbers) if numbers is not None else tuple(range(1, len(kept) + 1))
        key = "review/" + records_key(game_id, records) + "/" + ",".join(map(str, shown))
        return await asyncio.wrap_future(
            self.submit(key, lambda: review(game, kept, numbers=shown))
        )

    def close(self) -> None:
        """Stop the worker once its work is done."""
        self._worker.shutdown(wait=False, cancel_futures=True)
