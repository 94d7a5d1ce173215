"""The turns the engine passes over by itself after a command, and why: what a screen says
before play goes on, so that a step closed for want of anyone able to act, or a player
skipped for want of energy, is never unseen. Read-only, like `queries`: played on copies.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import TYPE_CHECKING

from companion.engine.constants import KINDS, Phase
from companion.engine.flow import blocker, position
from companion.language import Message
from models.commands import Command

if TYPE_CHECKING:
    from companion.engine.state import GameState


def passed_over_by(state: GameState, command: Command) -> tuple[tuple[str, Message], ...]:
    """The turns the engine passes over by itself once `command` is played, in order: each
    as (player id, why, `GameState.blocker_message`'s sentence). These are the turns between
    this decision and the next one: in this round, and in the next one's first steps when
    the command ends this one. IllegalCommand if the command is refused.

    A screen says them before play goes on: otherwise a step closed for want of
    anyone able to act, or a player skipped for want of energy, happens unseen.
    """
    if state.phase not in (Phase.SUMMONING, Phase.ACTIONS, Phase.ENERGY_AND_RESET):
        return ()
    # Played on a copy whose Energy and Reset waits: its board is the round's as it ended.
    held = state.clone()
    held.game = copy.copy(state.game)
    held.game.rules = replace(state.game.rules, enter_reset=_reset_waits)
    held.apply(command)
    passed: list[tuple[str, Message]] = []
    if held.round == state.round:
        passed += _passed_between(held, position(state), position(held))
    after = state.clone()
    after.apply(command)
    if after.round != state.round and after.phase in (Phase.SUMMONING, Phase.ACTIONS):
        passed += _passed_between(after, (-1, 0, 0), position(after))
    return tuple(passed)


def _reset_waits(state: GameState) -> None:
    """Energy and Reset begun and left as it is (for `passed_over_by`)."""


def _passed_between(
    state: GameState, start: tuple[int, int, int], end: tuple[int, int, int]
) -> list[tuple[str, Message]]:
    """Every turn of `state`'s round strictly between two places of the round, with why its
    player has nothing to decide there (the turns settling passed over)."""
    passed: list[tuple[str, Message]] = []
    for rank, phase in enumerate((Phase.SUMMONING, Phase.ACTIONS)):
        for step in range(KINDS):
            for turn, seat in enumerate(state.turn_order):
                if not start < (rank, step, turn) < end:
                    continue
                probe = state.clone()
                probe.phase, probe.step, probe.turn, probe.active = phase, step, turn, None
                reason = blocker(probe, seat)
                if reason is not None:
                    passed.append((state.game.players[seat], reason))
    return passed
