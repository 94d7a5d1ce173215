"""The saved-games store: each game is its setup plus an append-only log of commands.

State is never stored: it is `replay(Game(setup, board), active commands)`. Every
write names the revision it was based on and bumps it in the same transaction, so
two devices writing to one game at once cannot both win, and nothing is lost.

>>> from companion.language.render import render
>>> from models.setup import GameSetup
>>> store = open_store("sqlite://")
>>> saved = store.new_game(GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle"))
>>> saved = store.append(saved.id, saved.state.legal_commands()[0], saved.revision)
>>> saved.revision, render(saved.undo_label, "fr")
(1, "red invoque un Wyrm pour 5 points d'énergie (5 → 0)")
"""

from __future__ import annotations

import copy
import json
import math
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Self

from sqlalchemy import Connection, bindparam, delete, func, insert, update
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select

from companion.boards import BoardError, resolve_board
from companion.engine import Game, GameState, IllegalCommand, SetupError
from companion.engine.dice import with_rolls
from companion.engine.replay import ReplayError, replay
from companion.engine.versions import upgrade
from companion.language import Message, by_semicolons
from companion.language.stored import NotAMessage, message_from_json, message_to_json
from companion.store.cache_weight import Weights, game_bytes
from companion.store.database import Database, first_line, open_database
from companion.store.dice import COPIES_KEY, DICE, FIRST_DICE, copy_secret, dice_for, new_secret
from companion.store.errors import (
    DraftMovedOn,
    GameMovedOn,
    GameNotFound,
    LogError,
    NothingToRedo,
    NothingToUndo,
    StoreError,
)
from companion.store.history import History, energy_by_round, summarise
from companion.store.one_look import looked, written
from companion.store.table_boards import TableBoards
from companion.store.table_storage import (
    IMPORT_TRIES,
    IMPORTS_PER_HOUR,
    ROW_BYTES,
    give_back,
    record_bytes,
    spend,
)
from companion.store.table_storage import size as stored_size
from companion.store.tables import TableRecords
from models.commands import (
    Command,
    CommandFormatError,
    EnergyAndReset,
    command_from_json,
    command_to_json,
)
from models.game_log import GameLog, inferred_taps
from models.game_size import most_records
from models.records import (
    CommandRecord,
    DraftRecord,
    GameRecord,
    GameStatus,
    LeaseRecord,
    Mark,
    StoreKeyRecord,
    utc_now,
)
from models.reset_draft import (
    DraftDeclined,
    DraftEntries,
    DraftPlacement,
    entries_from_json,
    entries_to_json,
)
from models.setup import STORED, GameSetup, PlayerSetup

# Games whose latest state is kept in memory, so an append or another device's notice
# needs no replay: a hosted server shows a game per table, 100 tables and more; and the most
# they may weigh together (companion/store/cache_weight.py), as one game may hold 5,327 records.
CACHED_GAMES = 512
CACHED_BYTES = 96 * 1024 * 1024
# The most games one hosted table keeps: a table deletes one to start another.
TABLE_GAMES = 200
ID_BYTES = 6

# The writes, built once: building a statement costs more CPU than running it on SQLite.
# The tables by name: SQLModel sets `__table__` on its table models but does not declare it.
_games = GameRecord.metadata.tables["games"]
_commands = CommandRecord.metadata.tables["commands"]
_drafts = DraftRecord.metadata.tables["reset_drafts"]
_leases = LeaseRecord.metadata.tables["leases"]
_keys = StoreKeyRecord.metadata.tables["store_keys"]
_INSERT_GAME = insert(_games)
_INSERT_COMMAND = insert(_commands)
_BUMP_REVISION = (
    update(_games)
    .where(_games.c.id == bindparam("game_id"), _games.c.revision == bindparam("expected"))
    .values(
        revision=bindparam("next_revision"),
        updated=bindparam("now"),
        status=bindparam("new_status"),
        round=bindparam("new_round"),
        winner=bindparam("new_winner"),
        summoner=bindparam("new_summoner"),
    )
)
_CURRENT_REVISION = select(_games.c.revision).where(_games.c.id == bindparam("game_id"))
# A game's revision and table: whether the copy in memory is the game as stored (`_latest`).
_REVISION = select(_games.c.revision, _games.c.table_id).where(_games.c.id == bindparam("id"))
_ABANDON_UNDONE = (
    update(_commands)
    .where(_commands.c.game_id == bindparam("of_game"), _commands.c.mark == Mark.UNDONE.value)
    .values(mark=Mark.ABANDONED.value)
)
_SET_MARK = (
    update(_commands)
    .where(_commands.c.game_id == bindparam("of_game"), _commands.c.seq == bindparam("target"))
    .values(mark=bindparam("new_mark"))
)


