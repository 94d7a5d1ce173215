"""Saved games: started, read (from memory when nothing changed, else replayed from their
log), listed and deleted."""

from __future__ import annotations

from sqlalchemy import Connection, bindparam, delete
from sqlmodel import Session, col, select

from companion.boards import BoardError, resolve_board
from companion.engine import Game, IllegalCommand, SetupError
from companion.language import Message
from companion.store.core import StoreCore
from companion.store.dice import FIRST_DICE
from companion.store.errors import GameNotFound, LogError, StoreError
from companion.store.history import History, energy_by_round, summarise
from companion.store.one_look import looked
from companion.store.rows import (
    COMMANDS,
    DRAFTS,
    GAMES,
    INSERT_GAME,
    LEASES,
    new_game_id,
    new_game_row,
    stored_bytes,
    summary_of,
)
from companion.store.saved import (
    STORED_PREFIX,
    GameSummary,
    LogEntry,
    SavedGame,
    apply_noting_reset,
)
from companion.store.table_storage import ROW_BYTES, give_back
from companion.store.table_storage import size as stored_size
from models.commands import CommandFormatError, command_from_json
from models.records import CommandRecord, GameRecord, GameStatus, Mark, utc_now
from models.setup import STORED, GameSetup

# A game's revision and table: whether the copy in memory is the game as stored (`_latest`).
_REVISION = select(GAMES.c.revision, GAMES.c.table_id).where(GAMES.c.id == bindparam("id"))


class Games(StoreCore):
    """Saved games: started, read, listed and deleted."""

    def new_game(self, setup: GameSetup) -> SavedGame:
        """Start and save a game; it has no commands yet and is at revision 0."""
        game = game_of(setup)
        state = game.new_initial_state()
        now = utc_now()
        row = new_game_row(new_game_id(), setup, state, now, revision=0)
        row["table_id"] = self.table_id

        def write(connection: Connection) -> None:
            self._check_room(connection)
            self._spend(connection, ROW_BYTES + stored_size(row["setup"]))
            connection.execute(INSERT_GAME, row)

        self._save(write)
        saved = SavedGame(row["id"], 0, now, now, setup, game, state, (), (), 0, row["secret"])
        return self._remember(saved)

    def load(self, game_id: str, revision: int | None = None) -> SavedGame:
        """The game as it is now, its state rebuilt from its log (or taken from memory).

        `revision`: the one a notice said the game reached; the game kept in memory at that
        revision is taken without asking the database.
        """
        known = None if revision is None else self._trusted(game_id, revision)
        if known is None:
            # Read once per look (one_look.py): a screen's parts each load the game.
            known = looked(
                (id(self._database), "game", self.table_id, game_id), lambda: self._latest(game_id)
            )
        return self._handout(known)

    def games(self, status: GameStatus | None = None) -> list[GameSummary]:
        """Saved games, most recently played first; only those with `status` when given."""
        query = select(GameRecord).order_by(col(GameRecord.updated).desc())
        if status is not None:
            query = query.where(GameRecord.status == status.value)
        if self.table_id is not None:
            query = query.where(GameRecord.table_id == self.table_id)
        with self._failures("store.cannot_read"), Session(self._reader) as session:
            return [summary_of(record) for record in session.exec(query)]

    def unfinished(self) -> list[GameSummary]:
        """Games that can be resumed, most recent first."""
        return self.games(GameStatus.ACTIVE)

    def delete_game(self, game_id: str) -> None:
        """Remove a game and its whole log for good, in one transaction; GameNotFound if none."""

        def write(connection: Connection) -> None:
            if self.table_id is not None:
                self._check_mine(connection, game_id)
                give_back(connection, self.table_id, stored_bytes(connection, game_id))
            connection.execute(delete(DRAFTS).where(DRAFTS.c.game_id == game_id))
            connection.execute(delete(LEASES).where(LEASES.c.game_id == game_id))
            connection.execute(delete(COMMANDS).where(COMMANDS.c.game_id == game_id))
            if connection.execute(delete(GAMES).where(GAMES.c.id == game_id)).rowcount != 1:
                raise GameNotFound(game_id)

        self._save(write)
        self._cache.forget(game_id)

    def energy_by_round(self, game_id: str) -> dict[str, list[int]]:
        """Every player's energy at the end of each round played, for charts."""
        saved = self._latest(game_id)
        return energy_by_round(saved.game, [entry.command for entry in saved.log])

    def history(self) -> History:
        """Finished games summed up: wins by name, seat and start position, how games were won."""
        return summarise(self.games(GameStatus.FINISHED))

    def _latest(self, game_id: str) -> SavedGame:
        held = self._cache.get(game_id)
        if held is not None:
            # The game's revision says whether memory holds it as it is: one small read.
            reads = self._database.single_reads
            with self._failures("store.cannot_read"), reads.connect() as connection:
                found = connection.execute(_REVISION, {"id": game_id}).first()
            if found is None or (self.table_id is not None and found[1] != self.table_id):
                raise GameNotFound(game_id)
            if found[0] == held.revision:
                return held
        with self._failures("store.cannot_read"), Session(self._reader) as session:
            record = session.get(GameRecord, game_id)
            if record is None or (self.table_id is not None and record.table_id != self.table_id):
                raise GameNotFound(game_id)
            cached = self._cache.get(game_id)
            if cached is not None and cached.revision == record.revision:
                return cached
            rows = session.exec(
                # SQLModel types select() for at most four columns; five work all the same.
                select(  # type: ignore[call-overload]
                    CommandRecord.seq,
                    CommandRecord.command,
                    CommandRecord.description,
                    CommandRecord.created,
                    CommandRecord.mark,
                    CommandRecord.tap,
                )
                .where(CommandRecord.game_id == game_id)
                .order_by(col(CommandRecord.seq))
            ).all()
        setup = GameSetup.model_validate(record.setup, context=STORED)
        game = game_of(setup)
        state = game.new_initial_state()
        log: list[LogEntry] = []
        undone: list[LogEntry] = []
        for seq, data, description, created, mark, tap in rows:
            if mark == Mark.ABANDONED:
                continue
            try:
                command = command_from_json(data, STORED)
                if mark == Mark.UNDONE:
                    undone.append(LogEntry(seq, command, description, created, tap=tap or seq))
                    continue
                # Read when shown; a row from before sentences were data is told again now.
                stored = description.startswith(STORED_PREFIX)
                sentence = description if stored else state.sentence(command)
                reset = apply_noting_reset(state, command)
            except (CommandFormatError, IllegalCommand) as error:
                said = Message("store.replay_refused", game=game_id, seq=seq, problem=error.message)
                raise LogError(said) from None
            log.append(LogEntry(seq, command, sentence, created, reset, tap or seq))
        saved = SavedGame(
            game_id,
            record.revision,
            record.created,
            record.updated,
            setup,
            game,
            state,
            tuple(log),
            tuple(undone),
            rows[-1][0] if rows else 0,
            record.secret or "",
            record.dice or FIRST_DICE,
        )
        self._cache.read(saved, record.table_id)
        return saved


def game_of(setup: GameSetup) -> Game:
    """The game a setup makes; StoreError if its board or setup is refused."""
    try:
        return Game(setup, resolve_board(setup.board))
    except (BoardError, SetupError) as error:
        raise StoreError(error.message) from None
    except ValueError as error:
        raise StoreError(str(error)) from None
