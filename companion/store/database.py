"""Opening the saved-games database: where it is, durable settings, schema migrations, faults.

By default one SQLite file in the user's data directory, in WAL mode with
synchronous=FULL, so a command is on disk before `append` returns. Any SQLAlchemy
URL works instead (`--db` or SUMMONERS_ISLE_DB), PostgreSQL included.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

import platformdirs
from sqlalchemy import Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from companion.language import Message, quoted
from companion.store import DB_ENV
from companion.store.errors import StoreError
from companion.store.idle_ping import ping_after_idle

if TYPE_CHECKING:
    from alembic.config import Config

APP_NAME = "summoners-isle"
# The name pip installs this app by, for the hint when an optional database driver is missing.
DISTRIBUTION = "summoners-isle-companion"
DEFAULT_FILE = "games.sqlite3"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# The newest schema revision; tests check it against the migration files.
HEAD_REVISION = "0007"
# How long a writer waits for another's transaction on SQLite before giving up.
BUSY_TIMEOUT_S = 30
# The first bytes of every SQLite database file.
SQLITE_HEADER = b"SQLite format 3\x00"
# The SQLite errors that mean the file itself is damaged, not merely busy.
_DAMAGED = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
# The tables of a games database; a SQLite file with tables but not these is another program's.
OUR_TABLES = frozenset({"alembic_version", "games", "commands"})
# Serialises migrations of one PostgreSQL database between processes opening it at once.
_PG_MIGRATION_LOCK = 0x53_49_44_42


def default_path() -> Path:
    """The SQLite file used when neither --db nor SUMMONERS_ISLE_DB names a database."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DEFAULT_FILE


def resolve_url(db: str | None = None) -> URL:
    """The database URL: the argument, else $SUMMONERS_ISLE_DB, else the default file.

    A plain path (no '://') means a SQLite file at that path.
    """
    given = db or os.environ.get(DB_ENV) or ""
    if not given:
        return URL.create("sqlite", database=str(default_path()))
    if "://" not in given:
        return URL.create("sqlite", database=str(Path(given).expanduser().resolve()))
    try:
        url = make_url(given)
    except (ArgumentError, ValueError):
        raise StoreError(Message("store.db.not_url", given=quoted(given))) from None
    database = url.database or ""
    if url.get_backend_name() == "sqlite" and database.startswith("~"):
        # As for a plain path: `sqlite:///~/games.db` means the home folder, not a folder "~".
        url = url.set(database=str(Path(database).expanduser()))
    return url


def sqlite_file(url: URL) -> Path | None:
    """The file behind a SQLite URL, or None for other databases and in-memory SQLite."""
    if url.get_backend_name() != "sqlite":
        return None
    database = url.database or ""
    if database in ("", ":memory:") or url.query.get("mode") == "memory":
        return None
    return Path(database)


@dataclass
class Database:
    """An open database: its engine, and what the user must be told about opening it."""

    engine: Engine
    url: URL
    notices: list[Message] = field(default_factory=list)

    @property
    def is_sqlite(self) -> bool:
        """Whether this is SQLite (one writer at a time, whole-file locking)."""
        return self.url.get_backend_name() == "sqlite"

    @cached_property
    def single_reads(self) -> Engine:
        """The engine for reads of one statement each: on PostgreSQL outside a transaction
        (no BEGIN and ROLLBACK around it, two round trips fewer; at READ COMMITTED each
        statement had its own snapshot anyway)."""
        return (
            self.engine
            if self.is_sqlite
            else self.engine.execution_options(isolation_level="AUTOCOMMIT")
        )

    @property
    def label(self) -> str:
        """The URL to show to a user, password hidden."""
        return self.url.render_as_string(hide_password=True)


def open_database(db: str | None = None) -> Database:
    """Open (creating and migrating when needed) the database named by `db`."""
    url = resolve_url(db)
    notices: list[Message] = []
    path = sqlite_file(url)
    if path is not None:
        _make_folder(path.parent)
        reason = _damage(path)
        if reason is not None:
            notices.append(_move_aside(path, reason))
    engine = _engine(url)
    database = Database(engine, url, notices)
    try:
        migrate(engine)
    except DBAPIError as error:
        engine.dispose()
        said = Message("store.db.cannot_open", database=database.label, error=first_line(error))
        raise StoreError(said) from None
    except BaseException:
        engine.dispose()
        raise
    return database


