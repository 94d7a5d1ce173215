"""A position the bots can play on from: a digital game's own, or a table game's as a digital one.

A table game records facts, not where creatures stand, except at each Energy and Reset: its
record places every creature on the board. Right after one (and before the first summon of
the next round) the table's state knows the whole position: the placements, every energy,
reserve and creature coming back, the round and the turn order. The same position in a
digital game over the same board and players is one the bots can play on from; its text
(`GameState.position`, like chess's FEN) carries it across.
"""

from __future__ import annotations

from companion.engine import Game, GameState, Phase, SetupError
from companion.engine.queries import creatures, holdings
from companion.language import Message
from models.setup import Mode


class CoachError(ValueError):
    """A position the coach cannot judge; `message` says why in any language."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message


def digital_game(game: Game) -> Game:
    """The digital game over the same board and players (the game itself if digital already)."""
    if game.setup.mode is Mode.DIGITAL:
        return game
    try:
        return Game(game.setup.model_copy(update={"mode": Mode.DIGITAL}), game.board)
    except SetupError as error:
        raise CoachError(Message("coach.no_paths", reason=error.message)) from None


def board_known(state: GameState) -> bool:
    """Whether every creature on the board by the record stands where the state says.

    True for any digital position; at the table, from an Energy and Reset until the first
    summon or removal of the round after it (those change the board without placing it).
    """
    if state.game.digital:
        return True
    if state.phase is Phase.GAME_OVER:
        return True
    if state.phase is not Phase.SUMMONING:
        return False
    drawn: dict[tuple[str, str], int] = {}
    for creature in creatures(state).values():
        key = (creature.player, creature.kind.value)
        drawn[key] = drawn.get(key, 0) + 1
    return all(
        drawn.get((player, kind.value), 0) == count
        for player in state.game.players
        for kind, count in holdings(state, player).on_board.items()
    )


def playable(state: GameState, game: Game | None = None) -> GameState:
    """The position as a digital game's state (a copy): bots can play on from it.

    `game` is the digital game to use (made from the state's own when None). A table
    position can be carried over only while its board is known (`board_known`); otherwise
    CoachError says so.
    """
    if state.game.digital:
        return state.clone()
    if not board_known(state):
        raise CoachError(Message("coach.board_unknown", round=state.round))
    target = game or digital_game(state.game)
    return GameState.from_position(target, state.position())
