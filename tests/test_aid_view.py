"""The aid on a device: it opens at the part where the player is, and a search in the
device's language finds the parts that say a word, accents and case aside."""

import pytest

from companion.aid.content import aid_sections
from companion.engine.constants import Phase
from companion.language.render import language
from companion.play.aid_view import aid_parts, fold, marked, opening_part, search


@pytest.mark.parametrize(
    ("phase", "attacking", "part"),
    [
        (None, False, None),
        (Phase.SUMMONING, False, "round"),
        (Phase.ACTIONS, False, "creatures"),
        (Phase.ENERGY_AND_RESET, False, "energy"),
        (Phase.GAME_OVER, False, "end"),
        (Phase.ACTIONS, True, "odds"),
    ],
)
def test_the_aid_opens_where_the_player_is(
    phase: Phase | None, attacking: bool, part: str | None
) -> None:
    assert opening_part(phase, attacking=attacking) == part


def test_every_phase_opens_at_a_part_of_the_aid() -> None:
    keys = {section.key for section in aid_sections()}
    for phase in Phase:
        assert opening_part(phase) in keys
    assert opening_part(attacking=True) in keys


def test_the_parts_are_the_aid_in_the_language_of_the_device() -> None:
    english = aid_parts(language("en"))
    french = aid_parts(language("fr"))
    assert [p.key for p in english] == [s.key for s in aid_sections()] == [p.key for p in french]
    creatures = {p.key: p for p in english}["creatures"]
    assert creatures.table is not None
    assert creatures.table.columns[-1] == "Bounty"
    assert {p.key: p for p in french}["creatures"].title == "Les créatures"


def test_bounty_is_found_where_the_aid_says_it() -> None:
    found = [part.key for part in search(aid_parts(language("en")), "bounty")]
    # The creatures' table has a Bounty column; the end names a bounty among the ways to 36.
    assert found == ["creatures", "end"]


def test_troll_is_found_in_english_and_in_french() -> None:
    for code in ("en", "fr"):
        found = [part.key for part in search(aid_parts(language(code)), "Troll")]
        assert found[:2] == ["round", "creatures"]
        assert "odds" in found
        assert "movement" not in found


def test_a_search_reads_the_devices_language_accents_and_case_aside() -> None:
    french = aid_parts(language("fr"))
    for query in ("égalité", "EGALITE", "egalité"):
        assert [part.key for part in search(french, query)][:2] == ["order", "end"]
    # English says 'tie': the French word finds nothing there.
    assert search(aid_parts(language("en")), "égalité") == []


def test_every_word_of_a_search_must_be_said() -> None:
    english = aid_parts(language("en"))
    assert search(english, "") == english
    assert [p.key for p in search(english, "tie summoner")] == ["end"]
    assert search(english, "bounty dragon") == []


def test_fold_drops_accents_and_case() -> None:
    assert fold("Égalité Réinitialisation") == "egalite reinitialisation"


def test_a_table_turned_keeps_every_cell_beside_its_heads() -> None:
    creatures = {p.key: p for p in aid_parts(language("en"))}["creatures"].table
    assert creatures is not None
    turned = creatures.transposed()
    assert turned.columns == ("Creature", "Wyrm", "Troll", "Sprite")
    costs = {row[0]: row[1:] for row in turned.rows}["Cost"]
    assert costs == tuple(row[2] for row in creatures.rows) == ("5", "3", "1")
    assert turned.transposed() == creatures


def test_what_a_search_found_is_marked_where_each_line_says_it() -> None:
    """The words found are marked in the text as shown, accents and case as written."""
    line = "En cas d'égalité, l'ÉGALITÉ va au dernier"
    assert marked(line, "egalite") == [
        ("En cas d'", False),
        ("égalité", True),
        (", l'", False),
        ("ÉGALITÉ", True),
        (" va au dernier", False),
    ]
    # Every word of the search, wherever it stands; the rest of the line unmarked.
    assert marked("A Troll's bounty", "bounty troll") == [
        ("A ", False),
        ("Troll", True),
        ("'s ", False),
        ("bounty", True),
    ]
    # A character folded into two (ß: ss) is marked whole; no search marks nothing.
    assert marked("Straße", "strasse") == [("Straße", True)]
    assert marked("Sprites", "  ") == [("Sprites", False)]
    # Marked runs put back together are the line as it was.
    french = aid_parts(language("fr"))
    for part in search(french, "égalité"):
        for text in (part.title, *part.lines):
            assert "".join(run for run, _ in marked(text, "égalité")) == text


def test_the_aid_opens_at_energy_while_a_tally_is_read_after_play_went_on() -> None:
    """On the digital board the Energy and Reset's tally is read while the game is already
    at the next round's Summoning: the aid opens where the player reads."""
    assert opening_part(Phase.SUMMONING, reading=True) == opening_part(Phase.ENERGY_AND_RESET)
    # An attack's odds come first, whatever is read.
    assert opening_part(Phase.ACTIONS, attacking=True, reading=True) == "odds"
