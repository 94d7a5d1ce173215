"""Every command as one human sentence: the log line and the undo label."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.engine.constants import (
    BOUNTY,
    COSTS,
    KIND_INDEX,
    SPRITE,
    Phase,
    Token,
)
from companion.engine.dice import attack_strike
from companion.engine.flow import next_turn, position, skip_target
from companion.engine.movement import reachable
from companion.engine.wording import counted, joined
from models.commands import (
    Activate,
    Attack,
    Command,
    Correction,
    Dominate,
    EndActivation,
    EnergyAndReset,
    Move,
    Pass,
    Removal,
    Skip,
    Summon,
    Swap,
)
from models.rules import KIND_ORDER, WYRM_SWAP_COST

if TYPE_CHECKING:
    from companion.engine.state import GameState


def describe_command(state: GameState, command: Command) -> str:
    """One sentence saying what the command does from this state."""
    try:
        return _WRITERS[type(command)](state, command)
    except (LookupError, TypeError, AttributeError):
        # An illegal command still gets a readable, if plainer, description.
        return f"{type(command).__name__} {command_fields(command)}"


def command_fields(command: Command) -> str:
    """The command's set fields as 'name=value' text."""
    return " ".join(f"{k}={v}" for k, v in command._asdict().items() if v is not None)


def _who(state: GameState, seat: int | None = None) -> str:
    if seat is None:
        seat = _seat(state)
    return state.game.labels[state.game.players[seat]]


# An illegal command can name what is not there: these raise LookupError, and
# describe_command falls back to the plain description.
def _seat(state: GameState) -> int:
    seat = state.current_seat
    if seat is None:
        raise LookupError("it is nobody's decision")
    return seat


def _active(state: GameState) -> int:
    if state.active is None:
        raise LookupError("no creature is being activated")
    return state.active


def _token(state: GameState, location: int) -> Token:
    token = state.occupant[location]
    if token is None:
        raise LookupError(f"no creature at location {location}")
    return token


def _creature(state: GameState, location: int) -> str:
    seat, kind = _token(state, location)
    where = state.game.isle.location_names[location]
    return f"{_who(state, seat)}'s {KIND_ORDER[kind].title} at {where}"


def _place(state: GameState, location: str) -> str:
    return state.game.isle.location_names[state.game.isle.index[location]]


def _change(before: int, amount: int) -> str:
    return f"({before} → {before + amount})"


def _summon(state: GameState, command: Summon) -> str:
    kind = KIND_INDEX[command.kind]
    cost = COSTS[kind]
    seat = _seat(state)
    where = f" onto {_place(state, command.location)}" if command.location else ""
    return (
        f"{_who(state)} summons a {KIND_ORDER[kind].title}{where} for {cost} energy "
        f"{_change(state.energy[seat], -cost)}"
    )


def _pass(state: GameState, command: Pass) -> str:
    kind = KIND_ORDER[state.step].plural
    if state.phase is Phase.SUMMONING:
        return f"{_who(state)} is done summoning {kind}"
    if state.active is not None:
        return f"{_creature(state, state.active)} stops, and {_who(state)} is done with {kind}"
    return f"{_who(state)} is done with their {kind}"


def _activate(state: GameState, command: Activate) -> str:
    kind = KIND_ORDER[state.step].title
    return f"{_who(state)} activates the {kind} at {_place(state, command.location)}"


def _move(state: GameState, command: Move) -> str:
    here = _active(state)
    cost = reachable(state, here, state.actions_left)[state.game.isle.index[command.to]]
    to = _place(state, command.to)
    return f"{_creature(state, here)} moves to {to} ({counted(cost, 'action')})"


