"""Saved games as SQL rows: a game's setup and its append-only command log.

The log is the record: state is always rebuilt by replaying the active commands
through the engine. Undone commands keep their rows, with a mark.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Dialect, Index, TypeDecorator
from sqlmodel import Field, SQLModel


class UTCDateTime(TypeDecorator[datetime]):
    """A UTC timestamp that comes back timezone-aware from every database (SQLite drops it)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Store the moment in UTC."""
        return None if value is None else value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Read it back as an aware UTC datetime."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def utc_now() -> datetime:
    """The current moment, in UTC."""
    return datetime.now(UTC)


class GameStatus(StrEnum):
    """Whether a game can still be played."""

    ACTIVE = "active"
    FINISHED = "finished"


class Mark(StrEnum):
    """Why a command row is not part of the game's active line."""

    # Taken back; redo brings it back while nothing new has been recorded.
    UNDONE = "undone"
    # Undone, then a new command was recorded in its place: kept, never redone.
    ABANDONED = "abandoned"


class GameRecord(SQLModel, table=True):
    """One saved game: its setup, a summary for listings, and its revision counter."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_status_updated", "status", "updated"),)

    id: str = Field(primary_key=True, max_length=32)
    created: datetime = Field(sa_type=UTCDateTime)
    updated: datetime = Field(sa_type=UTCDateTime)
    # A shipped board id, or the id of the inline board held in `setup`.
    board: str = Field(max_length=64)
    # The GameSetup as JSON: with the command log, everything the game is.
    setup: dict[str, Any] = Field(sa_type=JSON)
    # Player ids in seat order.
    players: list[str] = Field(sa_type=JSON)
    # final_round, mode and the first round's turn order.
    options: dict[str, Any] = Field(sa_type=JSON)
    status: str = Field(default=GameStatus.ACTIVE, max_length=16)
    round: int = 1
    winner: str | None = Field(default=None, max_length=32)
    summoner: bool = False
    # Bumped by every append, undo and redo; a write naming an older one is refused.
    revision: int = 0
    # Where the game's dice come from: never shown, sent or exported. Games saved
    # before schema 0002 were given one by the migration.
    secret: str | None = Field(default=None, max_length=64)
    # The hosted table the game belongs to; None on this machine's own store and
    # on a table shared on the local network. Added by schema 0004.
    table_id: str | None = Field(default=None, max_length=32, index=True)
    # How its dice are drawn from its secret (companion/store/dice.py): None for the first
    # way, of games saved before schema 0006, which keep it.
    dice: int | None = None


class CommandRecord(SQLModel, table=True):
    """One command of a game's log, with its dice and its sentence; rows go only with their game."""

    __tablename__ = "commands"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=32)
    seq: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    # The command as JSON (models.commands.command_to_json), attack dice included.
    command: dict[str, Any] = Field(sa_type=JSON)
    # state.sentence(command) from the state it was applied to, as a message's JSON (its id
    # and values: companion/language/stored.py), rendered in each reader's language; rows
    # saved before it was data hold English words, and are told again from the command.
    description: str
    created: datetime = Field(sa_type=UTCDateTime)
    # None while the command is part of the game; see Mark.
    mark: str | None = Field(default=None, max_length=16)
    # The tap that recorded it: the seq of that tap's first row. Undo and redo
    # take back a whole tap. Rows saved before schema 0003 were given one by the migration.
    tap: int | None = None


class DraftRecord(SQLModel, table=True):
    """A table game's Energy and Reset draft: what the table entered so far.

    One per game at most; it goes when the record is applied (or the table starts over),
    and an undo of an applied record writes it back.
    """

    __tablename__ = "reset_drafts"

    game_id: str = Field(foreign_key="games.id", primary_key=True, max_length=32)
    # The round whose Energy and Reset it is: a draft of another round is stale.
    round: int
    # Bumped by every change: a change made from an older one is made again from the newer.
    version: int
    # models.reset_draft.entries_to_json
    entries: dict[str, Any] = Field(sa_type=JSON)
    updated: datetime = Field(sa_type=UTCDateTime)


