"""Attack: the active creature attacks an adjacent enemy creature (ruling 7).

The dice travel with the command; the numbers are `dice.strike`'s, the one statement of
ruling 7. On success the defender goes back to its owner for next round, the attacker
moves into its location at no action cost and its owner gains the bounty at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import (
    acting,
    active_at,
    change,
    creature,
    location,
    owner,
    place,
    relocate,
    token_at,
    who,
)
from companion.engine.commands._declaration import Declaration, Moment, Tapped
from companion.engine.constants import BOUNTY, Phase
from companion.engine.dice import (
    attack_chances,
    attack_strike,
    rolls_defence,
    sprite_support,
    strike,
)
from companion.engine.errors import IllegalCommand
from companion.engine.flow import after_action, gain
from companion.language import Message
from models.commands import Attack, Command

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: Attack) -> None:
    """Settle the attack by its dice: the defender removed and the bounty paid, or nothing."""
    here = acting(state)
    target = location(state, command.target)
    if state.actions_left < 1:
        raise IllegalCommand(Message("refuse.no_actions_to_attack"))
    if target not in state.game.isle.neighbours[here]:
        raise IllegalCommand(Message("refuse.not_adjacent", place=place(state, target)))
    seat = owner(state, here)
    defender = state.occupant[target]
    if defender is None or defender[0] == seat:
        raise IllegalCommand(Message("refuse.no_enemy", place=place(state, target)))
    if command.attack_roll is None:
        raise IllegalCommand(Message("refuse.attack_roll"))
    victim, kind = defender
    rolls = rolls_defence(kind)
    if rolls and command.defence_roll is None:
        raise IllegalCommand(Message("refuse.defence_roll"))
    if not rolls and command.defence_roll is not None:
        raise IllegalCommand(Message("refuse.only_sprites_roll"))
    attacker = state.occupant[here]
    assert attacker is not None, "the active creature is on the board"
    support = sprite_support(state, target) if rolls else 0
    success = strike(attacker[1], kind, command.attack_roll, command.defence_roll, support).success
    state.actions_left -= 1
    if success:
        state.on_board[victim][kind] -= 1
        state.returning[victim][kind] += 1
        if not state.face_down[target]:
            state.ready[victim][kind] -= 1
        state.occupant[target] = None
        relocate(state, here, target)
        gain(state, seat, BOUNTY[kind])
        if state.phase is Phase.GAME_OVER:
            return
    after_action(state)


def describe(state: GameState, command: Attack) -> Message:
    """'… attacks …: 4+2=6 against 4+3=7, the attack fails', the numbers once the dice are in."""
    here = active_at(state)
    target = state.game.isle.index[command.target]
    head = Message("attack", attacker=creature(state, here), defender=creature(state, target))
    if command.attack_roll is None:
        return head
    attacker = token_at(state, here)
    defender = token_at(state, target)
    if rolls_defence(defender[1]) and command.defence_roll is None:
        raise LookupError("an attack on a Sprite without the defender's roll")
    strike = attack_strike(state, command)
    rolled = Message(
        "attack.roll", roll=strike.attack_roll, bonus=strike.attack_bonus, total=strike.total
    )
    against: Message | int
    if strike.defence_roll is None:
        against = strike.defence
    else:
        against = Message(
            "attack.roll",
            roll=strike.defence_roll,
            bonus=strike.defence_bonus,
            total=strike.defence,
        )
    if not strike.success:
        return Message("attack.fails", attack=head, rolled=rolled, against=against)
    bounty = BOUNTY[defender[1]]
    return Message(
        "attack.removes",
        attack=head,
        rolled=rolled,
        against=against,
        player=who(state, attacker[0]),
        bounty=bounty,
        change=change(state.energy[attacker[0]], bounty),
    )


def legal(state: GameState, out: list[Command]) -> None:
    """Each enemy creature next to the active one, while it has an action left."""
    if state.actions_left:
        here = state.active
        assert here is not None, "attacks are listed while a creature is active"
        occupant = state.occupant
        mover = occupant[here]
        assert mover is not None, "the active creature is on the board"
        seat = mover[0]
        attacks = state.game.attacks
        for there in state.game.isle.neighbours[here]:
            token = occupant[there]
            if token is not None and token[0] != seat:
                out.append(attacks[there])


def places(state: GameState, command: Attack) -> tuple[str, ...]:
    """The attacker's location and the defender's."""
    here = () if state.active is None else (state.game.isle.location_ids[state.active],)
    return (*here, command.target)


def space(state: GameState, command: Attack) -> str | None:
    """A tap on the enemy creature attacks it."""
    return command.target


def tap(tapped: Tapped) -> Attack | None:
    """While a creature is active, a tap on a rival's creature attacks it."""
    active = tapped.phase is Phase.ACTIONS and tapped.active is not None
    if active and tapped.owner is not None and tapped.owner != tapped.player:
        return Attack(tapped.location)
    return None


DIGITAL = Declaration(
    Attack,
    what=Message("what.attack"),
    apply=apply,
    describe=describe,
    legal=legal,
    moments=(Moment.ACTIVATION,),
    rank=40,
    places=places,
    space=space,
    chances=attack_chances,
    tap=tap,
)
TABLE = None
