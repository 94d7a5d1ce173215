"""Said ahead: at the table, a player records their own summons, removals, Wyrm swap or
"nothing more" before the turn order reaches them.

The table keeps the turn order with its own cardboard; the record only has to hold what
each player did, in that player's own order (Wyrms, Trolls, Sprites; Summoning before
Actions). So a player's command for a step whose turn is still to come for them is applied
at once, as it would be on that turn, and the player's stage of the round moves to that step:
they are done with the steps before it. When the turn order reaches them in a step they are
past, it passes them over (rulesets: `_table_business`). Nobody speaks for anyone else:
every command said ahead is its own player's (`by`).

A stage numbers the steps of a round: 0-2 Summoning's Wyrms, Trolls and Sprites, 3-5 the
Actions phase's, 6 the round done (`flow.stage`). `GameState.ahead` holds each seat's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.engine.constants import KIND_INDEX, KINDS, ROUND_DONE, SUMMONING_DONE, Phase
from companion.engine.errors import IllegalCommand
from companion.engine.flow import blocker, settle, stage
from companion.engine.names import kinds_term
from companion.language import Message
from models.commands import Command, Done
from models.rules import KIND_ORDER

if TYPE_CHECKING:
    from companion.engine.commands import Declaration
    from companion.engine.state import GameState

# How far "nothing more" takes a player: past Summoning, or past the whole round.
UNTIL = {"summoning": SUMMONING_DONE, "round": ROUND_DONE}


def stage_of(phase: Phase, kind: str) -> int:
    """The stage of a step: its phase's steps after Summoning's, its kind's among them."""
    return (KINDS if phase is Phase.ACTIONS else 0) + KIND_INDEX[kind]


def own_stage(state: GameState, seat: int) -> int:
    """Where a player is in the round: past every step the turn order has taken them through,
    and every step they said they are past."""
    now = stage(state)
    if now < ROUND_DONE and state.turn_order.index(seat) < state.turn:
        now += 1
    return max(now, state.ahead[seat])


def _stage_of_command(declaration: Declaration[Any], command: Command) -> int | None:
    """The stage a player's command belongs to, or None for one made only on its turn (a
    pass, a removal that does not say which creatures made it)."""
    phase, kind = declaration.step(command, None)
    if kind is None or phase not in (Phase.SUMMONING, Phase.ACTIONS):
        return None
    return stage_of(phase, kind)


def _ahead_of(
    state: GameState, declaration: Declaration[Any], command: Command, player: str
) -> tuple[int, int] | None:
    """(seat, stage) of a command said ahead, or None for one made as usual on its turn."""
    seat = state.game.seat.get(player)
    if seat is None or state.phase not in (Phase.SUMMONING, Phase.ACTIONS):
        return None
    if type(command) is Done:
        return seat, UNTIL[command.until]
    at = _stage_of_command(declaration, command)
    if at is None or (seat == state.turn_order[state.turn] and at == stage(state)):
        return None
    return seat, at


def apply_ahead(
    state: GameState, declaration: Declaration[Any], command: Command, player: str
) -> bool:
    """Apply a player's command said ahead of their turn, as it would be on that turn.

    False when it is made as usual (it is the player's turn and step, or it is a command only
    made then): the caller applies it. IllegalCommand when it cannot be made, the state as it
    was.
    """
    ahead = _ahead_of(state, declaration, command, player)
    if ahead is None:
        return False
    seat, at = ahead
    if type(command) is Done:
        nothing_more(state, seat, at)
        return True
    if at < own_stage(state, seat):
        raise IllegalCommand(turn_over(state, seat, at))
    trial = at_turn(state, seat, at)
    declaration.apply(trial, command)
    # What the command changed: the player's energy and creatures (and a rival's, removed),
    # and the game's end, if it reached 36.
    state.energy, state.reserve = trial.energy, trial.reserve
    state.on_board, state.returning = trial.on_board, trial.returning
    if trial.phase is Phase.GAME_OVER:
        state.winner, state.summoner = trial.winner, trial.summoner
        state.phase, state.active = Phase.GAME_OVER, None
        return True
    if (trial.phase, trial.step, trial.turn) != (state_phase(at), at % KINDS, turn_of(state, seat)):
        # Nothing more the player could do in that step: they are past it.
        state.ahead[seat], state.ahead_removals[seat] = at + 1, 0
    else:
        state.ahead[seat] = at
        state.ahead_removals[seat] = trial.ahead_removals[seat] + trial.step_removals
    settle(state)
    return True


def describe_ahead(
    state: GameState, declaration: Declaration[Any], command: Command
) -> Message | None:
    """A command said ahead as one sentence, as it plays out on the player's turn; None for a
    command made as usual."""
    by = getattr(command, "by", None)
    ahead = None if by is None else _ahead_of(state, declaration, command, by)
    if ahead is None:
        return None
    seat, at = ahead
    name = state.game.labels[state.game.players[seat]]
    if type(command) is Done:
        said = "done.round" if at == ROUND_DONE else "done.summoning"
        return Message(said, player=name)
    return declaration.describe(at_turn(state, seat, at), command)


def nothing_more(state: GameState, seat: int, until: int) -> None:
    """A player records nothing more up to a stage: the turn order passes them over there."""
    if own_stage(state, seat) >= until:
        name = state.game.labels[state.game.players[seat]]
        said = "refuse.done_for_round" if until == ROUND_DONE else "refuse.done_summoning"
        raise IllegalCommand(Message(said, player=name))
    state.ahead[seat], state.ahead_removals[seat] = until, 0
    settle(state)


def state_phase(at: int) -> Phase:
    """The phase a stage of Summoning or Actions belongs to."""
    return Phase.SUMMONING if at < KINDS else Phase.ACTIONS


def turn_of(state: GameState, seat: int) -> int:
    """A seat's turn in each step: where it stands in the turn order."""
    return state.turn_order.index(seat)


def at_turn(state: GameState, seat: int, at: int) -> GameState:
    """A copy of the state at a player's turn in a stage of this round, with what they said
    ahead there: the position a command said ahead is checked and made from."""
    trial = state.clone()
    trial.phase, trial.step, trial.turn = state_phase(at), at % KINDS, turn_of(state, seat)
    trial.active = None
    trial.waived = []
    # Removals said ahead at that stage count through `ahead_removals` (flow.removals_used).
    trial.step_removals = 0
    if trial.ahead[seat] != at:
        trial.ahead[seat], trial.ahead_removals[seat] = at, 0
    return trial


def turn_over(state: GameState, seat: int, at: int) -> Message:
    """Why a player's command for a stage they are past is refused: what would pass them over
    there anyway ('Alice has no Wyrms left'), else that their turn there is over."""
    trial = at_turn(state, seat, at)
    trial.ahead[seat] = at
    reason = blocker(trial, seat)
    if reason is not None:
        return reason
    name, kinds = state.game.labels[state.game.players[seat]], kinds_term(KIND_ORDER[at % KINDS])
    said = "refuse.summoning_turn_over" if at < KINDS else "refuse.actions_turn_over"
    return Message(said, player=name, kinds=kinds)


def said_past(state: GameState, seat: int) -> Message:
    """Why the turn order passes a player over who said they are past this step."""
    name = state.game.labels[state.game.players[seat]]
    if state.ahead[seat] == ROUND_DONE:
        return Message("blocker.done_for_round", player=name)
    if state.ahead[seat] >= KINDS and state.phase is Phase.SUMMONING:
        return Message("blocker.done_summoning", player=name)
    return Message("blocker.moved_on", player=name, kinds=kinds_term(KIND_ORDER[state.step]))
