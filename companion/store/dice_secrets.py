"""The database's own keys (`store_keys`), read once: an imported game's dice secret is
drawn from one (companion/store/dice.py)."""

from __future__ import annotations

from sqlmodel import select

from companion.store.core import StoreCore
from companion.store.errors import StoreError
from models.records import StoreKeyRecord

_keys = StoreKeyRecord.metadata.tables["store_keys"]


class DiceSecrets(StoreCore):
    """The database's keys, each read once (shared with the store's table views)."""

    def _key(self, name: str) -> str:
        """One of the database's own keys (`store_keys`), read once."""
        key = self._keys.get(name)
        if key is None:
            query = select(_keys.c.value).where(_keys.c.name == name)
            with self._failures("store.cannot_read"), self._reader.connect() as connection:
                found = connection.execute(query).scalar()
            if found is None:
                raise StoreError(f"the database has no key {name!r}: it was not made by this app")
            key = self._keys[name] = str(found)
        return key
