"""A table game's Energy and Reset draft: what the table entered before it is applied,
versioned so two devices changing it at once cannot both win."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, delete, insert, update
from sqlmodel import Session, select

from companion.engine import GameState
from companion.store.errors import DraftMovedOn, StoreError
from companion.store.games import Games
from companion.store.rows import DRAFTS, stored_bytes
from companion.store.saved import LogEntry
from companion.store.table_storage import give_back
from models.commands import EnergyAndReset
from models.records import DraftRecord, utc_now
from models.reset_draft import (
    DraftDeclined,
    DraftEntries,
    DraftPlacement,
    entries_from_json,
    entries_to_json,
)


@dataclass(frozen=True, slots=True)
class StoredDraft:
    """A game's Energy and Reset draft as stored: what the table entered (None: nothing yet),
    for which round, and the version a change must name."""

    version: int = 0
    round: int = 0
    entries: DraftEntries | None = None


class Drafts(Games):
    """The Energy and Reset draft of each game, as stored."""

    def draft(self, game_id: str) -> StoredDraft:
        """A table game's Energy and Reset draft as stored (version 0: nothing entered yet)."""
        if self.table_id is not None:
            self._latest(game_id)
        query = select(DraftRecord).where(DraftRecord.game_id == game_id)
        with self._failures("store.cannot_read"), Session(self._reader) as session:
            record = session.exec(query).first()
        if record is None:
            return StoredDraft()
        try:
            entries = entries_from_json(record.entries)
        except ValueError:
            # A draft this app cannot read is only a draft: the table enters it again.
            entries = None
        return StoredDraft(record.version, record.round, entries)

    def save_draft(
        self, game_id: str, round_: int, entries: DraftEntries, version: int
    ) -> StoredDraft:
        """Store what the table entered, made from draft `version`; DraftMovedOn if another
        device changed it since (then make the change again from the newer one)."""
        now = utc_now()
        row = {
            "game_id": game_id,
            "round": round_,
            "version": version + 1,
            "entries": entries_to_json(entries),
            "updated": now,
        }

        def write(connection: Connection) -> None:
            if self.table_id is not None:
                self._check_mine(connection, game_id)
            if version == 0:
                if connection.execute(
                    select(DRAFTS.c.version).where(DRAFTS.c.game_id == game_id)
                ).first():
                    raise DraftMovedOn(game_id, version)
                connection.execute(insert(DRAFTS), row)
                return
            result = connection.execute(
                update(DRAFTS)
                .where(DRAFTS.c.game_id == game_id, DRAFTS.c.version == version)
                .values(row)
            )
            if result.rowcount != 1:
                raise DraftMovedOn(game_id, version)

        try:
            self._save(write)
        except StoreError as error:
            if isinstance(error, DraftMovedOn):
                raise
            # Two first entries at once: the second one's insert meets the first one's row.
            if self.draft(game_id).version > version:
                raise DraftMovedOn(game_id, version) from None
            raise
        return StoredDraft(version + 1, round_, entries)

    def clear_draft(self, game_id: str) -> None:
        """Throw the draft away: the table starts its Energy and Reset over."""

        def write(connection: Connection) -> None:
            if self.table_id is not None:
                self._check_mine(connection, game_id)
                give_back(connection, self.table_id, stored_bytes(connection, game_id))
            connection.execute(delete(DRAFTS).where(DRAFTS.c.game_id == game_id))

        self._save(write)


def entries_of(state: GameState, record: EnergyAndReset) -> DraftEntries:
    """What the table had entered for an applied Energy and Reset, as a draft again."""
    isle = state.game.isle
    placed = tuple(
        DraftPlacement(
            isle.territory_ids[isle.territory_of[isle.index[p.location]]], p.player, p.kind
        )
        for p in record.placements
    )
    declined = tuple(DraftDeclined(d.player, d.territory) for d in record.declined)
    return DraftEntries(placed, tuple(record.removed or ()), declined)


def write_draft(
    connection: Connection, game_id: str, round_: int, entries: DraftEntries, now: datetime
) -> None:
    """Put a draft in place of the game's, with a version above any it had."""
    old = connection.execute(select(DRAFTS.c.version).where(DRAFTS.c.game_id == game_id))
    version = (old.scalar() or 0) + 1
    connection.execute(delete(DRAFTS).where(DRAFTS.c.game_id == game_id))
    row = {
        "game_id": game_id,
        "round": round_,
        "version": version,
        "entries": entries_to_json(entries),
        "updated": now,
    }
    connection.execute(insert(DRAFTS), row)


def drop_applied_draft(connection: Connection, game_id: str, entries: Sequence[LogEntry]) -> None:
    """An Energy and Reset among the records made active: the draft it was entered in goes."""
    if any(isinstance(entry.command, EnergyAndReset) for entry in entries):
        connection.execute(delete(DRAFTS).where(DRAFTS.c.game_id == game_id))
