"""Boards the user entered (their printed board's territories, or edited layouts): the rules
of their names, and the device's own boards folder, where they are kept as JSON.

Where a page's boards are kept is its shelf (`Shelf`): this device's folder (`FolderShelf`),
or on a hosted server its table's rows in the database (companion/store/table_boards.py).
A game stores its board inline, so editing or deleting a saved board never changes a
game already played on it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import unicodedata
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Protocol

import platformdirs
from pydantic import ValidationError

from companion.boards import BoardError, parse_board, shipped_board, shipped_board_ids
from companion.language import Message
from models.board import MAX_LOCATIONS, MAX_NAME_CHARS, MAX_TERRITORIES, Board, Territory
from models.problems import InvalidValue, problem
from models.strict_json import JSONInputError, loads, read_bounded
from models.text import STORED, check_typed_text, looks_alike, name_key, without_unseen

DATA_ENV = "SUMMONERS_ISLE_DATA"
APP_NAME = "summoners-isle"
# Ids stay short enough for a file name in any script (4 bytes a character in UTF-8).
MAX_SLUG_CHARS = 40
USER_PREFIX = "my-"


class BoardExists(BoardError):
    """A board is saved under the id another one would be saved under: replace only if asked."""

    def __init__(self, saved: Board) -> None:
        super().__init__(Message("problem.board.exists", name=repr(saved.name)))
        self.saved = saved


class Shelf(Protocol):
    """Where a page's own boards are kept: this device's folder, or a hosted table's rows."""

    def boards(self) -> list[Board]:
        """Every board kept here, by name."""
        ...

    def saved(self, board_id: str) -> Board | None:
        """The board kept here under `board_id`, if there is one."""
        ...

    def save(self, board: Board, replace: bool = False) -> None:
        """Keep a board; BoardExists if one has its id and `replace` is not given, another
        BoardError if it cannot be kept."""
        ...

    def delete(self, board_id: str) -> None:
        """Delete a board kept here; BoardError if it cannot be."""
        ...


class FolderShelf:
    """This device's boards folder (`boards_dir`): the app on a machine of its own, or a
    table shared on the local network from it."""

    def boards(self) -> list[Board]:
        """Every saved board that still reads as a valid board, by name."""
        return user_boards()

    def saved(self, board_id: str) -> Board | None:
        """The saved board with this id, if there is one."""
        return saved_board(board_id)

    def save(self, board: Board, replace: bool = False) -> None:
        """Write a board atomically (see `save_user_board`)."""
        save_user_board(board, replace)

    def delete(self, board_id: str) -> None:
        """Delete a saved board (see `delete_user_board`)."""
        delete_user_board(board_id)


def boards_dir() -> Path:
    """Where user boards live: $SUMMONERS_ISLE_DATA/boards, else the user data folder."""
    base = os.environ.get(DATA_ENV) or platformdirs.user_data_dir(APP_NAME, appauthor=False)
    return Path(base) / "boards"


def slug(name: str) -> str:
    """An id made from a name in any script: case folded, words joined by '-'."""
    # What draws nothing is left out: "Isle" and "Isle" with a variation selector are one.
    text = without_unseen(unicodedata.normalize("NFKC", name).casefold())
    # Letters, digits and the marks that are part of letters (as in Devanagari) are kept.
    kept = "".join(char if unicodedata.category(char)[0] in "LNM" else " " for char in text)
    key = "-".join(kept.split())
    if len(key) > MAX_SLUG_CHARS:
        # Cut, with a digest of the whole: two long names that differ past the cut (a board
        # kept beside another as "... 2") stay two ids.
        digest = hashlib.sha256(key.encode()).hexdigest()[:8]
        key = f"{key[: MAX_SLUG_CHARS - len(digest) - 1].rstrip('-')}-{digest}"
    return key or "board"


def user_board_id(name: str) -> str:
    """The id a user's board of this name is saved under: never a shipped layout's."""
    key = slug(name)
    return key if key.startswith(USER_PREFIX) else f"{USER_PREFIX}{key}"


def board_name(name: str) -> str:
    """A board's name as typed, stripped; BoardError if it shows nothing, is too long or
    passes for a shipped layout's."""
    try:
        name = check_typed_text(name.strip(), Message("problem.what.board_name"))
    except InvalidValue as error:
        raise BoardError(error.message) from None
    if not name:
        raise BoardError(Message("problem.board.no_name"))
    if len(name) > MAX_NAME_CHARS:
        raise BoardError(Message("problem.board.name_long", most=MAX_NAME_CHARS))
    shipped = shipped_name_like(name)
    if shipped is not None:
        raise BoardError(Message("problem.board.shipped_name", name=name, shipped=shipped))
    return name


def shipped_name_like(name: str) -> str | None:
    """The shipped layout's name that `name` would pass for, if any: the same words once
    case, punctuation and spacing are set aside (its id), or the same letters from other
    scripts; in any language the app speaks, short or long."""
    key, drawn = slug(name), name_key(name)
    for shipped in _shipped_names():
        if slug(shipped) == key or name_key(shipped) == drawn or looks_alike(name, shipped):
            return shipped
    return None


