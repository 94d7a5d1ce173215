"""The store's speed on a real SQLite file, durability on (part of `python -m companion bench`).

The file is made in a temporary folder of its own (the system's, or `folder`) and deleted
afterwards: the benchmark never touches the user's games or their data folder. Where the
system's temporary folder is in memory, fsync costs less there than on the games' disk.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.store.store import open_store
from models.rules import EXTENDED_ROUNDS
from models.setup import GameSetup, Mode

BENCH_SETUP = GameSetup(
    players=[{"id": p} for p in ("red", "blue", "green", "yellow")],
    board="gathering-isle",
    mode=Mode.DIGITAL,
    # Seven rounds: the longest game there is, so the longest log to rebuild.
    final_round=EXTENDED_ROUNDS,
)


def store_bench(
    appends: int = 600, reopens: int = 5, seed: int = 1, folder: Path | None = None
) -> dict[str, float]:
    """Append latency (p50, p99) and the time to reopen the store and rebuild a finished game."""
    with tempfile.TemporaryDirectory(prefix="summoners-isle-bench-", dir=folder) as directory:
        url = f"sqlite:///{Path(directory) / 'bench.sqlite3'}"
        rng = random.Random(seed)
        timings: list[float] = []
        finished = None
        with open_store(url) as store:
            # Whole games of random legal commands, until there are enough samples and one ended.
            while len(timings) < appends or finished is None:
                saved = store.new_game(BENCH_SETUP)
                while not saved.state.is_terminal:
                    command = rng.choice(saved.state.legal_commands())
                    started = time.perf_counter()
                    saved = store.append(saved.id, command, saved.revision)
                    timings.append(time.perf_counter() - started)
                finished = saved.id
        rebuilds = []
        for _ in range(reopens):
            started = time.perf_counter()
            with open_store(url) as store:
                store.load(finished)
                rebuilds.append(time.perf_counter() - started)
    cuts = statistics.quantiles(timings, n=100)
    return {
        "append_p50_ms": round(statistics.median(timings) * 1e3, 2),
        "append_p99_ms": round(cuts[98] * 1e3, 2),
        "reopen_rebuild_ms": round(statistics.median(rebuilds) * 1e3, 1),
    }
