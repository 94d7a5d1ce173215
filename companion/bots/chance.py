"""Dice as chance outcomes: an attack's success and failure, each with its probability.

Bots never peek at real dice. They ask the engine for the odds (`attack_odds`) and
for dice that produce each outcome (`GameState.attack_outcome`), then apply those on clones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.dice import FACES, attack_odds, needs_defence_roll
from companion.engine.queries import search_view
from models.commands import Attack, Command
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine import GameState

Rolls = tuple[int, int | None]

# (attacker kind, defender kind, Sprite support) -> (success chance, rolls that succeed, that fail)
_OUTCOMES: dict[tuple[int, int, int], tuple[float, Rolls | None, Rolls | None]] = {}


def outcomes(state: GameState, command: Command) -> list[tuple[float, Command]]:
    """What the command can lead to, as (probability, command to apply); only attacks branch."""
    if type(command) is Attack:
        return attack_chances(state, command)
    return [(1.0, command)]


def attack_chances(state: GameState, attack: Attack) -> list[tuple[float, Command]]:
    """The attack's possible outcomes as (probability, the attack with dice giving it)."""
    view = search_view(state)
    here = view.active
    assert here is not None, "an attack is made by the active creature"
    target = state.game.isle.index[attack.target]
    attacker = view.occupant[here]
    defender = view.occupant[target]
    assert attacker is not None and defender is not None, "an attack is between two creatures"
    sprite = needs_defence_roll(state, attack)
    support = state.sprite_support(target) if sprite else 0
    key = (attacker[1], defender[1], support)
    known = _OUTCOMES.get(key)
    if known is None:
        known = _OUTCOMES[key] = _outcomes(state, attack, sprite, key)
    odds, success, failure = known
    chances: list[tuple[float, Command]] = []
    if success is not None:
        chances.append((odds, attack._replace(attack_roll=success[0], defence_roll=success[1])))
    if failure is not None:
        chances.append(
            (1.0 - odds, attack._replace(attack_roll=failure[0], defence_roll=failure[1]))
        )
    return chances


def _outcomes(
    state: GameState, attack: Attack, sprite: bool, key: tuple[int, int, int]
) -> tuple[float, Rolls | None, Rolls | None]:
    """The engine's odds, and one set of dice for each outcome the engine can produce.

    `key` is (attacker kind, defender kind, Sprite support), as _OUTCOMES keeps them.
    """
    attacker, defender, support = key
    odds = float(attack_odds(KIND_ORDER[attacker], KIND_ORDER[defender], support))
    success: Rolls | None = None
    failure: Rolls | None = None
    for roll in FACES:
        for defence in FACES if sprite else (None,):
            _, _, won = state.attack_outcome(
                attack._replace(attack_roll=roll, defence_roll=defence)
            )
            if won and success is None:
                success = (roll, defence)
            if not won and failure is None:
                failure = (roll, defence)
    return odds, success if odds > 0 else None, failure if odds < 1 else None
