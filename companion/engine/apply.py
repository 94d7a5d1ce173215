"""Applying a command: check it against the rules, then change the state.

Every handler checks everything before it changes anything, so an illegal
command leaves the state exactly as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.engine.constants import (
    BOUNTY,
    COSTS,
    KIND_INDEX,
    SPRITE,
    WYRM,
    Phase,
)
from companion.engine.dice import attack_strike
from companion.engine.errors import IllegalCommand
from companion.engine.flow import (
    after_action,
    begin_activation,
    end_activation,
    finish_round,
    flip_active,
    gain,
    next_turn,
    occupants_by_id,
    position,
    removal_blocker,
    run_reset,
    settle,
    skip_target,
)
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
from models.rules import KIND_ORDER, MAX_TRACK_ENERGY, WYRM_SWAP_COST

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply_command(state: GameState, command: Command) -> None:
    """Apply one command in place, or raise IllegalCommand saying why not."""
    if state.phase is Phase.GAME_OVER:
        raise IllegalCommand("the game is over")
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise IllegalCommand(f"{command!r} is not a command")
    # Read without an isinstance test: this runs for every decision of every playout, and
    # only players' commands have a `by` (records for the whole table name nobody).
    by = getattr(command, "by", None)
    if by is not None:
        _check_by(state, by)
    handler(state, command)


def _check_by(state: GameState, by: str) -> None:
    """Refuse a player's command made for someone whose decision it is not."""
    seat = _seat_of(state, by)
    current = state.current_seat
    if current is not None and current != seat:
        raise IllegalCommand(f"it is {_name(state, current)}'s turn, not {_name(state, seat)}'s")


# --- shared checks -------------------------------------------------------------------------


def _name(state: GameState, seat: int) -> str:
    return state.game.labels[state.game.players[seat]]


def _current(state: GameState, phase: Phase, what: str) -> int:
    """The seat whose turn it is, after checking the game is in the phase `what` needs."""
    if state.phase is not phase:
        raise IllegalCommand(f"{what} belongs to the {phase.value} phase; it is {_where(state)}")
    return state.turn_order[state.turn]


def _where(state: GameState) -> str:
    if state.phase in (Phase.SUMMONING, Phase.ACTIONS):
        kind = KIND_ORDER[state.step].plural
        who = _name(state, state.turn_order[state.turn])
        return f"the {state.phase.value} phase, {kind} step, {who}'s turn"
    return f"the {state.phase.value.replace('_', ' ')} phase"


def _location(state: GameState, location: str | None) -> int:
    if location is None:
        raise IllegalCommand("the digital board needs a location")
    index = state.game.isle.index.get(location)
    if index is None:
        raise IllegalCommand(f"there is no location {location!r} on this board")
    return index


def _place(state: GameState, location: int) -> str:
    """A location as players call it, e.g. 'North Cliffs 4'."""
    return state.game.isle.location_names[location]


def _kind(value: object) -> int:
    index = KIND_INDEX.get(value) if isinstance(value, str) else None
    if index is None:
        raise IllegalCommand(f"there is no creature kind {value!r}")
    return index


def _seat_of(state: GameState, player: str) -> int:
    seat = state.game.seat.get(player)
    if seat is None:
        raise IllegalCommand(f"there is no player {player!r} in this game")
    return seat


def _table_only(state: GameState, what: str) -> None:
    if state.game.digital:
        raise IllegalCommand(
            f"{what} is for table games; the digital board enforces every rule itself"
        )


def _active(state: GameState) -> int:
    if state.phase is not Phase.ACTIONS or state.active is None:
        raise IllegalCommand("no creature is being activated")
    return state.active


def _owner(state: GameState, location: int) -> int:
    """The seat owning the creature at a location that holds one (the active creature's)."""
    token = state.occupant[location]
    assert token is not None, "the active creature is on the board"
    return token[0]


# --- Summoning -----------------------------------------------------------------------------


