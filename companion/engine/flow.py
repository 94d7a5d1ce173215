"""How a round moves on: steps, turns, skipping players with nothing to decide, Reset.

Rulings 3 and 5: Summoning and Actions each go Wyrms, Trolls, Sprites, every player
in turn order within each step. A player with nothing they could do is skipped, so
every state the engine stops in has a real decision (or waits for the table's reset).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.engine.constants import ACTIONS, COSTS, KINDS, ROUND_DONE, WYRM, Phase
from companion.engine.dice import chances, strike
from companion.engine.errors import IllegalCommand
from companion.engine.names import kind_term, kinds_term
from companion.engine.reset_phase import Occupant, Tally, reset_phase
from companion.language import Message, quoted
from models.commands import Skip
from models.rules import DIE_SIDES, KIND_ORDER, WINNING_ENERGY, WYRM_SWAP_COST, CreatureKind

if TYPE_CHECKING:
    from companion.engine.state import GameState


def settle(state: GameState) -> None:
    """Advance turns, steps and phases until someone has a decision to make."""
    seats = len(state.turn_order)
    rules = state.game.rules
    has_business = rules.has_business
    asked_before = rules.asked_before
    while state.phase is Phase.SUMMONING or state.phase is Phase.ACTIONS:
        if state.turn >= seats:
            state.turn = 0
            if state.step < KINDS - 1:
                state.step += 1
            elif state.phase is Phase.SUMMONING:
                state.phase = Phase.ACTIONS
                state.step = 0
            else:
                begin_reset(state)
            continue
        if has_business(state):
            return
        if asked_before is not None and asked_before(state):
            # A version 2 log holds this player's explicit pass: it will be taken as said.
            state.waived.append(state.turn_order[state.turn])
        state.turn += 1
        # The next player's removals in this step are their own (a player passed over
        # after removing, having said they were done, leaves theirs behind).
        state.step_removals = 0


def can_summon(state: GameState, seat: int) -> bool:
    """Whether a player has the step's creature in reserve and the energy to pay for it."""
    step = state.step
    return state.reserve[seat][step] > 0 and state.energy[seat] >= COSTS[step]


def table_full(state: GameState) -> bool:
    """At the table: every location of the isle holds a creature by the record.

    The record knows how many creatures stand on the board (the last Energy and Reset's,
    less this round's removals, plus this round's summons), not where: a summon needs one
    location left (the rulebook: onto a vacant location).
    """
    return sum(map(sum, state.on_board)) >= state.game.isle.size


def stage(state: GameState) -> int:
    """The stage of the round the turn order is at: 0-2 Summoning's steps, 3-5 Actions', 6
    after them."""
    if state.phase is Phase.SUMMONING:
        return state.step
    if state.phase is Phase.ACTIONS:
        return KINDS + state.step
    return ROUND_DONE


def removals_used(state: GameState, seat: int) -> int:
    """The removals a player's creatures of the step's kind have recorded in this step: on
    their turn, and said ahead of it."""
    used = state.step_removals if seat == state.turn_order[state.turn] else 0
    if state.ahead[seat] == stage(state):
        used += state.ahead_removals[seat]
    return used


def table_can_act(state: GameState, seat: int, used: int = 0) -> bool:
    """At the table: whether a player's creatures of the step's kind could still record
    anything (a removal they could have made, or a Wyrm swap); `used` is how many removals
    they have recorded in this step already."""
    step = state.step
    if state.on_board[seat][step] == 0:
        return False
    if can_swap_at_table(state, seat):
        return True
    for victim, counts in enumerate(state.on_board):
        if victim == seat:
            continue
        for kind in range(KINDS):
            if counts[kind] and removal_blocker(state, seat, kind, used) is None:
                return True
    return False


def can_swap_at_table(state: GameState, seat: int) -> bool:
    """At the table: a Wyrm swap is possible (the Wyrms step, a Wyrm and another creature
    of the player's on the board, and the energy to pay)."""
    on_board = state.on_board[seat]
    return bool(
        state.step == WYRM
        and on_board[WYRM]
        and sum(on_board) - on_board[WYRM]
        and state.energy[seat] >= WYRM_SWAP_COST
    )


