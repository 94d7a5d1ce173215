"""Properties of random legal play (hypothesis), in digital and table games.

Each example plays a whole game from a drawn seed, checking the invariants after
every command: creatures add up to 1/3/9 (rules table), energy is never negative,
on the digital board every creature counted on the board stands on exactly one location
(a move that copied or lost a token would break the count), and the log replays to the
identical state.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.boards import shipped_board
from companion.engine import Game, IllegalCommand, Phase
from companion.engine.dice import with_rolls
from companion.engine.replay import replay
from companion.engine.serialize import state_to_json
from models.commands import (
    Attack,
    Declined,
    EnergyAndReset,
    Move,
    Placement,
    Summon,
    command_from_json,
    command_to_json,
)
from models.rules import CREATURES, KIND_ORDER
from models.seeded_dice import SeededDice
from models.setup import GameSetup

PLAYERS = ["red", "blue", "green", "yellow"]
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def make_game(players: int, mode: str, final_round: int = 6) -> Game:
    board_id = "duel-isle" if players == 2 else "gathering-isle"
    setup = GameSetup(
        players=[{"id": p} for p in PLAYERS[:players]],
        board=board_id,
        mode=mode,
        final_round=final_round,
    )
    return Game(setup, shipped_board(board_id))


def check_invariants(state) -> None:
    game = state.game
    for seat in range(len(game.players)):
        assert state.energy[seat] >= 0
        for k, kind in enumerate(KIND_ORDER):
            total = state.reserve[seat][k] + state.on_board[seat][k] + state.returning[seat][k]
            assert total == CREATURES[kind].owned
            assert min(state.reserve[seat][k], state.on_board[seat][k]) >= 0
            if game.digital:
                on_board = sum(1 for token in state.occupant if token == (seat, k))
                assert on_board == state.on_board[seat][k]


def table_reset(state, rng: random.Random) -> EnergyAndReset:
    """What a table might see at Reset: some of each player's creatures, on random locations."""
    game = state.game
    free = list(game.isle.location_ids)
    rng.shuffle(free)
    placements = []
    for seat, player in enumerate(game.players):
        for k, kind in enumerate(KIND_ORDER):
            for _ in range(rng.randint(0, state.on_board[seat][k])):
                if free:
                    placements.append(Placement(free.pop(), player, kind))
    declined = ()
    if rng.random() < 0.5:
        declined = (Declined(rng.choice(game.players), rng.choice(game.isle.territory_ids)),)
    return EnergyAndReset(tuple(placements), declined)


def play_random(game: Game, seed: int):
    rng = random.Random(seed)
    roll = SeededDice(seed)
    state = game.new_initial_state()
    commands = []
    while not state.is_terminal:
        if state.phase is Phase.ENERGY_AND_RESET and not game.digital:
            command = table_reset(state, rng)
        else:
            legal = state.legal_commands()
            assert legal, f"no legal command in {state!r}"
            command = with_rolls(state, rng.choice(legal), roll)
        state.apply(command)
        commands.append(command)
        check_invariants(state)
    return state, commands


@SLOW
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    mode=st.sampled_from(["digital", "table"]),
)
def test_random_games_keep_invariants_and_end_with_one_winner(seed, players, mode):
    """Rulings 1, 13, 14: invariants hold throughout and every game ends by its final round."""
    game = make_game(players, mode)
    state, _ = play_random(game, seed)
    assert state.is_terminal
    assert state.winner_id in game.players
    assert state.round <= game.final_round
    if not state.summoner:
        assert state.round == game.final_round


@SLOW
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    mode=st.sampled_from(["digital", "table"]),
)
def test_replaying_the_log_gives_the_identical_state(seed, players, mode):
    """A game is its setup plus its commands: replaying them, through JSON, rebuilds it exactly."""
    game = make_game(players, mode)
    state, commands = play_random(game, seed)
    through_json = [command_from_json(command_to_json(c)) for c in commands]
    assert through_json == commands
    assert state_to_json(replay(game, through_json)) == state_to_json(state)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    mode=st.sampled_from(["digital", "table"]),
)
def test_every_legal_command_applies(seed, players, mode):
    """legal_commands never lists a command that apply refuses."""
    game = make_game(players, mode)
    rng = random.Random(seed)
    roll = SeededDice(seed)
    state = game.new_initial_state()
    while not state.is_terminal:
        if state.phase is Phase.ENERGY_AND_RESET and not game.digital:
            state.apply(table_reset(state, rng))
            continue
        legal = state.legal_commands()
        for command in legal:
            state.clone().apply(with_rolls(state, command, roll))
        state.apply(with_rolls(state, rng.choice(legal), roll))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_an_illegal_command_changes_nothing(seed):
    """Bad input loses nothing: a refused command leaves the state exactly as it was."""
    game = make_game(2, "digital")
    rng = random.Random(seed)
    roll = SeededDice(seed)
    state = game.new_initial_state()
    ids = game.isle.location_ids
    refused = 0
    while not state.is_terminal:
        legal = set(state.legal_commands())
        probe = rng.choice(
            [
                Summon(rng.choice(KIND_ORDER), rng.choice(ids)),
                Move(rng.choice(ids)),
                Attack(rng.choice(ids), 6, 6),
            ]
        )
        if (
            probe._replace(
                **{f: None for f in ("attack_roll", "defence_roll") if hasattr(probe, f)}
            )
            not in legal
        ):
            before = state_to_json(state)
            try:
                state.apply(probe)
            except IllegalCommand as error:
                assert str(error)
                assert state_to_json(state) == before
                refused += 1
            else:
                raise AssertionError(f"{probe} was accepted but is not legal")
        state.apply(with_rolls(state, rng.choice(sorted(legal, key=repr)), roll))
    assert refused > 0


def test_clone_is_independent():
    """Cloning for tree search: changing the clone leaves the original alone."""
    game = make_game(2, "digital")
    state = game.new_initial_state()
    copy = state.clone()
    copy.apply(copy.legal_commands()[0])
    assert state_to_json(state) != state_to_json(copy)
    assert state_to_json(state) == state_to_json(game.new_initial_state())
