"""What every command module shares: the checks and words most commands use (the shape
of a declaration is `_declaration.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.constants import KIND_INDEX, Phase, Token
from companion.engine.errors import IllegalCommand
from companion.engine.names import kind_term, kinds_term, location_term
from companion.language import Message, Term, quoted
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.state import GameState

# --- checks: each raises IllegalCommand with a sentence a player can read --------------------


def name(state: GameState, seat: int) -> str:
    """A seat's player as the table calls them."""
    return state.game.labels[state.game.players[seat]]


def where(state: GameState) -> Message:
    """Where the round is, for a refusal: 'the actions phase, Trolls step, Bjorn's turn'."""
    if state.phase in (Phase.SUMMONING, Phase.ACTIONS):
        kinds = kinds_term(KIND_ORDER[state.step])
        who = name(state, state.turn_order[state.turn])
        if state.phase is Phase.SUMMONING:
            return Message("where.summoning", kinds=kinds, player=who)
        return Message("where.actions", kinds=kinds, player=who)
    if state.phase is Phase.ENERGY_AND_RESET:
        return Message("where.energy_and_reset")
    return Message("where.game_over")


def current(state: GameState, phase: Phase, what: Message) -> int:
    """The seat whose turn it is, after checking the game is in the phase `what` needs."""
    if state.phase is not phase:
        if phase is Phase.SUMMONING:
            raise IllegalCommand(Message("refuse.summoning_phase", what=what, now=where(state)))
        raise IllegalCommand(Message("refuse.actions_phase", what=what, now=where(state)))
    return state.turn_order[state.turn]


def location(state: GameState, location_id: str | None) -> int:
    """A location's index on the isle."""
    if location_id is None:
        raise IllegalCommand(Message("refuse.needs_location"))
    index = state.game.isle.index.get(location_id)
    if index is None:
        raise IllegalCommand(Message("refuse.no_location", location=quoted(location_id)))
    return index


def place(state: GameState, index: int) -> Term:
    """A location as players call it, e.g. 'North Cliffs 4'."""
    return location_term(state.game.isle, index)


def kind(value: object) -> int:
    """A creature kind's index."""
    index = KIND_INDEX.get(value) if isinstance(value, str) else None
    if index is None:
        said = quoted(value) if isinstance(value, str) else repr(value)
        raise IllegalCommand(Message("refuse.no_kind", kind=said))
    return index


def seat_of(state: GameState, player: str) -> int:
    """A player's seat."""
    seat = state.game.seat.get(player)
    if seat is None:
        raise IllegalCommand(Message("refuse.no_player", player=quoted(player)))
    return seat


def acting(state: GameState) -> int:
    """The location of the creature being activated."""
    if state.phase is not Phase.ACTIONS or state.active is None:
        raise IllegalCommand(Message("refuse.none_active"))
    return state.active


def owner(state: GameState, index: int) -> int:
    """The seat owning the creature at a location that holds one (the active creature's)."""
    token = state.occupant[index]
    assert token is not None, "the active creature is on the board"
    return token[0]


def relocate(state: GameState, here: int, to: int) -> None:
    """Move the active creature from `here` to the empty location `to`."""
    state.occupant[to] = state.occupant[here]
    state.face_down[to] = state.face_down[here]
    state.occupant[here] = None
    state.face_down[here] = False
    state.active = to


# --- words: a sentence is written only for a command that names what is there ----------------
# An illegal command can name what is not there: these raise LookupError, and describing
# falls back to the plain form of the command.


def who(state: GameState, seat: int | None = None) -> str:
    """The name of a seat's player, by default the one whose decision it is."""
    return name(state, deciding(state) if seat is None else seat)


def deciding(state: GameState) -> int:
    """The seat whose decision it is."""
    seat = state.current_seat
    if seat is None:
        raise LookupError("it is nobody's decision")
    return seat


def active_at(state: GameState) -> int:
    """The location of the creature being activated."""
    if state.active is None:
        raise LookupError("no creature is being activated")
    return state.active


def token_at(state: GameState, index: int) -> Token:
    """The creature at a location."""
    token = state.occupant[index]
    if token is None:
        raise LookupError(f"no creature at location {index}")
    return token


def creature(state: GameState, index: int) -> Message:
    """The creature at a location in words: 'Ragna's Troll at North Cliffs 4'."""
    seat, kind_index = token_at(state, index)
    return Message(
        "creature.at",
        player=who(state, seat),
        kind=kind_term(KIND_ORDER[kind_index]),
        place=place(state, index),
    )


def place_named(state: GameState, location_id: str) -> Term:
    """A location id as players call it."""
    return place(state, state.game.isle.index[location_id])


def change(before: int, amount: int) -> Message:
    """An energy change in words: '(5 → 0)'."""
    return Message("energy.change", before=before, after=before + amount)


def energy(amount: int) -> Message:
    """An amount of energy: '5 energy' (French '5 points d'énergie')."""
    return Message("count.energy", count=amount)