def _make_folder(folder: Path) -> None:
    """Create the folder a SQLite file goes in; StoreError naming it when that cannot be done."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise StoreError(Message("store.db.folder_blocked", folder=str(folder))) from None
    except OSError as error:
        said = Message("store.db.no_folder", folder=str(folder), error=_os_words(error))
        raise StoreError(said) from None


def _engine(url: URL) -> Engine:
    try:
        if url.get_backend_name() == "sqlite":
            engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S})
            event.listen(engine, "connect", _sqlite_connect)
            event.listen(engine, "begin", _sqlite_begin)
            return engine
        engine = create_engine(url)
        ping_after_idle(engine)
        return engine
    except (ArgumentError, NoSuchModuleError) as error:
        said = Message("store.db.bad_url", url=repr(url), error=str(error))
        raise StoreError(said) from None
    except ImportError as error:
        if url.get_backend_name() == "postgresql":
            said = Message("store.db.no_postgres", url=repr(url), package=DISTRIBUTION)
            raise StoreError(said) from None
        raise StoreError(Message("store.db.no_driver", url=repr(url), error=str(error))) from None


def _sqlite_connect(dbapi: sqlite3.Connection, record: object) -> None:
    # SQLAlchemy then emits BEGIN itself (see _sqlite_begin), instead of pysqlite's guesses.
    dbapi.isolation_level = None
    cursor = dbapi.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # FULL: the WAL is synced at every commit, so an append survives a crash or power loss.
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    # A writer takes the write lock up front, so it waits its turn rather than failing later.
    write = connection.get_execution_options().get("write", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def first_line(error: BaseException) -> str:
    """A database error as one line: the driver's own message, without SQL or traceback."""
    original = getattr(error, "orig", None) or error
    return str(original).strip().splitlines()[0] if str(original).strip() else type(error).__name__


# --- damaged files --------------------------------------------------------------------


def _damage(path: Path) -> str | None:
    """Why the SQLite file cannot be used as a database, or None when it is fine or new.

    Only a file that starts as SQLite may be moved aside as damaged: any other file
    (a typo naming a user's document, say) is refused and left untouched.
    """
    try:
        if not path.exists():
            return None
        if not path.is_file():
            raise StoreError(Message("store.db.not_a_file", path=str(path)))
        if not os.access(path, os.R_OK | os.W_OK):
            raise StoreError(Message("store.db.no_permission", path=str(path)))
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as error:
        said = Message("store.db.unreadable", path=str(path), error=_os_words(error))
        raise StoreError(said) from None
    if not header:
        return None  # an empty file: SQLite starts a new database in it
    if header != SQLITE_HEADER:
        raise StoreError(Message("store.db.not_sqlite", path=str(path)))
    if _foreign(path):
        raise StoreError(Message("store.db.foreign", path=str(path)))
    try:
        connection = sqlite3.connect(f"{path.as_uri()}?mode=rw", uri=True, timeout=BUSY_TIMEOUT_S)
    except sqlite3.Error as error:
        return _damage_reason(error)
    try:
        result = connection.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error as error:
        return _damage_reason(error)
    finally:
        connection.close()
    if result != [("ok",)]:
        return f"integrity check failed: {result[0][0]}"
    return None


def _foreign(path: Path) -> bool:
    """Whether a SQLite file holds tables, but not a games database's: another program's data."""
    # Read-only and immutable: looking writes nothing, not even a journal or WAL index.
    try:
        connection = sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return False  # unreadable: the damage check that follows says why
    try:
        rows = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        ).fetchall()
    except sqlite3.Error:
        return False
    finally:
        connection.close()
    tables = {name for (name,) in rows}
    return bool(tables) and not tables >= OUR_TABLES


def _damage_reason(error: sqlite3.Error) -> str:
    if getattr(error, "sqlite_errorcode", None) in _DAMAGED:
        return str(error)
    raise StoreError(Message("store.db.cannot_open_file", error=str(error))) from None


def _move_aside(path: Path, reason: str) -> Message:
    """Rename the damaged file (and its WAL files) out of the way; the notice says where."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    aside = path.with_name(f"{path.name}.corrupt-{stamp}")
    try:
        for suffix in ("-wal", "-shm", "-journal"):
            companion_file = path.with_name(path.name + suffix)
            if companion_file.exists():
                companion_file.rename(aside.with_name(aside.name + suffix))
        path.rename(aside)
    except OSError as error:
        said = Message("store.db.stuck", path=str(path), reason=reason, error=_os_words(error))
        raise StoreError(said) from None
    return Message("store.db.moved_aside", path=str(path), reason=reason, aside=str(aside))


def _os_words(error: OSError) -> str:
    """The system's own words for a file error."""
    return str(error.strerror or error)


# --- schema -----------------------------------------------------------------------------


def alembic_config() -> Config:
    """The Alembic configuration of the store's migrations (no alembic.ini needed)."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def schema_revision(connection: Connection) -> str | None:
    """The schema revision a database is at, or None before the first migration."""
    if not connection.dialect.has_table(connection, "alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def migrate(engine: Engine, target: str = "head") -> None:
    """Bring the schema up to `target`; a database from a newer app is refused, not touched."""
    if target == "head":
        with engine.connect() as connection:
            if schema_revision(connection) == HEAD_REVISION:
                return
    _upgrade(engine, target)


def _upgrade(engine: Engine, target: str) -> None:
    # Alembic is loaded only when there is migrating to do, so opening stays fast.
    from alembic import command
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    config = alembic_config()
    with engine.execution_options(write=True).begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK}
            )
        current = schema_revision(connection)
        known = {script.revision for script in ScriptDirectory.from_config(config).walk_revisions()}
        if current is not None and current not in known:
            said = Message("store.db.newer", current=current, known=HEAD_REVISION)
            raise StoreError(said)
        config.attributes["connection"] = connection
        try:
            command.upgrade(config, target)
        except CommandError as error:
            raise StoreError(Message("store.db.cannot_migrate", error=str(error))) from None
