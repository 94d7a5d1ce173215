"""EnergyAndReset: at the table, the round's tally run from the creatures seen on the board.

Every creature on the board by the record is either placed or listed as removed without
a recorded removal; a version 1 log's record (`removed` None) left those out.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from companion.engine.commands._common import kind, location, name, seat_of, where
from companion.engine.commands._declaration import Declaration
from companion.engine.constants import KIND_INDEX, Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import finish_round, run_reset
from companion.engine.names import kind_term, kinds_term
from companion.language import Message, Value, by_commas, quoted
from models.commands import EnergyAndReset
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.state import GameState


def apply(state: GameState, command: EnergyAndReset) -> None:
    """Check the board against the record, run the tally and start the next round."""
    if state.phase is not Phase.ENERGY_AND_RESET:
        raise IllegalCommand(Message("refuse.reset_too_soon", now=where(state)))
    game = state.game
    occupants: list[Any] = [None] * game.isle.size
    seen: Counter[tuple[int, int]] = Counter()
    for placement in command.placements:
        spot = location(state, placement.location)
        if occupants[spot] is not None:
            raise IllegalCommand(Message("refuse.two_creatures", location=placement.location))
        seat = seat_of(state, placement.player)
        index = kind(placement.kind)
        occupants[spot] = (placement.player, KIND_ORDER[index])
        seen[seat, index] += 1
    gone: Counter[tuple[int, int]] = Counter()
    for creature in command.removed or ():
        gone[seat_of(state, creature.player), kind(creature.kind)] += 1
    for (seat, index), count in (seen + gone).items():
        recorded = state.on_board[seat][index]
        if count > recorded:
            player, kinds = name(state, seat), kinds_term(KIND_ORDER[index])
            # One removed this round is not missing a summon.
            removed = min(state.returning[seat][index], count - recorded)
            if removed:
                raise IllegalCommand(
                    Message(
                        "refuse.more_than_recorded_removed",
                        player=player,
                        recorded=recorded,
                        kinds=kinds,
                        seen=count,
                        count=removed,
                    )
                )
            raise IllegalCommand(
                Message(
                    "refuse.more_than_recorded",
                    player=player,
                    recorded=recorded,
                    kinds=kinds,
                    seen=count,
                )
            )
    if command.removed is not None:
        _check_accounted(state, seen + gone)
    declined: dict[str, list[str]] = {}
    for refusal in command.declined:
        seat_of(state, refusal.player)
        if refusal.territory not in game.isle.territory_index:
            raise IllegalCommand(
                Message("refuse.no_territory", territory=quoted(refusal.territory))
            )
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
    names = tuple(_creatures_of(state, seat, index, count) for seat, index, count in missing)
    # One creature is 'it'; several, or several groups, are 'them'.
    many = 1 if len(missing) == 1 and missing[0][2] == 1 else 2
    raise IllegalCommand(Message("refuse.unaccounted", creatures=names, count=many))


def _creatures_of(state: GameState, seat: int, index: int, count: int) -> Message:
    creature = KIND_ORDER[index]
    if count == 1:
        return Message("creatures.one", player=name(state, seat), kind=kind_term(creature))
    return Message(
        "creatures.some", count=count, player=name(state, seat), kinds=kinds_term(creature)
    )


def describe(state: GameState, command: EnergyAndReset) -> Message:
    """'Energy and Reset of round 2 with 5 creatures on the board, 1 bonus declined'."""
    creatures = Message("count.creature", count=len(command.placements))
    parts: list[Value] = [Message("reset.describe", round=state.round, creatures=creatures)]
    if command.declined:
        parts.append(Message("reset.declined", count=len(command.declined)))
    if command.removed:
        parts.append(Message("reset.gone", count=len(command.removed)))
    whole = by_commas(parts)
    assert isinstance(whole, Message), "parts joined are a message"
    return whole


# What was seen on the board is the table's to say: the record is never listed.
TABLE = Declaration(
    EnergyAndReset,
    what=Message("what.record_board"),
    apply=apply,
    describe=describe,
    legal=None,
)
DIGITAL = None
