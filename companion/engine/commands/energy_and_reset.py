"""EnergyAndReset: at the table, the round's tally run from the creatures seen on the board.

Every creature on the board by the record is either placed or listed as removed without
a recorded removal; a version 1 log's record (`removed` None) left those out.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from companion.engine.commands._common import Declaration, kind, location, name, seat_of, where
from companion.engine.constants import KIND_INDEX, Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import finish_round, run_reset
from companion.engine.wording import counted, joined
from models.commands import EnergyAndReset
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: EnergyAndReset) -> None:
    """Check the board against the record, run the tally and start the next round."""
    if state.phase is not Phase.ENERGY_AND_RESET:
        raise IllegalCommand(
            f"Energy and Reset comes after the Actions phase; it is {where(state)}"
        )
    game = state.game
    occupants: list[Any] = [None] * game.isle.size
    seen: Counter[tuple[int, int]] = Counter()
    for placement in command.placements:
        spot = location(state, placement.location)
        if occupants[spot] is not None:
            raise IllegalCommand(f"location {placement.location} holds two creatures")
        seat = seat_of(state, placement.player)
        index = kind(placement.kind)
        occupants[spot] = (placement.player, KIND_ORDER[index])
        seen[seat, index] += 1
    gone: Counter[tuple[int, int]] = Counter()
    for creature in command.removed or ():
        gone[seat_of(state, creature.player), kind(creature.kind)] += 1
    for (seat, index), count in (seen + gone).items():
        if count > state.on_board[seat][index]:
            raise IllegalCommand(
                f"{name(state, seat)} has {state.on_board[seat][index]} "
                f"{KIND_ORDER[index].plural} on the board by the record, not {count}: "
                "record the summon first"
            )
    if command.removed is not None:
        _check_accounted(state, seen + gone)
    declined: dict[str, list[str]] = {}
    for refusal in command.declined:
        seat_of(state, refusal.player)
        if refusal.territory not in game.isle.territory_index:
            raise IllegalCommand(f"there is no territory {refusal.territory!r} on this board")
        declined.setdefault(refusal.player, []).append(refusal.territory)
    tally = run_reset(state, occupants, declined)
    # Creatures on record but not placed left the board without a recorded removal (listed in
    # `removed`, or in version 1 logs simply left out): they come back next round.
    for seat, counts in enumerate(state.on_board):
        for index, count in enumerate(counts):
            missing = count - seen[seat, index]
            counts[index] -= missing
            state.returning[seat][index] += missing
    state.occupant = [
        None if o is None else game.tokens[game.seat[o[0]]][KIND_INDEX[o[1]]] for o in occupants
    ]
    finish_round(state, tally)


def _check_accounted(state: GameState, accounted: Counter[tuple[int, int]]) -> None:
    """Refuse an Energy and Reset that leaves out a creature on the board by the record."""
    missing = [
        (seat, index, count - accounted[seat, index])
        for seat in state.turn_order
        for index, count in enumerate(state.on_board[seat])
        if count > accounted[seat, index]
    ]
    if not missing:
        return
    names = [_creatures_of(state, seat, index, count) for seat, index, count in missing]
    verb, them = ("is", "it") if len(missing) == 1 and missing[0][2] == 1 else ("are", "them")
    raise IllegalCommand(
        f"{joined(names)} {verb} on the board by the record: place {them} or mark {them} removed"
    )


def _creatures_of(state: GameState, seat: int, index: int, count: int) -> str:
    creature = KIND_ORDER[index]
    if count == 1:
        return f"{name(state, seat)}'s {creature.title}"
    return f"{count} of {name(state, seat)}'s {creature.plural}"


def describe(state: GameState, command: EnergyAndReset) -> str:
    """'Energy and Reset of round 2 with 5 creatures on the board, 1 bonus declined'."""
    creatures = counted(len(command.placements), "creature")
    declined = command.declined
    declined_part = f", {counted(len(declined), 'bonus', 'bonuses')} declined" if declined else ""
    removed = command.removed
    removed_part = f", {counted(len(removed), 'creature')} gone without a record" if removed else ""
    return (
        f"Energy and Reset of round {state.round} with {creatures} on the board"
        f"{declined_part}{removed_part}"
    )


# What was seen on the board is the table's to say: the record is never listed.
TABLE = Declaration(
    EnergyAndReset,
    what="recording the board at Energy and Reset",
    apply=apply,
    describe=describe,
    legal=None,
)
DIGITAL = None
