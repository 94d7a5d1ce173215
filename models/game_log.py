"""The game log file: a setup and its commands, versioned (see docs/game-log.md)."""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    ValidationInfo,
    field_validator,
    model_validator,
)

from companion.language.message import Message
from models.commands import (
    PLAYER_COMMANDS,
    Command,
    CommandFormatError,
    EnergyAndReset,
    Skip,
    command_from_json,
    command_to_json,
    command_type,
)
from models.game_size import most_records
from models.problems import InvalidValue
from models.rules import EXTENDED_ROUNDS, MAX_PLAYERS
from models.setup import GameSetup
from models.text import STORED, is_stored

LOG_FORMAT: Final = "summoners-isle-game"
# Version 2: every player's command says who makes it (`by`), and every Energy and Reset
# accounts for each creature on the board (placed, or listed in `removed`).
LOG_VERSION = 2
# The most records any game can hold (4 players, 7 rounds: models/game_size.py); a log's own
# players and rounds bound it further (`GameLog._a_games_size`). Played games hold about 600.
MAX_LOG_COMMANDS = most_records(MAX_PLAYERS, EXTENDED_ROUNDS)
# The most bytes of a game log file that is imported. The largest log the records' bound
# allows, exported as the app writes it (indented), every id, name and reason at its longest
# and on the largest board, is about 2.2 MiB (tests/test_game_size.py); one of the longest
# games on a shipped board about 0.7 MiB, and a game played about 60 kB.
MAX_LOG_BYTES = 3 * 1024 * 1024


class GameLog(BaseModel):
    """A whole game as data: replaying its commands from its setup gives its state."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["summoners-isle-game"] = LOG_FORMAT
    version: StrictInt = Field(default=LOG_VERSION, ge=1)
    setup: GameSetup
    commands: list[dict[str, Any]] = Field(default=[], max_length=MAX_LOG_COMMANDS)
    # How many commands each tap recorded, in order: undo takes back a tap, so an
    # imported game undoes tap by tap as the original did. Left out when it is what
    # the commands say (`inferred_taps`).
    taps: list[Annotated[StrictInt, Field(ge=1)]] | None = Field(
        default=None, max_length=MAX_LOG_COMMANDS
    )

    @model_validator(mode="after")
    def _taps_cover_the_commands(self) -> GameLog:
        if self.taps is not None and sum(self.taps) != len(self.commands):
            raise InvalidValue(
                Message(
                    "problem.log.taps",
                    taps=str(sum(self.taps)),
                    commands=str(len(self.commands)),
                )
            )
        return self

    @field_validator("commands")
    @classmethod
    def _a_games_size(cls, commands: list[dict[str, Any]], info: ValidationInfo) -> list[Any]:
        setup = info.data.get("setup")
        # A stored game is exported as it is (it was held to the size as it was played).
        if setup is None or is_stored(info):
            return commands
        players, rounds = len(setup.players), setup.final_round
        most = most_records(players, rounds)
        if len(commands) > most:
            raise InvalidValue(
                Message(
                    "problem.log.records",
                    players=players,
                    rounds=rounds,
                    most=most,
                    count=len(commands),
                )
            )
        return commands

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
    def of(
        cls, setup: GameSetup, commands: list[Command], taps: list[int] | None = None
    ) -> GameLog:
        """A log from a setup and command values: version 2 when every command is complete.

        `taps` (how many commands each tap recorded) is written only where the commands do not
        say it themselves (`inferred_taps`): such a log stays readable by builds from before
        taps were kept.
        """
        version = 1 if any(version_2_gap(command) for command in commands) else LOG_VERSION
        data: dict[str, Any] = {
            "version": version,
            "setup": setup,
            "commands": [command_to_json(command) for command in commands],
        }
        if taps is not None and taps != inferred_taps(commands):
            data["taps"] = taps
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


def inferred_taps(commands: list[Command]) -> list[int]:
    """The taps of a log that does not say them: each command a tap of its own, but for a
    skip followed by the command of the player it skips to, which one tap on that player's
    square recorded (`GameState.reach`)."""
    sizes: list[int] = []
    index = 0
    while index < len(commands):
        command = commands[index]
        following = commands[index + 1] if index + 1 < len(commands) else None
        paired = (
            isinstance(command, Skip)
            and command.player is not None
            and following is not None
            and not isinstance(following, Skip)
            and getattr(following, "by", None) == command.player
        )
        sizes.append(2 if paired else 1)
        index += sizes[-1]
    return sizes
