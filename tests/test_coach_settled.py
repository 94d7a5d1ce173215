"""Settled positions read as settled: the rules' own verdict where they give one, and
chances that reach certainty (no floor, no ceiling) where the game is decided in practice.

Positions are written as position text (docs/engine.md): 2 players on duel-isle (24
locations), 3 and 4 on gathering-isle (38).
"""

from __future__ import annotations

import random

import pytest

from companion.boards import shipped_board
from companion.coach import win_chances
from companion.coach.calibration import calibrate
from companion.engine import Game, GameState
from companion.engine.settled import decided
from models.commands import Dominate, EndActivation, Pass
from models.rules import ENERGY_BANDS, WINNING_ENERGY
from models.seeded_dice import SeededDice
from models.setup import GameSetup

SIZES = {2: 24, 3: 38, 4: 38}
# Every creature removed this round: none on the board, none to summon until the next.
EMPTY = "000/000/139/000"
# The leader: a Wyrm, a Troll and three Sprites on the board, the rest in reserve.
LEADER = "026/113/000/113"
SMALL = "138/001/000/001"


def game(players: int) -> Game:
    board = "duel-isle" if players == 2 else "gathering-isle"
    setup = GameSetup(
        players=[{"id": seat} for seat in "abcd"[:players]], board=board, mode="digital"
    )
    return Game(setup, shipped_board(board))


def position(
    players: int,
    round_: str,
    phase: str,
    energy: list[int],
    creatures: list[str],
    result: str = "-",
) -> GameState:
    """The leader's creatures first on the board, everyone else's after them, in setup order."""
    on_board = {LEADER: "aWaTaSaSaS", SMALL: "{seat}S", EMPTY: ""}
    board = "".join(
        on_board[held].format(seat=seat)
        for seat, held in zip("abcd"[: len(creatures)], creatures, strict=True)
    )
    taken = sum(1 for char in board if char.isupper())
    text = (
        f"{board}{SIZES[players] - taken} {round_} {phase} {'abcd'[:players]} "
        f"{','.join(map(str, energy))} {','.join(creatures)} -:0 - - 0 {result}"
    )
    return GameState.from_position(game(players), text)


def leader_and_rest(state: GameState) -> tuple[float, list[float]]:
    chances = win_chances(state)
    return chances.players[0].chance, [line.chance for line in chances.players[1:]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_final_round_nobody_can_catch_up_in_is_won_exactly(players):
    # The final round's start: the leader on 31 keeps 26 passing everything; the others, on
    # 5 with a Sprite each, cannot reach that whatever they summon and remove.
    state = position(
        players,
        "6/6",
        "summoning:0:0",
        [31] + [5] * (players - 1),
        [LEADER] + [SMALL] * (players - 1),
    )
    assert decided(state) == 0
    chances = win_chances(state)
    assert chances.exact and chances.playouts == 0 and not chances.over
    assert [line.chance for line in chances.players] == [1.0] + [0.0] * (players - 1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_player_at_36_has_won(players):
    state = position(
        players,
        "3/6",
        "game_over:0:0",
        [WINNING_ENERGY] + [5] * (players - 1),
        [LEADER] + [SMALL] * (players - 1),
        result="a!",
    )
    leader, rest = leader_and_rest(state)
    assert (leader, rest) == (1.0, [0.0] * (players - 1))
    assert win_chances(state).over


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("round_", ["5/6", "6/6"])
def test_empty_opponents_with_no_energy_and_no_reserve_read_settled(players, round_):
    # Every rival's whole board was removed this round and they have no energy left: the
    # leader reads at least 99% a round before the end, and exactly 100% in the final round.
    state = position(
        players,
        round_,
        "actions:0:0",
        [25] + [0] * (players - 1),
        [LEADER] + [EMPTY] * (players - 1),
    )
    leader, rest = leader_and_rest(state)
    assert leader >= 0.99
    assert all(chance <= 0.01 for chance in rest)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_close_position_reads_close(players):
    # The game's start: everyone within 15 points of the even chance.
    chances = win_chances(game(players).new_initial_state())
    assert all(abs(line.chance - 1 / players) <= 0.15 for line in chances.players)
    assert not chances.exact


def test_a_lead_the_others_can_still_catch_is_not_called():
    # The same final round, but one rival on 15 with a Sprite can still reach the leader.
    state = position(3, "6/6", "summoning:0:0", [31, 15, 5], [LEADER, SMALL, SMALL])
    assert decided(state) is None
    assert not win_chances(state).exact
    # Before the final round the rules call nothing, however far ahead the leader is.
    early = position(2, "5/6", "summoning:0:0", [35, 0], [LEADER, EMPTY])
    assert decided(early) is None


def test_the_bound_reads_the_rules_table(monkeypatch):
    # Were the bands to pay the poor 20, the rival on 5 could catch up: the verdict follows.
    state = position(2, "6/6", "summoning:0:0", [31, 5], [LEADER, SMALL])
    assert decided(state) == 0
    from companion.engine import settled

    rich = tuple(
        band if band.low else band.__class__(band.low, band.high, 20) for band in ENERGY_BANDS
    )
    monkeypatch.setattr(settled, "ENERGY_BANDS", rich)
    settled._highest_after_band.cache_clear()
    try:
        assert decided(state) is None
    finally:
        monkeypatch.undo()
        settled._highest_after_band.cache_clear()


def passing(state: GameState, sure: str, rng: random.Random):
    """The sure winner passes everything (and takes any bonus); the others play at random."""
    commands = state.legal_commands()
    if state.current_player == sure:
        for command in commands:
            if type(command) in (Pass, EndActivation) or (
                type(command) is Dominate and command.take
            ):
                return command
    return rng.choice(commands)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whoever_the_rules_call_the_winner_wins_whatever_the_others_play(players):
    state = position(
        players,
        "6/6",
        "summoning:0:0",
        [31] + [5] * (players - 1),
        [LEADER] + [SMALL] * (players - 1),
    )
    sure = state.game.players[decided(state)]
    for seed in range(30):
        rng = random.Random(seed)
        dice = SeededDice(seed)
        played = state.clone()
        while not played.is_terminal:
            command = passing(played, sure, rng)
            outcomes = played.chance_outcomes(command)
            if len(outcomes) > 1:
                command = outcomes[0 if dice() <= 3 else -1][1]
            played.apply(command)
        assert played.winner_id == sure


def test_the_map_has_no_floor_and_no_ceiling():
    assert calibrate([1.0, 0.0, 0.0], 0.7) == [1.0, 0.0, 0.0]
    assert calibrate([0.999, 0.0005, 0.0005], 0.8)[0] > 0.99
    closer = calibrate([0.9, 0.05, 0.05], 0.5)
    assert closer[0] < 0.9 and sum(closer) == pytest.approx(1.0)
