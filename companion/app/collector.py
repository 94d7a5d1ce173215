"""Python's cycle collector set for a web server whose pages keep many controls.

A full collection walks every object the process holds, and each page served keeps about
five thousand (its screen's Flet controls and their bookkeeping): at 200 pages a process
holds about a million and a full collection stops its event loop for 0.4 to 0.7 s, during
which no page of that process is answered. With CPython's default thresholds one came
every 10 to 20 seconds at 100 tables, and they made the slowest updates (docs/hosting.md,
"Pauses of the cycle collector").

Two changes keep the young collections short and make the full ones rare:
- what the server loaded before its first page (modules, classes, the rules' tables, the
  messages) is moved out of the collector's sight, as it lives as long as the process;
- a young collection waits for 10,000 new objects rather than 700, so what a tap makes
  and drops within the tap (messages, patches, rows read) is freed by its reference count
  before a collection could promote it to an older generation; and a full collection
  waits for 100 collections of the middle generation rather than 10 (CPython still also
  waits until the old generation grew by a quarter).
"""

from __future__ import annotations

import gc

# Objects allocated (less those freed) before a young collection; CPython's default is 700.
YOUNG = 10_000
# Young collections before a middle one (CPython's default, kept).
MIDDLE = 10
# Middle collections before a full one may run; CPython's default is 10.
FULL = 100


def tune_for_serving() -> None:
    """Freeze what is loaded so far and set the thresholds for a server's lifetime."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, FULL)
