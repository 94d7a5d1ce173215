"""The shipped board layouts, and turning a board reference into a validated Board."""

from __future__ import annotations

from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from pydantic import ValidationError

from companion.language import Message
from models.board import Board
from models.problems import SaidError, problem
from models.strict_json import loads

# Package data: installed with the package, found through importlib.resources wherever it is.
BOARDS_DIR: Traversable = resources.files("companion") / "data" / "boards"


class BoardError(SaidError, ValueError):
    """A board reference or definition that cannot be used; the message says why, in any
    language (`error.message`, models/problems.py)."""


def shipped_board_ids() -> list[str]:
    """The ids of the layouts that ship with the app."""
    return sorted(
        entry.name.removesuffix(".json")
        for entry in BOARDS_DIR.iterdir()
        if entry.name.endswith(".json")
    )


@cache
def shipped_board(board_id: str) -> Board:
    """Load one shipped layout by id."""
    known = shipped_board_ids()
    # Only a listed id becomes a file name: any other ("../../x") could reach outside
    # BOARDS_DIR. It also keeps the cache to the shipped boards, as errors are not cached.
    if board_id not in known:
        raise BoardError(
            Message("problem.board.unknown", id=repr(board_id), known=", ".join(known))
        )
    data = (BOARDS_DIR / f"{board_id}.json").read_text(encoding="utf-8")
    return parse_board(loads(data, f"{board_id}.json"))


def parse_board(data: Any, context: dict[str, Any] | None = None) -> Board:
    """Validate an inline board definition, with one clear message when it is wrong.

    `context` models.text.STORED reads a board the user saved: its text is shown safely.
    """
    try:
        return Board.model_validate(data, context=context)
    except ValidationError as error:
        raise BoardError(Message("problem.board.invalid", problem=problem(error, data))) from None


def resolve_board(reference: str | Board | dict[str, Any]) -> Board:
    """A board from a shipped id, an inline definition or an already validated Board."""
    if isinstance(reference, Board):
        return reference
    if isinstance(reference, str):
        return shipped_board(reference)
    return parse_board(reference)
