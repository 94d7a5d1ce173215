"""`game export` and `game import`: a saved game's log written to a file, and read from one."""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from companion.cli.game_store import AsJson, Db, GameId, opened
from companion.cli.io import UserError, parse_json, print_json, read_text
from companion.cli.language import Lang
from companion.language import Message
from companion.language.render import DEFAULT_LANGUAGE, render
from models.game_log import MAX_LOG_BYTES, GameLog
from models.problems import problem
from models.text import json_printable

# Anyone's write permission: a file with none of these bits is read-only.
_WRITABLE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH


def export(
    game_id: GameId,
    output: Annotated[
        Path | None, typer.Option(help="Write to this file instead of standard output.")
    ] = None,
    as_json: AsJson = False,
    db: Db = None,
) -> None:
    """Write the game log (docs/game-log.md) of the game's active commands; always JSON."""
    with opened(db) as store:
        log = store.export(game_id)
        text = json.dumps(log.to_json(), indent=2, ensure_ascii=False) + "\n"
        if output is None:
            typer.echo(json_printable(text), nl=False)
        else:
            write_whole(output, text)


def write_whole(path: Path, text: str) -> None:
    """Write a file so it is either complete or untouched: a temporary file, then a rename.

    A symbolic link is written through (the file it points to is replaced, the link stays);
    an existing file keeps its permissions; a read-only file is left as it is (the rename
    needs only the folder's permission, so it is checked here); anything but a regular file
    or a new path (a folder, a FIFO, a device) is refused. Whatever stops the writing, no
    temporary file is left behind.
    """
    path = Path(os.path.realpath(path.expanduser()))
    temporary: str | None = None
    try:
        try:
            existing = path.stat()
        except FileNotFoundError:
            mode = _new_file_mode()
        else:
            if not stat.S_ISREG(existing.st_mode):
                raise UserError(f"cannot write {path}: it is not a regular file")
            mode = stat.S_IMODE(existing.st_mode)
            # Root may write anything: the permission bits still say what the owner meant.
            if not mode & _WRITABLE or not os.access(path, os.W_OK):
                raise UserError(str(Message("input.output.read_only", path=str(path))))
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror or error}") from None
    finally:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)


def _new_file_mode() -> int:
    """The permissions a new file gets here: read and write for all, less the umask."""
    umask = os.umask(0o022)
    os.umask(umask)
    return 0o666 & ~umask


def import_command(
    source: Annotated[str, typer.Argument(metavar="FILE", help="A game log, or - for stdin.")],
    as_json: AsJson = False,
    db: Db = None,
    lang: Lang = DEFAULT_LANGUAGE,
) -> None:
    """Save a game log as a new game (every command checked) and print its id."""
    with opened(db, lang) as store:
        text = read_text(source, MAX_LOG_BYTES)
        data = parse_json(text, "standard input" if source == "-" else source)
        try:
            log = GameLog.model_validate(data)
        except ValidationError as error:
            said = Message("problem.in_game_log", problem=problem(error, data))
            raise UserError(render(said, lang)) from None
        saved = store.import_log(log)
    if as_json:
        print_json({"id": saved.id, "revision": saved.revision, "status": saved.status.value})
    else:
        typer.echo(saved.id)
