"""The input of `companion tally`: one round's end, checked before anything is computed."""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt, model_validator

from companion.language.message import Message
from models.board import MAX_ID_CHARS, MAX_LOCATIONS, MAX_TERRITORIES, Board
from models.rules import (
    CREATURES,
    EXTENDED_ROUNDS,
    EXTENDED_ROUNDS_MIN_PLAYERS,
    MAX_PLAYERS,
    MAX_TRACK_ENERGY,
    MIN_PLAYERS,
    STANDARD_ROUNDS,
    CreatureKind,
)
from models.text import check_typed_text

# As long as a seat's id in a saved game may be, and never blank or full of control characters.
MAX_PLAYER_ID_CHARS = 24
PlayerId = Annotated[
    str,
    Field(min_length=1, max_length=MAX_PLAYER_ID_CHARS),
    AfterValidator(
        lambda text: check_typed_text(text, Message("problem.what.player_id"), normalise=False)
    ),
]
BoardId = Annotated[str, Field(max_length=MAX_ID_CHARS)]


class Placement(BaseModel):
    """The creature on one location."""

    model_config = ConfigDict(extra="forbid")

    player: PlayerId
    creature: CreatureKind


class TallyRequest(BaseModel):
    """Board, order, energy and the creatures on the board at Energy and Reset."""

    model_config = ConfigDict(extra="forbid")

    board: str | dict[str, Any]
    round: StrictInt = Field(default=1, ge=1)
    final_round: StrictInt = STANDARD_ROUNDS
    turn_order: list[PlayerId]
    energy: dict[PlayerId, StrictInt]
    placements: dict[BoardId, Placement] = Field(default={}, max_length=MAX_LOCATIONS)
    decline_domination: dict[
        PlayerId, Annotated[list[BoardId], Field(max_length=MAX_TERRITORIES)]
    ] = Field(default={}, max_length=MAX_PLAYERS)

    @model_validator(mode="after")
    def _check(self) -> Self:
        players = self.turn_order
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise ValueError(
                f"turn_order: {len(players)} players; "
                f"the game is for {MIN_PLAYERS} to {MAX_PLAYERS}"
            )
        repeated = [p for p, n in Counter(players).items() if n > 1]
        if repeated:
            raise ValueError(f"turn_order: player {repeated[0]!r} is listed twice")
        if self.final_round not in (STANDARD_ROUNDS, EXTENDED_ROUNDS):
            raise ValueError(f"final_round: must be {STANDARD_ROUNDS} or {EXTENDED_ROUNDS}")
        if self.final_round == EXTENDED_ROUNDS and len(players) < EXTENDED_ROUNDS_MIN_PLAYERS:
            raise ValueError(
                f"final_round: round {EXTENDED_ROUNDS} is only for games of "
                f"{EXTENDED_ROUNDS_MIN_PLAYERS} or more players"
            )
        if self.round > self.final_round:
            raise ValueError(f"round: {self.round} is after the final round {self.final_round}")
        for player, energy in self.energy.items():
            if player not in players:
                raise ValueError(f"energy: player {player!r} is not in turn_order")
            if not 0 <= energy <= MAX_TRACK_ENERGY:
                raise ValueError(f"energy: {player} has {energy}, outside 0-{MAX_TRACK_ENERGY}")
        missing = [p for p in players if p not in self.energy]
        if missing:
            raise ValueError(f"energy: no energy given for player {missing[0]!r}")
        counts: Counter[tuple[str, CreatureKind]] = Counter()
        for location, placement in self.placements.items():
            if placement.player not in players:
                raise ValueError(
                    f"placements: {location} holds player {placement.player!r}, "
                    f"who is not in turn_order"
                )
            counts[placement.player, placement.creature] += 1
        for (player, kind), count in counts.items():
            owned = CREATURES[kind].owned
            if count > owned:
                raise ValueError(
                    f"placements: {player} has {count} {kind.plural} on the board "
                    f"but owns only {owned}"
                )
        for player in self.decline_domination:
            if player not in players:
                raise ValueError(f"decline_domination: player {player!r} is not in turn_order")
        return self

    def check_against(self, board: Board) -> None:
        """Check the locations and territories named against the board; ValueError if unknown."""
        locations = set(board.location_ids)
        for location in self.placements:
            if location not in locations:
                raise ValueError(f"placements: there is no location {location!r} on the board")
        territories = {territory.id for territory in board.territories}
        for player, refused in self.decline_domination.items():
            for territory in refused:
                if territory not in territories:
                    raise ValueError(
                        f"decline_domination: {player} declines unknown territory {territory!r}"
                    )
