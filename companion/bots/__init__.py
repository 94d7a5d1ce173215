"""Computer opponents: each chooses one legal command for the seat whose turn it is."""

from companion.bots.base import Bot
from companion.bots.greedy import GreedyBot
from companion.bots.mcts import DEFAULT_BUDGET_MS, LEVELS, MctsBot
from companion.bots.random_bot import RandomBot

BOT_NAMES = ("random", "greedy", "mcts")


def make_bot(name: str, seed: int | None = None, budget_ms: float | None = None) -> Bot:
    """A bot by name; `mcts:easy|normal|hard` picks a level, else `budget_ms` (default 1 s)."""
    kind, _, level = name.partition(":")
    if kind == "mcts":
        if level:
            if level not in LEVELS:
                raise ValueError(f"unknown mcts level {level!r} (known: {', '.join(LEVELS)})")
            budget_ms = LEVELS[level]
        return MctsBot(seed, budget_ms=budget_ms or DEFAULT_BUDGET_MS)
    if level:
        raise ValueError(f"only mcts has levels, not {kind!r}")
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)})")


__all__ = ["BOT_NAMES", "LEVELS", "Bot", "GreedyBot", "MctsBot", "RandomBot", "make_bot"]
