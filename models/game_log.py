"""The game log file: a setup and its commands, versioned (see docs/game-log.md)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator

from models.commands import Command, CommandFormatError, command_from_json, command_to_json
from models.setup import GameSetup

LOG_FORMAT = "summoners-isle-game"
LOG_VERSION = 1
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
            raise ValueError(
                f"this log is format version {version}, newer than this app reads "
                f"(up to {LOG_VERSION}); update the app to open it"
            )
        return version

    def parsed_commands(self) -> list[Command]:
        """The commands as values; CommandFormatError names the first malformed one."""
        parsed = []
        for index, data in enumerate(self.commands):
            try:
                parsed.append(command_from_json(data))
            except CommandFormatError as error:
                raise CommandFormatError(f"command {index}: {error}") from None
        return parsed

    def to_json(self) -> dict[str, Any]:
        """The log as JSON data, empty optional fields left out.

        Leaving them out keeps a log that uses no newer field (a seat's `bot`, say) readable
        by builds from before that field existed: they refuse keys they do not know.
        """
        return self.model_dump(mode="json", exclude_none=True)

    @classmethod
    def of(cls, setup: GameSetup, commands: list[Command]) -> GameLog:
        """A log from a setup and command values."""
        return cls(setup=setup, commands=[command_to_json(command) for command in commands])
