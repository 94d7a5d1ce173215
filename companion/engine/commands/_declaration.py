"""The shape of a declaration: one command type in one rule set, every part of it in one place.

Kept apart from the checks and words (`_common.py`): the compiled engine (docs/engine.md,
"Speed") leaves this module as Python, as mypyc cannot compile a generic dataclass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from companion.engine.constants import Phase
from companion.language import Message
from models.commands import Command
from models.rules import CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState

# A legal-command generator adds the commands of its type that the rules allow now to
# `out`: one shared list per call of legal_commands, so no generator makes one of its own.
Legal = Callable[["GameState", list[Command]], None]
# A step of the round: its phase and its kind (None for the phase as a whole).
Step = tuple[Phase, CreatureKind | None]


class Moment(Enum):
    """When a command type's legal commands are listed.

    The Actions phase counts twice: choosing which creature to activate, and activating
    one; a generator listed for one never has to ask which it is.
    """

    SUMMONING = "summoning"
    ACTIONS = "actions"
    ACTIVATION = "activation"
    ENERGY_AND_RESET = "energy_and_reset"


def certain(state: GameState, command: Any) -> list[tuple[float, Command]]:
    """A command without dice: one outcome, for sure."""
    return [(1.0, command)]


def active_places(state: GameState, command: Any) -> tuple[str, ...]:
    """The active creature's space, if one is being activated: what most commands are about."""
    if state.active is None:
        return ()
    return (state.game.isle.location_ids[state.active],)


def in_actions(command: Any, kind: CreatureKind | None) -> Step:
    """A command of the Actions phase, in the step of the kind the tap names."""
    return Phase.ACTIONS, kind


@dataclass(frozen=True, slots=True)
class Tapped:
    """A tap on a space of the digital board during a Summoning or Actions step."""

    location: str
    # Whose decision it is, in which phase and step.
    player: str
    phase: Phase
    kind: CreatureKind
    # The location of the creature being activated, if one is.
    active: str | None
    # Whose creature stands on the space tapped, if any.
    owner: str | None


def no_tap(tapped: Tapped) -> None:
    """A command no tap on a space asks for."""
    return None


def no_space(state: GameState, command: Any) -> str | None:
    """No space on the board stands for this command: it is chosen off the board."""
    return None


C = TypeVar("C", bound=Command)


@dataclass(frozen=True, slots=True)
class Declaration(Generic[C]):
    """One command type in one rule set, every part of it in one place (a boardgame.io move).

    Generic over its command, so mypy checks that each part takes that command.

    `apply` checks everything before it changes anything, so a refused command leaves the
    state as it was. Its legal commands come from `legal`, or are `always` the one command
    whose moments they are (a pass); with neither it is a table record whose values are free
    (an amount, what was seen on the board), checked when applied and never listed.
    """

    command: type[C]
    # The activity as a refusal names it: 'recording a removal is for table games'.
    what: Message
    apply: Callable[[GameState, C], None]
    describe: Callable[[GameState, C], Message]
    legal: Legal | None
    # Legal whenever its moments come, with no generator to call (a pass closes each list).
    always: C | None = None
    # When its legal commands are listed, and where in the list (lower first).
    moments: tuple[Moment, ...] = ()
    rank: int = 0
    # For the board view: the spaces it is about (pointed out while a bot plays it), and
    # the space a tap picks it by.
    places: Callable[[GameState, C], tuple[str, ...]] = active_places
    space: Callable[[GameState, C], str | None] = no_space
    # Its chance outcomes: (probability, the command with dice giving the outcome).
    chances: Callable[[GameState, C], list[tuple[float, Command]]] = certain
    # The step a table tap on it belongs to, given the kind the tap names (GameState.reach).
    step: Callable[[C, CreatureKind | None], Step] = in_actions
    # On the digital board: the command a tap on a space asks for now, legal or not (a
    # refused one still gets the engine's reason); None when a tap there means another
    # command. At most one declaration answers for a space.
    tap: Callable[[Tapped], C | None] = no_tap
