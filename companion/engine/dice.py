"""Dice are inputs (ruling 7): which rolls an attack needs, filling them, and the odds.

The engine never rolls. A caller passes a function that returns die faces: a seeded
source for bots and simulations, or the numbers typed in from physical dice.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from companion.engine.constants import ATTACK_BONUS, DEFENCE, KIND_INDEX, SPRITE
from models.commands import Attack, Command
from models.rules import DIE_SIDES, CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState

FACES = range(1, DIE_SIDES + 1)


def needs_defence_roll(state: GameState, command: Attack) -> bool:
    """Whether the attack's target is a Sprite, which rolls to defend."""
    target = state.occupant[state.game.isle.index[command.target]]
    return target is not None and target[1] == SPRITE


def with_rolls(state: GameState, command: Command, roll: Callable[[], int]) -> Command:
    """The command with any missing dice filled in from `roll`; other commands unchanged."""
    if type(command) is not Attack:
        return command
    if command.attack_roll is None:
        command = command._replace(attack_roll=roll())
    if command.defence_roll is None and needs_defence_roll(state, command):
        command = command._replace(defence_roll=roll())
    return command


def attack_odds(
    attacker: CreatureKind, defender: CreatureKind, sprite_support: int = 0
) -> Fraction:
    """The chance an attack succeeds; `sprite_support` is the defending Sprite's bonus."""
    bonus = ATTACK_BONUS[KIND_INDEX[attacker]]
    defence = DEFENCE[KIND_INDEX[defender]]
    if defence is not None:
        wins = sum(1 for face in FACES if face + bonus >= defence)
        return Fraction(wins, DIE_SIDES)
    wins = sum(1 for a in FACES for d in FACES if a + bonus >= d + sprite_support)
    return Fraction(wins, DIE_SIDES * DIE_SIDES)