@cache
def _shipped_names() -> tuple[str, ...]:
    """Every shipped layout's name, short and long, as each language shows it."""
    # Loaded here, not above: the engine reads the shipped boards through this package.
    from companion.engine.names import board_term
    from companion.language.render import LANGUAGES, language

    names: dict[str, None] = {}
    for board_id in shipped_board_ids():
        board = shipped_board(board_id)
        names[board_id] = None
        for code in LANGUAGES:
            for short in (True, False):
                names[language(code).value(board_term(board, short=short), "Nu")] = None
    return tuple(names)


def user_boards() -> list[Board]:
    """Every saved user board that still reads as a valid board, by name."""
    boards = [board for _, board in _saved()]
    return sorted(boards, key=lambda board: board.name.lower())


def _saved() -> list[tuple[Path, Board]]:
    """Every board file that reads as a valid board, with its board."""
    folder = boards_dir()
    found = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            with path.open("rb") as stream:
                data = loads(read_bounded(stream, path.name), path.name)
            # Saved by this app, maybe by a version that checked text less: shown safely.
            found.append((path, parse_board(data, STORED)))
        except (OSError, JSONInputError, BoardError):
            continue  # a damaged or hostile file is skipped, never fatal
    return found


def saved_board(board_id: str) -> Board | None:
    """The user's saved board with this id, if there is one."""
    return next((board for _, board in _saved() if board.id == board_id), None)


def save_user_board(board: Board, replace: bool = False) -> Path:
    """Write a board atomically; BoardExists if one has its id and `replace` is not given."""
    folder = boards_dir()
    path = folder / f"{board.id}.json"
    if not replace:
        saved = saved_board(board.id)
        if saved is not None or path.exists():
            raise BoardExists(saved or board)
    temporary = path.with_suffix(".json.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary.write_text(
            board.model_dump_json(indent=2, exclude_defaults=True), encoding="utf-8"
        )
        temporary.replace(path)
    except OSError as error:
        # A half-written temporary file is no board: leave none behind.
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
        said = Message("problem.board.not_saved", folder=str(folder), why=str(error.strerror))
        raise BoardError(said) from error
    return path


def delete_user_board(board_id: str) -> None:
    """Delete a saved user board; BoardError for a shipped layout or a board not saved."""
    if board_id in shipped_board_ids():
        raise BoardError(Message("problem.board.shipped", id=board_id))
    # By the id inside, not the file name: a file copied in by hand may be named otherwise.
    found = [path for path, board in _saved() if board.id == board_id]
    if not found:
        raise BoardError(Message("problem.board.not_found", id=repr(board_id)))
    for path in found:
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            said = Message("problem.board.not_deleted", path=str(path), why=str(error.strerror))
            raise BoardError(said) from error


def keep_both(board: Board, saved: Callable[[str], Board | None] = saved_board) -> Board:
    """The board renamed 'Name 2' (or 3...) so it is kept beside the one `saved` (a shelf's
    lookup by id) holds under its id; the name cut to make room for the number."""
    number = 2
    while True:
        suffix = f" {number}"
        name = f"{board.name[: MAX_NAME_CHARS - len(suffix)].rstrip()}{suffix}"
        if saved(user_board_id(name)) is None:
            return parse_board({**board.model_dump(), "name": name, "id": user_board_id(name)})
        number += 1


def board_from_counts(name: str, territories: list[tuple[str, int, int]]) -> Board:
    """A table board from (territory name, bonus, number of locations); BoardError if invalid."""
    name = board_name(name)
    if not territories:
        raise BoardError(Message("problem.board.no_territory"))
    if len(territories) > MAX_TERRITORIES:
        raise BoardError(Message("problem.board.territories_many", most=MAX_TERRITORIES))
    # Counted before any location is made: a hostile count would otherwise fill memory.
    places = sum(max(count, 0) for _, _, count in territories)
    if places > MAX_LOCATIONS:
        raise BoardError(Message("problem.board.too_many", count=places, most=MAX_LOCATIONS))
    made = []
    seen: set[str] = set()
    for index, (title, bonus, count) in enumerate(territories, start=1):
        if not title.strip():
            raise BoardError(Message("problem.board.territory_unnamed", number=str(index)))
        key = slug(title)
        if key in seen:
            raise BoardError(Message("problem.board.same_name", name=repr(title.strip())))
        seen.add(key)
        if count < 1:
            raise BoardError(Message("problem.board.no_location", name=title.strip()))
        try:
            made.append(
                Territory(
                    id=key,
                    name=title.strip(),
                    bonus=bonus,
                    locations=tuple(f"{key}-{n}" for n in range(1, count + 1)),
                )
            )
        except ValidationError as error:
            said = Message("problem.board.territory", name=title.strip(), problem=problem(error))
            raise BoardError(said) from None
    return parse_board({"id": user_board_id(name), "name": name, "territories": made})
