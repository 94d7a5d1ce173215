"""A game's setup: who plays, on which board, for how many rounds, and how."""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from models.board import Board
from models.opponents import parse_bot
from models.rules import (
    EXTENDED_ROUNDS,
    EXTENDED_ROUNDS_MIN_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STANDARD_ROUNDS,
)


class Mode(StrEnum):
    """How the game is played: beside a physical board, or entirely in the app."""

    TABLE = "table"
    DIGITAL = "digital"


class PlayerSetup(BaseModel):
    """One seat: a stable id, a display name, a colour, and the bot playing it, if any."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, max_length=24, pattern=r"^[A-Za-z0-9_-]+$")
    name: str = Field(default="", max_length=24)
    colour: str = Field(default="", max_length=24)
    # A computer opponent's name (models/opponents.py), e.g. "mcts:easy".
    bot: str | None = None

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


class GameSetup(BaseModel):
    """Everything fixed before the first round starts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: tuple[PlayerSetup, ...] = Field(min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)
    board: str | Board
    final_round: int = STANDARD_ROUNDS
    # The first round's order, as player ids; defaults to the order players are listed in.
    turn_order: tuple[str, ...] = ()
    mode: Mode = Mode.TABLE

    @model_validator(mode="after")
    def _check(self) -> Self:
        ids = [player.id for player in self.players]
        if len(set(ids)) != len(ids):
            raise ValueError("two players share one id")
        if self.final_round not in (STANDARD_ROUNDS, EXTENDED_ROUNDS):
            raise ValueError(
                f"a game lasts {STANDARD_ROUNDS} rounds, or {EXTENDED_ROUNDS} by agreement; "
                f"got {self.final_round}"
            )
        if self.final_round == EXTENDED_ROUNDS and len(ids) < EXTENDED_ROUNDS_MIN_PLAYERS:
            raise ValueError(
                f"the optional round {EXTENDED_ROUNDS} is for games of "
                f"{EXTENDED_ROUNDS_MIN_PLAYERS} or more players"
            )
        if self.turn_order and sorted(self.turn_order) != sorted(ids):
            raise ValueError("turn_order must list every player exactly once")
        if self.mode is Mode.TABLE and any(player.bot for player in self.players):
            raise ValueError("computer opponents play only on the digital board")
        return self

    @property
    def first_turn_order(self) -> tuple[str, ...]:
        """The turn order of round 1."""
        return self.turn_order or tuple(player.id for player in self.players)
