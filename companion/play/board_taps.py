"""What a tap on the digital board means, from the engine's query surface: plain Python.

`targets` marks each space whose tap would make a legal command (`GameState.space_commands`,
with a move's cost from `GameState.move_costs`); the command a tap asks for, legal or not, is
the engine's (`GameState.tap_command`), and `meaning` says what the tap comes to: that command,
or why it cannot be made; `describe_board` says it all in words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from companion.engine import GameState
from companion.engine.names import kind_term
from companion.engine.queries import Creature
from companion.language import Message, Value, by_commas, by_semicolons, by_spaces
from companion.language.render import Language
from companion.play.game_words import english
from models.commands import Activate, Attack, Command, Move, Summon, Swap


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


def meaning(
    state: GameState, location: str, refusal: Callable[[Command], Message | None]
) -> Command | Message | None:
    """What a tap on a space comes to: the legal command it asks for; why not, for one that
    cannot be made (`refusal`: the engine's reason, or the table's); None where a tap means
    nothing."""
    command = state.tap_command(location)
    if command is None:
        return None
    if command in state.legal_commands():
        return command
    return refusal(command) or Message("game.board.nothing")


def targets(state: GameState) -> dict[str, Target]:
    """What a tap on each space would do now: the engine's legal command there, marked."""
    costs = state.move_costs()
    return {
        place: Target(
            command, MARKS[type(command)], costs.get(place, 0) if type(command) is Move else 0
        )
        for place, command in state.space_commands().items()
    }


def describe_board(
    on_board: Mapping[str, Creature],
    labels: Mapping[str, str],
    marks: Mapping[str, Target],
    names: Mapping[str, Value],
    words: Language | None = None,
) -> str:
    """The board in words, for screen readers: each creature and each space a tap would use.

    `names` are what players call the spaces (`Board.location_names`, or the engine's terms
    for them, which a shipped board's catalog entries translate); default English.
    """
    words = words or english()
    parts: list[Value] = []
    for location, piece in sorted(on_board.items()):
        said = (
            "game.isle.active"
            if piece.active
            else ("game.isle.face_down" if piece.face_down else "game.isle.creature")
        )
        parts.append(
            Message(
                said, player=labels[piece.player], kind=kind_term(piece.kind), place=names[location]
            )
        )
    creatures = by_semicolons(parts) if parts else Message("game.isle.empty")
    sentences: list[Value] = [Message("game.isle", creatures=creatures)]
    for mark in Mark:
        places = sorted(
            words.value(names[at], "nu") for at, target in marks.items() if target.mark is mark
        )
        if places:
            sentences.append(Message(TAP_TO[mark], places=by_commas(places)))
    return words.render(by_spaces(sentences))  # type: ignore[arg-type]


# What a tap does on the spaces of each mark, for screen readers.
TAP_TO: dict[Mark, str] = {
    Mark.SUMMON: "game.isle.tap.summon",
    Mark.ACTIVATE: "game.isle.tap.activate",
    Mark.MOVE: "game.isle.tap.move",
    Mark.ATTACK: "game.isle.tap.attack",
    Mark.SWAP: "game.isle.tap.swap",
}
