"""A game log file read and replayed, for the commands that take one (`replay`, `analyse`)."""

from __future__ import annotations

from pydantic import ValidationError

from companion.boards import BoardError, resolve_board
from companion.cli.io import UserError, fail, read_json
from companion.engine import Game, GameState, SetupError
from companion.engine.replay import ReplayError, replay
from companion.language import Message
from companion.language.render import render
from models.commands import Command, CommandFormatError
from models.game_log import GameLog
from models.problems import problem


def replayed_log(source: str, lang: str) -> tuple[Game, list[Command], GameState]:
    """A log file (or - for standard input) replayed: its game, its records and where they
    lead; anything wrong with it ends the command with one line in `lang`."""
    try:
        data = read_json(source)
        try:
            log = GameLog.model_validate(data)
        except ValidationError as error:
            said = Message("problem.in_game_log", problem=problem(error, data))
            raise UserError(render(said, lang)) from None
        game = Game(log.setup, resolve_board(log.setup.board))
        records = log.parsed_commands()
        return game, records, replay(game, records)
    except (ReplayError, SetupError, BoardError, CommandFormatError) as error:
        fail(render(error.message, lang))
    except (UserError, ValueError) as error:
        fail(str(error))
