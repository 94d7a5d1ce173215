"""The table's tools as view-models (issue 21: no rule in the app): the attack odds tool asks
the engine (ruling 7), and the correction by hand is checked as every typed text is (issue 25)
and refused as the engine refuses it, driven without a browser."""

from __future__ import annotations

import pytest

from companion.language.render import language
from companion.play.correction import correction_entry
from companion.play.odds_tool import OddsTool
from companion.play.session import GameSession
from companion.store.store import open_store
from models.commands import Correction
from models.rules import CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
EN, FR = language("en"), language("fr")


def test_the_odds_are_the_engines_with_a_sprites_support():
    """Ruling 7: a Troll rolls d6 + 2 against a Sprite's d6 plus 1 for each of its owner's
    other Sprites in the territory; against a Wyrm a Troll needs 8."""
    tool = OddsTool(EN)
    assert tool.odds(T, S).said == "5 in 6 · 83%"
    assert tool.odds(T, S, 2).said == "7 in 12 · 58%"
    assert tool.odds(T, W).said == "1 in 6 · 17%"
    assert OddsTool(FR).odds(T, S).said == "5 sur 6 · 83\xa0%"


def test_only_a_defending_sprite_takes_support():
    tool = OddsTool(EN)
    assert [tool.odds(T, kind).support for kind in (W, T, S)] == [False, False, True]
    # A support left picked does not count against a Wyrm.
    assert tool.odds(T, W, 5) == tool.odds(T, W)


def test_the_support_picker_goes_up_to_every_other_sprite():
    tool = OddsTool(EN)
    assert tool.supports()[0] == ("0", "0") and tool.supports()[-1] == ("8", "8")
    assert [key for key, _ in tool.kinds()] == ["wyrm", "troll", "sprite"]


@pytest.fixture
def session():
    with open_store("sqlite://") as store:
        setup = GameSetup(
            players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}],
            board="duel-isle",
        )
        yield GameSession(store, store.new_game(setup).id)


def test_a_correction_is_made_from_what_was_typed(session):
    entry = correction_entry(session, "b", " -3 ", "  a Sprite we forgot ")
    assert entry.command == Correction("b", -3, "a Sprite we forgot")
    assert entry.change is None and entry.reason is None


def test_every_field_says_what_is_wrong_with_it(session):
    entry = correction_entry(session, "a", "two", "")
    assert entry.command is None
    assert EN.render(entry.change) == "Write a whole number, e.g. 2 or -3 (energy stays 0-35)"
    assert EN.render(entry.reason) == "Say why, for the log (e.g. a Sprite we forgot to count)"
    # A reason is held to the check every typed text gets.
    bidi = correction_entry(session, "a", "2", "forgot \u202e")
    assert bidi.command is None and bidi.change is None and bidi.reason is not None
    assert "U+202E" in EN.render(bidi.reason)


def test_a_correction_the_engine_refuses_says_why_under_the_change(session):
    """Ruling 1: energy never goes below 0 (Ann has 5)."""
    entry = correction_entry(session, "a", "-6", "counted twice")
    assert entry.command is None and entry.reason is None
    assert entry.change is not None
    assert EN.render(entry.change).startswith("That would put Ann on -1; a correction keeps")
