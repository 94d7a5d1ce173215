"""Pooled PostgreSQL connections are pinged only after sitting idle (store/idle_ping.py)."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from store_support import DUEL, PG_SKIP, PG_URL, postgresql_url

from companion.store import idle_ping
from companion.store.errors import StoreError
from companion.store.store import open_store

pytestmark = pytest.mark.skipif(not PG_URL, reason=PG_SKIP)


@pytest.fixture
def store():
    url = next(gen := postgresql_url())
    with open_store(url) as opened:
        yield opened
    gen.close()


def _pings(monkeypatch) -> list[object]:
    """The pings the store's pool sends, recorded as they go."""
    sent: list[object] = []
    ping = idle_ping._ping

    def recorded(connection: object) -> None:
        sent.append(connection)
        ping(connection)

    monkeypatch.setattr(idle_ping, "_ping", recorded)
    return sent


def _end_its_connection(store) -> None:
    """What a restarted database server does to the store's pooled connection."""
    with store._database.engine.connect() as connection:
        pid = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    with open_store(PG_URL) as admin, admin._database.engine.begin() as connection:
        connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})


def test_a_connection_used_a_moment_ago_is_not_pinged_and_an_idle_one_is(store, monkeypatch):
    saved = store.new_game(DUEL)
    pings = _pings(monkeypatch)
    store.games()
    store.load(saved.id)
    assert pings == []
    monkeypatch.setattr(idle_ping, "IDLE_S", 0.0)
    store.games()
    assert len(pings) == 1


def test_an_idle_connection_the_server_ended_is_replaced_before_use(store, monkeypatch):
    saved = store.new_game(DUEL)
    _end_its_connection(store)
    monkeypatch.setattr(idle_ping, "IDLE_S", 0.0)  # every pooled connection has sat idle
    assert [game.id for game in store.games()] == [saved.id]


def test_a_connection_ended_a_moment_after_use_fails_once_with_a_sentence(store):
    saved = store.new_game(DUEL)
    _end_its_connection(store)
    with pytest.raises(StoreError) as refused:
        store.games()
    assert refused.value.message.id == "store.cannot_read"
    # SQLAlchemy dropped the dead connection: the next read reaches the server.
    assert [game.id for game in store.games()] == [saved.id]
