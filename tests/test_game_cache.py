"""The store's games kept in memory are bounded in bytes, not only in number
(companion/store/cache_weight.py): a game weighs what it holds, the estimate is above what a
game read back from the database takes, and games past the bound are read again when asked.
"""

from __future__ import annotations

import gc
import tracemalloc

import pytest
from test_game_size import largest_log

import companion.store.cache as cached
from companion.store.cache_weight import game_bytes
from companion.store.store import open_store
from models.game_log import GameLog
from models.setup import GameSetup


def corrections_log(count: int, reason: str, board: object = "gathering-isle") -> GameLog:
    """A legal 4-player, 7-round log of `count` corrections giving `reason`."""
    players = [{"id": f"p{n}", "name": f"Player {n}"} for n in range(4)]
    commands = [
        {"type": "correction", "player": "p0", "delta": -5 if n % 2 == 0 else 5, "reason": reason}
        for n in range(count)
    ]
    return GameLog.model_validate(
        {
            "format": "summoners-isle-game",
            "version": 2,
            "setup": {"players": players, "board": board, "final_round": 7},
            "commands": commands,
        }
    )


def measured(store, game_id: str) -> int:
    """The bytes a game read back from the database takes, as tracemalloc counts them (read
    once before, so what the first read leaves behind, a statement's cache, is not counted)."""
    store._cache.games.clear()
    store.load(game_id)
    store._cache.games.clear()
    gc.collect()
    tracemalloc.start()
    try:
        saved = store.load(game_id)
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert saved.log
    return held


@pytest.mark.parametrize("reason", ["x", "y" * 200, "\U0001f600" * 200])
def test_a_games_estimated_weight_is_above_what_it_takes(reason):
    with open_store("sqlite://") as store:
        saved = store.import_log(corrections_log(400, reason))
        estimate = game_bytes(saved.setup.board, saved.log)
        held = measured(store, saved.id)
        assert held < estimate < 3 * held + 64 * 1024, (held, estimate)


def test_a_board_carried_in_the_setup_weighs_what_it_takes():
    board = largest_log()["setup"]["board"]
    with open_store("sqlite://") as store:
        setup = GameSetup.model_validate(
            {"players": [{"id": "a"}, {"id": "b"}], "board": board, "final_round": 6}
        )
        saved = store.new_game(setup)
        saved = store.append(saved.id, saved.state.legal_commands()[0], 0)
        estimate = game_bytes(saved.setup.board, saved.log)
        held = measured(store, saved.id)
        assert held < estimate < 3 * held, (held, estimate)


def test_the_games_kept_stay_within_their_bytes_and_the_others_are_read_again(monkeypatch):
    monkeypatch.setattr(cached, "CACHED_BYTES", 3 * 1024 * 1024)
    with open_store("sqlite://") as store:
        ids = [store.import_log(corrections_log(300, "\U0001f600" * 200)).id for _ in range(6)]
        weights = store._cache.weights
        assert 0 < weights.total <= cached.CACHED_BYTES
        assert weights.total == sum(weights.of.values())
        assert set(weights.of) == set(store._cache.games) and len(store._cache.games) < 6
        # The game used longest ago was let go; it is read again, whole.
        assert ids[0] not in store._cache.games
        assert len(store.load(ids[0]).log) == 300
        assert ids[0] in store._cache.games and weights.total <= cached.CACHED_BYTES
        store.delete_game(ids[0])
        assert ids[0] not in weights.of and weights.total == sum(weights.of.values())


def test_one_game_heavier_than_the_bound_is_still_kept_while_used(monkeypatch):
    monkeypatch.setattr(cached, "CACHED_BYTES", 1024)
    with open_store("sqlite://") as store:
        saved = store.import_log(corrections_log(10, "x"))
        assert list(store._cache.games) == [saved.id]
        other = store.import_log(corrections_log(10, "y"))
        assert list(store._cache.games) == [other.id]
