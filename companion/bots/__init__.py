"""Computer opponents: each chooses one legal command for the seat whose turn it is."""

from companion.bots.base import Bot
from companion.bots.greedy import GreedyBot
from companion.bots.random_bot import RandomBot

BOT_NAMES = ("random", "greedy")


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name; ValueError for a name this build does not know."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot(seed)
    raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)})")


__all__ = ["BOT_NAMES", "Bot", "GreedyBot", "RandomBot", "make_bot"]
