"""Computer opponents: each chooses one legal command for the seat whose turn it is."""

import time
from collections.abc import Callable

from companion.bots.base import Bot
from companion.bots.greedy import GreedyBot
from companion.bots.mcts import DEFAULT_BUDGET_MS, MctsBot
from companion.bots.random_bot import RandomBot
from models.opponents import BOT_NAMES, parse_bot

# How far each mcts level searches: iterations per decision, its thinking time per turn
# (models/opponents.py) capping them on a slow machine. Strength grows with iterations
# where few are spent and slowly after (docs/bots.md, "The ladder"), so the levels are
# spaced where each step buys a clear edge; plain `mcts` searches for its whole budget.
LEVEL_ITERATIONS = {"easy": 1, "normal": 3, "hard": 250}


def make_bot(
    name: str,
    seed: int | None = None,
    budget_ms: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Bot:
    """A bot by name; `mcts:easy|normal|hard` picks a level (its iterations and time),
    plain `mcts` searches for `budget_ms` (default normal's). A searching bot reads its
    budget on `clock` (seconds): the wall clock, or `time.thread_time` to count only its
    own work on a busy machine."""
    kind, level_budget = parse_bot(name)
    if kind == "mcts":
        return MctsBot(
            seed,
            budget_ms=level_budget or budget_ms or DEFAULT_BUDGET_MS,
            iterations=LEVEL_ITERATIONS.get(name.partition(":")[2]),
            clock=clock,
        )
    if kind == "random":
        return RandomBot(seed)
    return GreedyBot(seed)


__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "MctsBot", "RandomBot", "make_bot"]
