"""What every `game` subcommand shares: its options, the store opened with every failure in
one line, and log lines, games and changes as JSON."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any

import typer

from companion.boards import BoardError
from companion.cli.io import UserError, fail, unicode_argument
from companion.engine import IllegalCommand
from companion.language import Message
from companion.language.render import DEFAULT_LANGUAGE, render
from companion.store import DB_ENV
from companion.store.errors import GameMovedOn, StoreError
from models.commands import CommandFormatError, command_to_json
from models.text import printable

if TYPE_CHECKING:
    from companion.store.store import GameSummary, LogEntry, SavedGame, Store

# Exit statuses: bad input, and a write that lost a race with another device.
EXIT_MOVED_ON = 3

Db = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar=DB_ENV,
        metavar="URL",
        help="A SQLAlchemy URL or a SQLite file path (default: the user data directory).",
        show_default=False,
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON.")]
GameId = Annotated[
    str, typer.Argument(metavar="ID", help="The game's id.", callback=unicode_argument)
]
Revision = Annotated[
    int | None,
    typer.Option(
        min=0,
        help="The revision this change is based on (default: the latest); "
        "a stale one is refused with exit status 3.",
    ),
]


@contextmanager
def opened(db: str | None, lang: str = DEFAULT_LANGUAGE) -> Iterator[Store]:
    """The store, with every failure turned into one line and an exit status.

    Refusals are said in `lang` (a database's own error text stays as the database wrote it).
    """
    # SQL is loaded only here, so other commands of the CLI start as fast as before.
    from companion.store.store import open_store

    try:
        store = open_store(db)
    except StoreError as error:
        fail(str(error))
    for notice in store.notices:
        typer.echo(f"warning: {printable(render(notice, lang))}", err=True)
    try:
        yield store
    except GameMovedOn as error:
        fail(render(error.message, lang), EXIT_MOVED_ON)
    except (IllegalCommand, StoreError, CommandFormatError, BoardError) as error:
        fail(render(error.message, lang))
    except UserError as error:
        fail(str(error))
    finally:
        store.close()


def entry_json(entry: LogEntry, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """One log line as JSON, its sentences in `lang`."""
    return {
        "seq": entry.seq,
        "command": command_to_json(entry.command),
        "description": render(entry.sentence, lang),
        "at": entry.created.isoformat(),
        "energy_and_reset": rendered(entry.reset, lang),
    }


def summary_json(game: GameSummary) -> dict[str, Any]:
    """A listing row as JSON."""
    return {
        "id": game.id,
        "status": game.status.value,
        "board": game.board,
        "mode": game.mode,
        "players": dict(zip(game.players, game.labels, strict=True)),
        "round": game.round,
        "final_round": game.final_round,
        "winner": game.winner,
        "summoner": game.summoner,
        "revision": game.revision,
        "created": game.created.isoformat(),
        "updated": game.updated.isoformat(),
    }


def change_json(saved: SavedGame, entry: LogEntry, lang: str) -> dict[str, Any]:
    """What a write did, as JSON: the command concerned and where the game now stands."""
    return {
        "id": saved.id,
        "revision": saved.revision,
        **entry_json(entry, lang),
        "status": saved.status.value,
        "winner": saved.state.winner_id,
        "undo": rendered(saved.undo_label, lang),
        "redo": rendered(saved.redo_label, lang),
    }


def rendered(message: Message | None, lang: str) -> str | None:
    """A message in `lang`, or None for none."""
    return None if message is None else render(message, lang)
