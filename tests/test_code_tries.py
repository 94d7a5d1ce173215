"""Wrong codes racing on two processes: each try is heard and counted in one step, under the
client's own lock, so the limit holds even when every try arrives at once (before, a sixth
try slipped through while the fifth was being counted)."""

from __future__ import annotations

import threading

import pytest
from store_support import BACKENDS, database_url, two_stores

from companion.play.sharing.access import TableAccess
from companion.play.sharing.hosting import HostedLimits, Hosting
from companion.play.sharing.limiter import StoredTries

GUESSES = 24
LIMIT = 5
WRONG = "That is not this table's code. Check it with the host."


@pytest.fixture(params=BACKENDS)
def url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


def race(calls: list) -> list:
    """Run the calls in threads released at the same moment: their answers, in order."""
    answers: list = [None] * len(calls)
    gate = threading.Barrier(len(calls))

    def run(index: int) -> None:
        gate.wait()
        answers[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def test_wrong_codes_racing_on_two_processes_never_pass_the_limit(url):
    for first, second in two_stores(url):
        here = TableAccess(first.tables, StoredTries(first.tables, "code", LIMIT))
        there = TableAccess(
            second.tables, StoredTries(second.tables, "code", LIMIT), table_id=here.id
        )
        doors = [here, there] * (GUESSES // 2)
        answers = race(
            [
                lambda n=n, door=door: door.admit("203.0.113.9", f"WRONG{n:02}Z")
                for n, door in enumerate(doors)
            ]
        )
        assert answers.count(WRONG) == LIMIT, answers
        assert all(a == WRONG or "Too many wrong codes" in a for a in answers)
        assert len(first.tables.tries("code", "203.0.113.9", 0)) == LIMIT


def test_tables_started_at_once_on_two_processes_never_pass_the_limit(url):
    for first, second in two_stores(url):
        limits = HostedLimits(starts_per_hour=3)
        hosts = [
            Hosting(store.tables, "https://isle.example.org", limits) for store in (first, second)
        ]
        answers = race([lambda host=host: host.start("198.51.100.1") for host in hosts * 6])
        assert sum(not isinstance(a, str) for a in answers) == 3, answers
        assert first.tables.count() == 3
