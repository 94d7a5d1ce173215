"""Table play and digital play: two rule sets over one core, chosen once from the setup's mode.

The core (flow.py, the command modules) is the same game. What differs is held here, in
one `RuleSet` per mode: which commands exist (each declared in `engine/commands/`), and
the few places where the round runs differently at a real table and on the digital board:
whether a player has anything to decide, what else passes them over, and how Energy and
Reset begins (the table records what it sees; the digital board computes it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.engine.ahead import apply_ahead, describe_ahead, said_past
from companion.engine.commands import MODULES, Declaration, Legal, Moment, Step, in_actions
from companion.engine.constants import Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import (
    blocker,
    can_summon,
    finish_round,
    occupants_by_id,
    position,
    removals_used,
    run_reset,
    show_passes,
    skip_target,
    stage,
    table_can_act,
    table_full,
)
from companion.engine.names import kinds_term
from companion.engine.reset_phase import Pass as TallyPass
from companion.engine.reset_phase import domination_opportunities
from companion.language import Message, quoted
from models.commands import Command, Pass, Skip
from models.rules import KIND_ORDER, CreatureKind
from models.setup import Mode

if TYPE_CHECKING:
    from companion.engine.state import GameState

# A moment's legal commands: the generators to run in order, then the commands always legal.
Listing = tuple[tuple[Legal, ...], tuple[Command, ...]]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One way to play the game: its commands and the flow that is its own."""

    mode: Mode
    declarations: dict[type[Any], Declaration[Any]]
    # The other rule set's commands, each with the sentence that refuses it here.
    refusals: dict[type, Message]
    # Each moment's legal-command generators in listing order, then the commands always
    # legal then, which close the list.
    summoning: Listing
    actions: Listing
    activation: Listing
    energy_and_reset: Listing
    # Whether the player whose turn it is could do anything in the current step.
    has_business: Callable[[GameState], bool]
    # What, beyond the shared reasons, passes a player over in the current step.
    passed_over: Callable[[GameState, int], Message | None]
    # Energy and Reset has begun: compute it, or wait for the table's record.
    enter_reset: Callable[[GameState], None]
    # Creatures move along paths, so the board must have them.
    needs_paths: bool
    # Whether a version 2 log asked the player the engine now passes over (their explicit
    # pass is then in the log, and is taken as said); None where nothing changed.
    asked_before: Callable[[GameState], bool] | None = None
    # Whether a player may record their own commands before their turn comes (engine/ahead.py).
    says_ahead: bool = False

    def apply(self, state: GameState, command: Command) -> None:
        """Apply one command in place, or raise IllegalCommand saying why not."""
        if state.phase is Phase.GAME_OVER:
            raise IllegalCommand(Message("refuse.game_over"))
        declaration = self.declarations.get(type(command))
        if declaration is None:
            refusal = self.refusals.get(type(command))
            raise IllegalCommand(refusal or Message("refuse.not_a_command", command=repr(command)))
        # Read without an isinstance test: this runs for every decision of every playout, and
        # only players' commands have a `by` (records for the whole table name nobody).
        by = getattr(command, "by", None)
        if self.asked_before is None:
            if by is not None:
                _check_by(state, by)
            declaration.apply(state, command)
            return
        if state.waived and _said_before(state, command):
            return
        waived = state.waived
        state.waived = []
        try:
            if by is None or not (self.says_ahead and apply_ahead(state, declaration, command, by)):
                if by is not None:
                    _check_by(state, by)
                declaration.apply(state, command)
        except IllegalCommand:
            state.waived = waived
            raise

    def legal_commands(self, state: GameState) -> list[Command]:
        """Every command the rules allow now, in a stable order."""
        phase = state.phase
        if phase is Phase.ACTIONS:
            generators, closing = self.actions if state.active is None else self.activation
        elif phase is Phase.SUMMONING:
            generators, closing = self.summoning
        elif phase is Phase.ENERGY_AND_RESET:
            generators, closing = self.energy_and_reset
        else:
            return []
        commands: list[Command] = []
        for generate in generators:
            generate(state, commands)
        commands.extend(closing)
        return commands

    def describe(self, state: GameState, command: Command) -> Message:
        """One sentence saying what the command does from this state."""
        declaration = self.declarations.get(type(command))
        if declaration is not None:
            try:
                if self.says_ahead:
                    said = describe_ahead(state, declaration, command)
                    if said is not None:
                        return said
                return declaration.describe(state, command)
            except (LookupError, TypeError, AttributeError):
                pass  # an illegal command still gets a readable, if plainer, description
        return Message("command.plain", type=type(command).__name__, fields=command_fields(command))

    def places(self, state: GameState, command: Command) -> tuple[str, ...]:
        """The board spaces a command is about, to point them out while it is played."""
        declaration = self.declarations.get(type(command))
        return () if declaration is None else declaration.places(state, command)

    def space(self, state: GameState, command: Command) -> str | None:
        """The board space a tap picks the command by, if one does."""
        declaration = self.declarations.get(type(command))
        return None if declaration is None else declaration.space(state, command)

    def step(self, command: Command, kind: CreatureKind | None) -> Step:
        """The step of the round a table tap on the command belongs to."""
        declaration = self.declarations.get(type(command))
        return in_actions(command, kind) if declaration is None else declaration.step(command, kind)

    def chance_outcomes(self, state: GameState, command: Command) -> list[tuple[float, Command]]:
        """What the command can lead to, as (probability, the command with dice giving it)."""
        declaration = self.declarations.get(type(command))
        if declaration is None:
            return [(1.0, command)]
        return declaration.chances(state, command)


