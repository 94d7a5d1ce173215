"""A hosted table's database grows with use, not with attack: what it stores is counted in
bytes and bounded (companion/store/table_storage.py), so is what it writes within an hour,
it imports at most IMPORTS_PER_HOUR games an hour, a table nobody joined or played in goes
within hours, and the server's most tables counts tables in use only. Two stores on one
database stand for two processes."""

from __future__ import annotations

import pytest
import test_hosting
from sqlalchemy import text
from store_support import DUEL
from test_game_cache import corrections_log
from test_hosting import started

import companion.store.table_storage as storage
from companion.language.render import language
from companion.play.home import import_log_file
from companion.play.language_setting import ENGLISH
from companion.play.sharing.hosting import HostedLimits
from companion.play.visit import Visit
from companion.store.errors import StoreError
from companion.store.rows import stored_bytes
from companion.store.table_storage import IMPORTS_PER_HOUR, ROW_BYTES, size
from models.board import Board
from models.game_log import GameLog

# The fixtures of two hosted servers' services on one database.
url = test_hosting.url
servers = test_hosting.servers


def recount(store, table_id: str) -> int:
    """What a table stores, counted afresh from its rows."""
    with store._database.engine.connect() as connection:
        held = sum(stored_bytes(connection, game.id) for game in store.scoped(table_id).games())
    boards = store.boards.boards(table_id)
    return held + sum(
        ROW_BYTES + size(board.model_dump(mode="json", exclude_defaults=True)) for board in boards
    )


BOARD = Board.model_validate(
    {
        "id": "my-cove",
        "name": "The Cove",
        "territories": [{"id": "north", "bonus": 2, "locations": ["n1", "n2"]}],
    }
)


def test_what_a_table_stores_is_counted_as_it_writes_and_given_back_as_it_deletes(servers):
    (first, second), _ = servers
    ann = started(first)
    table = ann.links.access.id
    store = ann.store
    assert first.store.tables.stored(table) == 0
    saved = store.new_game(DUEL)
    for _ in range(3):
        saved = store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
    saved = store.undo(saved.id, saved.revision)
    saved = store.append(saved.id, saved.state.legal_commands()[-1], saved.revision)
    imported = store.import_log(corrections_log(40, "a reason"))
    first.store.boards.save(table, BOARD)
    first.store.boards.save(table, BOARD.model_copy(update={"name": "The Big Cove"}), True)
    held = second.store.tables.stored(table)
    assert held == recount(first.store, table) > 40 * ROW_BYTES
    store.delete_game(imported.id)
    first.store.boards.delete(table, BOARD.id)
    assert second.store.tables.stored(table) == recount(first.store, table) < held
    store.delete_game(saved.id)
    assert second.store.tables.stored(table) == 0


def test_a_write_past_what_a_table_may_store_is_refused_in_a_sentence(servers, monkeypatch):
    (first, second), _ = servers
    ann = started(first)
    table = ann.links.access.id
    saved = ann.store.new_game(DUEL)
    monkeypatch.setattr(storage, "TABLE_BYTES", first.store.tables.stored(table) + 1000)
    saved = ann.store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
    with pytest.raises(StoreError) as refused:
        for _ in range(20):
            saved = ann.store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
    said = refused.value.message
    assert ENGLISH.render(said) == (
        "this table stores 0 MiB of games, records and boards, the most a table may: "
        "delete a game to record more"
    )
    assert language("fr").render(said).startswith("cette table garde 0")
    # Nothing of the refused write was kept, on either process.
    assert second.store.load(saved.id).revision == saved.revision
    assert second.store.tables.stored(table) == recount(first.store, table)
    _, why = import_log_file(ann.store, corrections_log(3, "x").model_dump_json().encode())
    assert why.startswith("Not imported: this table stores")
    # Another table is not held by it.
    other = started(second, "198.51.100.2").store
    fresh = other.new_game(DUEL)
    assert other.append(fresh.id, fresh.state.legal_commands()[0], 0).revision == 1