def blocker(state: GameState, seat: int) -> Message | None:
    """Why a player has nothing to decide in the current step, or None if they have.

    Said on screen for a player the step passes over, e.g. 'Alice cannot summon Trolls:
    2 energy'.
    """
    if state.phase not in (Phase.SUMMONING, Phase.ACTIONS):
        return None
    kind = state.step
    kinds = kinds_term(KIND_ORDER[kind])
    name = state.game.labels[state.game.players[seat]]
    if state.phase is Phase.SUMMONING:
        if state.reserve[seat][kind] == 0:
            back = state.returning[seat][kind]
            if back:
                return Message("blocker.none_left_back", player=name, kinds=kinds, count=back)
            return Message("blocker.none_left", player=name, kinds=kinds)
        if state.energy[seat] < COSTS[kind]:
            have = Message("count.energy", count=state.energy[seat])
            return Message("blocker.cannot_pay", player=name, kinds=kinds, energy=have)
    elif state.on_board[seat][kind] == 0:
        return Message("blocker.none_on_board", player=name, kinds=kinds)
    return state.game.rules.passed_over(state, seat)


def removal_blocker(
    state: GameState, seat: int, kind: int, used: int | None = None
) -> Message | None:
    """Why the creatures acting now could not have removed a creature of `kind`, or None.

    Ruling 7 at the table: the step's kind is the attacker's. No roll lets a Sprite beat a
    Wyrm's defence, and each attack costs an action, so a player's creatures of a kind
    remove at most as many creatures in their step as they have actions between them.
    `used` counts the removals already recorded in this step (default: the player's,
    `removals_used`).
    """
    attacker, defender = KIND_ORDER[state.step], KIND_ORDER[kind]
    if chances(state.step, kind).success is None:
        # No dice win: not even the attacker's best roll against the weakest defence.
        best = strike(state.step, kind, DIE_SIDES, 1)
        return Message(
            "refuse.out_of_reach",
            attacker=kind_term(attacker),
            defender=kind_term(defender),
            best=best.total,
            defence=best.defence,
        )
    count = state.on_board[seat][state.step]
    most = count * ACTIONS[state.step]
    if (removals_used(state, seat) if used is None else used) >= most:
        return Message(
            "refuse.removals_used",
            player=state.game.labels[state.game.players[seat]],
            count=count,
            kind=kind_term(attacker),
            kinds=kinds_term(attacker),
            actions=Message("count.action", count=most),
        )
    return None


def position(state: GameState) -> tuple[int, int, int]:
    """Where the round is: (phase, step, turn), ordered as play goes on."""
    return (_PHASE_RANK[state.phase], state.step, state.turn)


def skip_target(state: GameState, command: Skip) -> tuple[int, int, int]:
    """Where a Skip moves the round on to; IllegalCommand if it names no such point."""
    phase = Phase(command.phase)
    if command.kind is None:
        if command.player is not None:
            raise IllegalCommand(Message("refuse.skip_needs_step"))
        return (_PHASE_RANK[phase], KINDS, 0)
    step = KIND_ORDER.index(CreatureKind(command.kind))
    if command.player is None:
        return (_PHASE_RANK[phase], step, 0)
    seat = state.game.seat.get(command.player)
    if seat is None:
        raise IllegalCommand(Message("refuse.no_player", player=quoted(command.player)))
    return (_PHASE_RANK[phase], step, state.turn_order.index(seat))


_PHASE_RANK = {
    Phase.SUMMONING: 0,
    Phase.ACTIONS: 1,
    Phase.ENERGY_AND_RESET: 2,
    Phase.GAME_OVER: 3,
}


def done_if_nothing_left(state: GameState, seat: int) -> None:
    """At the table, after a removal or a swap: a player whose creatures could record
    nothing more is passed over at once (one pass rule in every step).

    A version 2 log asked them to pass instead, so their pass there is taken as said.
    """
    if state.phase is Phase.ACTIONS and not table_can_act(state, seat, removals_used(state, seat)):
        state.waived.append(seat)
        next_turn(state)


def next_turn(state: GameState) -> None:
    """The current player is done with this step."""
    state.turn += 1
    state.step_removals = 0
    settle(state)


def begin_activation(state: GameState, location: int) -> None:
    """Make the creature at a location the active one, with its full actions."""
    state.active = location
    state.actions_left = ACTIONS[state.step]


