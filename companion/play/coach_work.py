"""The coach's work for the screens: win chances and reviews worked out off the pages' thread,
one at a time, and kept while the server runs. Plain Python.

Chances and reviews are derived data (docs/coach.md): a pure function of the records, the
budget and the seed, recomputable at will and never part of a game's log. A server keeps
the newest ones it worked out, by the game's records, so every page showing the same game
(a phone and a tablet at one table) asks once; a page that asks while the work is under way
waits for the same result. One worker process does it all: on a small machine the coach
never takes more than one core from the computers' turns and the pages, and never the
interpreter lock the pages are drawn under (an app bundle, which cannot spawn an
interpreter, works in a thread).
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
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


def ready() -> None:
    """Nothing: asked of a new worker so that it starts before the first real work."""


class CoachWork:
    """Chances and reviews worked out by one worker process (or thread, `processes=False`)
    and kept by their records' name; `work` given to `submit` is then picklable."""

    def __init__(self, kept: int = KEPT, *, processes: bool = True) -> None:
        self._kept = kept
        self._processes = processes
        self._lock = threading.Lock()
        self._results: OrderedDict[str, Future[object]] = OrderedDict()
        self._worker: Executor | None = None

    def _start(self) -> Executor:
        """The worker, started if it is not (again, if its process died)."""
        if self._worker is None:
            if self._processes:
                spawn = multiprocessing.get_context("spawn")
                self._worker = ProcessPoolExecutor(max_workers=1, mp_context=spawn)
            else:
                self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach")
        return self._worker

    def _run(self, work: Callable[[], Result]) -> Future[Result]:
        """`work` handed to the worker; a worker whose process died is replaced."""
        try:
            return self._start().submit(work)
        except BrokenProcessPool:
            self._worker = None
            return self._start().submit(work)

    def warm(self) -> None:
        """Start the worker now, so the first chances do not wait for it to start."""
        with self._lock:
            if self._worker is None:
                self._run(ready)

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
                future = self._run(work)
                self._results[key] = future
                while len(self._results) > self._kept:
                    self._results.popitem(last=False)
            self._results.move_to_end(key)
        return future  # type: ignore[return-value]

    async def result(self, key: str, work: Callable[[], Result]) -> Result:
        """`work`'s result (as `submit`), waited for; asked again once of a new worker if the
        process working on it died."""
        try:
            return await asyncio.wrap_future(self.submit(key, work))
        except BrokenProcessPool:
            with self._lock:
                broken, self._worker = self._worker, None
            if broken is not None:
                broken.shutdown(wait=False)
            return await asyncio.wrap_future(self.submit(key, work))

    async def chances(self, game_id: str, game: Game, records: Sequence[Command]) -> Chances:
        """The chances right after `records`, worked out off the caller's thread."""
        key = "chances/" + records_key(game_id, records)
        kept = tuple(records)
        return await self.result(key, partial(chances_after, game, kept))

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
        return await self.result(key, partial(review, game, kept, numbers=shown))

    def close(self) -> None:
        """Stop the worker once its work is done."""
        if self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)
