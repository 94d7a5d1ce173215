"""The game: what never changes while it is played (players, board, rounds, mode and its rule
set), in the spirit of OpenSpiel's `Game`; it makes the state a game starts from.
"""

from __future__ import annotations

from companion.engine.constants import KINDS, Token
from companion.engine.errors import SetupError
from companion.engine.isle import Isle, compile_isle
from companion.engine.position import PositionError
from companion.engine.rulesets import RULE_SETS, RuleSet
from companion.engine.state import GameState
from companion.language import Message, quoted
from models.board import Board
from models.commands import Activate, Attack, Move, Summon, Swap
from models.rules import KIND_ORDER
from models.setup import GameSetup, Mode


def seats_refusal(board: Board, players: int) -> Message | None:
    """Why a board cannot take this many players, or None if it can."""
    if board.min_players <= players <= board.max_players:
        return None
    if board.min_players == board.max_players:
        return Message(
            "setup.players_exactly", board=quoted(board.id), most=board.max_players, count=players
        )
    return Message(
        "setup.players",
        board=quoted(board.id),
        least=board.min_players,
        most=board.max_players,
        count=players,
    )


class Game:
    """What never changes during a game: players, board, rounds, mode and its rule set."""

    __slots__ = (
        "activations",
        "attacks",
        "board",
        "digital",
        "final_round",
        "isle",
        "labels",
        "mode",
        "moves",
        "players",
        "rules",
        "seat",
        "setup",
        "summons",
        "swaps",
        "tokens",
    )

    def __init__(self, setup: GameSetup, board: Board) -> None:
        self.setup = setup
        self.board = board
        self.isle: Isle = compile_isle(board)
        self.mode = setup.mode
        self.digital = setup.mode is Mode.DIGITAL
        self.rules: RuleSet = RULE_SETS[setup.mode]
        self.final_round = setup.final_round
        self.players: tuple[str, ...] = tuple(player.id for player in setup.players)
        self.seat = {player: i for i, player in enumerate(self.players)}
        self.labels = {player.id: player.label for player in setup.players}
        self.tokens: tuple[tuple[Token, ...], ...] = tuple(
            tuple((seat, k) for k in range(KINDS)) for seat in range(len(self.players))
        )
        # Commands are immutable, so the engine hands out these shared ones instead of new ones.
        ids = self.isle.location_ids
        self.summons = tuple(tuple(Summon(kind, i) for i in ids) for kind in KIND_ORDER)
        self.activations = tuple(Activate(i) for i in ids)
        self.moves = tuple(Move(i) for i in ids)
        self.attacks = tuple(Attack(i) for i in ids)
        self.swaps = tuple(Swap(i) for i in ids)
        if self.rules.needs_paths and not board.paths:
            raise SetupError(Message("setup.no_paths", board=quoted(board.id)))
        refused = seats_refusal(board, len(self.players))
        if refused is not None:
            raise SetupError(refused)
        if setup.start is not None:
            # Read once here, so a setup whose start is no position of this game is refused.
            self.new_initial_state()

    def new_initial_state(self) -> GameState:
        """The state before the first command: round 1's start, or the setup's `start`."""
        start = self.setup.start
        if start is None:
            return GameState.initial(self)
        try:
            # Position text is ASCII: other scripts' digits would read as numbers too.
            if start.isascii():
                return GameState.from_position(self, start)
        except PositionError:
            pass
        raise SetupError(Message("setup.start", board=quoted(self.board.id)))
