"""Boards the user entered (their printed board's territories, or edited layouts), kept as JSON.

A game stores its board inline, so editing or deleting a saved board never changes a
game already played on it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path

import platformdirs

from companion.boards import BoardError, parse_board, shipped_board_ids
from models.board import Board, Territory

DATA_ENV = "SUMMONERS_ISLE_DATA"
APP_NAME = "summoners-isle"


def boards_dir() -> Path:
    """Where user boards live: $SUMMONERS_ISLE_DATA/boards, else the user data folder."""
    base = os.environ.get(DATA_ENV) or platformdirs.user_data_dir(APP_NAME, appauthor=False)
    return Path(base) / "boards"


def slug(name: str) -> str:
    """An id made from a name: lower case, words joined by '-'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "board"


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
            found.append((path, parse_board(json.loads(path.read_text(encoding="utf-8")))))
        except (OSError, ValueError, BoardError):
            continue  # a damaged file is skipped, never fatal
    return found


def save_user_board(board: Board) -> Path:
    """Write a board (replacing one with the same id) atomically; BoardError if it cannot."""
    folder = boards_dir()
    path = folder / f"{board.id}.json"
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
        raise BoardError(f"could not save the board in {folder}: {error.strerror}") from error
    return path


def delete_user_board(board_id: str) -> None:
    """Delete a saved user board; BoardError for a shipped layout or a board not saved."""
    if board_id in shipped_board_ids():
        raise BoardError(f"{board_id} is a shipped layout: it cannot be deleted")
    # By the id inside, not the file name: a file copied in by hand may be named otherwise.
    found = [path for path, board in _saved() if board.id == board_id]
    if not found:
        raise BoardError(f"there is no saved board {board_id!r}")
    for path in found:
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            raise BoardError(f"could not delete {path}: {error.strerror}") from error


def board_from_counts(name: str, territories: list[tuple[str, int, int]]) -> Board:
    """A table board from (territory name, bonus, number of locations); BoardError if invalid."""
    if not name.strip():
        raise BoardError("give the board a name")
    if not territories:
        raise BoardError("add at least one territory")
    made = []
    seen: set[str] = set()
    for index, (title, bonus, count) in enumerate(territories, start=1):
        if not title.strip():
            raise BoardError(f"territory {index} needs a name")
        key = slug(title)
        if key in seen:
            raise BoardError(f"two territories are called {title.strip()!r}")
        seen.add(key)
        if count < 1:
            raise BoardError(f"{title.strip()} needs at least one location")
        try:
            made.append(
                Territory(
                    id=key,
                    name=title.strip(),
                    bonus=bonus,
                    locations=tuple(f"{key}-{n}" for n in range(1, count + 1)),
                )
            )
        except ValueError as error:
            raise BoardError(f"{title.strip()}: {error}") from None
    return Board(id=f"my-{slug(name)}", name=name.strip(), territories=tuple(made))
