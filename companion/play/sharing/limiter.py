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

    def attempt(self, client: str, counts: bool = True) -> float:
        """Seconds `client` must wait before this try is heard; 0 when it is heard now,
        and then counted if `counts` (a wrong code, a connection)."""
        with self._lock:
            failures = self._recent(client)
            if len(failures) >= self.tries:
                return max(0.0, failures[0] + self.window_s - self.clock())
            if counts:
                failures.append(self.clock())
                self._failures[client] = failures
            return 0.0

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

    def attempt(self, client: str, counts: bool = True) -> float:
        """Seconds `client` must wait before this try is heard; 0 when it is heard now, and
        then counted if `counts`: one step, so two tries at once are told apart."""
        ...


class StoredTries:
    """A TryLimiter whose counts are in the database: they hold on every server process
    sharing it, so a guesser cannot try again on another process."""

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

    def attempt(self, client: str, counts: bool = True) -> float:
        """Seconds `client` must wait before this try is heard; 0 when it is heard now, and
        then counted if `counts`. The count and the try are one transaction holding the
        client's lock (TableRecords.attempt): tries racing on two processes are counted one
        after the other, and none passes the limit."""
        return self.records.attempt(
            self.kind, client, self.clock(), self.window_s, self.tries, counts
        )
