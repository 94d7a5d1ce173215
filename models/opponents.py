"""The computer opponents a seat can be given, by the name a game log records."""

from __future__ import annotations

from companion.language.message import Message
from models.problems import InvalidValue

BOT_NAMES = ("random", "greedy", "mcts")
# Thinking time per turn (a seat's run of decisions) of each mcts level, in milliseconds.
MCTS_LEVELS = {"easy": 200, "normal": 700, "hard": 3000}


def parse_bot(name: str) -> tuple[str, int | None]:
    """A bot's kind, and the budget its mcts level names (None if none); ValueError if unknown."""
    kind, colon, level = name.partition(":")
    if kind not in BOT_NAMES:
        raise InvalidValue(
            Message("problem.bot.unknown", name=repr(name), known=", ".join(BOT_NAMES))
        )
    if not colon:
        return kind, None
    if kind != "mcts":
        raise InvalidValue(Message("problem.bot.no_levels", kind=repr(kind)))
    if level not in MCTS_LEVELS:
        raise InvalidValue(
            Message("problem.bot.unknown_level", level=repr(level), known=", ".join(MCTS_LEVELS))
        )
    return kind, MCTS_LEVELS[level]
