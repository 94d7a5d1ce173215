"""A tap made on a drawing the game has since moved on from: recorded only where it means what
it meant, otherwise refused with a sentence, never applied to someone else.

A slow phone sends a deliberate second tap on a square while it still shows the drawing
before the first tap's answer (tests/browser/test_slow_double_taps.py); another phone's
record can come between a drawing and a tap on it.
"""

from __future__ import annotations

import pytest

from companion.language.render import language
from companion.play.session import GameSession
from companion.play.table_turn import turn_view
from companion.store.store import open_store
from models.commands import Pass, Skip, Summon
from models.rules import CreatureKind
from models.setup import GameSetup

S = CreatureKind.SPRITE
EN = language("en")
TABLE = GameSetup(
    players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}],
    board="gathering-isle",
)


@pytest.fixture
def store():
    with open_store("sqlite://") as opened:
        yield opened


def sprites_step(store) -> tuple[GameSession, GameSession]:
    """Two devices (one phone for the whole table each) on a game at Ann's Sprites turn."""
    saved = store.new_game(TABLE)
    store.append_all(saved.id, [Skip("summoning", S)], saved.revision)
    return GameSession(store, saved.id), GameSession(store, saved.id)


def square(session: GameSession, player: str):
    """The tap of a player's Sprite square as the device draws it now."""
    card = turn_view(session)
    row = next(row for row in card.grid if row.player == player)
    tap = row.squares[-1].tap
    assert tap is not None
    return tap


def sprites(session: GameSession, player: str) -> int:
    """How many Sprites a player has summoned this round, by the record."""
    session.refresh()
    return 9 - session.state.reserve_of(player, S)


def test_a_second_tap_on_a_square_drawn_before_the_first_was_recorded_is_recorded(store):
    """The drawing a slow phone still shows: same moment (Ann's Sprites turn), same meaning."""
    phone, _ = sprites_step(store)
    tap, revision, moment = square(phone, "a"), phone.saved.revision, phone.moment()
    assert phone.do_all(tap.commands, tap.by, revision, moment, tap.again).ok
    second = phone.do_all(tap.commands, tap.by, revision, moment, tap.again)
    assert second.ok, EN.render(second.said)
    assert sprites(phone, "a") == 2


def test_a_square_that_says_one_thing_at_any_moment_is_reached_from_where_the_game_is(store):
    """Bob's square drawn at Ann's turn skips Ann; tapped again after that skip was recorded,
    it is Bob's summon alone (the skip is not made twice, nobody else is passed over)."""
    phone, _ = sprites_step(store)
    tap, revision, moment = square(phone, "b"), phone.saved.revision, phone.moment()
    assert tap.commands == (Skip("summoning", S, "b"), Summon(S, by="b"))
    assert phone.do_all(tap.commands, tap.by, revision, moment, tap.again).ok
    assert phone.do_all(tap.commands, tap.by, revision, moment, tap.again).ok
    assert sprites(phone, "b") == 2
    assert [type(entry.command) for entry in phone.saved.log[-3:]] == [Skip, Summon, Summon]


def test_a_square_whose_step_is_over_is_refused_saying_why_now(store):
    """Ann's Sprite square, tapped after another phone said she is done with Sprites: the
    tap is refused with what the rules say of it now (docs/rulings.md, "Said ahead at the
    table": a step a player is past is over for them)."""
    phone, other = sprites_step(store)
    tap, revision, moment = square(phone, "a"), phone.saved.revision, phone.moment()
    assert other.do(Pass(), "a").ok
    refused = phone.do_all(tap.commands, tap.by, revision, moment, tap.again)
    assert not refused.ok
    assert EN.render(refused.said) == "Ann summons no more Sprites this round: that turn is over."
    assert sprites(phone, "a") == 0


def test_a_tap_that_means_another_thing_now_is_refused_never_re_aimed(store):
    """'Ann: done with Sprites' drawn at Ann's turn; another phone recorded her pass, so the
    button there now reads Bob's: the old tap is not made Bob's."""
    phone, other = sprites_step(store)
    card = turn_view(phone)
    done, revision, moment = card.done, phone.saved.revision, phone.moment()
    assert done is not None and done.again is None
    assert other.do(Pass(), "a").ok
    refused = phone.do_all(done.commands, done.by, revision, moment, done.again)
    assert not refused.ok
    assert EN.render(refused.said).startswith("The game moved on before that tap")
    phone.refresh()
    assert phone.state.current_player == "b"


def test_a_tap_the_full_isle_refuses_says_the_isle_is_full(store):
    """Rulebook: a summoned creature goes on a vacant location. Once the record fills the
    isle the Summoning phase closes; a Sprite tapped then, on a fresh or a stale drawing,
    is refused for that reason, not as someone else's turn."""
    from models.commands import Correction

    saved = store.new_game(TABLE)
    session = GameSession(store, saved.id)
    for player in ("a", "b", "c"):
        assert session.do(Correction(player, 30, "rich for the test")).ok
    while session.state.phase.value == "summoning":
        player = session.state.current_player
        if not session.do(Summon(session.state.step_kind), by=player).ok:
            assert session.do(Pass(), by=player).ok
    full = "Cy cannot summon: by the record, all 38 places of the isle hold a creature."
    assert session.state.holdings("c").reserve[S] > 0
    refused = session.do(Summon(S), by="c")
    assert not refused.ok and EN.render(refused.said) == full
    stale = session.do_all([Summon(S, by="c")], "c", 0, None, Summon(S, by="c"))
    assert not stale.ok and EN.render(stale.said) == full
