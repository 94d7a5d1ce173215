"""Tries from an address (wrong codes, tables started, imports), counted within a window so
a client past its number waits."""

from __future__ import annotations

import hashlib

from sqlalchemy import delete, insert, select, text

from companion.store.table_transactions import TableTransactions
from models.records import TryRecord

_tries = TryRecord.metadata.tables["address_tries"]
# A client's tries are counted under a lock of its own (PostgreSQL's advisory locks, the
# two-number form: this space, and a number drawn from the kind and the client).
_TRIES_SPACE = 0x5349_5452
_LOCK_TRIES = text("SELECT pg_advisory_xact_lock(:space, :key)")


def _key_of(kind: str, client: str) -> int:
    """A client's tries' lock number: 32 bits of the SHA-256 of the kind and the client."""
    digest = hashlib.sha256(f"{kind}\n{client}".encode("utf-8", "replace")).digest()
    return int.from_bytes(digest[:4], "big", signed=True)


class TableTries(TableTransactions):
    """The tries each client made, by kind."""

    def tries(self, kind: str, client: str, since: float) -> list[float]:
        """When `client` tried `kind` after `since`, oldest first (older tries are dropped)."""
        with self._write() as connection:
            connection.execute(delete(_tries).where(_tries.c.kind == kind, _tries.c.at <= since))
            rows: list[float] = list(
                connection.execute(
                    select(_tries.c.at)
                    .where(_tries.c.kind == kind, _tries.c.client == client[:64])
                    .order_by(_tries.c.at)
                ).scalars()
            )
            return [float(at) for at in rows]

    def attempt(
        self, kind: str, client: str, now: float, window_s: float, most: int, counts: bool
    ) -> float:
        """Seconds `client` must wait before a try of `kind` at `now` is heard, past `most`
        tries within `window_s`; 0 when it is heard, and then counted if `counts`.

        The count and the try are one transaction that holds the client's lock (SQLite: the
        whole database), so tries racing on two processes are counted one after the other.
        """
        client = client[:64]
        with self._write(changes_reads=False) as connection:
            if connection.dialect.name == "postgresql":
                connection.execute(
                    _LOCK_TRIES, {"space": _TRIES_SPACE, "key": _key_of(kind, client)}
                )
            connection.execute(
                delete(_tries).where(_tries.c.kind == kind, _tries.c.at <= now - window_s)
            )
            rows: list[float] = list(
                connection.execute(
                    select(_tries.c.at)
                    .where(_tries.c.kind == kind, _tries.c.client == client)
                    .order_by(_tries.c.at)
                ).scalars()
            )
            recent = [float(at) for at in rows]
            if len(recent) >= most:
                return max(0.0, recent[-most] + window_s - now)
            if counts:
                connection.execute(insert(_tries), {"kind": kind, "client": client, "at": now})
        return 0.0
