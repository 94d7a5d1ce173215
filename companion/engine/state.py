"""A game's state (everything that changes), in the spirit of OpenSpiel; the game itself,
what never changes, is `companion.engine.game.Game`.

State is a plain mutable object with slots so that bots can clone and play out
thousands of positions a second; pydantic stays at the boundaries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine import queries
from companion.engine.commands.skip import passed_over
from companion.engine.constants import OWNED, Phase, Token
from companion.engine.dice import attack_strike, sprite_support
from companion.engine.flow import blocker, occupants_by_id, run_reset, settle
from companion.engine.movement import reachable
from companion.engine.position import parse_position, position_text
from companion.engine.reach import reach
from companion.engine.reset_phase import Tally
from companion.engine.versions import sign
from companion.language import Message
from models.commands import Attack, Command, Removal, Skip
from models.rules import KIND_ORDER, STARTING_ENERGY, CreatureKind

if TYPE_CHECKING:
    from companion.engine.game import Game


# Every field of a state: its slots, and what a search compares two positions by.
FIELDS = (
    "actions_left",
    "active",
    "ahead",
    "ahead_removals",
    "declined",
    "energy",
    "face_down",
    "game",
    "last_tally",
    "occupant",
    "on_board",
    "pending",
    "phase",
    "ready",
    "reserve",
    "reset_from",
    "returning",
    "round",
    "step",
    "step_removals",
    "summoner",
    "turn",
    "turn_order",
    "waived",
    "winner",
)


class GameState:
    """Everything that changes: energy, reserves, board, turn order, phase and step."""

    __slots__ = FIELDS

    game: Game
    energy: list[int]
    # Per seat and kind index: in reserve / on the board / removed this round (back next round).
    reserve: list[list[int]]
    on_board: list[list[int]]
    returning: list[list[int]]
    # Digital games: face-up creatures on the board per seat and kind (who can still act).
    ready: list[list[int]]
    turn_order: list[int]
    round: int
    phase: Phase
    step: int
    # Table games: removals the player acting now has recorded in this step.
    step_removals: int
    turn: int
    occupant: list[Token | None]
    face_down: list[bool]
    active: int | None
    actions_left: int
    # Digital Energy and Reset: the (seat, territory index) domination choices still to make.
    pending: list[tuple[int, int]]
    declined: dict[str, list[str]]
    winner: int | None
    summoner: bool
    # Digital Energy and Reset while domination choices wait: each seat's energy when the
    # phase began. `energy` then shows the passes run so far; None otherwise.
    reset_from: tuple[int, ...] | None
    last_tally: Tally | None
    # Table games: the seats the engine passed over since the last command whom a version 2
    # log still holds an explicit pass for (rulesets._said_before); never in position text.
    waived: list[int]
    # Table games: the stage of the round each seat's player has reached by what they said
    # ahead of their turn (engine/ahead.py: 0-2 Summoning's steps, 3-5 Actions', 6 the round
    # done; 0 when nothing was said), and the removals they said ahead at that stage. Back
    # to 0 each round; never in position text (a round's start has nothing said ahead).
    ahead: list[int]
    ahead_removals: list[int]

    def __init__(self, game: Game) -> None:
        """A state of `game` whose other fields its maker fills in (initial, clone, a position)."""
        self.game = game

    @classmethod
    def initial(cls, game: Game) -> GameState:
        """A fresh state at the start of round 1's Summoning phase."""
        state = cls(game)
        seats = len(game.players)
        state.energy = [STARTING_ENERGY] * seats
        state.reserve = [list(OWNED) for _ in range(seats)]
        state.on_board = [[0, 0, 0] for _ in range(seats)]
        state.returning = [[0, 0, 0] for _ in range(seats)]
        state.ready = [[0, 0, 0] for _ in range(seats)]
        state.turn_order = [game.seat[player] for player in game.setup.first_turn_order]
        state.round = 1
        state.phase = Phase.SUMMONING
        state.step = 0
        state.step_removals = 0
        state.turn = 0
        state.occupant = [None] * game.isle.size
        state.face_down = [False] * game.isle.size
        state.active = None
        state.actions_left = 0
        state.pending = []
        state.declined = {}
        state.winner = None
        state.summoner = False
        state.last_tally = None
        state.reset_from = None
        state.waived = []
        state.ahead = [0] * seats
        state.ahead_removals = [0] * seats
        settle(state)
        return state

    def clone(self) -> GameState:
        """An independent copy, cheap enough for tree search."""
        other = GameState(self.game)
        other.energy = self.energy[:]
        other.reserve = [row[:] for row in self.reserve]
        other.on_board = [row[:] for row in self.on_board]
        other.returning = [row[:] for row in self.returning]
        other.ready = [row[:] for row in self.ready]
        other.turn_order = self.turn_order[:]
        other.round = self.round
        other.phase = self.phase
        other.step = self.step
        other.step_removals = self.step_removals
        other.turn = self.turn
        other.occupant = self.occupant[:]
        other.face_down = self.face_down[:]
        other.active = self.active
        other.actions_left = self.actions_left
        other.pending = self.pending[:]
        other.declined = {player: refused[:] for player, refused in self.declined.items()}
        other.winner = self.winner
        other.summoner = self.summoner
        other.last_tally = self.last_tally
        other.reset_from = self.reset_from
        other.waived = self.waived[:]
        other.ahead = self.ahead[:]
        other.ahead_removals = self.ahead_removals[:]
        return other

    # --- queries -----------------------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase is Phase.GAME_OVER

    @property
    def current_seat(self) -> int | None:
        """The seat whose decision it is, or None when nobody's (game over, table reset)."""
        if self.phase is Phase.GAME_OVER:
            return None
        if self.phase is Phase.ENERGY_AND_RESET:
            return self.pending[0][0] if self.pending else None
        return self.turn_order[self.turn]

    @property
    def current_player(self) -> str | None:
        """The id of the player whose decision it is, if anyone's."""
        seat = self.current_seat
        return None if seat is None else self.game.players[seat]

    @property
    def step_kind(self) -> CreatureKind | None:
        """The kind of creature the current Summoning or Actions step is about."""
        if self.phase in (Phase.SUMMONING, Phase.ACTIONS):
            return KIND_ORDER[self.step]
        return None

    @property
    def winner_id(self) -> str | None:
        """The winner's player id, once there is one."""
        return None if self.winner is None else self.game.players[self.winner]

    def energy_of(self, player: str) -> int:
        """A player's energy."""
        return self.energy[self.game.seat[player]]

    def reserve_of(self, player: str, kind: CreatureKind) -> int:
        """How many creatures of a kind a player has in reserve, ready to summon."""
        return self.reserve[self.game.seat[player]][KIND_ORDER.index(CreatureKind(kind))]

    def legal_commands(self) -> list[Command]:
        """Every command the rules allow now (table-only records with free values excepted)."""
        return self.game.rules.legal_commands(self)

    def apply(self, command: Command) -> None:
        """Apply a command in place; raises IllegalCommand, leaving the state untouched."""
        self.game.rules.apply(self, command)

    def sentence(self, command: Command) -> Message:
        """The command as one sentence in any language, as it would play out from this state."""
        return self.game.rules.describe(self, command)

    def sign(self, command: Command) -> Command:
        """The command made by the player whose decision it is (`by` filled in when empty)."""
        return sign(self, command)

    def reach(self, command: Command, kind: CreatureKind | None = None) -> list[Command]:
        """The records one table tap makes: a skip to the command's player, then the command."""
        return reach(self, command, kind)

    def skipped(self, command: Command) -> list[tuple[str, Phase, CreatureKind]]:
        """Whose turns a table Skip would pass, in order: (player, phase, step's kind) each."""
        if not isinstance(command, Skip):
            return []
        return [
            (player, phase, KIND_ORDER[step]) for player, phase, step in passed_over(self, command)
        ]

    def blocker(self, player: str) -> Message | None:
        """Why a player has nothing to decide in the current step (a sentence), or None."""
        return blocker(self, self.game.seat[player])

    # --- what bots and screens may ask beyond the rules' yes or no ------------------------

    def sprite_support(self, location: int) -> int:
        """Other Sprites of the same owner in the territory of a location's Sprite (ruling 7)."""
        return sprite_support(self, location)

    def attack_outcome(self, attack: Attack) -> tuple[int, int, bool]:
        """(attack total, defence, success) of an attack, dice included, by the active creature."""
        strike = attack_strike(self, attack)
        return strike.total, strike.defence, strike.success

    def chance_outcomes(self, command: Command) -> list[tuple[float, Command]]:
        """What a command can lead to, as (probability, the command with dice giving it).

        Only an attack without its dice branches (OpenSpiel's chance outcomes): into a
        success and a failure where both can happen, each with dice that produce it.
        """
        return self.game.rules.chance_outcomes(self, command)

    def places(self, command: Command) -> tuple[str, ...]:
        """The board spaces a command is about (location ids), to point them out."""
        return self.game.rules.places(self, command)

    def space_of(self, command: Command) -> str | None:
        """The board space (location id) a tap picks the command by, if one does."""
        return self.game.rules.space(self, command)

    def reachable(self, start: int, budget: int) -> dict[int, int]:
        """Empty locations the creature at `start` reaches within `budget` actions, with costs."""
        return reachable(self, start, budget)

    def reset_preview(self) -> Tally:
        """The Energy and Reset this round would bring with the board as it stands now."""
        return run_reset(self, occupants_by_id(self), self.declined)

    def position(self) -> str:
        """The state as one line of position text that `from_position` reads back (like FEN)."""
        return position_text(self)

    @classmethod
    def from_position(cls, game: Game, text: str) -> GameState:
        """The state a position text describes in `game`; PositionError says what is wrong."""
        return parse_position(game, text)

    # --- the query surface for views (companion/engine/queries.py), by player and location ids

    def decision(self) -> queries.Decision | None:
        """Whose decision it is and what they may do; None when nobody's."""
        return queries.decision(self)

    def order(self) -> tuple[str, ...]:
        """This round's turn order, as player ids."""
        return queries.turn_order(self)

    def standings(self) -> tuple[str, ...]:
        """The players from first to last, the winner first (the engine's tie-break)."""
        return queries.standings(self)

    def stage_reached(self, player: str) -> int:
        """Where a table player is in the round (engine/ahead.py)."""
        return queries.stage_reached(self, player)

    def removals_for(self, player: str) -> tuple[Removal, ...]:
        """Every removal a table player's creatures could record now, by their kind."""
        return queries.removals_for(self, player)

    def holdings(self, player: str) -> queries.Holdings:
        """A player's energy, creatures per kind (reserve, board, coming back) and costs."""
        return queries.holdings(self, player)

    def creatures(self) -> dict[str, queries.Creature]:
        """Every creature on the board, by location id."""
        return queries.creatures(self)

    def space_commands(self) -> dict[str, Command]:
        """Each space's legal command now: the one a tap there makes."""
        return queries.space_commands(self)

    def tap_command(self, location: str) -> Command | None:
        """The command a tap on a space of the digital board asks for now, legal or not."""
        return queries.tap_command(self, location)

    def move_costs(self) -> dict[str, int]:
        """The actions a move of the active creature takes, per space it can reach."""
        return queries.move_costs(self)

    def move_path(self, to: str) -> tuple[str, ...]:
        """The spaces the active creature passes moving to `to` (the way the engine charges)."""
        return queries.move_path(self, to)

    def attack_view(self, attack: Attack) -> queries.AttackView:
        """An attack by the active creature, broken down as ruling 7 settles it, with its chance."""
        return queries.attack_view(self, attack)

    def domination_preview(self, take: bool) -> Tally:
        """The Energy and Reset if the bonus in question is taken or declined (on a copy)."""
        return queries.domination_preview(self, take)

    def __repr__(self) -> str:
        who = self.current_player or "-"
        where = f"{self.phase.value}"
        if self.step_kind is not None:
            where += f"/{self.step_kind.value}"
        energy = " ".join(f"{p}={e}" for p, e in zip(self.game.players, self.energy, strict=True))
        return f"<GameState round {self.round} {where} turn={who} {energy}>"