def test_a_table_imports_a_bounded_number_of_games_an_hour_on_every_process(servers):
    (first, second), _ = servers
    ann = started(first)
    log = corrections_log(2, "x")
    data = log.model_dump_json().encode()
    on_second = Visit(second)
    assert on_second.admit("198.51.100.9", ann.links.access.host_key, "", ENGLISH) is None
    for n in range(IMPORTS_PER_HOUR):
        saved, _ = import_log_file((ann if n % 2 else on_second).store, data)
        assert saved is not None
    saved, said = import_log_file(on_second.store, data)
    assert saved is None
    assert said == (
        f"Not imported: this table imported {IMPORTS_PER_HOUR} games within the hour, "
        "the most it may: try again in 60 min."
    )
    assert isinstance(GameLog.model_validate_json(data), GameLog)
    assert started(second, "198.51.100.2").store.import_log(log)


def test_a_table_nobody_joined_or_played_goes_within_hours_and_a_used_one_stays(servers):
    (first, second), clock = servers
    tables = first.store.tables
    left = started(first)  # started, a game imported, nobody came: not in use
    left.store.import_log(corrections_log(2, "x"))
    joined, played = started(first, "198.51.100.2"), started(second, "198.51.100.3")
    assert Visit(second).admit("198.51.100.4", joined.links.access.join_code, "", ENGLISH) is None
    game = played.store.new_game(DUEL)
    played.store.append(game.id, game.state.legal_commands()[0], 0)
    assert tables.count_in_use() == 2
    clock.now += 3600
    assert second.hosting.remove_idle() == []
    # The tables' own times are the database's (real time): a minute's margin covers a
    # loaded machine's time between starting the clock and the last write above.
    clock.now += 3600 + 60
    assert second.hosting.remove_idle() == [left.links.access.id]
    assert tables.get(joined.links.access.id) and tables.get(played.links.access.id)


def test_tables_started_and_left_do_not_close_the_door(servers):
    (first, second), _ = servers
    second.hosting.limits = HostedLimits(most_tables=2)
    for n in range(5):
        started(first, f"198.51.100.{10 + n}")  # a flood of empty tables
    used = started(second, "198.51.100.30")
    assert Visit(first).admit("198.51.100.31", used.links.access.join_code, "", ENGLISH) is None
    assert Visit(second).start_table("198.51.100.32", ENGLISH) is None
    again = started(first, "198.51.100.33")
    assert Visit(second).admit("198.51.100.34", again.links.access.join_code, "", ENGLISH) is None
    # Two tables in use now: the next one is told the server is full.
    assert Visit(second).start_table("198.51.100.35", ENGLISH) == (
        "This server has as many tables as it can keep: try again later."
    )


def test_what_a_table_writes_within_the_hour_is_bounded_deletes_included(servers, monkeypatch):
    (first, second), _ = servers
    ann = started(first)
    table = ann.links.access.id
    store = ann.store
    store.import_log(corrections_log(2, "x"))
    before = _written(first.store, table)
    game = store.import_log(corrections_log(30, "a reason"))
    once = _written(first.store, table) - before
    # Deleting gives back what it stored, never what it wrote.
    store.delete_game(game.id)
    monkeypatch.setattr(storage, "HOURLY_BYTES", before + once + once // 2)
    with pytest.raises(StoreError) as refused:
        second.store.scoped(table).import_log(corrections_log(30, "a reason"))
    said = refused.value.message
    assert ENGLISH.render(said).startswith("this table wrote 0 MiB within the hour, the most it ")
    assert ENGLISH.render(said).endswith("try again in 60 min")
    assert language("fr").render(said).startswith("cette table a écrit 0")
    # Undoing and redoing rewrite rows: they are written too.
    saved = store.new_game(DUEL)
    saved = store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
    written = _written(first.store, table)
    saved = store.undo(saved.id, saved.revision)
    store.redo(saved.id, saved.revision)
    assert _written(first.store, table) == written + 2 * ROW_BYTES
    # An hour after its first write of the hour, the table writes again.
    with first.store._database.engine.begin() as connection:
        connection.execute(
            text("UPDATE shared_tables SET written_since = written_since - 3601 WHERE id = :t"),
            {"t": table},
        )
    assert second.store.scoped(table).import_log(corrections_log(30, "a reason"))
    assert _written(first.store, table) == once


def _written(store, table_id: str) -> int:
    with store._database.engine.connect() as connection:
        query = text("SELECT written FROM shared_tables WHERE id = :t")
        return int(connection.execute(query, {"t": table_id}).scalar_one())
