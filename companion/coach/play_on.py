"""Play on from any moment: a new digital game from a position of another game.

From any record of a digital game, the new game is the same game up to that record: its
log holds those records, so its story (and its review) begins where the original's did.
From a table game, a moment the board is known (its start, or right after an Energy and
Reset) is carried over to the digital rules (`playable`) and the new game starts there: its
setup's `start` is that position's text. Either way the new game has its own id in the
store (`companion.store.play_on`) and the original is left as it was; the seats named in
`computers` are played by the computer, the others by people.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from companion.coach.playable import CoachError, board_known, playable
from companion.engine import Game, SetupError
from companion.engine.replay import replay
from companion.language import Message, quoted
from models.commands import Command
from models.game_log import GameLog
from models.problems import InvalidValue, problem
from models.setup import GameSetup, Mode
from models.text import STORED


def play_on_log(
    game: Game,
    records: Sequence[Command],
    upto: int,
    computers: Mapping[str, str],
    taps: Sequence[int] | None = None,
) -> GameLog:
    """The log of a new digital game that plays on from the moment after `upto` records.

    `computers` maps a player's id to the bot that plays their seat (`mcts:normal`, say);
    the other seats are people's. `taps` are the records' tap sizes, kept for the records a
    digital game carries over. CoachError says why a moment cannot be played on from.
    """
    if not 0 <= upto <= len(records):
        raise CoachError(Message("coach.play_on.moment", upto=upto, count=len(records)))
    for player in computers:
        if player not in game.seat:
            raise CoachError(Message("coach.play_on.player", player=quoted(player)))
    state = replay(game, records[:upto])
    if state.is_terminal:
        raise CoachError(Message("coach.play_on.over", upto=upto))
    data = game.setup.model_dump(mode="json", exclude_none=True)
    data["players"] = [{**player, "bot": computers.get(player["id"])} for player in data["players"]]
    carried: list[Command] = []
    if game.digital:
        carried = list(records[:upto])
    else:
        if not board_known(state):
            raise CoachError(Message("coach.board_unknown", round=state.round))
        data["mode"] = Mode.DIGITAL.value
    setup = _setup(data)
    try:
        digital = Game(setup, game.board)
    except SetupError as error:
        raise CoachError(Message("coach.play_on.no_paths", reason=error.message)) from None
    if not game.digital:
        setup = setup.model_copy(update={"start": playable(state, digital).position()})
        # Checked as any setup is: the position must be one of the new game's.
        _setup(setup.model_dump(mode="json", exclude_none=True))
    kept_taps = None if taps is None or not carried else _taps_upto(taps, upto)
    return GameLog.of(setup, carried, taps=kept_taps)


def _setup(data: dict[str, Any]) -> GameSetup:
    """The new game's setup, its names read as the store keeps them; CoachError if refused
    (a bot's name that is none, say)."""
    try:
        return GameSetup.model_validate(data, context=STORED)
    except InvalidValue as error:
        raise CoachError(error.message) from None
    except ValidationError as error:
        raise CoachError(problem(error, data)) from None


def _taps_upto(sizes: Sequence[int], upto: int) -> list[int]:
    """The tap sizes of the first `upto` records (a tap cut by the moment ends there)."""
    kept: list[int] = []
    total = 0
    for size in sizes:
        if total >= upto:
            break
        kept.append(min(size, upto - total))
        total += kept[-1]
    return kept
