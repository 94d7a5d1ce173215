"""Position text: prints and parses back to the same position, like FEN."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.boards import shipped_board
from companion.engine import Game, GameState, IllegalCommand, Phase, PositionError
from companion.engine.dice import with_rolls
from companion.engine.serialize import state_to_json
from models.commands import EnergyAndReset, Move, command_type
from models.seeded_dice import SeededDice
from models.setup import GameSetup

PLAYERS = ["red", "blue", "green", "yellow"]


def make_game(players: int, mode: str) -> Game:
    board_id = "duel-isle" if players == 2 else "gathering-isle"
    setup = GameSetup(
        players=[{"id": player} for player in PLAYERS[:players]], board=board_id, mode=mode
    )
    return Game(setup, shipped_board(board_id))


def assert_same_position(state: GameState, back: GameState) -> None:
    assert back.position() == state.position()
    assert state_to_json(back) == state_to_json(state)
    assert back.legal_commands() == state.legal_commands()
    assert back.current_player == state.current_player


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_every_position_of_a_digital_game_reads_back_and_plays_on_the_same(seed, players):
    game = make_game(players, "digital")
    rng, roll = random.Random(seed), SeededDice(seed)
    state = game.new_initial_state()
    while not state.is_terminal:
        back = GameState.from_position(game, state.position())
        assert_same_position(state, back)
        command = with_rolls(state, rng.choice(state.legal_commands()), roll)
        state.apply(command)
        back.apply(command)
        assert back.position() == state.position()
    assert GameState.from_position(game, state.position()).is_terminal


def test_a_table_game_waiting_for_energy_and_reset_reads_back():
    game = make_game(3, "table")
    state = game.new_initial_state()
    while state.phase is not Phase.ENERGY_AND_RESET:
        state.apply(state.legal_commands()[-1])
    back = GameState.from_position(game, state.position())
    assert_same_position(state, back)
    record = EnergyAndReset((), (), ())
    state.apply(record)
    back.apply(record)
    assert back.position() == state.position()


def test_a_written_position_is_the_game_it_says():
    game = make_game(2, "digital")
    # Round 2, Actions, Trolls (step 1), Blue's turn (turn 1 of order 'ab'): Red has a
    # Wyrm face up on the first location, Blue a face-down Sprite on the third.
    board = "aW1bs" + str(game.isle.size - 3)
    text = f"{board} 2/6 actions:1:1 ab 4,7 039/100/000/100,138/001/000/000 -:0 - - 0 -"
    state = GameState.from_position(game, text)
    assert state.position() == text
    assert (state.round, state.phase, state.step_kind.value) == (2, Phase.ACTIONS, "troll")
    assert state.current_player == "blue"
    assert (state.energy_of("red"), state.energy_of("blue")) == (4, 7)
    shown = state_to_json(state)["board"]
    first, third = game.isle.location_ids[0], game.isle.location_ids[2]
    assert shown == {
        first: {"player": "red", "creature": "wyrm", "face_down": False},
        third: {"player": "blue", "creature": "sprite", "face_down": True},
    }
    # Blue has no Troll on the board, so the Troll step has nothing for Blue to activate.
    assert {command_type(command) for command in state.legal_commands()} == {"pass"}


BLANK = "24 1/6 summoning:0:0 ab 5,5 139/000/000/000,139/000/000/000 -:0 - - 0 -"


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda t: t.replace(" 0 -", " 0"), "a position has 11 fields"),
        (lambda t: t.replace("24", "23", 1), "it describes 23 locations; this isle has 24"),
        (lambda t: t.replace("24", "aX23", 1), "'X' is no creature"),
        (lambda t: t.replace("24", "cW23", 1), "'c' is no seat of this game (a to b)"),
        (lambda t: t.replace("1/6", "7/6"), "7 is not a round of this game"),
        (lambda t: t.replace("1/6", "1/7"), "this game's final round is 6, not 7"),
        (lambda t: t.replace("summoning", "lunch"), "'lunch' is no phase"),
        (lambda t: t.replace(" ab ", " aa "), "order: every seat once"),
        (lambda t: t.replace("5,5", "5"), "energy: expected 2 whole number(s)"),
        (lambda t: t.replace("139/000/000/000,", "129/000/000/000,"), "red has 2 trolls in all"),
        (lambda t: t.replace("139/000/000/000,", "039/100/000/000,"), "it shows 0 of red's wyrms"),
        (lambda t: t.replace("-:0", "99:1"), "location 99 is not on this isle"),
        (lambda t: t[: -len("-")] + "-!", "a Summoner's win needs a winner"),
    ],
)
def test_a_wrong_position_text_says_which_field_is_wrong(change, says):
    game = make_game(2, "digital")
    assert game.isle.size == 24
    GameState.from_position(game, BLANK)
    with pytest.raises(PositionError, match=None) as caught:
        GameState.from_position(game, change(BLANK))
    assert says in str(caught.value)


def test_a_move_onto_a_taken_location_says_it_is_taken():
    """Ruling 6: a creature moves only onto empty locations; the refusal says whose is there."""
    game = make_game(2, "digital")
    # Actions, Troll step, Red's turn: Red's Troll at nc1 is active with 2 actions; Blue's
    # Sprite stands on nc2, next to it.
    text = "aTbS22 2/6 actions:1:0 ab 4,7 129/010/000/000,138/001/000/001 0:2 - - 0 -"
    state = GameState.from_position(game, text)
    with pytest.raises(IllegalCommand) as caught:
        state.apply(Move("nc2", by="red"))
    assert str(caught.value) == (
        "North Cliffs 2 is taken by blue's Sprite: a creature moves only onto an empty location"
    )
    with pytest.raises(IllegalCommand, match="the creature is already at North Cliffs 1"):
        state.apply(Move("nc1", by="red"))
    assert state.position() == text
    state.apply(Move("nc3", by="red"))
    assert state.position().startswith("1bSaT21 ")
