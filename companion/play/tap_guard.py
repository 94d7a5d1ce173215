"""One tap, one record: a finger's second tap, or a tap on a screen that just changed under it,
records nothing.

A screen that redraws after a tap puts its next control where the finger is: a double tap's
second half would land on "Cy: done with Wyrms" right after "Bob: done with Wyrms" recorded.
The same happens when another phone's record redraws a screen under a finger already moving.
So a screen asks its guard before each tap is sent:

- a tap less than `GUARD_S` after this device sent one is the second half of a double tap: it
  is dropped (the first tap's outcome is what the person sees), whichever drawing it landed
  on and whatever control is there now. The first tap changed the screen, and nobody decides
  on a new screen that fast: "Nobody summons more" tapped twice must not also record "Bob:
  done with Wyrms", drawn where it was when the Actions phase began;
- a tap less than `GUARD_S` after another device's change redrew the screen may have been
  aimed at what was there before: it is refused with a sentence, to tap again if meant.

`GUARD_S` comes from measuring double taps in Chromium (docs/app.md, "One tap, one record").
A web page tells a double tap from two taps itself, by the times the phone gave its pointer
events (companion/app/web_page.py): the server only learns when each tap arrived, and a
slow phone sends a double tap's halves late, or two deliberate taps close together. Its
guard leaves double taps to the page (`doubles=False`).
No Flet here: the screens hold a guard each and the tests drive it with a clock of their own.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from enum import Enum

GUARD_S = 0.35


class Verdict(Enum):
    """What becomes of a tap."""

    SEND = "send"
    # The second tap of a double tap: nothing is recorded, nothing is said.
    DOUBLE = "double"
    # Another device's change redrew the screen just before the tap: nothing is recorded, and
    # the person is told.
    CHANGED = "changed"


class TapGuard:
    """Decides, per device and screen, whether a tap goes through (thread-safe)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        guard_s: float = GUARD_S,
        *,
        doubles: bool = True,
    ) -> None:
        self.clock = clock
        self.guard_s = guard_s
        # Whether a tap soon after this device's last is dropped as a double tap's second half.
        self.doubles = doubles
        self._lock = threading.Lock()
        self._changed_at = float("-inf")
        self._sent_at = float("-inf")

    def changed_elsewhere(self) -> None:
        """Another device's change redrew the screen now."""
        with self._lock:
            self._changed_at = self.clock()

    def tap(self, current: bool = True) -> Verdict:
        """A tap: whether to send it; a sent tap starts the guard time.

        `current` is False for a tap on a drawing the screen has since replaced (the record
        refuses that one itself, saying what the game moved on to), or on a target another
        device's change cannot re-aim.
        """
        with self._lock:
            now = self.clock()
            if self.doubles and now - self._sent_at < self.guard_s:
                return Verdict.DOUBLE
            if current and now - self._changed_at < self.guard_s:
                return Verdict.CHANGED
            self._sent_at = now
            return Verdict.SEND

    def settled(self) -> None:
        """The tap sent last has been recorded and shown: the guard time runs from now.

        On a busy server a tap's work can outlast the guard time; a double tap's second
        half, waiting its turn meanwhile, would otherwise arrive as a new tap.
        """
        with self._lock:
            self._sent_at = self.clock()