def flip_active(state: GameState) -> None:
    """Turn the active creature face-down: it has acted this round."""
    here = state.active
    assert here is not None, "only an active creature is flipped"
    token = state.occupant[here]
    assert token is not None, "the active creature is on the board"
    seat, kind = token
    state.face_down[here] = True
    state.ready[seat][kind] -= 1
    state.active = None
    state.actions_left = 0


def end_activation(state: GameState) -> None:
    """Flip the active creature face-down and let the player go on."""
    flip_active(state)
    settle(state)


def can_swap(state: GameState) -> bool:
    """Whether the active creature is a Wyrm that could pay to trade places now."""
    if state.active is None or state.step != WYRM:
        return False
    seat = state.turn_order[state.turn]
    if state.energy[seat] < WYRM_SWAP_COST:
        return False
    occupant = state.occupant
    return any(
        (token := occupant[n]) is not None and token[0] == seat
        for n in state.game.isle.neighbours[state.active]
    )


def after_action(state: GameState) -> None:
    """End the activation by itself once the creature has nothing left it could do."""
    if state.actions_left == 0 and not can_swap(state):
        end_activation(state)


def gain(state: GameState, seat: int, amount: int) -> None:
    """Add energy; reaching the winning total ends the game at once (ruling 11)."""
    state.energy[seat] += amount
    if state.energy[seat] >= WINNING_ENERGY:
        state.winner = seat
        state.summoner = True
        state.phase = Phase.GAME_OVER
        state.active = None


def occupants_by_id(state: GameState) -> list[Occupant]:
    """The board as (player id, kind) per location, the form the reset phase reads."""
    players = state.game.players
    return [
        None if token is None else (players[token[0]], KIND_ORDER[token[1]])
        for token in state.occupant
    ]


def run_reset(state: GameState, occupants: list[Occupant], declined: dict[str, list[str]]) -> Tally:
    """Compute Energy and Reset for this round from a board, from the energies it began with."""
    game = state.game
    start = state.energy if state.reset_from is None else state.reset_from
    return reset_phase(
        game.isle,
        [game.players[seat] for seat in state.turn_order],
        dict(zip(game.players, start, strict=True)),
        occupants,
        declined,
        final_round=state.round >= game.final_round,
        labels=game.labels,
        round_=state.round,
    )


def show_passes(state: GameState, occupants: list[Occupant]) -> Tally:
    """While domination choices wait: energies as the passes run so far leave them.

    The passes run one after another in turn order (ruling 10), so when a player decides on
    a bonus the modifier and Sprite passes, and every bonus decided before theirs, have
    already moved the counters: `energy` shows that, and the phase's starting energies are
    kept in `reset_from` for the tally. The choices still open count as declined, which
    cannot change anything that comes before them. Returns that partial tally.
    """
    game = state.game
    if state.reset_from is None:
        state.reset_from = tuple(state.energy)
    undecided = {player: refused[:] for player, refused in state.declined.items()}
    for seat, territory in state.pending:
        undecided.setdefault(game.players[seat], []).append(game.isle.territory_ids[territory])
    partial = run_reset(state, occupants, undecided)
    for line in partial.players:
        state.energy[game.seat[line.player]] = line.after
    return partial


def begin_reset(state: GameState) -> None:
    """Enter Energy and Reset; the rule set computes it or waits for the table's record."""
    state.phase = Phase.ENERGY_AND_RESET
    state.active = None
    state.game.rules.enter_reset(state)


def finish_round(state: GameState, tally: Tally) -> None:
    """Apply a tally: new energy, creatures face-up, removed ones back, next round or game end."""
    game = state.game
    state.last_tally = tally
    state.reset_from = None
    for line in tally.players:
        state.energy[game.seat[line.player]] = line.after
    state.pending = []
    state.declined = {}
    if tally.game_over:
        state.winner = game.seat[tally.winner] if tally.winner else None
        state.summoner = tally.summoner
        state.phase = Phase.GAME_OVER
        return
    state.face_down = [False] * len(state.face_down)
    state.ready = [row[:] for row in state.on_board]
    for seat, back in enumerate(state.returning):
        for kind in range(KINDS):
            state.reserve[seat][kind] += back[kind]
            back[kind] = 0
    state.turn_order = [game.seat[player] for player in tally.turn_order]
    state.ahead = [0] * len(state.ahead)
    state.ahead_removals = [0] * len(state.ahead_removals)
    state.round += 1
    state.phase = Phase.SUMMONING
    state.step = 0
    state.turn = 0
    settle(state)
