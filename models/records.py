"""Saved games as SQL rows: a game's setup and its append-only command log.

The log is the record: state is always rebuilt by replaying the active commands
through the engine. Undone commands keep their rows, with a mark.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, DateTime, Dialect, Index, TypeDecorator
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
    # Where the game's dice come from (issue 25): never shown, sent or exported. Games saved
    # before schema 0002 were given one by the migration.
    secret: str | None = Field(default=None, max_length=64)


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
    # The tap that recorded it: the seq of that tap's first row (issue 21). Undo and redo
    # take back a whole tap. Rows saved before schema 0003 were given one by the migration.
    tap: int | None = None


class DraftRecord(SQLModel, table=True):
    """A table game's Energy and Reset draft: what the table entered so far (issue 20).

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
