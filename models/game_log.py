"""The game log file: a setup and its commands, versioned (see docs/game-log.md)."""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator

from companion.language.message import Message
from models.commands import (
    PLAYER_COMMANDS,
    Command,
    CommandFormatError,
    EnergyAndReset,
    command_from_json,
    command_to_json,
    command_type,
)
from models.problems import InvalidValue
from models.setup import GameSetup
from models.text import STORED

LOG_FORMAT: Final = "summoners-isle-game"
# Version 2: every player's command says who makes it (`by`), and every Energy and Reset
# accounts for each creature on the board (placed, or listed in `removed`).
LOG_VERSION = 2
# The longest game (4 players, 7 rounds, every creature acting) is about 600 commands, and
# a table game with many undone corrections is shorter still: a log past this is no game.
MAX_LOG_COMMANDS = 10_000


class GameLog(BaseModel):
    """A whole game as data: replaying its commands from its setup gives its state."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["summoners-isle-game"] = LOG_FORMAT
    version: StrictInt = Field(default=LOG_VERSION, ge=1)
    setup: GameSetup
    commands: list[dict[str, Any]] = Field(default=[], max_length=MAX_LOG_COMMANDS)

    @field_validator("version")
    @classmethod
    def _known_version(cls, version: int) -> int:
        if version > LOG_VERSION:
            raise InvalidValue(
                Message("problem.log.newer", version=str(version), latest=str(LOG_VERSION))
            )
        return version

    def parsed_commands(self) -> list[Command]:
        """The commands as values; CommandFormatError names the first malformed one."""
        parsed = []
        for index, data in enumerate(self.commands):
            try:
                command = command_from_json(data)
            except CommandFormatError as error:
                raise CommandFormatError(_at(index, error.message)) from None
            if self.version >= 2 and (gap := version_2_gap(command)):
                raise CommandFormatError(_at(index, gap))
            parsed.append(command)
        return parsed

    def to_json(self) -> dict[str, Any]:
        """The log as JSON data, empty optional fields left out.

        Leaving them out keeps a log that uses no newer field (a seat's `bot`, say) readable
        by builds from before that field existed: they refuse keys they do not know.
        """
        return self.model_dump(mode="json", exclude_none=True)

    @classmethod
    def of(cls, setup: GameSetup, commands: list[Command]) -> GameLog:
        """A log from a setup and command values: version 2 when every command is complete."""
        version = 1 if any(version_2_gap(command) for command in commands) else LOG_VERSION
        data = {
            "version": version,
            "setup": setup,
            "commands": [command_to_json(command) for command in commands],
        }
        # The setup was accepted already (maybe saved by an older version that checked its
        # names less): it is written as it is now shown, not judged again.
        return cls.model_validate(data, context=STORED)


def _at(index: int, said: Message) -> Message:
    return Message("problem.log.command", index=str(index), problem=said)


def version_2_gap(command: Command) -> Message | None:
    """What a command lacks to be written in a version 2 log, or None if it lacks nothing."""
    name = command_type(command)
    if isinstance(command, PLAYER_COMMANDS) and command.by is None:
        return Message("problem.log.no_by", name=name)
    if isinstance(command, EnergyAndReset) and command.removed is None:
        return Message("problem.log.no_removed")
    return None