def _summon(state: GameState, command: Summon) -> None:
    seat = _current(state, Phase.SUMMONING, "summoning")
    kind = _kind(command.kind)
    creature = KIND_ORDER[kind]
    if kind != state.step:
        raise IllegalCommand(
            f"it is the {KIND_ORDER[state.step].plural} step, not {creature.plural}"
        )
    who = _name(state, seat)
    if state.reserve[seat][kind] == 0:
        back = state.returning[seat][kind]
        later = f" ({back} come back next round)" if back else ""
        raise IllegalCommand(f"{who} has no {creature.title} left to summon{later}")
    if state.energy[seat] < COSTS[kind]:
        raise IllegalCommand(
            f"{who} has {state.energy[seat]} energy; a {creature.title} costs {COSTS[kind]}"
        )
    if state.game.digital:
        where = _location(state, command.location)
        if state.occupant[where] is not None:
            raise IllegalCommand(f"{_place(state, where)} is not vacant")
        state.occupant[where] = state.game.tokens[seat][kind]
        state.face_down[where] = False
        state.ready[seat][kind] += 1
    elif command.location is not None:
        raise IllegalCommand("table games do not record locations for summons")
    state.energy[seat] -= COSTS[kind]
    state.reserve[seat][kind] -= 1
    state.on_board[seat][kind] += 1
    settle(state)


def _pass(state: GameState, command: Pass) -> None:
    if state.phase not in (Phase.SUMMONING, Phase.ACTIONS):
        raise IllegalCommand(f"there is no turn to pass in {_where(state)}")
    if state.active is not None:
        flip_active(state)
    next_turn(state)


# --- Actions on the digital board ----------------------------------------------------------


def _activate(state: GameState, command: Activate) -> None:
    seat = _current(state, Phase.ACTIONS, "activating a creature")
    _digital_only(state, "activating a creature")
    if state.active is not None:
        here = _place(state, state.active)
        raise IllegalCommand(f"finish the creature at {here} before activating another")
    where = _location(state, command.location)
    token = state.occupant[where]
    kind = KIND_ORDER[state.step]
    if token is None or token[0] != seat or token[1] != state.step:
        raise IllegalCommand(f"{_name(state, seat)} has no {kind.title} at {_place(state, where)}")
    if state.face_down[where]:
        raise IllegalCommand(
            f"the {kind.title} at {_place(state, where)} has already acted this round"
        )
    begin_activation(state, where)


def _digital_only(state: GameState, what: str) -> None:
    if not state.game.digital:
        raise IllegalCommand(
            f"{what} is for the digital board; at the table record removals and swaps"
        )


def _move(state: GameState, command: Move) -> None:
    here = _active(state)
    to = _location(state, command.to)
    cost = reachable(state, here, state.actions_left).get(to)
    if cost is None:
        raise IllegalCommand(
            f"the creature at {_place(state, here)} cannot reach {_place(state, to)} "
            f"with {counted(state.actions_left, 'action')} left"
        )
    _relocate(state, here, to)
    state.actions_left -= cost
    after_action(state)


def _relocate(state: GameState, here: int, to: int) -> None:
    state.occupant[to] = state.occupant[here]
    state.face_down[to] = state.face_down[here]
    state.occupant[here] = None
    state.face_down[here] = False
    state.active = to


def _attack(state: GameState, command: Attack) -> None:
    here = _active(state)
    target = _location(state, command.target)
    if state.actions_left < 1:
        raise IllegalCommand("the active creature has no actions left to attack with")
    if target not in state.game.isle.neighbours[here]:
        raise IllegalCommand(f"{_place(state, target)} is not next to the active creature")
    seat = _owner(state, here)
    defender = state.occupant[target]
    if defender is None or defender[0] == seat:
        raise IllegalCommand(f"there is no enemy creature at {_place(state, target)}")
    if command.attack_roll is None:
        raise IllegalCommand("an attack needs the attacker's die roll")
    if defender[1] == SPRITE and command.defence_roll is None:
        raise IllegalCommand("an attack on a Sprite needs the defender's die roll too")
    if defender[1] != SPRITE and command.defence_roll is not None:
        raise IllegalCommand("only a Sprite rolls to defend")
    success = attack_strike(state, command).success
    state.actions_left -= 1
    if success:
        victim, kind = defender
        state.on_board[victim][kind] -= 1
        state.returning[victim][kind] += 1
        if not state.face_down[target]:
            state.ready[victim][kind] -= 1
        state.occupant[target] = None
        _relocate(state, here, target)
        gain(state, seat, BOUNTY[kind])
        if state.phase is Phase.GAME_OVER:
            return
    after_action(state)