def new_game_id() -> str:
    """A fresh game id: 12 hex digits, random."""
    return secrets.token_hex(ID_BYTES)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One recorded command: its number in the game, the command with its dice, its sentence,
    and the tap it belongs to."""

    seq: int
    command: Command
    # The engine's sentence for it, as it played out: a message, or the stored JSON of one
    # (an id and values, `companion.language.stored`), read when first asked (`sentence`):
    # opening a game reads no sentence it does not show.
    said: Message | str = field(compare=False)
    created: datetime
    # The Energy and Reset this command finished (`Tally.log_message`): derived when the
    # log is replayed, never stored, so the log's format stays as it was.
    reset: Message | None = None
    # The tap that recorded it: the seq of that tap's first record. Undo and redo
    # take back and bring back a whole tap; export and import keep where taps begin.
    tap: int = 0

    @property
    def sentence(self) -> Message:
        """The record's sentence, to render in any language."""
        said = self.said
        if isinstance(said, str):
            said = _stored(said) or Message("log.recorded", text=said)
            # Read once: the entry is immutable to its users, this only keeps the reading.
            object.__setattr__(self, "said", said)
        return said


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A game as stored at one revision, with the state its active commands replay to."""

    id: str
    revision: int
    created: datetime
    updated: datetime
    setup: GameSetup
    game: Game
    # The caller's own copy: changing it changes nothing stored.
    state: GameState
    # The active line, oldest first: replaying it gives `state`.
    log: tuple[LogEntry, ...]
    # Undone commands that redo can bring back, the next one to redo first.
    undone: tuple[LogEntry, ...]
    # The highest seq recorded for this game, abandoned rows included.
    last_seq: int
    # Where its dice come from (companion/store/dice.py): kept in the store, never shown or
    # exported; and how they are drawn from it.
    secret: str = field(default="", repr=False, compare=False)
    dice: int = field(default=DICE, repr=False, compare=False)

    @property
    def status(self) -> GameStatus:
        """Finished once the game is over."""
        return GameStatus.FINISHED if self.state.is_terminal else GameStatus.ACTIVE

    @property
    def undo_label(self) -> Message | None:
        """What undo would take back: its records' sentences as one."""
        return joined(
            [entry.sentence for entry in self.log[len(self.log) - tap_size(self.log[::-1]) :]]
        )

    @property
    def redo_label(self) -> Message | None:
        """What redo would bring back: its records' sentences as one."""
        return joined([entry.sentence for entry in self.undone[: tap_size(self.undone)]])


def joined(sentences: Sequence[Message]) -> Message | None:
    """The sentences of one tap as one ('a; b'), or None for none."""
    if not sentences:
        return None
    said = by_semicolons(sentences)
    assert isinstance(said, Message), "sentences joined are a message"
    return said


def apply_noting_reset(state: GameState, command: Command) -> Message | None:
    """Apply a command; the Energy and Reset it finished as a log line, or None if it did not."""
    before = state.last_tally
    state.apply(command)
    tally = state.last_tally
    return None if tally is None or tally is before else tally.log_message(state.game.labels)


