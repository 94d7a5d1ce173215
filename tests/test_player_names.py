"""Player names and seat colours: refused where wrong, in words that name the player and field."""

import json

import pytest
from pydantic import ValidationError
from test_store_cli import invoke, one_line_error

from companion.store.store import open_store
from models.problems import problem as sentence
from models.setup import (
    NAME_MAX_LENGTH,
    SEAT_COLOURS,
    GameSetup,
    NameProblem,
    PlayerSetup,
    default_colours,
    name_problem,
)


def problem(*players: dict) -> str:
    with pytest.raises(ValidationError) as caught:
        GameSetup(players=players, board="gathering-isle")
    return str(sentence(caught.value, {"players": list(players)}))


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("   ", "Player 2's name is blank"),
        ("\u200b\u3164\u00a0", "Player 2's name is blank"),
        ("\u0301", "Player 2's name is blank"),
        ("Al\tice", "Player 2's name has a control character"),
        ("Alice\n", "Player 2's name has a control character"),
        ("Al\u2028ice", "Player 2's name has a control character"),
        ("A" * (NAME_MAX_LENGTH + 1), f"Player 2's name is longer than {NAME_MAX_LENGTH}"),
    ],
)
def test_a_name_no_one_can_read_is_refused(name, says):
    assert problem({"id": "red", "name": "Ragna"}, {"id": "blue", "name": name}).startswith(says)


@pytest.mark.parametrize("name", ["alice", " ALICE ", "Alice"])
def test_two_players_the_table_would_call_the_same_are_refused(name):
    said = problem(
        {"id": "red", "name": "Alice"}, {"id": "blue", "name": "Bo"}, {"id": "g", "name": name}
    )
    assert said == "Player 3's name is already Alice's"


def test_a_name_that_is_another_players_id_is_refused():
    said = problem({"id": "red", "name": "Blue"}, {"id": "blue"})
    assert said == "Player 1's name is Player 2's id (blue): give Player 2 a name"
    said = problem({"id": "Red"}, {"id": "red"})
    assert "differ only in letter case" in said


def test_names_are_kept_trimmed_and_visible_marks_inside_them_are_fine():
    setup = GameSetup(
        players=[{"id": "red", "name": "  Åsa  "}, {"id": "blue", "name": "Zoë 👩\u200d👩"}],
        board="duel-isle",
    )
    assert [p.name for p in setup.players] == ["Åsa", "Zoë 👩\u200d👩"]
    # No name at all is still allowed: the id stands in.
    assert PlayerSetup(id="red").label == "red"
    assert name_problem("A" * NAME_MAX_LENGTH) is None
    assert name_problem("") == NameProblem("blank")


def test_other_setup_problems_name_the_player_and_field_not_pydantic():
    assert problem({"id": "r d"}, {"id": "blue"}) == (
        "Player 1's id must be 1 to 24 letters, digits, '-' or '_'"
    )
    assert problem({"id": "red"}) == "a game has 2 to 4 players, not 1"
    assert problem({"id": "red"}, {"name": "Bo"}) == "Player 2's id is missing"
    assert problem({"id": "red"}, {"id": "blue", "hat": 1}) == (
        "Player 2's entry has a field this app does not know: hat"
    )


def test_a_game_saved_before_the_name_rules_still_opens(tmp_path):
    # Written as an older app would have: two players both called Alice.
    old = GameSetup.model_construct(
        players=(
            PlayerSetup.model_construct(id="red", name="Alice", colour="red", bot=None),
            PlayerSetup.model_construct(id="blue", name="alice", colour="blue", bot=None),
        ),
        board="duel-isle",
        final_round=6,
        turn_order=(),
        mode=GameSetup.model_fields["mode"].default,
    )
    url = f"sqlite:///{tmp_path}/games.sqlite3"
    with open_store(url) as store:
        game_id = store.new_game(old).id
    with open_store(url) as store:
        assert store.load(game_id).game.labels == {"red": "Alice", "blue": "alice"}
        assert store.games()[0].labels == ("Alice", "alice")


def test_default_colours_are_distinct_and_keep_a_colour_an_id_names():
    assert default_colours(["a", "b", "c", "d"]) == list(SEAT_COLOURS[:4])
    assert default_colours(["x", "red", "y"]) == ["blue", "red", "green"]


def test_games_started_from_the_command_line_get_distinct_colours(tmp_path):
    db = ("--db", str(tmp_path / "games.sqlite3"))
    game_id = invoke("new", "--players", "a:Ann,blue:Bo,c", *db).stdout.strip()
    log = json.loads(invoke("export", game_id, *db).stdout)
    assert [p["colour"] for p in log["setup"]["players"]] == ["red", "blue", "green"]


@pytest.mark.parametrize(
    ("players", "says"),
    [
        ("red:Ragna,blue:ragna", "error: Player 2's name is already Ragna's"),
        ("red:Ragna,blue:", "error: Player 2's name is blank: write blue alone"),
        ("red:Ragna,blue:  ", "error: Player 2's name is blank"),
        (f"red:{'x' * 25},blue", "error: Player 1's name is longer than 24 characters"),
        ("r d,blue", "error: Player 1's id must be 1 to 24 letters, digits, '-' or '_'"),
    ],
)
def test_game_new_refuses_names_in_the_same_words(tmp_path, players, says):
    result = invoke("new", "--players", players, "--db", str(tmp_path / "games.sqlite3"))
    assert one_line_error(result).startswith(says)
