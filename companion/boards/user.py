"""Boards the user entered (their printed board's territories, or edited layouts), kept as JSON.

A game stores its board inline, so editing or deleting a saved board never changes a
game already played on it.
"""

from __future__ import annotations

import contextlib
import os
import unicodedata
from pathlib import Path

import platformdirs
from pydantic import ValidationError

from companion.boards import BoardError, parse_board, shipped_board_ids
from companion.language import Message
from models.board import Board, Territory
from models.problems import InvalidValue, problem
from models.strict_json import JSONInputError, loads, read_bounded
from models.text import STORED, check_typed_text

DATA_ENV = "SUMMONERS_ISLE_DATA"
APP_NAME = "summoners-isle"
# Ids stay short enough for a file name in any script (4 bytes a character in UTF-8).
MAX_SLUG_CHARS = 40
USER_PREFIX = "my-"


class BoardExists(BoardError):
    """A board is saved under the id another one would be saved under: replace only if asked."""

    def __init__(self, saved: Board) -> None:
        super().__init__(
            f"a board called {saved.name!r} is saved under the same name already: "
            "give this one another name"
        )
        self.saved = saved


def boards_dir() -> Path:
    """Where user boards live: $SUMMONERS_ISLE_DATA/boards, else the user data folder."""
    base = os.environ.get(DATA_ENV) or platformdirs.user_data_dir(APP_NAME, appauthor=False)
    return Path(base) / "boards"


def slug(name: str) -> str:
    """An id made from a name in any script: case folded, words joined by '-'."""
    text = unicodedata.normalize("NFKC", name).casefold()
    # Letters, digits and the marks that are part of letters (as in Devanagari) are kept.
    kept = "".join(char if unicodedata.category(char)[0] in "LNM" else " " for char in text)
    return "-".join(kept.split())[:MAX_SLUG_CHARS].strip("-") or "board"


def user_board_id(name: str) -> str:
    """The id a user's board of this name is saved under: never a shipped layout's."""
    key = slug(name)
    return key if key.startswith(USER_PREFIX) else f"{USER_PREFIX}{key}"


def board_name(name: str) -> str:
    """A board's name as typed, stripped; BoardError if it shows nothing."""
    try:
        name = check_typed_text(name.strip(), Message("problem.what.board_name"))
    except InvalidValue as error:
        raise BoardError(error.message) from None
    if not name:
        raise BoardError(Message("problem.board.no_name"))
    return name


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


def keep_both(board: Board) -> Board:
    """The board renamed 'Name 2' (or 3...) so it is saved beside the one saved as its id."""
    number = 2
    while True:
        name = f"{board.name} {number}"
        if saved_board(user_board_id(name)) is None:
            return parse_board({**board.model_dump(), "name": name, "id": user_board_id(name)})
        number += 1


def board_from_counts(name: str, territories: list[tuple[str, int, int]]) -> Board:
    """A table board from (territory name, bonus, number of locations); BoardError if invalid."""
    name = board_name(name)
    if not territories:
        raise BoardError(Message("problem.board.no_territory"))
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
    return Board(id=user_board_id(name), name=name, territories=tuple(made))
