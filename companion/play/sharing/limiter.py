"""At most a few wrong tries a minute from each client: a code cannot be guessed by trying."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

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
