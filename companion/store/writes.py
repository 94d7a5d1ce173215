"""Revision-checked writes to a saved game's log: each names the revision it was made from
and bumps it in the same transaction, so two devices writing to one game at once cannot
both win, and nothing is lost."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, update
from sqlmodel import select

from companion.engine import Game, GameState
from companion.engine.dice import with_rolls
from companion.engine.replay import ReplayError, replay
from companion.language import Message
from companion.store.dice import dice_for
from companion.store.drafts import drop_applied_draft, entries_of, write_draft
from companion.store.errors import (
    GameMovedOn,
    GameNotFound,
    LogError,
    NothingToRedo,
    NothingToUndo,
    StoreError,
)
from companion.store.games import Games
from companion.store.rows import COMMANDS, GAMES, INSERT_COMMAND, command_row, summary_columns
from companion.store.saved import LogEntry, SavedGame, apply_noting_reset, tap_size
from companion.store.table_storage import ROW_BYTES, record_bytes
from models.commands import Command, EnergyAndReset
from models.game_size import most_records
from models.records import Mark, utc_now

_BUMP_REVISION = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("game_id"), GAMES.c.revision == bindparam("expected"))
    .values(
        revision=bindparam("next_revision"),
        updated=bindparam("now"),
        status=bindparam("new_status"),
        round=bindparam("new_round"),
        winner=bindparam("new_winner"),
        summoner=bindparam("new_summoner"),
    )
)
_CURRENT_REVISION = select(GAMES.c.revision).where(GAMES.c.id == bindparam("game_id"))
_ABANDON_UNDONE = (
    update(COMMANDS)
    .where(COMMANDS.c.game_id == bindparam("of_game"), COMMANDS.c.mark == Mark.UNDONE.value)
    .values(mark=Mark.ABANDONED.value)
)
_SET_MARK = (
    update(COMMANDS)
    .where(COMMANDS.c.game_id == bindparam("of_game"), COMMANDS.c.seq == bindparam("target"))
    .values(mark=bindparam("new_mark"))
)


class Writes(Games):
    """Commands recorded, undone and redone, each write checked against a revision."""

    def append(self, game_id: str, command: Command, revision: int) -> SavedGame:
        """Record a command made from `revision`; missing dice are rolled and stored with it.

        IllegalCommand (nothing stored) if the rules refuse it; GameMovedOn if the game
        is no longer at `revision`.
        """
        return self.append_all(game_id, [command], revision)

    def append_all(self, game_id: str, commands: Sequence[Command], revision: int) -> SavedGame:
        """Record commands made one after another from `revision`, all of them or none.

        One tap can say several things (a skip to a player, then their summon); they are
        checked in order and saved in one write, so a refusal of any leaves the game as it was.
        Each stays its own entry in the log, undone one at a time.
        """
        saved = self._at(game_id, revision)
        most = most_records(len(saved.setup.players), saved.setup.final_round)
        if len(saved.log) + len(commands) > most:
            # No game holds more (models/game_size.py): what comes past it is no play.
            raise StoreError(Message("limit.game.records", most=most))
        state = saved.state.clone()
        now = utc_now()
        entries = []
        tap = saved.last_seq + 1
        for index, command in enumerate(commands):
            seq = tap + index
            dice = dice_for(saved.secret or game_id, len(saved.log) + index, command, saved.dice)
            filled = with_rolls(state, command, dice)
            sentence = state.sentence(filled)
            reset = apply_noting_reset(state, filled)
            entries.append(LogEntry(seq, filled, sentence, now, reset, tap))
        if not entries:
            raise StoreError(Message("store.nothing_to_record"))
        rows = [command_row(game_id, entry) for entry in entries]

        def change(connection: Connection) -> None:
            spent = sum(record_bytes(row["command"], row["description"]) for row in rows)
            # Undone rows it ends are written anew, as abandoned.
            self._spend(connection, spent, spent + ROW_BYTES * len(saved.undone), playing=True)
            if saved.undone:
                # A new command ends the redo branch: the undone rows stay, never redoable.
                connection.execute(_ABANDON_UNDONE, {"of_game": game_id})
            connection.execute(INSERT_COMMAND, rows)
            # Applied: the draft it was entered in has served.
            drop_applied_draft(connection, game_id, entries)

        return self._advance(
            saved,
            state,
            now,
            change,
            log=(*saved.log, *entries),
            undone=(),
            last_seq=entries[-1].seq,
        )

    def undo(self, game_id: str, revision: int) -> SavedGame:
        """Take back the newest active command; its row stays, marked undone."""
        saved = self._at(game_id, revision)
        if not saved.log:
            raise NothingToUndo(Message("store.nothing_to_undo", game=game_id))
        cut = len(saved.log) - tap_size(saved.log[::-1])
        taken, log = saved.log[cut:], saved.log[:cut]
        state = _replay(saved.game, game_id, log)
        now = utc_now()
        mark = _mark(game_id, [e.seq for e in taken], Mark.UNDONE.value)
        applied = [e.command for e in taken if isinstance(e.command, EnergyAndReset)]

        def change(connection: Connection) -> None:
            self._spend(connection, 0, ROW_BYTES * len(taken))
            mark(connection)
            if applied:
                # Undoing an applied Energy and Reset brings back what the table had entered.
                entries = entries_of(state, applied[-1])
                write_draft(connection, game_id, state.round, entries, now)

        return self._advance(saved, state, now, change, log=log, undone=(*taken, *saved.undone))

    def redo(self, game_id: str, revision: int) -> SavedGame:
        """Bring back the oldest undone command, if nothing new was recorded since."""
        saved = self._at(game_id, revision)
        if not saved.undone:
            raise NothingToRedo(Message("store.nothing_to_redo", game=game_id))
        count = tap_size(saved.undone)
        state = saved.state.clone()
        brought = tuple(
            replace(entry, reset=apply_noting_reset(state, entry.command))
            for entry in saved.undone[:count]
        )
        now = utc_now()
        mark = _mark(game_id, [e.seq for e in brought], None)

        def change(connection: Connection) -> None:
            self._spend(connection, 0, ROW_BYTES * len(brought))
            mark(connection)
            drop_applied_draft(connection, game_id, brought)

        return self._advance(
            saved, state, now, change, log=(*saved.log, *brought), undone=saved.undone[count:]
        )

    def _at(self, game_id: str, revision: int) -> SavedGame:
        """The game at `revision`: from memory when it is there, else read and checked."""
        cached = self._trusted(game_id, revision)
        if cached is not None:
            # Trusted without a read: the write's revision check catches anyone who wrote since.
            return cached
        saved = self._latest(game_id)
        if saved.revision != revision:
            raise GameMovedOn(game_id, revision, saved.revision)
        return saved

    def _advance(
        self,
        saved: SavedGame,
        state: GameState,
        now: datetime,
        change: Callable[[Connection], Any],
        **after: Any,
    ) -> SavedGame:
        """Bump the game's revision if it is still `saved.revision`, and make `change`, at
        once; the game as it is then (`state`, and the SavedGame fields in `after`)."""

        def write(connection: Connection) -> None:
            summary = {f"new_{key}": value for key, value in summary_columns(state).items()}
            result = connection.execute(
                _BUMP_REVISION,
                {
                    "game_id": saved.id,
                    "expected": saved.revision,
                    "next_revision": saved.revision + 1,
                    "now": now,
                    **summary,
                },
            )
            if result.rowcount != 1:
                current = connection.execute(_CURRENT_REVISION, {"game_id": saved.id}).scalar()
                if current is None:
                    raise GameNotFound(saved.id)
                raise GameMovedOn(saved.id, saved.revision, current)
            change(connection)

        self._save(write)
        return self._remember(
            replace(saved, revision=saved.revision + 1, updated=now, state=state, **after)
        )


def _replay(game: Game, game_id: str, log: tuple[LogEntry, ...]) -> GameState:
    try:
        return replay(game, [entry.command for entry in log])
    except ReplayError as error:
        raise LogError(
            Message("store.replay_failed", game=game_id, problem=error.message)
        ) from None


def _mark(game_id: str, seqs: Sequence[int], mark: str | None) -> Callable[[Connection], Any]:
    def change(connection: Connection) -> None:
        connection.execute(
            _SET_MARK, [{"of_game": game_id, "target": seq, "new_mark": mark} for seq in seqs]
        )

    return change
