"""What views and bots may ask of a position, keyed by player and location ids, read-only.

GameState keeps its numbers in seat- and kind-indexed arrays so that search is fast; these
queries are the way in for everything outside the engine. They never change the state
(previews run on a copy), and they answer in the words the log uses: player ids, location
ids, territory ids, creature kinds.

>>> from companion.boards import shipped_board
>>> from companion.engine import Game
>>> from models.setup import GameSetup
>>> game = Game(GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle",
...                       mode="digital"), shipped_board("duel-isle"))
>>> state = game.new_initial_state()
>>> turn = decision(state)
>>> turn.player, turn.phase.value, turn.kind.value
('red', 'summoning', 'wyrm')
>>> holdings(state, "red").reserve["wyrm"], holdings(state, "red").costs["wyrm"]
(1, 5)
>>> space_commands(state)["rh1"]
Summon(kind=<CreatureKind.WYRM: 'wyrm'>, location='rh1', by=None)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from companion.engine.ahead import own_stage, stage_of
from companion.engine.commands._declaration import Tapped
from companion.engine.constants import COSTS, SPRITE, Phase
from companion.engine.dice import attack_odds
from companion.engine.errors import IllegalCommand
from companion.engine.names import kind_term, location_term
from companion.engine.reset_phase import Tally
from companion.language import Message
from models.commands import (
    PLAYER_COMMANDS,
    Attack,
    Command,
    Dominate,
    Removal,
)
from models.rules import CREATURES, KIND_ORDER, CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState


@dataclass(frozen=True, slots=True)
class Creature:
    """A creature on the board: whose, what kind, face-down (has acted), being activated."""

    player: str
    kind: CreatureKind
    face_down: bool
    active: bool


@dataclass(frozen=True, slots=True)
class Decision:
    """Whose decision it is now and what it is about; `commands` are the legal ones."""

    player: str
    phase: Phase
    # The kind of the Summoning or Actions step; None at Energy and Reset.
    kind: CreatureKind | None
    # The location of the creature being activated, and the actions it has left.
    active: str | None
    actions_left: int
    # At a digital Energy and Reset: the territory whose bonus is in question, and how many
    # such choices are still to make (this one included).
    territory: str | None
    bonuses_left: int
    commands: tuple[Command, ...]


@dataclass(frozen=True, slots=True)
class Holdings:
    """One player's energy and creatures per kind, and what summoning each kind costs."""

    player: str
    energy: int
    reserve: dict[CreatureKind, int]
    on_board: dict[CreatureKind, int]
    # Removed this round: back in reserve next round (ruling 4).
    returning: dict[CreatureKind, int]
    costs: dict[CreatureKind, int]


@dataclass(frozen=True, slots=True)
class AttackView:
    """An attack broken down as ruling 7 settles it, with the engine's chance of success."""

    attacker: str
    attacker_kind: CreatureKind
    defender: str
    defender_kind: CreatureKind
    # d6 + bonus against a fixed defence, or (a defending Sprite) against d6 + support.
    bonus: int
    defence: int | None
    support: int
    bounty: int
    chance: Fraction

    @property
    def defence_roll(self) -> bool:
        """Whether the defender rolls a die too (it is a Sprite)."""
        return self.defence is None

    def explanation(self) -> Message:
        """The attack in a sentence, from the attacker's side."""
        attacker = kind_term(self.attacker_kind)
        bounty = Message("count.energy", count=self.bounty)
        if self.defence is None:
            others = Message("count.other_sprite", count=self.support)
            return Message(
                "attack.odds_sprite",
                attacker=attacker,
                bonus=self.bonus,
                support=self.support,
                others=others,
                bounty=bounty,
            )
        return Message(
            "attack.odds",
            attacker=attacker,
            bonus=self.bonus,
            defender=kind_term(self.defender_kind),
            defence=self.defence,
            bounty=bounty,
        )


