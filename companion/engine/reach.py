"""What one tap at the table records: a player's command, after a skip to their turn.

At a real table nobody says "pass" out loud: when Bob summons a Troll, everyone before
him in the Trolls step (and in the steps before) chose not to. One tap on "Bob: Troll"
therefore records a Skip to Bob's turn in the Trolls step, then his summon; both are
checked here, on a copy, before anything is recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.constants import Phase
from models.commands import Command, Skip
from models.rules import CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState


def reach(state: GameState, command: Command, kind: CreatureKind | None = None) -> list[Command]:
    """The records that make a player's command the next thing done; IllegalCommand if it
    cannot be done from here.

    `kind` is the step the tap names. The command's declaration says which step it belongs
    to: a summon's is its own kind, a swap's the Wyrms step, and a removal's the one said
    (the kind of the creature that removed).
    """
    phase, kind = state.game.rules.step(command, kind)
    records: list[Command] = []
    here = state.phase is phase and state.step_kind is kind
    # Table records (a correction, a skip) have no `by`: nobody's turn to skip to.
    by = getattr(command, "by", None)
    if kind is not None and by is not None and not (here and state.current_player == by):
        records.append(Skip("summoning" if phase is Phase.SUMMONING else "actions", kind, by))
    trial = state.clone()
    for record in (*records, command):
        trial.apply(record)
    return [*records, command]
