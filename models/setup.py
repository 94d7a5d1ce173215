"""A game's setup: who plays, on which board, for how many rounds, and how."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated, Any, NamedTuple, Self

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    StrictInt,
    Tag,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from companion.language.message import Message
from models.board import Board
from models.opponents import parse_bot
from models.problems import InvalidValue
from models.rules import (
    EXTENDED_ROUNDS,
    EXTENDED_ROUNDS_MIN_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STANDARD_ROUNDS,
)

# Re-exported (`as`): the store reads setups with STORED, the history groups names by name_key.
from models.text import STORED as STORED
from models.text import (
    is_stored,
    is_unseen,
    looks_alike,
    shown_safely,
    text_problem,
    typed_text,
)
from models.text import name_key as name_key

# The seat colours, by id, in the order seats take them by default (the app draws each one
# with a hue, a letter and a shape: companion/app/theme.py).
SEAT_COLOURS = ("red", "blue", "green", "yellow", "purple", "white")
NAME_MAX_LENGTH = 24
# A position text is a few dozen characters per player and location: this is ample.
START_MAX_LENGTH = 1000
# Spaces, invisible formatting (zero-width space, joiners) and marks that only sit on a letter.
_INVISIBLE_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cf", "Cc", "Mn", "Me"})


class NameProblem(NamedTuple):
    """What is wrong with a player's name: its kind, and the character at fault if one is."""

    # "surrogate", "bidi" or "control" (a character, `code`), "blank" or "long".
    kind: str
    code: str = ""


def name_problem(name: str) -> NameProblem | None:
    """What is wrong with a player's name as typed or imported, or None if nothing.

    Its characters are held to models.text's one check; a name must show something and
    fit on a seat's chip.
    """
    said = text_problem(name, Message("problem.what.name"))
    if said is not None and said.id != "problem.text.invisible":
        kind = {"input.text.surrogate": "surrogate", "input.text.bidi": "bidi"}.get(said.id)
        return NameProblem(kind or "control", str(said.fields["code"]))
    text = name.strip()
    if all(is_unseen(c) or unicodedata.category(c) in _INVISIBLE_CATEGORIES for c in text):
        return NameProblem("blank")
    if len(unicodedata.normalize("NFC", text)) > NAME_MAX_LENGTH:
        return NameProblem("long")
    return None


def same_name(first: str, second: str) -> bool:
    """Whether two names are one to the players (see models.text.name_key)."""
    return name_key(first) == name_key(second)


def default_colours(player_ids: Sequence[str]) -> list[str]:
    """A distinct seat colour per player: the one their id names, else the next one free."""
    taken = {player for player in player_ids if player in SEAT_COLOURS}
    free = iter(colour for colour in SEAT_COLOURS if colour not in taken)
    return [player if player in SEAT_COLOURS else next(free, "") for player in player_ids]


class Mode(StrEnum):
    """How the game is played: beside a physical board, or entirely in the app."""

    TABLE = "table"
    DIGITAL = "digital"


class PlayerSetup(BaseModel):
    """One seat: a stable id, a display name, a colour, and the bot playing it, if any."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, max_length=24, pattern=r"^[A-Za-z0-9_-]+$")
    # Optional (the id stands in), but a name given must be visible; kept trimmed.
    name: str = ""
    colour: str = Field(default="", max_length=24)
    # A computer opponent's name (models/opponents.py), e.g. "mcts:easy".
    bot: str | None = None

    @field_validator("name")
    @classmethod
    def _visible_name(cls, value: str, info: ValidationInfo) -> str:
        if is_stored(info):
            # Saved by a version that checked less: shown safely, never refused.
            return shown_safely(value).strip()
        if value:
            problem = name_problem(value)
            if problem is not None:
                # `kind` and `code` let models/problems.py say it in any language.
                context = {"kind": problem.kind, "code": problem.code, "most": NAME_MAX_LENGTH}
                raise PydanticCustomError("player_name", "the name is not valid", context)
        return unicodedata.normalize("NFC", value.strip())

    @field_validator("colour")
    @classmethod
    def _clean_colour(cls, value: str, info: ValidationInfo) -> str:
        return typed_text(Message("input.what.colour"))(value, info)

    @field_validator("bot")
    @classmethod
    def _known_bot(cls, value: str | None) -> str | None:
        if value is not None:
            parse_bot(value)
        return value

    @property
    def label(self) -> str:
        """The name to show: the player's name, or their id when they have none."""
        return self.name or self.id


