"""A saved game's rows: its game row (with a listing's summary), its commands' rows, and
what they are counted as at a hosted table."""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select

from companion.engine import GameState
from companion.language.stored import message_to_json
from companion.store.dice import DICE, new_secret
from companion.store.saved import GameSummary, LogEntry
from companion.store.table_storage import ROW_BYTES, record_bytes
from companion.store.table_storage import size as stored_size
from models.commands import command_to_json
from models.records import CommandRecord, DraftRecord, GameRecord, GameStatus, LeaseRecord
from models.setup import STORED, GameSetup, PlayerSetup

ID_BYTES = 6

# The writes, built once: building a statement costs more CPU than running it on SQLite.
# The tables by name: SQLModel sets `__table__` on its table models but does not declare it.
GAMES = GameRecord.metadata.tables["games"]
COMMANDS = CommandRecord.metadata.tables["commands"]
DRAFTS = DraftRecord.metadata.tables["reset_drafts"]
LEASES = LeaseRecord.metadata.tables["leases"]
INSERT_GAME = insert(GAMES)
INSERT_COMMAND = insert(COMMANDS)


def new_game_id() -> str:
    """A fresh game id: 12 hex digits, random."""
    return secrets.token_hex(ID_BYTES)


def stored_bytes(connection: Connection, game_id: str) -> int:
    """What a game's rows are counted as at its table (table_storage.py)."""
    setup = connection.execute(select(GAMES.c.setup).where(GAMES.c.id == game_id)).scalar()
    rows = connection.execute(
        select(COMMANDS.c.command, COMMANDS.c.description).where(COMMANDS.c.game_id == game_id)
    )
    held = ROW_BYTES + stored_size(setup)
    return held + sum(record_bytes(command, str(said)) for command, said in rows)


def new_game_row(
    game_id: str,
    setup: GameSetup,
    state: GameState,
    now: datetime,
    revision: int,
    secret: str | None = None,
) -> dict[str, Any]:
    """A new game's row, its summary made from `state`; a new dice secret unless given."""
    return {
        "id": game_id,
        "secret": secret or new_secret(),
        "dice": DICE,
        "created": now,
        "updated": now,
        # A shipped board is named; an inline one lives in the setup, under its own id.
        "board": setup.board if isinstance(setup.board, str) else setup.board.id,
        "setup": setup.model_dump(mode="json"),
        "players": [player.id for player in setup.players],
        "options": {
            "final_round": setup.final_round,
            "mode": setup.mode.value,
            "turn_order": list(setup.first_turn_order),
        },
        "revision": revision,
        **summary_columns(state),
    }


def command_row(game_id: str, entry: LogEntry) -> dict[str, Any]:
    """A recorded command's row, its sentence stored as a message's JSON."""
    return {
        "game_id": game_id,
        "seq": entry.seq,
        "command": command_to_json(entry.command),
        "description": json.dumps(
            message_to_json(entry.sentence), ensure_ascii=False, separators=(",", ":")
        ),
        "created": entry.created,
        "mark": None,
        "tap": entry.tap,
    }


def summary_columns(state: GameState) -> dict[str, Any]:
    """The game row's listing columns, from its state."""
    return {
        "status": (GameStatus.FINISHED if state.is_terminal else GameStatus.ACTIVE).value,
        "round": state.round,
        "winner": state.winner_id,
        "summoner": state.summoner,
    }


def summary_of(record: GameRecord) -> GameSummary:
    """A game's row as a listing shows it."""
    players = record.setup["players"]
    return GameSummary(
        id=record.id,
        created=record.created,
        updated=record.updated,
        board=record.board,
        players=tuple(record.players),
        labels=tuple(
            PlayerSetup.model_validate(player, context=STORED).label for player in players
        ),
        first_turn_order=tuple(record.options["turn_order"]),
        mode=record.options["mode"],
        status=GameStatus(record.status),
        round=record.round,
        final_round=record.options["final_round"],
        winner=record.winner,
        summoner=record.summoner,
        revision=record.revision,
    )
