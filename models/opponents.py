"""The computer opponents a seat can be given, by the name a game log records."""

from __future__ import annotations

BOT_NAMES = ("random", "greedy", "mcts")
# Thinking time per turn (a seat's run of decisions) of each mcts level, in milliseconds.
MCTS_LEVELS = {"easy": 200, "normal": 700, "hard": 3000}


def parse_bot(name: str) -> tuple[str, int | None]:
    """A bot's kind, and the budget its mcts level names (None if none); ValueError if unknown."""
    kind, colon, level = name.partition(":")
    if kind not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)})")
    if not colon:
        return kind, None
    if kind != "mcts":
        raise ValueError(f"only mcts has levels, not {kind!r}")
    if level not in MCTS_LEVELS:
        raise ValueError(f"unknown mcts level {level!r} (known: {', '.join(MCTS_LEVELS)})")
    return kind, MCTS_LEVELS[level]
