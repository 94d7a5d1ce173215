"""Bad input names its problem in the app's words: never pydantic's phrasing."""

import copy
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from typer.testing import CliRunner

from companion.cli import app
from models.game_log import GameLog
from models.problems import problem
from models.tally_request import TallyRequest

# What pydantic says in its own words; none of it may reach a user.
RAW = ("Input should", "should have", "after validation", "Value error", "valid integer", "[type=")

PLAYERS = [{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}]


def inline_board(**changes):
    """A small valid isle to break one way at a time: north (2 spaces) and south (1)."""
    data = {
        "id": "kitchen",
        "territories": [
            {"id": "north", "bonus": 2, "locations": ["n1", "n2"]},
            {"id": "south", "bonus": 1, "locations": ["s1"]},
        ],
    }
    data.update(changes)
    return data


def located(**changes):
    """The same isle drawn, with paths, as digital play needs."""
    spots = [{"id": i, "x": x, "y": 10.0} for i, x in (("n1", 10.0), ("n2", 20.0), ("s1", 30.0))]
    return inline_board(**{"locations": spots, "paths": [["n1", "n2"], ["n2", "s1"]], **changes})


def log_with_board(board) -> dict:
    return {
        "format": "summoners-isle-game",
        "version": 2,
        "setup": {"players": PLAYERS, "board": board},
    }


BOARD_MISTAKES = [
    (
        inline_board(
            territories=[
                {"id": "north", "bonus": 2, "locations": ["n1"]},
                {"id": "south", "bonus": 1, "locations": ["n1"]},
            ]
        ),
        "location 'n1' is in two territories: 'north' and 'south'",
    ),
    (
        inline_board(territories=[{"id": "north", "bonus": 0, "locations": ["n1"]}]),
        "bonus of territory 'north' must be at least 1, not 0",
    ),
    (
        inline_board(
            territories=[
                {"id": "north", "bonus": 2, "locations": ["n1"]},
                {"id": "south", "bonus": 4, "locations": ["s1"]},
            ]
        ),
        "bonus of territory 'south' must be at most 3, not 4",
    ),
    (located(paths=[["n1", "n2"]]), "the isle is not connected: no path reaches 's1'"),
    (located(paths=[["n1", "n2"], ["n2", "mire"]]), "names unknown location 'mire'"),
    (
        inline_board(
            territories=[
                {"id": "north", "bonus": 2, "locations": ["n1"]},
                {"id": "north", "bonus": 1, "locations": ["s1"]},
            ]
        ),
        "territory 'north' is listed twice",
    ),
    (
        inline_board(territories=[{"id": "north", "bonus": 2, "locations": []}]),
        "territory 'north' has no locations",
    ),
    (
        inline_board(territories=[{"id": "north", "bonus": "2", "locations": ["n1"]}]),
        "bonus of territory 'north' must be a whole number, not '2'",
    ),
]


@pytest.mark.parametrize(("board", "says"), BOARD_MISTAKES)
def test_each_inline_board_mistake_is_named_in_replay_and_import(tmp_path, board, says):
    source = tmp_path / "log.json"
    source.write_text(json.dumps(log_with_board(board)), encoding="utf-8")
    for args in (
        ["replay", str(source)],
        ["game", "import", str(source), "--db", str(tmp_path / "g.db")],
    ):
        result = CliRunner().invoke(app, args, terminal_width=200)
        assert result.exit_code == 2, result.output
        assert says in result.output, result.output
        assert not any(raw in result.output for raw in RAW), result.output


@pytest.mark.parametrize(
    ("setup", "says"),
    [
        ({"final_round": "6"}, "final_round must be a whole number, not '6'"),
        ({"final_round": 6.0}, "final_round must be a whole number, not 6.0"),
        (
            {"players": [*PLAYERS, *[{"id": c} for c in ("green", "yellow", "white")]]},
            "a game has 2 to 4 players, not 5",
        ),
        (
            {"players": [PLAYERS[0], {"id": "blue", "hat": 1}]},
            "Player 2's entry has a field this app does not know: hat",
        ),
        ({"mode": "tabletop"}, "mode must be one of 'table' or 'digital', not 'tabletop'"),
        ({"board": 7}, "board"),
    ],
)
def test_setup_mistakes_are_named_without_pydantic_words(setup, says):
    data = log_with_board("duel-isle")
    data["setup"].update(setup)
    with pytest.raises(ValidationError) as caught:
        GameLog.model_validate(data)
    sentence = str(problem(caught.value, data))
    assert says in sentence
    assert not any(raw in sentence for raw in RAW), sentence


def test_a_player_named_in_a_tally_is_named_by_their_id():
    data = {"board": "duel-isle", "turn_order": ["red", "blue"], "energy": {"red": 3, "blue": "x"}}
    with pytest.raises(ValidationError) as caught:
        TallyRequest.model_validate(data)
    assert str(problem(caught.value, data)) == "energy.blue must be a whole number, not 'x'"


def _leaves(node, path=()):
    """Every place in a JSON document, as a path of keys and indexes."""
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _leaves(value, (*path, index))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(-5, 5) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=5,
)
VALID_LOG = {
    "format": "summoners-isle-game",
    "version": 2,
    "setup": {"players": PLAYERS, "board": located(), "final_round": 6, "mode": "digital"},
    "commands": [],
}
PLACES = list(_leaves(VALID_LOG))[1:]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(place=st.sampled_from(PLACES), value=JSON_VALUES)
# Found by this test: a path naming a location "\n" was said over two lines.
@example(place=("setup", "board", "paths", 0, 0), value="\n")
def test_any_one_wrong_value_in_a_log_reads_as_a_sentence(place, value):
    data = copy.deepcopy(VALID_LOG)
    node = data
    for step in place[:-1]:
        node = node[step]
    node[place[-1]] = value
    try:
        GameLog.model_validate(data)
    except ValidationError as error:
        sentence = str(problem(error, data))
        assert sentence and "\n" not in sentence
        assert not any(raw in sentence for raw in RAW), sentence