def _board_form(value: Any) -> str:
    return "shipped" if isinstance(value, str) else "inline"


# A shipped board's id, or a whole board written out. Told apart by the value's type, so a
# mistake in a written-out board is reported as that mistake, not as "should be a string".
BoardReference = Annotated[
    Annotated[str, Tag("shipped")] | Annotated[Board, Tag("inline")],
    Discriminator(_board_form),
]


class GameSetup(BaseModel):
    """Everything fixed before the first round starts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: tuple[PlayerSetup, ...] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)
    board: BoardReference
    final_round: StrictInt = STANDARD_ROUNDS
    # The first round's order, as player ids; defaults to the order players are listed in.
    turn_order: tuple[str, ...] = ()
    mode: Mode = Mode.TABLE
    # A game played on from another's moment starts from that position, as its
    # position text (docs/engine.md), not from the rules' start; the engine checks it.
    start: str | None = Field(default=None, min_length=1, max_length=START_MAX_LENGTH)

    @model_validator(mode="after")
    def _check(self, info: ValidationInfo) -> Self:
        ids = [player.id for player in self.players]
        if len(set(ids)) != len(ids):
            raise InvalidValue(Message("problem.setup.shared_id"))
        if not is_stored(info):
            _check_names_differ(self.players)
        if self.final_round not in (STANDARD_ROUNDS, EXTENDED_ROUNDS):
            raise InvalidValue(
                Message(
                    "problem.setup.rounds",
                    standard=str(STANDARD_ROUNDS),
                    extended=str(EXTENDED_ROUNDS),
                    given=str(self.final_round),
                )
            )
        if self.final_round == EXTENDED_ROUNDS and len(ids) < EXTENDED_ROUNDS_MIN_PLAYERS:
            raise InvalidValue(
                Message(
                    "problem.setup.extended",
                    extended=str(EXTENDED_ROUNDS),
                    least=str(EXTENDED_ROUNDS_MIN_PLAYERS),
                )
            )
        if self.turn_order and sorted(self.turn_order) != sorted(ids):
            raise InvalidValue(Message("problem.setup.turn_order"))
        if self.mode is Mode.TABLE and any(player.bot for player in self.players):
            raise InvalidValue(Message("problem.setup.bots_digital"))
        return self

    @property
    def first_turn_order(self) -> tuple[str, ...]:
        """The turn order of round 1."""
        return self.turn_order or tuple(player.id for player in self.players)


def _check_names_differ(players: Sequence[PlayerSetup]) -> None:
    """Refuse two players the table would call the same (a name, or an id standing in for one)."""
    for later, player in enumerate(players):
        for earlier in players[:later]:
            alike = looks_alike(player.label, earlier.label)
            if not alike and not same_name(player.label, earlier.label):
                continue
            first = players.index(earlier) + 1
            if alike:
                raise InvalidValue(
                    Message("input.setup.name_alike", later=str(later + 1), other=earlier.label)
                )
            if player.name:
                raise InvalidValue(
                    Message("problem.setup.name_taken", later=str(later + 1), other=earlier.label)
                )
            if earlier.name:
                raise InvalidValue(
                    Message(
                        "problem.setup.name_is_id",
                        first=str(first),
                        later=str(later + 1),
                        id=player.id,
                    )
                )
            raise InvalidValue(
                Message("problem.setup.ids_case", first=str(first), later=str(later + 1))
            )
