"""Shared pieces of the store tests: databases to run against, setups, random play."""

from __future__ import annotations

import os
import random
import uuid
import warnings
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, make_url, text

from companion.boards import resolve_board
from companion.engine import Game
from companion.engine.dice import with_rolls
from companion.store.store import SavedGame, Store, open_store
from companion.store.tables import TableRecords
from models.commands import Command
from models.game_log import GameLog
from models.seeded_dice import SeededDice
from models.setup import GameSetup

PG_ENV = "SUMMONERS_ISLE_TEST_PG"
PG_URL = os.environ.get(PG_ENV, "")
PG_SKIP = (
    f"{PG_ENV} is not set: the PostgreSQL store tests need a server "
    "(`make test` with CI=true installs and starts one)"
)
BACKENDS = [
    "sqlite",
    pytest.param("postgresql", marks=pytest.mark.skipif(not PG_URL, reason=PG_SKIP)),
]
if not PG_URL:
    # One line in pytest's summary, instead of a skip reason per test.
    warnings.warn(PG_SKIP, stacklevel=1)

DUEL = GameSetup(
    players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}],
    board="duel-isle",
    mode="digital",
)
GATHERING = GameSetup(
    players=[{"id": p} for p in ("red", "blue", "green", "yellow")],
    board="gathering-isle",
    mode="digital",
    turn_order=("green", "yellow", "red", "blue"),
)
TABLE = GameSetup(players=[{"id": "red"}, {"id": "blue"}, {"id": "green"}], board="gathering-isle")


def sqlite_url(directory: os.PathLike[str] | str) -> str:
    """A SQLite file URL inside `directory`."""
    return f"sqlite:///{directory}/games.sqlite3"


def postgresql_url() -> Iterator[str]:
    """A URL whose connections use a fresh, empty schema; the schema is dropped afterwards."""
    schema = f"store_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_URL)
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        url = make_url(PG_URL).update_query_dict({"options": f"-csearch_path={schema}"})
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


def database_url(backend: str, directory: os.PathLike[str] | str) -> Iterator[str]:
    """A fresh database of the given backend."""
    if backend == "sqlite":
        yield sqlite_url(directory)
    else:
        yield from postgresql_url()


def two_stores(url: str) -> Iterator[tuple[Store, Store]]:
    """Two stores on one database: two server processes' views of it (closed after)."""
    first, second = open_store(url), open_store(url)
    try:
        yield first, second
    finally:
        first.close()
        second.close()


def choose(saved: SavedGame, rng: random.Random) -> Command:
    """A random legal command, preferring ones that are not a pass so games get somewhere."""
    commands = saved.state.legal_commands()
    busy = [c for c in commands if type(c).__name__ not in ("Pass", "EndActivation", "Done")]
    return rng.choice(busy if busy and rng.random() < 0.8 else commands)


def play(store: Store, saved: SavedGame, count: int, rng: random.Random) -> SavedGame:
    """Append up to `count` random legal commands (fewer if the game ends)."""
    for _ in range(count):
        if saved.state.is_terminal:
            break
        saved = store.append(saved.id, choose(saved, rng), saved.revision)
    return saved


def random_log(setup: GameSetup, seed: int) -> GameLog:
    """A whole digital game of random legal commands, dice included, played by the engine alone.

    Importing it is the quick way to a finished game: one transaction, not one per command.
    """
    game = Game(setup, resolve_board(setup.board))
    state = game.new_initial_state()
    rng = random.Random(seed)
    roll = SeededDice(seed)
    commands = []
    while not state.is_terminal:
        command = with_rolls(state, rng.choice(state.legal_commands()), roll)
        state.apply(command)
        commands.append(command)
    return GameLog.of(setup, commands)


def finished_game(store: Store, setup: GameSetup, seed: int) -> SavedGame:
    """A finished game, saved."""
    return store.import_log(random_log(setup, seed))


def tables() -> TableRecords:
    """The shared tables of a fresh in-memory SQLite store (one thread's)."""
    return open_store("sqlite://").tables
