"""Skip: at the table, everyone is done up to a point of the round, in one record.

At a real table nobody says "pass": when Bjorn summons a Troll, everyone before him in
the Trolls step chose not to. The point is a phase's step and the first player still to
decide there (flow.skip_target).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import where
from companion.engine.commands._declaration import Declaration
from companion.engine.constants import Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import next_turn, position, skip_target
from companion.engine.names import kinds_term
from companion.language import Message, Value, by_semicolons
from models.commands import Skip
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: Skip) -> None:
    """Pass every turn before the point the skip names."""
    target = skip_target(state, command)
    if state.phase not in (Phase.SUMMONING, Phase.ACTIONS) or position(state) >= target:
        raise IllegalCommand(Message("refuse.nothing_to_skip", now=where(state)))
    while state.phase in (Phase.SUMMONING, Phase.ACTIONS) and position(state) < target:
        next_turn(state)


def passed_over(state: GameState, command: Skip) -> list[tuple[str, Phase, int]]:
    """Whose turns the skip passes, in order: (player id, phase, step index) each.

    Only players who would have been asked: the engine passes the others over by itself.
    """
    trial = state.clone()
    target = skip_target(trial, command)
    passed: list[tuple[str, Phase, int]] = []
    while trial.phase in (Phase.SUMMONING, Phase.ACTIONS) and position(trial) < target:
        seat = trial.current_seat
        assert seat is not None, "a Summoning or Actions step is someone's"
        passed.append((trial.game.players[seat], trial.phase, trial.step))
        next_turn(trial)
    return passed


def describe(state: GameState, command: Skip) -> Message:
    """Who the skip passes over, step by step, as the round would go."""
    done: dict[tuple[Phase, int], list[str]] = {}
    for player, phase, step in passed_over(state, command):
        done.setdefault((phase, step), []).append(state.game.labels[player])
    parts: list[Value] = []
    for (phase, step), names in done.items():
        kinds = kinds_term(KIND_ORDER[step])
        if phase is Phase.SUMMONING:
            parts.append(
                Message("skip.summoning", players=tuple(names), count=len(names), kinds=kinds)
            )
        else:
            parts.append(
                Message("skip.actions", players=tuple(names), count=len(names), kinds=kinds)
            )
    if not parts:
        return Message("skip.nothing")
    whole = by_semicolons(parts)
    assert isinstance(whole, Message), "clauses joined are a message"
    return whole


# Where it skips to is the table's to say (GameState.reach): skips are not listed.
TABLE = Declaration(Skip, what=Message("what.skip"), apply=apply, describe=describe, legal=None)
DIGITAL = None