def _swap(state: GameState, command: Swap) -> None:
    if not state.game.digital:
        _table_swap(state, command)
        return
    here = _active(state)
    if state.step != WYRM:
        raise IllegalCommand("only a Wyrm can swap places")
    seat = _owner(state, here)
    if state.energy[seat] < WYRM_SWAP_COST:
        raise IllegalCommand(
            f"a Wyrm swap costs {WYRM_SWAP_COST} energy and {_name(state, seat)} has none"
        )
    there = _location(state, command.with_location)
    token = state.occupant[there]
    if there not in state.game.isle.neighbours[here] or token is None or token[0] != seat:
        raise IllegalCommand(
            f"the Wyrm has no creature of its own to swap with at {_place(state, there)}"
        )
    state.occupant[here], state.occupant[there] = token, state.occupant[here]
    state.face_down[here], state.face_down[there] = state.face_down[there], state.face_down[here]
    state.active = there
    state.energy[seat] -= WYRM_SWAP_COST
    after_action(state)


def _end_activation(state: GameState, command: EndActivation) -> None:
    _active(state)
    end_activation(state)


# --- Energy and Reset on the digital board -------------------------------------------------


def _dominate(state: GameState, command: Dominate) -> None:
    if state.phase is not Phase.ENERGY_AND_RESET or not state.pending:
        raise IllegalCommand(f"there is no domination bonus to decide in {_where(state)}")
    seat, territory = state.pending[0]
    expected = state.game.isle.territory_ids[territory]
    if command.territory != expected:
        raise IllegalCommand(f"the decision now is {_name(state, seat)}'s bonus for {expected}")
    if not command.take:
        state.declined.setdefault(state.game.players[seat], []).append(expected)
    state.pending.pop(0)
    occupants = occupants_by_id(state)
    if not state.pending:
        finish_round(state, run_reset(state, occupants, state.declined))
        return
    # Ruling 11: once the choices made so far reach 36 the game ends, whatever comes next.
    # Counting the open choices as declined cannot change a win that comes before them.
    undecided = {player: refused[:] for player, refused in state.declined.items()}
    for open_seat, open_territory in state.pending:
        player = state.game.players[open_seat]
        undecided.setdefault(player, []).append(state.game.isle.territory_ids[open_territory])
    preview = run_reset(state, occupants, undecided)
    if preview.summoner:
        finish_round(state, preview)


# --- Records at the table ------------------------------------------------------------------


def _removal(state: GameState, command: Removal) -> None:
    _table_only(state, "recording a removal")
    seat = _current(state, Phase.ACTIONS, "removing a creature")
    victim = _seat_of(state, command.victim)
    if victim == seat:
        raise IllegalCommand(f"{_name(state, seat)} cannot remove their own creature for a bounty")
    kind = _kind(command.kind)
    if state.on_board[victim][kind] == 0:
        raise IllegalCommand(f"{_name(state, victim)} has no {KIND_ORDER[kind].title} on the board")
    _check_removal_possible(state, seat, kind)
    state.step_removals += 1
    state.on_board[victim][kind] -= 1
    state.returning[victim][kind] += 1
    gain(state, seat, BOUNTY[kind])


def _check_removal_possible(state: GameState, seat: int, kind: int) -> None:
    reason = removal_blocker(state, seat, kind)
    if reason is not None:
        raise IllegalCommand(reason)


def _table_swap(state: GameState, command: Swap) -> None:
    seat = _current(state, Phase.ACTIONS, "a Wyrm swap")
    who = _name(state, seat)
    if state.step != WYRM:
        raise IllegalCommand("Wyrm swaps happen while the Wyrm is activated, in the Wyrms step")
    if command.with_location is not None:
        raise IllegalCommand("table games do not record locations for swaps")
    if state.on_board[seat][WYRM] == 0:
        raise IllegalCommand(f"{who} has no Wyrm on the board")
    if sum(state.on_board[seat]) - state.on_board[seat][WYRM] == 0:
        raise IllegalCommand(f"{who} has no other creature on the board to swap with")
    if state.energy[seat] < WYRM_SWAP_COST:
        raise IllegalCommand(f"a Wyrm swap costs {WYRM_SWAP_COST} energy and {who} has none")
    state.energy[seat] -= WYRM_SWAP_COST


