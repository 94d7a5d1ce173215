"""One look at the database for one drawing of a screen: each fact read once within it.

Drawing a shared table's game screen asked the database for the same table row five times,
the same game three or four times and the device's seat three times, from the parts of the
page that each need them (who may see the game, which screen, the seat line, the turn
card). A page coming back after its server process died draws its whole screen, and 200
come back at once to the process left (`bench tables 100 --kill-one`).

Within `one_look()` a read asked again is answered from what this look already read. A
write through the store ends the look's memory (whatever it wrote may change what was
read), so a look never answers with something its own thread has since changed. Another
process's write is seen by the next look, as it would be by the next read: a look lasts
for one synchronous drawing, never across an await.

The memory is the thread's own: the event loop's looks are not seen by the store's work in
other threads, nor theirs by it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

_thread = threading.local()


@contextmanager
def one_look() -> Iterator[None]:
    """Within this block, on this thread, read each fact once (an inner block joins the outer)."""
    if getattr(_thread, "read", None) is not None:
        yield
        return
    _thread.read = {}
    try:
        yield
    finally:
        _thread.read = None


def looking() -> bool:
    """Whether this thread is within a look."""
    return getattr(_thread, "read", None) is not None


def looked(key: Hashable, read: Callable[[], T]) -> T:
    """What `read()` gives, read once per look (every time outside one)."""
    memory: dict[Hashable, object] | None = getattr(_thread, "read", None)
    if memory is None:
        return read()
    if key not in memory:
        memory[key] = read()
    return memory[key]  # type: ignore[return-value]


def seen(key: Hashable, value: object) -> None:
    """`value` was read along with something else: a look asked for it has it."""
    memory: dict[Hashable, object] | None = getattr(_thread, "read", None)
    if memory is not None:
        memory[key] = value


def written() -> None:
    """This thread wrote to the database: the look reads anew from here on."""
    memory: dict[Hashable, object] | None = getattr(_thread, "read", None)
    if memory:
        memory.clear()
