"""Boards as data: territories, locations and the paths between them."""

from __future__ import annotations

from collections import deque
from functools import cached_property
from typing import Annotated, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictFloat,
    StrictInt,
    field_validator,
    model_validator,
)

from companion.language.message import Message
from models.problems import InvalidValue
from models.rules import DOMINATION_BONUS_RANGE, MAX_PLAYERS, MIN_PLAYERS
from models.text import typed_text

_BONUS_LOW, _BONUS_HIGH = DOMINATION_BONUS_RANGE

# Bounds far above any real isle (the shipped ones have 10 territories and 40 spaces), so a
# hostile board file is refused at once instead of costing time and memory everywhere.
MAX_TERRITORIES = 64
MAX_LOCATIONS = 512
MAX_PATHS = 4096
MAX_ID_CHARS = 64
MAX_NAME_CHARS = 100
MAX_DESCRIPTION_CHARS = 1000
Id = Annotated[
    str,
    Field(min_length=1, max_length=MAX_ID_CHARS),
    AfterValidator(typed_text(Message("problem.what.id"), normalise=False)),
]
Name = Annotated[
    str,
    Field(max_length=MAX_NAME_CHARS),
    AfterValidator(typed_text(Message("problem.what.name"))),
]


class Territory(BaseModel):
    """A named group of summoning locations with its domination bonus."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Id
    name: Name = ""
    bonus: StrictInt = Field(ge=_BONUS_LOW, le=_BONUS_HIGH)
    locations: tuple[Id, ...] = Field(min_length=1, max_length=MAX_LOCATIONS)

    @property
    def label(self) -> str:
        """The name to show: the territory's name, or its id when it has none."""
        return self.name or self.id