def _attack(state: GameState, command: Attack) -> str:
    here = _active(state)
    target = state.game.isle.index[command.target]
    head = f"{_creature(state, here)} attacks {_creature(state, target)}"
    if command.attack_roll is None:
        return head
    attacker = _token(state, here)
    defender = _token(state, target)
    if defender[1] == SPRITE and command.defence_roll is None:
        raise LookupError("an attack on a Sprite without the defender's roll")
    strike = attack_strike(state, command)
    success = strike.success
    rolled = f"{strike.attack_roll}+{strike.attack_bonus}={strike.total}"
    if strike.defence_roll is None:
        against = str(strike.defence)
    else:
        against = f"{strike.defence_roll}+{strike.defence_bonus}={strike.defence}"
    if not success:
        return f"{head}: {rolled} against {against}, the attack fails"
    bounty = BOUNTY[defender[1]]
    return (
        f"{head}: {rolled} against {against}, removed; {_who(state, attacker[0])} gains "
        f"{bounty} {_change(state.energy[attacker[0]], bounty)}"
    )


def _swap(state: GameState, command: Swap) -> str:
    seat = _seat(state)
    paid = f"for {WYRM_SWAP_COST} energy {_change(state.energy[seat], -WYRM_SWAP_COST)}"
    if command.with_location is None:
        return f"{_who(state)}'s Wyrm trades places with another of their creatures {paid}"
    other = _creature(state, state.game.isle.index[command.with_location])
    return f"{_creature(state, _active(state))} trades places with {other} {paid}"


def _end_activation(state: GameState, command: EndActivation) -> str:
    return f"{_creature(state, _active(state))} ends its activation"


def _dominate(state: GameState, command: Dominate) -> str:
    territory = state.game.board.territories[state.game.isle.territory_index[command.territory]]
    verb = "takes" if command.take else "declines"
    return f"{_who(state)} {verb} the {territory.bonus}-energy bonus for holding {territory.label}"


def _removal(state: GameState, command: Removal) -> str:
    seat = _seat(state)
    kind = KIND_INDEX[command.kind]
    bounty = BOUNTY[kind]
    victim = state.game.labels[command.victim]
    return (
        f"{_who(state)} removes {victim}'s {KIND_ORDER[kind].title} and gains {bounty} "
        f"{_change(state.energy[seat], bounty)}"
    )


def _correction(state: GameState, command: Correction) -> str:
    seat = state.game.seat[command.player]
    return (
        f"{_who(state, seat)}'s energy corrected by {command.delta:+d} "
        f"{_change(state.energy[seat], command.delta)}: {command.reason}"
    )


def _energy_and_reset(state: GameState, command: EnergyAndReset) -> str:
    creatures = counted(len(command.placements), "creature")
    declined = command.declined
    declined_part = f", {counted(len(declined), 'bonus', 'bonuses')} declined" if declined else ""
    removed = command.removed
    removed_part = f", {counted(len(removed), 'creature')} gone without a record" if removed else ""
    return (
        f"Energy and Reset of round {state.round} with {creatures} on the board"
        f"{declined_part}{removed_part}"
    )


def _skip(state: GameState, command: Skip) -> str:
    """Who the skip passes over, step by step, as the round would go."""
    trial = state.clone()
    target = skip_target(trial, command)
    done: dict[tuple[Phase, int], list[str]] = {}
    while trial.phase in (Phase.SUMMONING, Phase.ACTIONS) and position(trial) < target:
        done.setdefault((trial.phase, trial.step), []).append(_who(trial))
        next_turn(trial)
    parts = []
    for (phase, step), names in done.items():
        verb = "summoning" if phase is Phase.SUMMONING else "with their"
        parts.append(
            f"{joined(names)} {'is' if len(names) == 1 else 'are'} done {verb} "
            f"{KIND_ORDER[step].plural}"
        )
    if not parts:
        return "Nothing to skip"
    return "; ".join(parts)


_WRITERS: dict[type, Callable[[GameState, Any], str]] = {
    Summon: _summon,
    Pass: _pass,
    Activate: _activate,
    Move: _move,
    Attack: _attack,
    Swap: _swap,
    EndActivation: _end_activation,
    Dominate: _dominate,
    Removal: _removal,
    Correction: _correction,
    EnergyAndReset: _energy_and_reset,
    Skip: _skip,
}
