"""What the bus hears for a server's pages runs on their loop, in the order heard, a batch at a
time from one look at the store (companion/app/page_bus.py)."""

from __future__ import annotations

import asyncio
import logging
import threading

from companion.app.page_bus import _deliveries
from companion.store.one_look import looked


def test_heard_notices_run_on_the_loop_in_order_from_one_look(caplog):
    reads: list[str] = []
    ran: list[tuple[object, bool]] = []

    def deliver(value: object) -> None:
        # Every page shown asks for its game's seats; the batch asks the database once.
        looked("seats", lambda: reads.append("seats"))
        if value == "broken":
            raise RuntimeError("a page's screen failed")
        ran.append((value, threading.current_thread() is threading.main_thread()))

    async def main() -> None:
        deliveries = _deliveries(asyncio.get_running_loop())
        assert deliveries is _deliveries(asyncio.get_running_loop())

        def listener() -> None:  # the bus's listening thread hears a notice for 4 pages
            for value in (1, 2, "broken", 3):
                deliveries.add(deliver, value)

        heard = threading.Thread(target=listener)
        heard.start()
        heard.join()
        await asyncio.sleep(0.05)

    with caplog.at_level(logging.ERROR, logger="companion.app"):
        asyncio.run(main())
    # On the loop's thread, in order; the failed page is logged and the others still shown.
    assert ran == [(1, True), (2, True), (3, True)]
    assert reads == ["seats"]
    assert "a page failed to show what another page did" in caplog.text
