"""A pooled PostgreSQL connection is checked before use only after it sat idle.

SQLAlchemy's `pool_pre_ping` asks the server once at every checkout: a round trip before
every read and write, a tenth of a busy hosted server's event loop (docs/hosting.md). A
connection used a moment ago is as alive as the ping would say, so here only one idle for
`IDLE_S` is pinged; a dead one is replaced before use, as with `pool_pre_ping`. A server
restarted within that moment fails the one statement that meets the dead connection (the
store says so in a sentence) and SQLAlchemy then drops every pooled connection.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.exc import DisconnectionError

# Seconds a pooled connection may sit unused and still be given out without a ping.
IDLE_S = 10.0
_RETURNED = "summoners_isle_returned"


def ping_after_idle(engine: Engine) -> None:
    """Check `engine`'s pooled connections before use once they have been idle `IDLE_S`."""
    event.listen(engine, "checkin", _returned)
    event.listen(engine, "checkout", _checked_out)


def _returned(dbapi_connection: Any, record: Any) -> None:
    if record is not None:
        record.info[_RETURNED] = time.monotonic()


def _checked_out(dbapi_connection: Any, record: Any, proxy: Any) -> None:
    returned = record.info.get(_RETURNED)
    if returned is None or time.monotonic() - returned < IDLE_S:
        return  # new, or used a moment ago
    try:
        _ping(dbapi_connection)
    except Exception as error:
        # The pool discards this connection and gives out a fresh one (SQLAlchemy's
        # documented "pessimistic" disconnect handling).
        raise DisconnectionError(str(error)) from error


def _ping(dbapi_connection: Any) -> None:
    """Ask the server for nothing, and end the transaction that began."""
    with dbapi_connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    if not dbapi_connection.autocommit:
        dbapi_connection.rollback()
