"""The table's tools as view-models (no rule in the app): the attack odds tool asks
the engine (ruling 7), and the correction by hand is checked as every typed text is,
offered only to the devices that may make it (a player's own phone, the scorekeeper's) and
refused as the engine refuses it, driven without a browser."""

from __future__ import annotations

import pytest

from companion.language.render import language
from companion.play.correction import WHO_CAN, correctable, correction_entry
from companion.play.odds_tool import OddsTool
from companion.play.session import GameSession
from companion.play.sharing.seats import SCOREKEEPER, WATCHER
from companion.play.turns import Turns
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


@pytest.fixture
def seated_table():
    """A shared 2-player table game, both players seated; the test moves this device's seat
    (a device whose seat changes draws its screens anew: a new session)."""
    with open_store("sqlite://") as store:
        setup = GameSetup(
            players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}],
            board="duel-isle",
        )
        seat = {"now": "b"}
        game_id = store.new_game(setup).id
        session = GameSession(store, game_id, lambda: seat["now"], lambda: {"a", "b"})
        yield session, seat


def anew(session):
    """The device's session as its screen is drawn again, after a change of seat."""
    return GameSession(session.store, session.id, session._seat, session._seated)


def test_a_seated_phone_is_offered_its_own_players_correction_only(seated_table):
    session, seat = seated_table
    assert correctable(session) == ("b",)
    seat["now"] = SCOREKEEPER
    assert correctable(anew(session)) == ("a", "b")
    seat["now"] = WATCHER
    assert correctable(anew(session)) == ()
    assert EN.render(WHO_CAN) == (
        "Energy is corrected by hand on a player's own device or the scorekeeper's."
    )
    assert FR.render(WHO_CAN).startswith("L'énergie se corrige à la main")


def test_a_player_corrects_their_own_energy_and_every_phone_reads_who(seated_table):
    session, _ = seated_table
    entry = correction_entry(session, "b", "2", "a Sprite we forgot")
    assert entry.who is None and entry.command is not None
    outcome = Turns(session, lambda revision: None).record([entry.command], None)
    assert outcome.ok
    assert session.saved.log[-1].command == Correction("b", 2, "a Sprite we forgot", made_by="b")
    assert EN.render(session.saved.log[-1].sentence) == (
        "Bob's energy corrected by +2 (5 → 7), by Bob: a Sprite we forgot"
    )
    assert FR.render(session.saved.log[-1].sentence) == (
        "Énergie de Bob corrigée de +2 (5 → 7), par Bob\u202f: a Sprite we forgot"
    )
    # The phone that made it takes it back.
    assert session.undo().ok


def test_another_players_correction_is_refused_before_anything_is_recorded(seated_table):
    session, seat = seated_table
    entry = correction_entry(session, "a", "2", "miscounted")
    assert entry.command is None and entry.change is None and entry.reason is None
    assert EN.render(entry.who) == (
        "Ann's energy is corrected on Ann's own device or the scorekeeper's."
    )
    assert not session.saved.log
    # The scorekeeper's correction is the table's; Bob's phone cannot take it back.
    seat["now"] = SCOREKEEPER
    fix = correction_entry(anew(session), "a", "2", "miscounted").command
    assert fix == Correction("a", 2, "miscounted")
    assert session.do(fix).ok
    seat["now"] = "b"
    assert EN.render(anew(session).undo().said) == (
        "Only the scorekeeper's device or the one that made it undoes a correction by hand."
    )