def decision(state: GameState) -> Decision | None:
    """Whose decision it is and what they may do; None when nobody's (game over, table tally)."""
    player = state.current_player
    if player is None:
        return None
    ids = state.game.isle.location_ids
    territory = None
    if state.phase is Phase.ENERGY_AND_RESET and state.pending:
        territory = state.game.board.territories[state.pending[0][1]].id
    return Decision(
        player=player,
        phase=state.phase,
        kind=state.step_kind,
        active=None if state.active is None else ids[state.active],
        actions_left=state.actions_left if state.active is not None else 0,
        territory=territory,
        bonuses_left=len(state.pending) if state.phase is Phase.ENERGY_AND_RESET else 0,
        commands=tuple(state.legal_commands()),
    )


def turn_order(state: GameState) -> tuple[str, ...]:
    """This round's turn order, as player ids."""
    players = state.game.players
    return tuple(players[seat] for seat in state.turn_order)


def standings(state: GameState) -> tuple[str, ...]:
    """The players from first to last: the winner first once there is one, then most energy
    first, a tie going to whoever was later in this round's order (rulings 11-13)."""
    order = turn_order(state)
    later = {player: i for i, player in enumerate(order)}
    winner = state.winner_id
    return tuple(
        sorted(
            order,
            key=lambda player: (player != winner, -state.energy_of(player), -later[player]),
        )
    )


def holdings(state: GameState, player: str) -> Holdings:
    """A player's energy, reserves, creatures on the board and coming back, and costs."""
    seat = state.game.seat[player]
    return Holdings(
        player=player,
        energy=state.energy[seat],
        reserve=dict(zip(KIND_ORDER, state.reserve[seat], strict=True)),
        on_board=dict(zip(KIND_ORDER, state.on_board[seat], strict=True)),
        returning=dict(zip(KIND_ORDER, state.returning[seat], strict=True)),
        costs=dict(zip(KIND_ORDER, COSTS, strict=True)),
    )


def creatures(state: GameState) -> dict[str, Creature]:
    """Every creature on the board, by location id."""
    game = state.game
    ids = game.isle.location_ids
    return {
        ids[i]: Creature(
            game.players[token[0]], KIND_ORDER[token[1]], state.face_down[i], i == state.active
        )
        for i, token in enumerate(state.occupant)
        if token is not None
    }


def space_commands(state: GameState) -> dict[str, Command]:
    """Each space's legal command now: the one a tap there makes (spaces with none left out)."""
    found: dict[str, Command] = {}
    for command in state.legal_commands():
        place = state.space_of(command)
        if place is not None:
            found[place] = command
    return found


def tap_command(state: GameState, location: str) -> Command | None:
    """The command a tap on a space of the digital board asks for now, legal or not (a
    refused one still gets the engine's reason); None where a tap means nothing."""
    player = state.current_player
    kind = state.step_kind
    if player is None or kind is None or state.phase not in (Phase.SUMMONING, Phase.ACTIONS):
        return None
    isle = state.game.isle
    at = isle.index.get(location)
    if at is None:
        return None
    token = state.occupant[at]
    tapped = Tapped(
        location=location,
        player=player,
        phase=state.phase,
        kind=kind,
        active=None if state.active is None else isle.location_ids[state.active],
        owner=None if token is None else state.game.players[token[0]],
    )
    for declaration in state.game.rules.declarations.values():
        command: Command | None = declaration.tap(tapped)
        if command is not None:
            return command
    return None


def move_costs(state: GameState) -> dict[str, int]:
    """The actions a move of the creature being activated takes, per space it can reach."""
    if state.active is None:
        return {}
    ids = state.game.isle.location_ids
    reach = state.reachable(state.active, state.actions_left)
    return {ids[i]: cost for i, cost in reach.items()}


def move_path(state: GameState, to: str) -> tuple[str, ...]:
    """The spaces the active creature passes moving to `to`, start and end included.

    The shortest way the engine charges for (ruling 6): through empty spaces and its
    owner's creatures, never a rival's. Raises IllegalCommand if there is none.
    """
    start = state.active
    if start is None:
        raise IllegalCommand(Message("refuse.none_active"))
    isle = state.game.isle
    goal = isle.index[to]
    mover = state.occupant[start]
    assert mover is not None, "the active location holds the creature being activated"
    seat = mover[0]
    came_from: dict[int, int] = {start: start}
    frontier = [start]
    while frontier and goal not in came_from:
        following = []
        for here in frontier:
            for there in isle.neighbours[here]:
                if there in came_from:
                    continue
                token = state.occupant[there]
                if token is not None and (token[0] != seat or there == goal):
                    continue
                came_from[there] = here
                following.append(there)
        frontier = following
    if goal not in came_from or goal == start:
        raise IllegalCommand(Message("refuse.unreachable", place=location_term(isle, goal)))
    path = [goal]
    while path[-1] != start:
        path.append(came_from[path[-1]])
    return tuple(isle.location_ids[i] for i in reversed(path))