def command_fields(command: Command) -> str:
    """The command's set fields as 'name=value' text."""
    return " ".join(f"{k}={v}" for k, v in command._asdict().items() if v is not None)


def _check_by(state: GameState, by: str) -> None:
    """Refuse a player's command made for someone whose decision it is not.

    A player the step passes over is told why ('Red cannot summon Trolls:
    2 energy', never only 'it is Blue's turn').
    """
    seat = state.game.seat.get(by)
    if seat is None:
        raise IllegalCommand(Message("refuse.no_player", player=quoted(by)))
    current = state.current_seat
    if current is not None and current != seat:
        reason = blocker(state, seat)
        if reason is not None:
            raise IllegalCommand(reason)
        labels, players = state.game.labels, state.game.players
        raise IllegalCommand(
            Message(
                "refuse.other_turn", player=labels[players[current]], other=labels[players[seat]]
            )
        )


def _said_before(state: GameState, command: Command) -> bool:
    """Take as said a version 2 log's pass (or skip) for a player the engine passed over.

    Version 2 logs were recorded when the table asked every player with a creature of the
    step's kind on the board, even one with nothing to record, so they hold explicit passes;
    the engine passes such players over by itself. Such a pass (by that player, or by nobody
    in a version 1 log) changes nothing; nor does a skip to a point already reached because of them.
    """
    if type(command) is Pass:
        by = command.by
        seat = state.waived[0] if by is None else state.game.seat.get(by)
        if seat in state.waived:
            # Once per step it was passed over in: the first of them.
            waived = state.waived[:]
            waived.remove(seat)
            state.waived = waived
            return True
        return False
    if type(command) is Skip:
        try:
            target = skip_target(state, command)
        except IllegalCommand:
            return False
        if position(state) >= target:
            state.waived = []
            return True
    return False


# --- the flow of each mode --------------------------------------------------------------------


def _table_business(state: GameState) -> bool:
    """One rule in every step: a player is asked only if they could record something, and
    has not said they are past this step already (engine/ahead.py); anyone else is passed
    over, and the turn card says why."""
    seat = state.turn_order[state.turn]
    if state.ahead[seat] > stage(state):
        return False
    if state.phase is Phase.SUMMONING:
        return can_summon(state, seat) and not table_full(state)
    return table_can_act(state, seat, removals_used(state, seat))


def _table_asked_before(state: GameState) -> bool:
    """Whether the engine of log version 2 asked the player whose turn it is (see above); a
    player past the step by their own say was not passed over by the engine."""
    seat = state.turn_order[state.turn]
    if state.ahead[seat] > stage(state):
        return False
    if state.phase is Phase.SUMMONING:
        return can_summon(state, seat)
    return state.on_board[seat][state.step] > 0


def _digital_business(state: GameState) -> bool:
    seat = state.turn_order[state.turn]
    if state.phase is Phase.SUMMONING:
        return can_summon(state, seat) and None in state.occupant
    return state.active is not None or state.ready[seat][state.step] > 0


