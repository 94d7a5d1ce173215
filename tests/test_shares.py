"""Each client address's share of a process (companion/app/shares.py): the work its pages'
events start is metered and paid from its account; while the account is overdrawn, that
address's frames wait, and another address's are read as ever."""

from __future__ import annotations

import asyncio
import time

import pytest
from test_wire import CLICK, REGISTRATION, Client, FakeFlet

from companion.app.shares import PAYER, Account, Accounts, Capacity, Share, metered_tasks
from companion.app.wire import WireGate
from companion.app.wire_link import WireLimits, current_link


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def busy(seconds: float) -> None:
    """Work the loop's thread for `seconds` of CPU."""
    until = time.thread_time() + seconds
    while time.thread_time() < until:
        pass


def test_an_account_is_paid_from_and_refills_at_its_share():
    clock = Clock()
    account = Account(Share(share=0.25, burst=2.0), clock)
    assert account.wait() == 0 and account.full
    account.charge(3.0)
    assert account.wait() == pytest.approx(4.0)  # 1 s owed, at a quarter of a second a second
    clock.now += 4.0
    assert account.wait() == 0 and not account.full
    clock.now += 100
    assert account.full and account.balance == 2.0  # never more than its burst


def test_an_account_refills_at_its_share_of_what_the_process_gets_of_a_core():
    clock = Clock()
    account = Account(Share(share=0.25, burst=2.0), clock, capacity=lambda: 0.5)
    account.charge(3.0)
    assert account.wait() == pytest.approx(8.0)  # 1 s owed, at an eighth of a second a second


def test_what_the_process_gets_of_a_core_is_read_from_its_threads_scheduler_times(tmp_path):
    clock, stat = Clock(), tmp_path / "schedstat"
    capacity = Capacity(every=0.5, clock=clock)
    capacity.PATH = str(stat)

    def times(ran_s: float, waited_s: float) -> None:
        stat.write_text(f"{int(ran_s * 1e9)} {int(waited_s * 1e9)} 7\n")

    times(10.0, 5.0)
    assert capacity() == 1.0  # nothing to compare with yet
    times(10.3, 5.9)  # ran 0.3 s, waited 0.9 s for a core
    assert capacity() == 1.0  # looked at most every half second
    clock.now += 1.0
    assert capacity() == pytest.approx(0.25)
    times(10.301, 5.9)  # an idle loop says nothing of the machine
    clock.now += 1.0
    assert capacity() == 1.0
    times(10.311, 8.9)  # never less than a tenth
    clock.now += 1.0
    assert capacity() == Capacity.LEAST
    stat.unlink()  # no statistics (not Linux): as it was
    clock.now += 1.0
    assert capacity() == Capacity.LEAST


def test_an_address_is_one_account_and_full_ones_are_forgotten_past_the_most_kept():
    accounts = Accounts()
    assert accounts.of("10.0.0.5") is accounts.of("10.0.0.5")
    assert accounts.of("10.0.0.5") is not accounts.of("10.0.0.6")
    accounts.KEPT = 2
    accounts.of("10.0.0.5").charge(1.0)
    accounts.of("10.0.0.7")
    assert set(accounts._of) == {"10.0.0.5", "10.0.0.7"}


def test_a_task_started_for_an_account_is_charged_its_cpu_time():
    async def run() -> tuple[float, float]:
        metered_tasks(asyncio.get_running_loop())
        still = Share(share=1e-9, burst=10.0)  # no refill while it is measured
        payer, other = Account(still), Account(still)
        PAYER.set(payer)

        async def work() -> None:
            busy(0.05)
            await asyncio.sleep(0)
            busy(0.05)

        await asyncio.create_task(work())
        PAYER.set(None)
        await asyncio.create_task(work())  # the server's own work: nobody pays
        return payer.balance, other.balance

    paid, untouched = asyncio.run(run())
    assert 10.0 - 0.13 < paid < 10.0 - 0.09
    assert untouched == 10.0


class Working(FakeFlet):
    """Flet's handler, starting a task per event as Flet does, each costing `cost` of CPU."""

    def __init__(self, cost: float) -> None:
        super().__init__()
        self.cost = cost
        self.done: list[float] = []

    async def __call__(self, scope, receive, send) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        first = True
        tasks = []
        while (await receive())["type"] != "websocket.disconnect":
            if first:
                current_link().controls = self.controls
                first = False
                continue
            tasks.append(asyncio.create_task(self.work()))
        await asyncio.gather(*tasks)

    async def work(self) -> None:
        busy(self.cost)
        self.done.append(time.monotonic())


def test_an_address_past_its_share_waits_while_another_is_served():
    share = Share(share=0.25, burst=0.1)
    limits = WireLimits(share=share, frame_deposit_s=0.0)

    async def run() -> tuple[float, float]:
        flet = Working(cost=0.05)
        gate = WireGate(flet, limits, open_door=True)
        heavy = Client(REGISTRATION, *[CLICK] * 6, address="10.0.0.5")
        light = Client(REGISTRATION, CLICK, address="10.0.0.6")
        started = time.monotonic()
        first = asyncio.create_task(gate(heavy.scope, heavy.receive, heavy.send))
        await asyncio.sleep(0.2)
        await gate(light.scope, light.receive, light.send)
        light_done = time.monotonic() - started
        await first
        return time.monotonic() - started, light_done

    took, light_done = asyncio.run(asyncio.wait_for(run(), 20))
    # 6 events of 50 ms: 0.1 s at once, then 0.2 s more at a quarter of a core.
    assert took > 0.7
    # The other address was served while the heavy one still waited for its share (on a
    # busy machine both take longer: the share is of what the process gets).
    assert light_done < took - 0.2
