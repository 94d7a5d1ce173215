"""Two devices writing to one game at once: one of each conflicting pair wins, nothing is lost."""

import random
import threading

import pytest
from sqlalchemy import create_engine, select
from store_support import BACKENDS, DUEL, database_url

from companion.engine.replay import replay
from companion.engine.serialize import state_to_json
from companion.store.errors import GameMovedOn
from companion.store.store import open_store
from models.records import CommandRecord

ROUNDS = 30
EACH = 15


@pytest.fixture(params=BACKENDS)
def url(request, tmp_path):
    yield from database_url(request.param, tmp_path)


def all_seqs(url: str, game_id: str) -> list[int]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            query = select(CommandRecord.seq).where(CommandRecord.game_id == game_id)
            return sorted(connection.execute(query).scalars())
    finally:
        engine.dispose()


def run_threads(*targets) -> None:
    errors: list[BaseException] = []

    def guarded(target):
        try:
            target()
        except BaseException as error:
            errors.append(error)
            raise

    threads = [threading.Thread(target=guarded, args=(target,)) for target in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors


def test_exactly_one_of_each_conflicting_pair_wins(url):
    with open_store(url) as first:
        game_id = first.new_game(DUEL).id
    start = threading.Barrier(2, timeout=60)
    done = threading.Barrier(2, timeout=60)
    outcomes: dict[int, list[tuple[str, int | None]]] = {0: [], 1: []}

    def writer(device: int) -> None:
        rng = random.Random(device)
        with open_store(url) as store:
            for _ in range(ROUNDS):
                saved = store.load(game_id)
                command = rng.choice(saved.state.legal_commands())
                # Device 1 sometimes undoes instead: a different kind of write, the same race.
                undo = device == 1 and saved.log and rng.random() < 0.3
                start.wait()
                try:
                    if undo:
                        after = store.undo(game_id, saved.revision)
                        outcomes[device].append(("undo", None))
                    else:
                        after = store.append(game_id, command, saved.revision)
                        outcomes[device].append(("append", after.log[-1].seq))
                except GameMovedOn as error:
                    assert error.expected == saved.revision
                    outcomes[device].append(("lost", None))
                done.wait()

    run_threads(lambda: writer(0), lambda: writer(1))
    winners = [
        sum(kind != "lost" for kind, _ in pair)
        for pair in zip(outcomes[0], outcomes[1], strict=True)
    ]
    assert winners == [1] * ROUNDS
    appended = sorted(seq for side in outcomes.values() for kind, seq in side if kind == "append")
    assert appended == list(range(1, len(appended) + 1))
    assert all_seqs(url, game_id) == appended
    with open_store(url) as reader:
        saved = reader.load(game_id)
    assert saved.revision == ROUNDS
    assert state_to_json(saved.state) == state_to_json(
        replay(saved.game, [entry.command for entry in saved.log])
    )


def test_writers_that_retry_lose_nothing(url):
    with open_store(url) as first:
        game_id = first.new_game(DUEL).id
    recorded: dict[int, list[int]] = {0: [], 1: []}

    def writer(device: int) -> None:
        rng = random.Random(10 + device)
        with open_store(url) as store:
            saved = store.load(game_id)
            while len(recorded[device]) < EACH:
                try:
                    saved = store.append(
                        game_id, rng.choice(saved.state.legal_commands()), saved.revision
                    )
                except GameMovedOn:
                    saved = store.load(game_id)
                    continue
                recorded[device].append(saved.log[-1].seq)

    run_threads(lambda: writer(0), lambda: writer(1))
    mine, theirs = recorded[0], recorded[1]
    assert not set(mine) & set(theirs)
    assert sorted(mine + theirs) == list(range(1, 2 * EACH + 1))
    assert all_seqs(url, game_id) == list(range(1, 2 * EACH + 1))
    with open_store(url) as reader:
        saved = reader.load(game_id)
    assert [entry.seq for entry in saved.log] == list(range(1, 2 * EACH + 1))
    assert saved.revision == 2 * EACH
