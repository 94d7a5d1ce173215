"""What a tap on the digital board means, from the engine's query surface: plain Python.

`targets` marks each space whose tap would make a legal command (`GameState.space_commands`,
with a move's cost from `GameState.move_costs`); `tap_command` is the command a tap asks for,
legal or not, so the engine can say why it is refused; `describe_board` says it all in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from companion.engine import GameState, Phase
from companion.engine.queries import Creature
from models.commands import Activate, Attack, Command, Move, Summon, Swap
from models.rules import CreatureKind


class Mark(StrEnum):
    """What a tap on a space would do now."""

    SUMMON = "summon"
    ACTIVATE = "activate"
    MOVE = "move"
    ATTACK = "attack"
    SWAP = "swap"


@dataclass(frozen=True, slots=True)
class Target:
    """A legal command reached by tapping one space, and what to mark the space with."""

    command: Command
    mark: Mark
    # Actions a move takes (ruling 6); 0 for everything else.
    cost: int = 0


# Each command a tap can make, and the mark its space gets.
MARKS: dict[type, Mark] = {
    Summon: Mark.SUMMON,
    Activate: Mark.ACTIVATE,
    Move: Mark.MOVE,
    Attack: Mark.ATTACK,
    Swap: Mark.SWAP,
}


def targets(state: GameState) -> dict[str, Target]:
    """What a tap on each space would do now: the engine's legal command there, marked."""
    costs = state.move_costs()
    return {
        place: Target(
            command, MARKS[type(command)], costs.get(place, 0) if type(command) is Move else 0
        )
        for place, command in state.space_commands().items()
    }


def tap_command(state: GameState, location: str) -> Command | None:
    """The command a tap on a space asks for, legal or not; None where a tap means nothing.

    A refused one is still worth asking for: the engine's refusal tells the player why.
    """
    turn = state.decision()
    if turn is None or turn.phase is Phase.ENERGY_AND_RESET:
        return None
    assert turn.kind is not None, "every Summoning and Actions step is of a kind"
    if turn.phase is Phase.SUMMONING:
        return Summon(turn.kind, location)
    if turn.active is None:
        return Activate(location)
    there = state.creatures().get(location)
    if there is None:
        return Move(location)
    if there.player != turn.player:
        return Attack(location)
    if turn.kind is CreatureKind.WYRM and location != turn.active:
        return Swap(location)
    return Activate(location)


def describe_board(
    on_board: Mapping[str, Creature],
    labels: Mapping[str, str],
    marks: Mapping[str, Target],
    names: Mapping[str, str],
) -> str:
    """The board in words, for screen readers: each creature and each space a tap would use.

    `names` are what players call the spaces (`Board.location_names`).
    """
    parts = []
    for location, piece in sorted(on_board.items()):
        state = " active" if piece.active else " face-down" if piece.face_down else ""
        parts.append(f"{labels[piece.player]}'s{state} {piece.kind.title} at {names[location]}")
    creatures = "; ".join(parts) if parts else "no creatures"
    text = f"The isle: {creatures}."
    for mark in Mark:
        places = sorted(names[at] for at, target in marks.items() if target.mark is mark)
        if places:
            text += f" Tap to {mark.value}: {', '.join(places)}."
    return text
