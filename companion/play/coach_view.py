"""The win chances a table shows: the line after each Energy and Reset, behind a device's
switch, and each player's chance round by round beside their energy. Plain Python.

Like the pace and the language, the switch is a device's display setting, kept in its
browser, never in a game: some tables want no spoilers, so it is off until someone turns
it on. The chances themselves are derived data (coach_work.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.coach import Chances, Review
from companion.coach.review import chances_message, percent
from companion.language import Message
from models.commands import Command, EnergyAndReset
from models.rules import STARTING_ENERGY

# Where a device keeps its switch (beside its pace, `board_device.STORED_PACE`).
STORED_CHANCES = "summoners-isle.chances"
ON = "on"


def chances_on(kept: object) -> bool:
    """Whether a device shows win chances: only if it turned them on (off if it kept nothing)."""
    return kept == ON


def kept_value(on: bool) -> str:
    """What a device keeps for its switch."""
    return ON if on else "off"


@dataclass(frozen=True, slots=True)
class ChanceLine:
    """What the table's chance line says: its heading, and the moment whose chances it shows
    (the records up to it: None before the first Energy and Reset)."""

    heading: Message
    upto: int | None


def chance_line(records: Sequence[Command]) -> ChanceLine:
    """The chance line for a table game's records: the newest Energy and Reset's chances."""
    resets = [index for index, record in enumerate(records, 1) if type(record) is EnergyAndReset]
    if not resets:
        return ChanceLine(Message("coachui.line.before_reset"), None)
    return ChanceLine(Message("coachui.line.after_reset", round=len(resets)), resets[-1])


def line_text(line: ChanceLine, chances: Chances | None, labels: Mapping[str, str]) -> Message:
    """The line's words: the chances, or that they are being worked out."""
    if line.upto is None:
        return Message("coachui.line.none_yet")
    if chances is None:
        return Message("coachui.line.computing")
    return chances_message(chances, labels)


@dataclass(frozen=True, slots=True)
class RoundCell:
    """One player's energy after a round, and their chance from there (None: not known)."""

    player: str
    energy: int
    chance: Message | None


@dataclass(frozen=True, slots=True)
class RoundRow:
    """A round of the result's table: its name and every player's cell, in setup order."""

    heading: Message
    cells: tuple[RoundCell, ...]


def round_rows(
    players: Sequence[str],
    energies: Mapping[str, Sequence[int]],
    told: Review | None,
    result: Chances | None = None,
) -> list[RoundRow]:
    """The start and each round played: energy at its end and the chance from there on.

    `told` is the game's review (None: chances not shown); `result` the finished game's
    (every chance 0 or 100%), for a game won mid-round, after its last review moment.
    """
    played = len(next(iter(energies.values()), ()))
    moments = told.by_round() if told is not None else []
    rows = []
    for row in range(played + 1):
        chances = moments[row].chances if row < len(moments) else None
        if chances is None and told is not None and row == played:
            chances = result
        heading = (
            Message("coachui.rounds.start")
            if row == 0
            else Message("coachui.rounds.round", round=row)
        )
        cells = tuple(
            RoundCell(
                player,
                STARTING_ENERGY if row == 0 else energies[player][row - 1],
                None if chances is None else percent(chances.chance(player)),
            )
            for player in players
        )
        rows.append(RoundRow(heading, cells))
    return rows