class SharedTableRecord(SQLModel, table=True):
    """A shared table: its codes and the hash of its host's key (schema 0004).

    Every server process on the database reads the codes here, so a code opens the same
    table whichever process a device reaches.
    """

    __tablename__ = "shared_tables"

    id: str = Field(primary_key=True, max_length=32)
    # SHA-256 of the host's key, in hex: the key itself is only in the host's browser.
    host_key: str = Field(max_length=64, unique=True)
    join_code: str = Field(max_length=16, unique=True)
    watch_code: str = Field(max_length=16, unique=True)
    # The codes a new code replaced: a device trying one is told the code was renewed.
    retired_join: str | None = Field(default=None, max_length=16)
    retired_watch: str | None = Field(default=None, max_length=16)
    # Bumped by every new code: a ticket of an older generation no longer opens the table.
    generation: int = 1
    # How many devices were let in since it started: the next one's number.
    numbered: int = 0
    # Started by a visitor of a hosted server (removed when idle), else by the host's terminal.
    hosted: bool = False
    # The address that started it, for the per-address limit on starting tables.
    started_by: str = Field(default="", max_length=64)
    created: datetime = Field(sa_type=UTCDateTime)
    # The last time a device did anything at it: idle tables are removed after a while.
    used: datetime = Field(sa_type=UTCDateTime, index=True)
    # The bytes its games, records and boards hold, and those it wrote since
    # `written_since` (a time.time()), within the hour (companion/store/table_storage.py).
    stored: int = Field(default=0, sa_type=BigInteger)
    written: int = Field(default=0, sa_type=BigInteger)
    written_since: float = 0.0
    # Whether a device joined it by its code or a record was taken in play there (schema
    # 0007): a table nobody used is removed within hours and not counted as one in use.
    in_use: bool = False


class TableDeviceRecord(SQLModel, table=True):
    """A device let in at a shared table since its last new code."""

    __tablename__ = "table_devices"

    table_id: str = Field(primary_key=True, max_length=32)
    id: str = Field(primary_key=True, max_length=32)
    number: int
    role: str = Field(max_length=16)
    # Its open pages, on every process; the game one of them shows, if any.
    connections: int = 0
    game: str | None = Field(default=None, max_length=32)


class TableSeatRecord(SQLModel, table=True):
    """Who a device is in a game of a shared table: a player, the scorekeeper or a watcher."""

    __tablename__ = "table_seats"

    table_id: str = Field(primary_key=True, max_length=32)
    game_id: str = Field(primary_key=True, max_length=32)
    device: str = Field(primary_key=True, max_length=32)
    seat: str = Field(max_length=32)


class DeletedGameRecord(SQLModel, table=True):
    """A game deleted at a shared table: a device opening it is told so."""

    __tablename__ = "table_deleted_games"

    table_id: str = Field(primary_key=True, max_length=32)
    game_id: str = Field(primary_key=True, max_length=32)


class LeaseRecord(SQLModel, table=True):
    """Which device drives a game's computer seats, and when it last said it was there."""

    __tablename__ = "leases"

    game_id: str = Field(primary_key=True, max_length=32)
    device: str = Field(max_length=64)
    # Seconds since the epoch (every process's clock): lapsed after LEASE_S without renewal.
    renewed: float


class TryRecord(SQLModel, table=True):
    """One limited attempt from an address: a wrong code, a table started."""

    __tablename__ = "address_tries"
    __table_args__ = (Index("ix_address_tries_kind_client_at", "kind", "client", "at"),)

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=16)
    client: str = Field(max_length=64)
    # Seconds since the epoch.
    at: float


class TableBoardRecord(SQLModel, table=True):
    """A board a hosted table entered or drew (schema 0005): listed to that table only, and
    removed with it. A game keeps its own copy of its board in its setup."""

    __tablename__ = "table_boards"

    table_id: str = Field(primary_key=True, max_length=32)
    # The board's id (`my-...`, from its name) and its name, as the table lists it.
    id: str = Field(primary_key=True, max_length=64)
    name: str = Field(max_length=100)
    # The Board as JSON, without its defaults.
    board: dict[str, Any] = Field(sa_type=JSON)
    updated: datetime = Field(sa_type=UTCDateTime)


class StoreKeyRecord(SQLModel, table=True):
    """A secret of the whole database (schema 0006), never shown, sent or exported: `dice`
    draws the dice secret of an imported game from what the game is."""

    __tablename__ = "store_keys"

    name: str = Field(primary_key=True, max_length=32)
    value: str = Field(max_length=64)
