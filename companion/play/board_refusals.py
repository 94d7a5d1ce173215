"""Why the digital board's isle takes no tap now, as a message: plain Python.

A tap on the isle is never ignored without a word: while an Energy and Reset
waits to be read, during a computer's turn, and once the game is over, it is told why.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from companion.engine import GameState
from companion.language import Message, Value

# How the computer seats' levels are named (new_game's choices), as message ids.
BOT_NAMES = {
    "greedy": "game.bot.quick",
    "mcts:easy": "game.bot.easy",
    "mcts:normal": "game.bot.normal",
    "mcts:hard": "game.bot.hard",
}


def bot_level(bot: str) -> Value:
    """A computer seat's level as players know it ('Computer: normal'), or its bot's name."""
    return Message(BOT_NAMES[bot]) if bot in BOT_NAMES else bot


def go_on_label(state: GameState) -> Message:
    """What the button that leaves an Energy and Reset says: the next round, or the result."""
    if state.is_terminal:
        return Message("game.board.see_result")
    return Message("game.board.continue_to", round=state.round)


def untaken(
    state: GameState,
    reset_waiting: bool,
    bots: Mapping[str, str],
    label: Callable[[str], str],
) -> Message | None:
    """Why the isle takes no tap now: an Energy and Reset to read (`reset_waiting`), a
    computer's turn (`bots`: each computer seat's bot), the game over; None when a person is
    to decide."""
    if reset_waiting and state.last_tally is not None:
        round_ = state.last_tally.round or state.round
        return Message("game.board.tap_reset", round=round_, button=go_on_label(state))
    if state.is_terminal:
        return Message("game.board.over")
    player = state.current_player
    if player is not None and player in bots:
        return Message(
            "game.board.tap_computer", player=label(player), level=bot_level(bots[player])
        )
    return None
