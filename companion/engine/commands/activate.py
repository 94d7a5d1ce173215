"""Activate: start one of the player's face-up creatures of the step's kind (ruling 5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.commands._common import current, location, name, place, place_named, who
from companion.engine.commands._declaration import Declaration, Moment, Tapped
from companion.engine.constants import Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import begin_activation
from companion.engine.names import kind_term
from companion.language import Message
from models.commands import Activate, Command
from models.rules import KIND_ORDER, CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState


WHAT = Message("what.activate")


def apply(state: GameState, command: Activate) -> None:
    """Make the player's creature at the location the active one, with its full actions."""
    seat = current(state, Phase.ACTIONS, WHAT)
    if state.active is not None:
        here = place(state, state.active)
        raise IllegalCommand(Message("refuse.finish_first", place=here))
    where = location(state, command.location)
    token = state.occupant[where]
    kind = KIND_ORDER[state.step]
    if token is None or token[0] != seat or token[1] != state.step:
        raise IllegalCommand(
            Message(
                "refuse.no_creature_there",
                player=name(state, seat),
                kind=kind_term(kind),
                place=place(state, where),
            )
        )
    if state.face_down[where]:
        raise IllegalCommand(
            Message("refuse.already_acted", kind=kind_term(kind), place=place(state, where))
        )
    begin_activation(state, where)


def describe(state: GameState, command: Activate) -> Message:
    """'Ragna activates the Troll at North Cliffs 4'."""
    return Message(
        "activate",
        player=who(state),
        kind=kind_term(KIND_ORDER[state.step]),
        place=place_named(state, command.location),
    )


def legal(state: GameState, out: list[Command]) -> None:
    """Each face-up creature of the step's kind the player has on the board."""
    game = state.game
    seat = state.turn_order[state.turn]
    mine = game.tokens[seat][state.step]
    occupant = state.occupant
    face_down = state.face_down
    activations = game.activations
    # The board holds exactly on_board of the player's creatures of this kind: a search in C
    # finds each one without looking at every location in Python.
    i = -1
    for _ in range(state.on_board[seat][state.step]):
        i = occupant.index(mine, i + 1)
        if not face_down[i]:
            out.append(activations[i])


def places(state: GameState, command: Activate) -> tuple[str, ...]:
    """The creature's location."""
    return (command.location,)


def space(state: GameState, command: Activate) -> str | None:
    """A tap on the creature activates it."""
    return command.location


def tap(tapped: Tapped) -> Activate | None:
    """A tap activates a creature when none is active; while one is, a tap on the player's
    own creature activates it too (refused with the reason), but for the Wyrm's swap."""
    if tapped.phase is not Phase.ACTIONS:
        return None
    if tapped.active is None:
        return Activate(tapped.location)
    own = tapped.owner == tapped.player
    wyrm_swap = tapped.kind is CreatureKind.WYRM and tapped.location != tapped.active
    return Activate(tapped.location) if own and not wyrm_swap else None


DIGITAL = Declaration(
    Activate,
    what=WHAT,
    apply=apply,
    describe=describe,
    legal=legal,
    moments=(Moment.ACTIONS,),
    rank=20,
    places=places,
    space=space,
    tap=tap,
)
TABLE = None
