"""Boards as data: validation with clear messages, and shipped layouts that never change."""

import hashlib

import pytest

from companion.boards import BOARDS_DIR, BoardError, parse_board, shipped_board, shipped_board_ids
from companion.engine.isle import compile_isle

# A saved game names its shipped board by id, so a shipped layout must never change:
# a new layout gets a new id. These digests catch an accidental edit.
SHIPPED = {
    "duel-isle": "26d7db084c1211adcfc802c7dd64513d23cde89a3538753cf0fd16c5636d37dd",
    "gathering-isle": "2e29e0ab169b0cccb833b1b707ccfce8486e0e27f7687623011acacce28dfdf5",
}


def test_shipped_layouts_are_unchanged():
    assert shipped_board_ids() == sorted(SHIPPED)
    for board_id, digest in SHIPPED.items():
        data = (BOARDS_DIR / f"{board_id}.json").read_bytes()
        assert hashlib.sha256(data).hexdigest() == digest, f"{board_id} changed: give it a new id"


@pytest.mark.parametrize("board_id", sorted(SHIPPED))
def test_shipped_layouts_are_playable_and_named_as_our_own(board_id):
    board = shipped_board(board_id)
    assert board.id == board_id
    assert board.playable_digitally
    assert "companion layout" in board.name
    isle = compile_isle(board)
    assert all(1 <= len(n) <= 4 for n in isle.neighbours)


def test_a_board_field_shows_the_name_without_its_note_in_brackets():
    assert shipped_board("duel-isle").short_name == "Duel Isle"
    assert parse_board(board(name="Kitchen Table")).short_name == "Kitchen Table"
    assert parse_board(board(name="Mossy (v2) Isle")).short_name == "Mossy (v2) Isle"
    assert parse_board(board(name="(Untitled)")).short_name == "(Untitled)"


def test_spaces_are_named_by_their_territory_and_numbered_within_it():
    parsed = parse_board(board())
    # 'north' has no name, so its id stands in; 'south' has one space: no number needed.
    assert parsed.location_names == {"n1": "north 1", "n2": "north 2", "s1": "south"}
    assert parsed.location_numbers == {"n1": 1, "n2": 2, "s1": 1}
    assert shipped_board("duel-isle").location_names["nc2"] == "North Cliffs 2"


def board(**changes):
    data = {
        "territories": [
            {"id": "north", "bonus": 2, "locations": ["n1", "n2"]},
            {"id": "south", "bonus": 1, "locations": ["s1"]},
        ],
        "locations": [
            {"id": "n1", "x": 10, "y": 10},
            {"id": "n2", "x": 20, "y": 10},
            {"id": "s1", "x": 20, "y": 30},
        ],
        "paths": [["n1", "n2"], ["n2", "s1"]],
    }
    data.update(changes)
    return data


def test_a_valid_inline_board():
    parsed = parse_board(board())
    assert parsed.location_ids == ("n1", "n2", "s1")
    assert parsed.territory_of("s1").id == "south"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {
                "territories": [
                    {"id": "a", "bonus": 1, "locations": ["x"]},
                    {"id": "b", "bonus": 1, "locations": ["x"]},
                ],
                "locations": [],
                "paths": [],
            },
            "location 'x' is in two territories: 'a' and 'b'",
        ),
        ({"paths": [["n1", "n9"]]}, "path n1-n9 names unknown location 'n9'"),
        ({"paths": [["n1", "n1"], ["n2", "s1"]]}, "joins a location to itself"),
        ({"paths": [["n1", "n2"]]}, "the isle is not connected: no path reaches 's1'"),
        ({"paths": [["n1", "n2", "s1"]]}, "a path must join exactly two locations"),
        (
            {"locations": [{"id": "n1", "x": 1, "y": 1}, {"id": "n2", "x": 2, "y": 2}]},
            "'s1' has no drawing position",
        ),
        (
            {"territories": [{"id": "north", "bonus": 4, "locations": ["n1", "n2", "s1"]}]},
            "bonus of territory 'north' must be at most 3, not 4",
        ),
        ({"territories": []}, "territories is empty"),
        (
            {
                "territories": [
                    {"id": "t", "bonus": 1, "locations": ["n1", "n2"]},
                    {"id": "t", "bonus": 1, "locations": ["s1"]},
                ]
            },
            "territory 't' is listed twice",
        ),
    ],
)
def test_bad_boards_say_what_is_wrong(changes, message):
    with pytest.raises(BoardError, match=message.replace("(", r"\(")):
        parse_board(board(**changes))


def test_an_unknown_shipped_board_lists_the_known_ones():
    with pytest.raises(BoardError, match="shipped boards: duel-isle, gathering-isle"):
        shipped_board("atlantis")
