"""A saved game's log out (a `GameLog`, docs/game-log.md) and in, as a new game whose every
command is checked again."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

from sqlalchemy import Connection

from companion.engine import IllegalCommand
from companion.engine.dice import with_rolls
from companion.engine.versions import upgrade
from companion.language import Message
from companion.store.dice import COPIES_KEY, copy_secret, dice_for
from companion.store.dice_secrets import DiceSecrets
from companion.store.errors import LogError, StoreError
from companion.store.games import Games, game_of
from companion.store.rows import INSERT_COMMAND, INSERT_GAME, command_row, new_game_id, new_game_row
from companion.store.saved import LogEntry, SavedGame, apply_noting_reset
from companion.store.table_storage import (
    IMPORT_TRIES,
    IMPORTS_PER_HOUR,
    ROW_BYTES,
    record_bytes,
)
from companion.store.table_storage import size as stored_size
from models.commands import CommandFormatError
from models.game_log import GameLog, inferred_taps
from models.records import utc_now


class Transfer(Games, DiceSecrets):
    """Game logs exported and imported."""

    def export(self, game_id: str) -> GameLog:
        """The game's setup and active commands as a game log (undone commands left out)."""
        saved = self._latest(game_id)
        # Commands saved before log version 2 are written as version 2 says them.
        state = saved.game.new_initial_state()
        commands = []
        for entry in saved.log:
            commands.append(upgrade(state, entry.command))
            state.apply(entry.command)
        sizes: list[int] = []
        for index, entry in enumerate(saved.log):
            if index and entry.tap == saved.log[index - 1].tap:
                sizes[-1] += 1
            else:
                sizes.append(1)
        return GameLog.of(saved.setup, commands, taps=sizes)

    def import_log(self, log: GameLog) -> SavedGame:
        """Save a game log as a new game, checking every command; missing dice are rolled."""
        if self.table_id is not None:
            self._count_import(self.table_id)
        game = game_of(log.setup)
        try:
            commands = log.parsed_commands()
        except CommandFormatError as error:
            raise LogError(error.message) from None
        game_id = new_game_id()
        # Every import of one game rolls alike, and never as the game it was exported from.
        secret = copy_secret(self._key(COPIES_KEY), log.setup, commands)
        state = game.new_initial_state()
        now = utc_now()
        entries = []
        sizes = log.taps if log.taps is not None else inferred_taps(commands)
        taps = [start + 1 for start, size in zip(_starts(sizes), sizes, strict=True)]
        tap_of = [tap for tap, size in zip(taps, sizes, strict=True) for _ in range(size)]
        for index, command in enumerate(commands):
            seq = index + 1
            filled = upgrade(state, with_rolls(state, command, dice_for(secret, index, command)))
            sentence = state.sentence(filled)
            try:
                reset = apply_noting_reset(state, filled)
            except IllegalCommand as error:
                said = Message("problem.log.command", index=str(index), problem=error.message)
                raise LogError(said) from None
            entries.append(LogEntry(seq, filled, sentence, now, reset, tap_of[index]))
        setup = log.setup
        game_row = new_game_row(game_id, setup, state, now, revision=len(entries), secret=secret)
        game_row["table_id"] = self.table_id
        rows = [command_row(game_id, entry) for entry in entries]

        def write(connection: Connection) -> None:
            self._check_room(connection)
            spent = ROW_BYTES + stored_size(game_row["setup"])
            spent += sum(record_bytes(row["command"], row["description"]) for row in rows)
            self._spend(connection, spent)
            connection.execute(INSERT_GAME, game_row)
            if rows:
                connection.execute(INSERT_COMMAND, rows)

        self._save(write)
        count = len(entries)
        saved = SavedGame(
            game_id, count, now, now, setup, game, state, tuple(entries), (), count, secret
        )
        return self._remember(saved)

    def _count_import(self, table_id: str) -> None:
        """Count an import at a hosted table; StoreError past IMPORTS_PER_HOUR an hour."""
        wait = self.tables.attempt(
            IMPORT_TRIES, table_id, time.time(), 3600.0, IMPORTS_PER_HOUR, counts=True
        )
        if wait > 0:
            minutes = max(1, math.ceil(wait / 60))
            raise StoreError(Message("limit.table.imports", most=IMPORTS_PER_HOUR, minutes=minutes))


def _starts(sizes: Sequence[int]) -> list[int]:
    """Where each tap of a log begins, counting records from 0."""
    starts, at = [], 0
    for size in sizes:
        starts.append(at)
        at += size
    return starts
