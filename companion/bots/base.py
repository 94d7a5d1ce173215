"""What every bot offers."""

from __future__ import annotations

from typing import Protocol

from companion.engine import GameState
from models.commands import Command


class Bot(Protocol):
    """Chooses a command for the player whose decision it is."""

    # Read-only here, so a bot may narrow them (a searching bot's budget is never None).
    @property
    def name(self) -> str:
        """The bot's name, as `make_bot` takes it."""
        ...

    @property
    def budget_ms(self) -> float | None:
        """Milliseconds a decision may take, for bots that search; None if it answers at once."""
        ...

    def choose(self, state: GameState) -> Command:
        """One of `state.legal_commands()`; dice may be left for the caller to fill."""
        ...
