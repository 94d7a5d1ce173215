"""What every bot offers."""

from __future__ import annotations

from typing import Protocol

from companion.engine import GameState
from models.commands import Command


class Bot(Protocol):
    """Chooses a command for the player whose decision it is."""

    name: str
    # Milliseconds a decision may take, for bots that search; None for those that answer at once.
    budget_ms: float | None

    def choose(self, state: GameState) -> Command:
        """One of `state.legal_commands()`; dice may be left for the caller to fill."""
        ...