def _table_passed_over(state: GameState, seat: int) -> Message | None:
    name = state.game.labels[state.game.players[seat]]
    if state.ahead[seat] > stage(state):
        return said_past(state, seat)
    if state.phase is Phase.SUMMONING:
        if not table_full(state):
            return None
        return Message("blocker.isle_full", player=name, count=state.game.isle.size)
    used = removals_used(state, seat)
    if table_can_act(state, seat, used):
        return None
    kinds = kinds_term(KIND_ORDER[state.step])
    if used:
        return Message("blocker.removals_done", player=name, kinds=kinds)
    return Message("blocker.nothing_to_remove", player=name, kinds=kinds)


def _digital_passed_over(state: GameState, seat: int) -> Message | None:
    name = state.game.labels[state.game.players[seat]]
    if state.phase is Phase.SUMMONING:
        return None if None in state.occupant else Message("blocker.board_full", player=name)
    if state.ready[seat][state.step] == 0 and state.active is None:
        return Message("blocker.all_acted", player=name, kinds=kinds_term(KIND_ORDER[state.step]))
    return None


def _table_reset(state: GameState) -> None:
    """The table records what it sees with an EnergyAndReset command."""


def _digital_reset(state: GameState) -> None:
    """Compute Energy and Reset, asking only for the domination choices players have."""
    occupants = occupants_by_id(state)
    game = state.game
    order = [game.players[seat] for seat in state.turn_order]
    choices = domination_opportunities(game.isle, order, occupants)
    if choices:
        # Nobody is asked to choose when the game will end before the domination pass.
        preview = run_reset(state, occupants, {})
        if preview.decided_in in (TallyPass.MODIFIERS, TallyPass.SPRITES):
            finish_round(state, preview)
            return
        state.pending = [
            (game.seat[player], game.isle.territory_index[territory])
            for player, territory in choices
        ]
        state.declined = {}
        show_passes(state, occupants)
        return
    finish_round(state, run_reset(state, occupants, {}))


def _rule_set(
    mode: Mode,
    elsewhere: Message,
    *,
    has_business: Callable[[GameState], bool],
    passed_over: Callable[[GameState, int], Message | None],
    enter_reset: Callable[[GameState], None],
    needs_paths: bool,
    asked_before: Callable[[GameState], bool] | None = None,
    says_ahead: bool = False,
) -> RuleSet:
    """Gather a mode's declarations from every command module; refuse the other mode's."""
    mine: list[Declaration[Any]] = []
    refusals: dict[type, Message] = {}
    for module in MODULES:
        own, other = (
            (module.TABLE, module.DIGITAL) if mode is Mode.TABLE else (module.DIGITAL, module.TABLE)
        )
        if own is not None:
            mine.append(own)
        else:
            refusals[other.command] = Message(
                "refuse.other_mode", what=other.what, elsewhere=elsewhere
            )
    mine.sort(key=lambda declaration: declaration.rank)

    def listed(moment: Moment) -> Listing:
        generators: list[Legal] = []
        closing: list[Command] = []
        for declaration in mine:
            if moment not in declaration.moments:
                continue
            if declaration.always is not None:
                closing.append(declaration.always)
            elif declaration.legal is not None:
                if closing:
                    # Commands always legal are appended after the generators have run.
                    raise ValueError(f"{declaration.command.__name__} is ranked after {closing}")
                generators.append(declaration.legal)
        return tuple(generators), tuple(closing)

    return RuleSet(
        mode=mode,
        declarations={declaration.command: declaration for declaration in mine},
        refusals=refusals,
        summoning=listed(Moment.SUMMONING),
        actions=listed(Moment.ACTIONS),
        activation=listed(Moment.ACTIVATION),
        energy_and_reset=listed(Moment.ENERGY_AND_RESET),
        has_business=has_business,
        passed_over=passed_over,
        enter_reset=enter_reset,
        needs_paths=needs_paths,
        asked_before=asked_before,
        says_ahead=says_ahead,
    )


TABLE_PLAY = _rule_set(
    Mode.TABLE,
    Message("elsewhere.digital"),
    has_business=_table_business,
    passed_over=_table_passed_over,
    enter_reset=_table_reset,
    needs_paths=False,
    asked_before=_table_asked_before,
    says_ahead=True,
)
DIGITAL_PLAY = _rule_set(
    Mode.DIGITAL,
    Message("elsewhere.table"),
    has_business=_digital_business,
    passed_over=_digital_passed_over,
    enter_reset=_digital_reset,
    needs_paths=True,
)
RULE_SETS = {Mode.TABLE: TABLE_PLAY, Mode.DIGITAL: DIGITAL_PLAY}