def _correction(state: GameState, command: Correction) -> None:
    _table_only(state, "correcting energy by hand")
    seat = _seat_of(state, command.player)
    if not command.reason.strip():
        raise IllegalCommand("a correction needs a reason")
    if command.delta == 0:
        raise IllegalCommand("a correction of 0 changes nothing")
    after = state.energy[seat] + command.delta
    if not 0 <= after <= MAX_TRACK_ENERGY:
        raise IllegalCommand(
            f"that would put {_name(state, seat)} on {after}; a correction keeps energy within "
            f"0-{MAX_TRACK_ENERGY} (record the event that won the game instead)"
        )
    state.energy[seat] = after


def _energy_and_reset(state: GameState, command: EnergyAndReset) -> None:
    _table_only(state, "recording the board at Energy and Reset")
    if state.phase is not Phase.ENERGY_AND_RESET:
        raise IllegalCommand(
            f"Energy and Reset comes after the Actions phase; it is {_where(state)}"
        )
    game = state.game
    occupants: list[Any] = [None] * game.isle.size
    seen: Counter[tuple[int, int]] = Counter()
    for placement in command.placements:
        where = _location(state, placement.location)
        if occupants[where] is not None:
            raise IllegalCommand(f"location {placement.location} holds two creatures")
        seat = _seat_of(state, placement.player)
        kind = _kind(placement.kind)
        occupants[where] = (placement.player, KIND_ORDER[kind])
        seen[seat, kind] += 1
    gone: Counter[tuple[int, int]] = Counter()
    for creature in command.removed or ():
        gone[_seat_of(state, creature.player), _kind(creature.kind)] += 1
    for (seat, kind), count in (seen + gone).items():
        if count > state.on_board[seat][kind]:
            raise IllegalCommand(
                f"{_name(state, seat)} has {state.on_board[seat][kind]} {KIND_ORDER[kind].plural} "
                f"on the board by the record, not {count}: record the summon first"
            )
    if command.removed is not None:
        _check_accounted(state, seen + gone)
    declined: dict[str, list[str]] = {}
    for refusal in command.declined:
        _seat_of(state, refusal.player)
        if refusal.territory not in game.isle.territory_index:
            raise IllegalCommand(f"there is no territory {refusal.territory!r} on this board")
        declined.setdefault(refusal.player, []).append(refusal.territory)
    tally = run_reset(state, occupants, declined)
    # Creatures on record but not placed left the board without a recorded removal (listed in
    # `removed`, or in version 1 logs simply left out): they come back next round.
    for seat, counts in enumerate(state.on_board):
        for kind, count in enumerate(counts):
            missing = count - seen[seat, kind]
            counts[kind] -= missing
            state.returning[seat][kind] += missing
    state.occupant = [
        None if o is None else game.tokens[game.seat[o[0]]][KIND_INDEX[o[1]]] for o in occupants
    ]
    finish_round(state, tally)


def _check_accounted(state: GameState, accounted: Counter[tuple[int, int]]) -> None:
    """Refuse an Energy and Reset that leaves out a creature on the board by the record."""
    missing = [
        (seat, kind, count - accounted[seat, kind])
        for seat in state.turn_order
        for kind, count in enumerate(state.on_board[seat])
        if count > accounted[seat, kind]
    ]
    if not missing:
        return
    names = [_creatures_of(state, seat, kind, count) for seat, kind, count in missing]
    verb, them = ("is", "it") if len(missing) == 1 and missing[0][2] == 1 else ("are", "them")
    raise IllegalCommand(
        f"{joined(names)} {verb} on the board by the record: place {them} or mark {them} removed"
    )


def _creatures_of(state: GameState, seat: int, kind: int, count: int) -> str:
    creature = KIND_ORDER[kind]
    if count == 1:
        return f"{_name(state, seat)}'s {creature.title}"
    return f"{count} of {_name(state, seat)}'s {creature.plural}"


# --- Skipping ahead at the table -----------------------------------------------------------


def _skip(state: GameState, command: Skip) -> None:
    _table_only(state, "skipping ahead")
    target = skip_target(state, command)
    if state.phase not in (Phase.SUMMONING, Phase.ACTIONS) or position(state) >= target:
        raise IllegalCommand(f"there is nothing to skip: it is {_where(state)}")
    while state.phase in (Phase.SUMMONING, Phase.ACTIONS) and position(state) < target:
        next_turn(state)


_HANDLERS: dict[type, Callable[[GameState, Any], None]] = {
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
