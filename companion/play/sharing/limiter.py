"""At most a few wrong tries a minute from each client: a code cannot be guessed by trying."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

from companion.store.tables import TableRecords

TRIES = 5
WINDOW_S = 60.0


class TryLimiter:
    """Counts each client's wrong tries over a sliding window; past the limit, every try waits."""

    def __init__(
        self,
        tries: int = TRIES,
        window_s: float = WINDOW_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.tries = tries
        self.window_s = window_s
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def wait_s(self, client: str) -> float:
        """Seconds before `client` may try again; 0 when it may try now."""
        with self._lock:
            failures = self._recent(client)
            if len(failures) < self.tries:
                return 0.0
            return max(0.0, failures[0] + self.window_s - self.clock())

    def failed(self, client: str) -> None:
        """Count one wrong try from `client`."""
        with self._lock:
            failures = self._recent(client)
            failures.append(self.clock())
            self._failures[client] = failures

    def _recent(self, client: str) -> deque[float]:
        """The client's wrong tries still inside the window; a client with none is forgotten."""
        failures = self._failures.pop(client, deque())
        cutoff = self.clock() - self.window_s
        while failures and failures[0] <= cutoff:
            failures.popleft()
        if failures:
            self._failures[client] = failures
        return failures


class Limiter(Protocol):
    """Counts a client's tries and says how long it must wait (TryLimiter, StoredTries)."""

    def wait_s(self, client: str) -> float:
        """Seconds before `client` may try again; 0 when it may try now."""
        ...

    def failed(self, client: str) -> None:
        """Count one try from `client`."""
        ...


class StoredTries:
    """A TryLimiter whose counts are in the database: they hold on every server process
    sharing it (issue 22), so a guesser cannot try again on another process."""

    def __init__(
        self,
        records: TableRecords,
        kind: str,
        tries: int = TRIES,
        window_s: float = WINDOW_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.records = records
        self.kind = kind
        self.tries = tries
        self.window_s = window_s
        self.clock = clock

    def wait_s(self, client: str) -> float:
        """Seconds before `client` may try again; 0 when it may try now."""
        now = self.clock()
        recent = self.records.tries(self.kind, client, now - self.window_s)
        if len(recent) < self.tries:
            return 0.0
        return max(0.0, recent[-self.tries] + self.window_s - now)

    def failed(self, client: str) -> None:
        """Count one try from `client`."""
        self.records.tried(self.kind, client, self.clock())
