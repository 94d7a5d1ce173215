"""Dice are inputs, and ruling 7 is stated here once: an attack's numbers, outcome and odds.

Ruling 7: the attacker rolls a die and adds its kind's bonus (Wyrm 4, Troll 2, Sprite 1).
A Wyrm defends with 8 and a Troll with 7; a Sprite rolls a die and adds 1 for each other
Sprite of its owner in its territory (its support). The attack succeeds when its total
is at least the defence.

The engine never rolls. A caller passes a function that returns die faces: a seeded
source for bots and simulations, or the numbers typed in from physical dice. Everything
else that speaks of an attack (applying it, its sentence, its odds, its chance outcomes,
what a removal at the table could have been) asks `strike` or `chances`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from companion.engine.constants import ATTACK_BONUS, DEFENCE, KIND_INDEX
from models.commands import Attack, Command
from models.rules import DIE_SIDES, CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState

FACES = range(1, DIE_SIDES + 1)
# The dice of one attack: the attacker's roll, and the defender's (None where it does not roll).
Rolls = tuple[int, int | None]


class Strike(NamedTuple):
    """One attack's numbers under ruling 7: each side's die, what is added, and the outcome."""

    attack_roll: int
    attack_bonus: int
    # None when the defence is fixed (a Wyrm's or a Troll's): no die, the whole defence below.
    defence_roll: int | None
    # A fixed defence, or the defending Sprite's support.
    defence_bonus: int
    # The attacker's total, the defence it must reach, and whether it does.
    total: int
    defence: int
    success: bool


def rolls_defence(defender: int) -> bool:
    """Whether a defender of this kind (index) rolls a die: a Sprite does."""
    return DEFENCE[defender] is None


def strike(
    attacker: int, defender: int, attack_roll: int, defence_roll: int | None, support: int = 0
) -> Strike:
    """An attack's numbers from the two kinds (indices), the dice and the Sprite's support."""
    bonus = ATTACK_BONUS[attacker]
    total = attack_roll + bonus
    fixed = DEFENCE[defender]
    if fixed is not None:
        return Strike(attack_roll, bonus, None, fixed, total, fixed, total >= fixed)
    assert defence_roll is not None, "a defending Sprite's roll is filled in"
    defence = defence_roll + support
    return Strike(attack_roll, bonus, defence_roll, support, total, defence, total >= defence)


class Chances(NamedTuple):
    """An attack before its dice: the chance it succeeds, and dice giving each outcome."""

    odds: Fraction
    # The same chance as a float, for bots that weigh thousands of outcomes.
    probability: float
    # The first dice (in face order) that make it succeed, and fail; None where none do.
    success: Rolls | None
    failure: Rolls | None


@cache
def chances(attacker: int, defender: int, support: int = 0) -> Chances:
    """The odds and outcome dice of an attack between two kinds (indices), every roll counted."""
    defence_faces: tuple[int | None, ...] = tuple(FACES) if rolls_defence(defender) else (None,)
    wins = 0
    success: Rolls | None = None
    failure: Rolls | None = None
    for roll in FACES:
        for defence_roll in defence_faces:
            if strike(attacker, defender, roll, defence_roll, support).success:
                wins += 1
                if success is None:
                    success = (roll, defence_roll)
            elif failure is None:
                failure = (roll, defence_roll)
    odds = Fraction(wins, DIE_SIDES * len(defence_faces))
    return Chances(odds, float(odds), success, failure)


def attack_odds(
    attacker: CreatureKind, defender: CreatureKind, sprite_support: int = 0
) -> Fraction:
    """The chance an attack succeeds; `sprite_support` is the defending Sprite's bonus."""
    return chances(KIND_INDEX[attacker], KIND_INDEX[defender], sprite_support).odds


def sprite_support(state: GameState, location: int) -> int:
    """How many other Sprites of the same owner share the location's territory (ruling 7)."""
    isle = state.game.isle
    token = state.occupant[location]
    return sum(
        1
        for i in isle.territory_members[isle.territory_of[location]]
        if i != location and state.occupant[i] == token
    )


def attack_strike(state: GameState, command: Attack) -> Strike:
    """The numbers of an attack with its dice, made by the active creature."""
    here = state.active
    assert here is not None, "an attack is made by the active creature"
    target = state.game.isle.index[command.target]
    attacker = state.occupant[here]
    defender = state.occupant[target]
    assert attacker is not None and defender is not None, "an attack is between two creatures"
    assert command.attack_roll is not None, "an attack's dice are filled in (with_rolls)"
    support = sprite_support(state, target) if rolls_defence(defender[1]) else 0
    return strike(attacker[1], defender[1], command.attack_roll, command.defence_roll, support)


def attack_chances(state: GameState, command: Attack) -> list[tuple[float, Command]]:
    """The attack's outcomes before its dice, as (probability, the attack with dice giving it)."""
    if command.attack_roll is not None:
        return [(1.0, command)]
    here = state.active
    assert here is not None, "an attack is made by the active creature"
    target = state.game.isle.index[command.target]
    attacker = state.occupant[here]
    defender = state.occupant[target]
    assert attacker is not None and defender is not None, "an attack is between two creatures"
    support = sprite_support(state, target) if rolls_defence(defender[1]) else 0
    known = chances(attacker[1], defender[1], support)
    outcomes: list[tuple[float, Command]] = []
    for probability, rolls in (
        (known.probability, known.success),
        (1.0 - known.probability, known.failure),
    ):
        if rolls is not None:
            outcomes.append(
                (probability, command._replace(attack_roll=rolls[0], defence_roll=rolls[1]))
            )
    return outcomes


def needs_defence_roll(state: GameState, command: Attack) -> bool:
    """Whether the attack's target is a Sprite, which rolls to defend."""
    target = state.occupant[state.game.isle.index[command.target]]
    return target is not None and rolls_defence(target[1])


def with_rolls(state: GameState, command: Command, roll: Callable[[], int]) -> Command:
    """The command with any missing dice filled in from `roll`; other commands unchanged."""
    if type(command) is not Attack:
        return command
    if command.attack_roll is None:
        command = command._replace(attack_roll=roll())
    if command.defence_roll is None and needs_defence_roll(state, command):
        command = command._replace(defence_roll=roll())
    return command