def tap_size(entries: Sequence[LogEntry]) -> int:
    """How many of `entries` one undo takes back (newest first) or one redo brings back
    (oldest undone first): the records of the first one's tap.

    One tap at the table can record a skip to a later player and that player's command
    ("Bob: Troll" while it is Alice's turn); undoing the tap takes back both. Each record
    names its tap in the log: no clock decides it.
    """
    if not entries:
        return 0
    tap = entries[0].tap
    size = 1
    while size < len(entries) and entries[size].tap == tap:
        size += 1
    return size


@dataclass(frozen=True, slots=True)
class StoredDraft:
    """A game's Energy and Reset draft as stored: what the table entered (None: nothing yet),
    for which round, and the version a change must name."""

    version: int = 0
    round: int = 0
    entries: DraftEntries | None = None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A saved game as a listing shows it, read without replaying anything."""

    id: str
    created: datetime
    updated: datetime
    board: str
    players: tuple[str, ...]
    labels: tuple[str, ...]
    first_turn_order: tuple[str, ...]
    mode: str
    status: GameStatus
    round: int
    final_round: int
    winner: str | None
    summoner: bool
    revision: int


def open_store(db: str | None = None) -> Store:
    """Open the store at a URL or path, else $SUMMONERS_ISLE_DB, else the default file."""
    return Store(open_database(db))


class Store:
    """Saved games in one database; safe to share between threads, one per process is enough."""

    def __init__(self, database: Database) -> None:
        self._database = database
        engine = database.engine
        # On PostgreSQL a read sees one snapshot, so a game row and its log always agree.
        self._reader = (
            engine
            if database.is_sqlite
            else engine.execution_options(isolation_level="REPEATABLE READ")
        )
        self._writer = engine.execution_options(write=True)
        self._cache: OrderedDict[str, SavedGame] = OrderedDict()
        # The hosted table each cached game belongs to (None: none), as stored; a game
        # never changes table, so a table's view may trust the cache with it.
        self._tables_of: dict[str, str | None] = {}
        # What each game kept weighs, and all of them together.
        self._weights = Weights()
        self._lock = threading.Lock()
        # The database's own keys, read once (shared with the store's table views).
        self._keys: dict[str, str] = {}
        # Shared tables' codes, devices, seats, wrong tries and computers' leases.
        self.tables = TableRecords(database)
        # The boards hosted tables entered or drew, each table's own.
        self.boards = TableBoards(database)
        # The hosted table whose games this store sees and writes (`scoped`); None: all.
        self.table_id: str | None = None

    def scoped(self, table_id: str) -> Store:
        """This store as one hosted table's devices see it: only its games are
        listed, opened, written or deleted, and the games it starts or imports are its own.
        The connections and the games kept in memory are shared with this store."""
        view = copy.copy(self)
        view.table_id = table_id
        return view

    @property
    def shared_url(self) -> str | None:
        """The URL of a database other server processes may share (PostgreSQL), password
        included, for the bus between them; None for a SQLite file, one process's own."""
        if self._database.is_sqlite:
            return None
        return self._database.engine.url.render_as_string(hide_password=False)

    @property
    def notices(self) -> list[Message]:
        """What the user must be told about opening the database (a damaged file moved aside)."""
        return self._database.notices

    @property
    def label(self) -> str:
        """Where the games are kept, password hidden."""
        return self._database.label

    def ping(self) -> None:
        """Reach the database once (a health check); StoreError if it cannot be."""
        with self._failures("reach"), self._reader.connect() as connection:
            connection.exec_driver_sql("SELECT 1")

    def close(self) -> None:
        """Release the database connections."""
        self._database.engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- games ------------------------------------------------------------------------

    def new_game(self, setup: GameSetup) -> SavedGame:
        """Start and save a game; it has no commands yet and is at revision 0."""
        game = _game(setup)
        state = game.new_initial_state()
        now = utc_now()
        row = _game_row(new_game_id(), setup, state, now, revision=0)
        row["table_id"] = self.table_id

        def write(connection: Connection) -> None:
            self._check_room(connection)
            self._spend(connection, ROW_BYTES + stored_size(row["setup"]))
            connection.execute(_INSERT_GAME, row)

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
            return [_summary_of(record) for record in session.exec(query)]

    def unfinished(self) -> list[GameSummary]:
        """Games that can be resumed, most recent first."""
        return self.games(GameStatus.ACTIVE)

    def delete_game(self, game_id: str) -> None:
        """Remove a game and its whole log for good, in one transaction; GameNotFound if none."""

        def write(connection: Connection) -> None:
            if self.table_id is not None:
                self._check_mine(connection, game_id)
                give_back(connection, self.table_id, _stored_bytes(connection, game_id))
            connection.execute(delete(_drafts).where(_drafts.c.game_id == game_id))
            connection.execute(delete(_leases).where(_leases.c.game_id == game_id))
            connection.execute(delete(_commands).where(_commands.c.game_id == game_id))
            if connection.execute(delete(_games).where(_games.c.id == game_id)).rowcount != 1:
                raise GameNotFound(game_id)

        self._save(write)
        with self._lock:
            self._forget(game_id)

    # --- writing ----------------------------------------------------------------------

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
        rows = [_command_row(game_id, entry) for entry in entries]

        def change(connection: Connection) -> None:
            spent = sum(record_bytes(row["command"], row["description"]) for row in rows)
            # Undone rows it ends are written anew, as abandoned.
            self._spend(connection, spent, spent + ROW_BYTES * len(saved.undone), playing=True)
            if saved.undone:
                # A new command ends the redo branch: the undone rows stay, never redoable.
                connection.execute(_ABANDON_UNDONE, {"of_game": game_id})
            connection.execute(_INSERT_COMMAND, rows)
            # Applied: the draft it was entered in has served.
            _drop_applied_draft(connection, game_id, entries)

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
                entries = _entries_of(state, applied[-1])
                _write_draft(connection, game_id, state.round, entries, now)

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
            _drop_applied_draft(connection, game_id, brought)

        return self._advance(
            saved, state, now, change, log=(*saved.log, *brought), undone=saved.undone[count:]
        )

    # --- the Energy and Reset draft ---------------------------------------------------------

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
                    select(_drafts.c.version).where(_drafts.c.game_id == game_id)
                ).first():
                    raise DraftMovedOn(game_id, version)
                connection.execute(insert(_drafts), row)
                return
            result = connection.execute(
                update(_drafts)
                .where(_drafts.c.game_id == game_id, _drafts.c.version == version)
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
                give_back(connection, self.table_id, _stored_bytes(connection, game_id))
            connection.execute(delete(_drafts).where(_drafts.c.game_id == game_id))

        self._save(write)

    # --- export, import, history ------------------------------------------------------

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
        game = _game(log.setup)
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
        game_row = _game_row(game_id, setup, state, now, revision=len(entries), secret=secret)
        game_row["table_id"] = self.table_id
        rows = [_command_row(game_id, entry) for entry in entries]

        def write(connection: Connection) -> None:
            self._check_room(connection)
            spent = ROW_BYTES + stored_size(game_row["setup"])
            spent += sum(record_bytes(row["command"], row["description"]) for row in rows)
            self._spend(connection, spent)
            connection.execute(_INSERT_GAME, game_row)
            if rows:
                connection.execute(_INSERT_COMMAND, rows)

        self._save(write)
        count = len(entries)
        saved = SavedGame(
            game_id, count, now, now, setup, game, state, tuple(entries), (), count, secret
        )
        return self._remember(saved)

    def energy_by_round(self, game_id: str) -> dict[str, list[int]]:
        """Every player's energy at the end of each round played, for charts."""
        saved = self._latest(game_id)
        return energy_by_round(saved.game, [entry.command for entry in saved.log])

    def history(self) -> History:
        """Finished games summed up: wins by name, seat and start position, how games were won."""
        return summarise(self.games(GameStatus.FINISHED))

    # --- internals --------------------------------------------------------------------

    def _latest(self, game_id: str) -> SavedGame:
        with self._lock:
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
            with self._lock:
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
        game = _game(setup)
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
        with self._lock:
            self._keep(saved)
            self._tables_of[game_id] = record.table_id
            self._trim()
        return saved

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
            summary = {f"new_{key}": value for key, value in _summary(state).items()}
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

    def _check_room(self, connection: Connection) -> None:
        """StoreError if this view's table already has TABLE_GAMES games (a hosted table's
        games are bounded, so one table cannot fill a public server's database)."""
        if self.table_id is None:
            return
        held = connection.execute(
            select(func.count()).select_from(_games).where(_games.c.table_id == self.table_id)
        ).scalar_one()
        if held >= TABLE_GAMES:
            raise StoreError(Message("app.hosted.table_full", most=TABLE_GAMES))

    def _spend(
        self, connection: Connection, stored: int, written: int | None = None, playing: bool = False
    ) -> None:
        """Count what a write of this view's hosted table stores and writes
        (table_storage.py)."""
        if self.table_id is not None:
            spend(connection, self.table_id, stored, written, playing=playing)

    def _count_import(self, table_id: str) -> None:
        """Count an import at a hosted table; StoreError past IMPORTS_PER_HOUR an hour."""
        wait = self.tables.attempt(
            IMPORT_TRIES, table_id, time.time(), 3600.0, IMPORTS_PER_HOUR, counts=True
        )
        if wait > 0:
            minutes = max(1, math.ceil(wait / 60))
            raise StoreError(Message("limit.table.imports", most=IMPORTS_PER_HOUR, minutes=minutes))

    def _check_mine(self, connection: Connection, game_id: str) -> None:
        """GameNotFound unless the game is this view's table's."""
        found = connection.execute(select(_games.c.table_id).where(_games.c.id == game_id)).first()
        if found is None or found[0] != self.table_id:
            raise GameNotFound(game_id)

    def _save(self, write: Callable[[Connection], Any]) -> None:
        """Run `write` in one transaction and commit it durably, or leave nothing behind."""
        try:
            with self._failures("store.cannot_save"), self._writer.begin() as connection:
                write(connection)
        finally:
            written()

    @contextmanager
    def _failures(self, saying: str) -> Iterator[None]:
        """Database errors (server gone, disk full, locked too long) as one StoreError line,
        said by the message `saying` (reading or saving)."""
        try:
            yield
        except DBAPIError as error:
            said = Message(saying, database=self.label, error=first_line(error))
            raise StoreError(said) from None

    def _trusted(self, game_id: str, revision: int) -> SavedGame | None:
        """The game kept in memory if it is at `revision` and this view's table's (revisions
        only grow, so the game at one revision is the same game everywhere); else None."""
        with self._lock:
            cached = self._cache.get(game_id)
            mine = self.table_id is None or self._tables_of.get(game_id) == self.table_id
        return cached if cached is not None and cached.revision == revision and mine else None

    def _remember(self, saved: SavedGame) -> SavedGame:
        """Keep `saved` (just written by this view) as the game's latest, unless a newer one is."""
        with self._lock:
            current = self._cache.get(saved.id)
            if current is None or current.revision <= saved.revision:
                self._keep(saved)
                self._tables_of.setdefault(saved.id, self.table_id)
                self._trim()
        return self._handout(saved)

    def _keep(self, saved: SavedGame) -> None:
        """Keep `saved` as the latest of its game, weighed (the lock held)."""
        self._weights.set(saved.id, game_bytes(saved.setup.board, (*saved.log, *saved.undone)))
        self._cache[saved.id] = saved
        self._cache.move_to_end(saved.id)

    def _forget(self, game_id: str) -> None:
        """Drop a game from memory (the lock held)."""
        self._cache.pop(game_id, None)
        self._tables_of.pop(game_id, None)
        self._weights.drop(game_id)

    def _trim(self) -> None:
        """Forget the games used longest ago past CACHED_GAMES or CACHED_BYTES; the latest
        stays, whatever it weighs (the lock held)."""
        while len(self._cache) > 1 and (
            len(self._cache) > CACHED_GAMES or self._weights.total > CACHED_BYTES
        ):
            self._forget(next(iter(self._cache)))

    @staticmethod
    def _handout(saved: SavedGame) -> SavedGame:
        return replace(saved, state=saved.state.clone())


def _game(setup: GameSetup) -> Game:
    try:
        return Game(setup, resolve_board(setup.board))
    except (BoardError, SetupError) as error:
        raise StoreError(error.message) from None
    except ValueError as error:
        raise StoreError(str(error)) from None


def _replay(game: Game, game_id: str, log: tuple[LogEntry, ...]) -> GameState:
    try:
        return replay(game, [entry.command for entry in log])
    except ReplayError as error:
        raise LogError(
            Message("store.replay_failed", game=game_id, problem=error.message)
        ) from None


# How a stored message's JSON begins (`_command_row`); a row's English words never do.
STORED_PREFIX = '{"m":'


def _stored(description: str) -> Message | None:
    """A record's stored sentence; None for a log written before sentences were data (it
    kept English words, told again from its command instead)."""
    try:
        return message_from_json(json.loads(description))
    except (ValueError, NotAMessage):
        return None


def _stored_bytes(connection: Connection, game_id: str) -> int:
    """What a game's rows are counted as at its table (table_storage.py)."""
    setup = connection.execute(select(_games.c.setup).where(_games.c.id == game_id)).scalar()
    rows = connection.execute(
        select(_commands.c.command, _commands.c.description).where(_commands.c.game_id == game_id)
    )
    held = ROW_BYTES + stored_size(setup)
    return held + sum(record_bytes(command, str(said)) for command, said in rows)


def _starts(sizes: Sequence[int]) -> list[int]:
    """Where each tap of a log begins, counting records from 0."""
    starts, at = [], 0
    for size in sizes:
        starts.append(at)
        at += size
    return starts


def _entries_of(state: GameState, record: EnergyAndReset) -> DraftEntries:
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


def _write_draft(
    connection: Connection, game_id: str, round_: int, entries: DraftEntries, now: datetime
) -> None:
    """Put a draft in place of the game's, with a version above any it had."""
    old = connection.execute(select(_drafts.c.version).where(_drafts.c.game_id == game_id))
    version = (old.scalar() or 0) + 1
    connection.execute(delete(_drafts).where(_drafts.c.game_id == game_id))
    row = {
        "game_id": game_id,
        "round": round_,
        "version": version,
        "entries": entries_to_json(entries),
        "updated": now,
    }
    connection.execute(insert(_drafts), row)


def _drop_applied_draft(connection: Connection, game_id: str, entries: Sequence[LogEntry]) -> None:
    """An Energy and Reset among the records made active: the draft it was entered in goes."""
    if any(isinstance(entry.command, EnergyAndReset) for entry in entries):
        connection.execute(delete(_drafts).where(_drafts.c.game_id == game_id))


def _mark(game_id: str, seqs: Sequence[int], mark: str | None) -> Callable[[Connection], Any]:
    def change(connection: Connection) -> None:
        connection.execute(
            _SET_MARK, [{"of_game": game_id, "target": seq, "new_mark": mark} for seq in seqs]
        )

    return change


def _game_row(
    game_id: str,
    setup: GameSetup,
    state: GameState,
    now: datetime,
    revision: int,
    secret: str | None = None,
) -> dict[str, Any]:
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
        **_summary(state),
    }


def _command_row(game_id: str, entry: LogEntry) -> dict[str, Any]:
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


def _summary(state: GameState) -> dict[str, Any]:
    """The game row's listing columns, from its state."""
    return {
        "status": (GameStatus.FINISHED if state.is_terminal else GameStatus.ACTIVE).value,
        "round": state.round,
        "winner": state.winner_id,
        "summoner": state.summoner,
    }


def _summary_of(record: GameRecord) -> GameSummary:
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
