"""A character that draws nothing never makes a second name: "Bob" and "Bob" with a variation
selector, a Hangul filler or a tag are one name to the players, and a name of such
characters only is blank. The characters are Unicode's Default_Ignorable_Code_Point property
(read with the `regex` module), with the Braille blank, not a list of our own.
"""

from __future__ import annotations

import unicodedata

import pytest
from pydantic import ValidationError

from companion.boards import BoardError
from companion.boards.user import BoardExists, board_from_counts, save_user_board, slug
from companion.play.new_game import name_problems
from models.problems import problem
from models.setup import GameSetup, name_problem
from models.text import is_unseen, name_key

# What a probe of the hosted mode found accepted beside "Bob".
PROBED = [
    "\ufe0f",  # variation selector 16
    "\ufe00",  # variation selector 1
    "\U000e0100",  # variation selector 17
    "\u034f",  # combining grapheme joiner
    "\u180b",  # Mongolian free variation selector 1
    "\u17b4",  # Khmer vowel inherent aq
    "\u3164",  # Hangul filler
    "\u115f",  # Hangul choseong filler
    "\uffa0",  # half-width Hangul filler
    "\u2800",  # Braille pattern blank
]
# Others of the property that no list of ours named: a tag letter, an invisible plus, a
# musical beam, Mongolian's fourth variation selector (new in Unicode 14), a soft hyphen.
OTHERS = ["\U000e0041", "\u2064", "\U0001d173", "\u180f", "\u00ad", "\u115f\u1160"]


@pytest.mark.parametrize("char", PROBED + OTHERS)
def test_bob_and_bob_with_a_character_that_draws_nothing_are_one_name(char):
    for name in (f"Bob{char}", f"B{char}ob", f"{char}Bob"):
        assert name_key(name) == name_key("Bob")
        with pytest.raises(ValidationError) as refused:
            GameSetup(
                players=[{"id": "red", "name": "Bob"}, {"id": "blue", "name": name}],
                board="duel-isle",
            )
        assert str(problem(refused.value)) == "Player 2's name is already Bob's"
        assert str(name_problems(["Bob", name])[1]) == "Player 2's name is already Bob's."


@pytest.mark.parametrize("char", PROBED + OTHERS)
def test_a_name_of_characters_that_draw_nothing_is_blank(char):
    assert all(is_unseen(c) for c in char)
    assert name_problem(f" {char} ") is not None
    assert name_problem(f" {char} ").kind == "blank"  # type: ignore[union-attr]
    with pytest.raises(BoardError):
        board_from_counts(char * 3, [("North", 2, 3)])


def test_the_property_is_unicodes_not_a_list_of_ours():
    # Every variation selector and tag character is in it; visible letters, marks that show,
    # spaces, and what the emoji sequences of people's names need to show are kept.
    for code in [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0), *range(0xE0000, 0xE0080)]:
        assert is_unseen(chr(code)), hex(code)
    for char in "aé\u0301 \u00a0Ω龍👩":
        assert not is_unseen(char), repr(char)
    setup = GameSetup(
        players=[{"id": "red", "name": "Zoë 👩\u200d👩"}, {"id": "blue", "name": "Ann ❤\ufe0f"}],
        board="duel-isle",
    )
    assert [p.name for p in setup.players] == ["Zoë 👩\u200d👩", "Ann ❤\ufe0f"]
    # The property covers what Python's own tables call format characters and more.
    unseen = [c for c in map(chr, range(0x110000)) if is_unseen(c)]
    assert len(unseen) > 4000
    assert {unicodedata.category(c) for c in unseen} >= {"Cf", "Mn", "Lo", "Cn"}


@pytest.mark.parametrize("char", PROBED)
def test_a_board_name_with_a_character_that_draws_nothing_is_the_same_board(
    char, tmp_path, monkeypatch
):
    monkeypatch.setenv("SUMMONERS_ISLE_DATA", str(tmp_path))
    assert slug(f"Kitchen{char} Table") == slug("Kitchen Table")
    save_user_board(board_from_counts("Kitchen Table", [("North", 2, 3)]))
    with pytest.raises(BoardExists):
        save_user_board(board_from_counts(f"Kitchen{char} Table", [("North", 2, 3)]))
    with pytest.raises(BoardError, match="a board that comes with the app"):
        board_from_counts(f"Duel{char} Isle", [("North", 2, 3)])
