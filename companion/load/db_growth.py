"""What one address may add to a hosted server's database in an hour (`bench db-hour`).

The hourly limits are counts (tables started from an address, games imported at a table)
and bytes (what a table stores, and what it writes within an hour: table_storage.py), none
of them a pace within the hour, so an hour's worth of one address's writes can be made at
once, through the same store and limits the server uses: it starts as many tables as an
address may in an hour; at each it imports the largest game log a file may hold as often as
the table may, deleting the game each time the table's storage is full so the next import
fits (the churn an attacker would make); then fills what is left with the largest boards it
may keep, and with records taken in play. Its text is drawn at random, so the database
cannot compress it. What the store's tables take on disk (rows, indexes, TOAST:
`pg_total_relation_size`, in the schema the URL's search path names) is read before, right
after, and after autovacuum had a minute.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from typing import Any

from sqlalchemy import text

from companion.load.hostile import largest_log
from companion.load.servers import LoadError
from companion.play.language_setting import ENGLISH
from companion.play.sharing.access import TableAccess
from companion.play.sharing.hosting import Hosting
from companion.store.errors import StoreError
from companion.store.store import Store, open_store
from models.board import MAX_LOCATIONS, MAX_PATHS, MAX_TERRITORIES, Board
from models.game_log import GameLog
from models.setup import GameSetup

# Records taken in play at a table once its imports and boards are in (each a tap).
PLAY_RECORDS = 2000


# What the store's tables hold on disk: their rows, indexes and TOAST, in the schema the
# URL names (its search path), so other work on the same database does not count.
_SIZE = text(
    "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
    "JOIN pg_namespace n ON n.oid = c.relnamespace "
    "WHERE n.nspname = current_schema() AND c.relkind = 'r'"
)


def _size(store: Store) -> int:
    with store._database.engine.connect() as connection:
        return int(connection.execute(_SIZE).scalar_one())


def _written(store: Store, tables: list[str]) -> int:
    """What the tables wrote within their hour, as counted (table_storage.py)."""
    query = text("SELECT coalesce(sum(written), 0) FROM shared_tables WHERE id = ANY(:ids)")
    with store._database.engine.connect() as connection:
        return int(connection.execute(query, {"ids": tables}).scalar_one())


def largest_board(name: str, rng: random.Random) -> Board:
    """A board as large as a board may be: 64 territories, 512 places, 4,096 paths, its ids
    and description drawn at random (the database cannot compress them)."""

    def drawn(n: int) -> str:
        return f"{rng.getrandbits(232):058x}{n:06d}"

    places = [drawn(n) for n in range(MAX_LOCATIONS)]
    per = MAX_LOCATIONS // MAX_TERRITORIES
    return Board.model_validate(
        {
            "id": f"my-{name.lower().replace(' ', '-')}",
            "name": name,
            "description": "".join(chr(rng.randrange(0x4E00, 0x9FA0)) for _ in range(1000)),
            "territories": [
                {
                    "id": drawn(n),
                    "name": f"Territory {n}",
                    "bonus": 3,
                    "locations": places[n * per : (n + 1) * per],
                }
                for n in range(MAX_TERRITORIES)
            ],
            "locations": [
                {"id": place, "x": (n % 32) * 3.1234567891, "y": (n // 32) * 6.1234567891}
                for n, place in enumerate(places)
            ],
            "paths": [
                [places[n], places[(n + step) % MAX_LOCATIONS]]
                for step in range(1, MAX_PATHS // MAX_LOCATIONS + 1)
                for n in range(MAX_LOCATIONS)
            ],
        }
    )


def _fill(
    store: Store, access: TableAccess, log: GameLog, rng: random.Random, counts: dict[str, int]
) -> None:
    """One table's hour: its imports (deleting to make room), boards, then play."""
    table = store.scoped(access.id)
    last = None
    while True:
        try:
            last = table.import_log(log).id
            counts["imports"] += 1
        except StoreError as error:
            if "imported" in str(error) or last is None:
                break  # the hour's imports are done
            table.delete_game(last)
            counts["deleted"] += 1
            last = None
    for n in range(30):
        try:
            store.boards.save(access.id, largest_board(f"Big Isle {n}", rng))
            counts["boards"] += 1
        except Exception:
            break
    setup = GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle", mode="digital")
    try:
        saved = table.new_game(setup)
        for _ in range(PLAY_RECORDS):
            if saved.state.is_terminal:
                saved = table.new_game(setup)
            command = saved.state.legal_commands()[0]
            saved = table.append(saved.id, command, saved.revision)
            counts["records"] += 1
    except StoreError:
        return  # the table stores all it may


def run_db_hour(db: str) -> dict[str, Any]:
    """Write into `db` what one address may write in an hour at the limits; the growth."""
    if not db.startswith("postgresql"):
        raise LoadError("bench db-hour needs --db with a PostgreSQL URL (postgresql+psycopg://...)")
    store = open_store(db)
    hosting = Hosting(store.tables, "https://isle.example.org")
    # An address of its own each run: the hour's tables of an address are counted an hour.
    address = f"198.51.{secrets.randbelow(256)}.{secrets.randbelow(256)}"
    made: list[str] = []
    try:
        before = _size(store)
        started = time.monotonic()
        rng = random.Random(1)
        log = GameLog.model_validate(json.loads(largest_log(rng)))
        counts = {"tables": 0, "imports": 0, "deleted": 0, "boards": 0, "records": 0}
        while True:
            access = hosting.start(address, ENGLISH)
            if isinstance(access, str):
                break  # the address's tables for the hour are started
            made.append(access.id)
            counts["tables"] += 1
            _fill(store, access, log, rng, counts)
        right_after = _size(store)
        stored = sum(store.tables.stored(table) for table in made)
        written = _written(store, made)
        took = time.monotonic() - started
        time.sleep(70)  # autovacuum's naptime is a minute
        later = _size(store)
        return {
            **counts,
            "counted_stored_mib": round(stored / 2**20, 1),
            "counted_written_mib": round(written / 2**20, 1),
            "database_before_mib": round(before / 2**20, 1),
            "growth_mib": round((right_after - before) / 2**20, 1),
            "growth_after_a_minute_mib": round((later - before) / 2**20, 1),
            "seconds": round(took, 1),
        }
    finally:
        for table in made:
            store.tables.remove(table)
        store.close()
