"""What one tap records for a player at the table, and what a player's own phone offers them.

A tap for a player's command is recorded where the turn order is when this device may pass
over the players before them (a skip to them, then the command: `GameState.reach`). Where it
may not (those players have phones of their own and are not done), a player's own phone
says the command ahead of their turn (engine/ahead.py): it counts at once, and nobody else's
turn is decided for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.engine import IllegalCommand
from companion.language import Message
from models.commands import Command, Removal, Swap
from models.rules import KIND_ORDER, CreatureKind

if TYPE_CHECKING:
    from companion.play.session import GameSession


@dataclass(frozen=True, slots=True)
class Records:
    """What a tap would record, and why this device may not (None: it may)."""

    commands: tuple[Command, ...]
    refused: Message | None


def records_for(session: GameSession, command: Command) -> Records:
    """What one tap for a player's `command` records from where the game is now: reached by
    passing over the players before them, or said ahead on the player's own phone; no
    commands when the engine takes neither (and its reason, as a sentence)."""
    state = session.state
    by = getattr(command, "by", None)
    refused: Message | None = None
    try:
        reached = state.reach(command)
    except IllegalCommand as error:
        reached, refused = [], Message("game.refused", reason=error.message)
    if reached:
        refused = session.tap_refusal(reached, by)
    if reached and refused is None:
        return Records(tuple(reached), None)
    if by is not None and by == session.own_player() and said_ahead(session, command):
        return Records((command,), None)
    return Records(tuple(reached), refused)


def said_ahead(session: GameSession, command: Command) -> bool:
    """Whether the engine records `command` as it stands, its player's turn or not."""
    try:
        session.state.clone().apply(command)
    except IllegalCommand:
        return False
    return True


def own_removals(session: GameSession, player: str) -> dict[CreatureKind, tuple[Removal, ...]]:
    """The removals a player's creatures could record now, by the kind that made them, in
    step order (kinds with none left out)."""
    found: dict[CreatureKind, list[Removal]] = {}
    for removal in session.state.removals_for(player):
        assert removal.attacker is not None, "a removal said by its player names its creatures"
        found.setdefault(CreatureKind(removal.attacker), []).append(removal)
    return {kind: tuple(found[kind]) for kind in KIND_ORDER if kind in found}


def own_swap(session: GameSession, player: str) -> Swap | None:
    """A player's Wyrm swap, if the engine records it now (on their turn or said ahead)."""
    swap = Swap(by=player)
    return swap if said_ahead(session, swap) else None