class Location(BaseModel):
    """Where a location is drawn, in board units (0-100 on each axis)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Id
    x: StrictFloat = Field(ge=0, le=100)
    y: StrictFloat = Field(ge=0, le=100)


class Board(BaseModel):
    """A whole isle: territories always; drawing positions and paths for digital play."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Id = "custom"
    name: Name = "Custom board"
    description: Annotated[
        str,
        Field(max_length=MAX_DESCRIPTION_CHARS),
        AfterValidator(typed_text(Message("input.what.description"))),
    ] = ""
    min_players: StrictInt = Field(default=MIN_PLAYERS, ge=MIN_PLAYERS, le=MAX_PLAYERS)
    max_players: StrictInt = Field(default=MAX_PLAYERS, ge=MIN_PLAYERS, le=MAX_PLAYERS)
    territories: tuple[Territory, ...] = Field(min_length=1, max_length=MAX_TERRITORIES)
    locations: tuple[Location, ...] = Field(default=(), max_length=MAX_LOCATIONS)
    paths: tuple[tuple[str, str], ...] = Field(default=(), max_length=MAX_PATHS)

    @field_validator("paths", mode="before")
    @classmethod
    def _paths_are_pairs(cls, value: object) -> object:
        if isinstance(value, list | tuple):
            for path in value:
                if not isinstance(path, list | tuple) or len(path) != 2:
                    raise InvalidValue(Message("problem.board.path_pair", given=repr(path)))
        return value

    @model_validator(mode="after")
    def _check_isle(self) -> Self:
        if self.min_players > self.max_players:
            raise InvalidValue(Message("problem.board.min_max"))
        owner: dict[str, str] = {}
        seen_territories: set[str] = set()
        for territory in self.territories:
            if territory.id in seen_territories:
                raise InvalidValue(Message("problem.board.territory_twice", id=repr(territory.id)))
            seen_territories.add(territory.id)
            for location in territory.locations:
                if location in owner:
                    twice = owner[location] == territory.id
                    raise InvalidValue(
                        Message(
                            "problem.board.location_twice",
                            location=repr(location),
                            territory=repr(territory.id),
                        )
                        if twice
                        else Message(
                            "problem.board.location_shared",
                            location=repr(location),
                            first=repr(owner[location]),
                            second=repr(territory.id),
                        )
                    )
                owner[location] = territory.id
        if len(owner) > MAX_LOCATIONS:
            raise InvalidValue(
                Message("problem.board.too_many", count=str(len(owner)), most=str(MAX_LOCATIONS))
            )
        if self.locations:
            # A dict, not a set: the first stray location named is the first one drawn.
            drawn: dict[str, None] = {}
            for spot in self.locations:
                if spot.id in drawn:
                    raise InvalidValue(Message("problem.board.drawn_twice", id=repr(spot.id)))
                drawn[spot.id] = None
            missing = next((name for name in owner if name not in drawn), None)
            if missing is not None:
                raise InvalidValue(Message("problem.board.not_drawn", id=repr(missing)))
            stray = next((name for name in drawn if name not in owner), None)
            if stray is not None:
                raise InvalidValue(Message("problem.board.stray", id=repr(stray)))
        for a, b in self.paths:
            for end in (a, b):
                if end not in owner:
                    raise InvalidValue(
                        Message("problem.board.path_unknown", path=_path(a, b), id=repr(end))
                    )
            if a == b:
                raise InvalidValue(Message("problem.board.path_loop", path=_path(a, b)))
        if self.paths:
            unreachable = _unreachable(self.neighbours)
            if unreachable:
                raise InvalidValue(
                    Message(
                        "problem.board.not_connected",
                        id=repr(unreachable[0]),
                        start=repr(next(iter(owner))),
                    )
                )
        return self

    @property
    def short_name(self) -> str:
        """The name without a closing note in brackets: 'Duel Isle' for 'Duel Isle (...)'."""
        head, bracket, _ = self.name.rpartition(" (")
        return head if bracket and head and self.name.endswith(")") else self.name

    @property
    def location_ids(self) -> tuple[str, ...]:
        """Every location, territory by territory, in board order."""
        return tuple(name for territory in self.territories for name in territory.locations)

    @property
    def location_numbers(self) -> dict[str, int]:
        """Each location's number within its territory, counting from 1."""
        return {
            name: number
            for territory in self.territories
            for number, name in enumerate(territory.locations, start=1)
        }

    @property
    def location_names(self) -> dict[str, str]:
        """What players call each location: 'North Cliffs 4', or the name alone for one."""
        return {
            name: territory.label
            if len(territory.locations) == 1
            else f"{territory.label} {number}"
            for territory in self.territories
            for number, name in enumerate(territory.locations, start=1)
        }

    @cached_property
    def neighbours(self) -> dict[str, tuple[str, ...]]:
        """Each location's neighbours along the paths, both in board order.

        The one place the paths become adjacency: the isle check above, the engine's
        compiled isle and every path search read it.
        """
        order = {name: i for i, name in enumerate(self.location_ids)}
        joined: dict[str, set[str]] = {name: set() for name in order}
        for a, b in self.paths:
            joined[a].add(b)
            joined[b].add(a)
        return {name: tuple(sorted(near, key=order.__getitem__)) for name, near in joined.items()}

    @property
    def playable_digitally(self) -> bool:
        """Whether the board has the paths and drawing positions the digital board needs."""
        return bool(self.paths) and bool(self.locations)

    def territory_of(self, location: str) -> Territory:
        """The territory holding a location; KeyError if none does."""
        return self._territory_by_location[location]

    @cached_property
    def _territory_by_location(self) -> dict[str, Territory]:
        return {name: t for t in self.territories for name in t.locations}


def _unreachable(neighbours: dict[str, tuple[str, ...]]) -> list[str]:
    """Locations that cannot be reached from the first one along the paths."""
    start = next(iter(neighbours))
    reached = {start}
    queue = deque([start])
    while queue:
        for nxt in neighbours[queue.popleft()]:
            if nxt not in reached:
                reached.add(nxt)
                queue.append(nxt)
    return [name for name in neighbours if name not in reached]


def _path(a: str, b: str) -> str:
    """A path as a sentence names it, 'n1-n2', on one line whatever its ids hold."""
    return "-".join(repr(str(end))[1:-1] for end in (a, b))