def attack_view(state: GameState, attack: Attack) -> AttackView:
    """The attack's breakdown and chance, made by the creature being activated (ruling 7)."""
    if state.active is None:
        raise IllegalCommand(Message("refuse.none_active"))
    game = state.game
    target = game.isle.index[attack.target]
    attacking, defending = state.occupant[state.active], state.occupant[target]
    if attacking is None or defending is None:
        raise IllegalCommand(
            Message("refuse.no_creature_at", place=location_term(game.isle, target))
        )
    attacker, defender = KIND_ORDER[attacking[1]], KIND_ORDER[defending[1]]
    support = state.sprite_support(target) if defending[1] == SPRITE else 0
    return AttackView(
        attacker=game.players[attacking[0]],
        attacker_kind=attacker,
        defender=game.players[defending[0]],
        defender_kind=defender,
        bonus=CREATURES[attacker].attack_bonus,
        defence=CREATURES[defender].defence,
        support=support,
        bounty=CREATURES[defender].bounty,
        chance=attack_odds(attacker, defender, support),
    )


def domination_preview(state: GameState, take: bool) -> Tally:
    """The Energy and Reset if the bonus now in question is taken (or declined), on a copy.

    The choices still to come after this one are counted as taken.
    """
    trial = state.clone()
    wanted = take
    while trial.phase is Phase.ENERGY_AND_RESET and trial.pending:
        trial.apply(
            next(c for c in trial.legal_commands() if isinstance(c, Dominate) and c.take is wanted)
        )
        wanted = True
    assert trial.last_tally is not None, "the last choice always runs the tally"
    return trial.last_tally


def tally_after(state: GameState, command: Command) -> Tally:
    """The tally a command that ends the round (a table's Energy and Reset) would bring, on a copy.

    Raises IllegalCommand, with the engine's reason, if the command is refused.
    """
    trial = state.clone()
    trial.apply(command)
    if trial.last_tally is None or trial.last_tally is state.last_tally:
        raise IllegalCommand(Message("refuse.not_round_end"))
    return trial.last_tally


def undo_depth(commands: Sequence[Command], computers: Collection[str]) -> int:
    """How many of the newest commands to take back so a person decides again.

    From the log's `by`: the newest command made by someone not in `computers`, and every
    computer's command after it. 0 when only computers have played (undoing them alone
    would let them play the same again). A command naming nobody (a table record, or a
    version 1 log's) counts as a person's.
    """
    for depth, command in enumerate(reversed(commands), start=1):
        if made_by(command) not in computers:
            return depth
    return 0


def stage_reached(state: GameState, player: str) -> int:
    """Where a table player is in the round (engine/ahead.py): 0-2 Summoning's steps, 3-5
    the Actions phase's, 6 when they record nothing more this round."""
    return own_stage(state, state.game.seat[player])


def removals_for(state: GameState, player: str) -> tuple[Removal, ...]:
    """Every removal a table player's creatures could record now, on their turn or said
    ahead of it, each naming the kind of the creatures that made it, in step order."""
    seat = state.game.seat[player]
    players = state.game.players
    found: list[Removal] = []
    for index, attacker in enumerate(KIND_ORDER):
        if state.on_board[seat][index] == 0 or stage_of(Phase.ACTIONS, attacker) < own_stage(
            state, seat
        ):
            continue
        for victim, counts in enumerate(state.on_board):
            for kind, count in enumerate(counts):
                if victim == seat or not count:
                    continue
                removal = Removal(players[victim], KIND_ORDER[kind], by=player, attacker=attacker)
                try:
                    state.clone().apply(removal)
                except IllegalCommand:
                    continue
                found.append(removal)
    return tuple(found)


def made_by(command: Command) -> str | None:
    """The player a command was made by, as the log records it; None for table records."""
    if isinstance(command, PLAYER_COMMANDS):
        return command.by
    return None
