"""The table's Energy and Reset as a view-model: the draft, the creature
asked about, each change a tap makes, and what another device's change means here, driven
without a browser.

The draft is the table's, kept in the store and shared by every device; two
sessions on one store are two phones at one table. A domination bonus is optional (ruling 10),
its holder's to take or decline.
"""

from __future__ import annotations

import pytest

from companion.engine import Phase
from companion.engine.table_reset import Creature
from companion.language.render import language
from companion.play.reset_entry import ResetEntry
from companion.play.session import GameSession
from companion.play.sharing.seats import SCOREKEEPER
from companion.play.tap_guard import GUARD_S, TapGuard
from companion.play.turns import Turns
from companion.store.store import open_store
from models.commands import LateSummon, Skip, Summon
from models.rules import CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
ANN_W, BOB_T, CY_S = Creature("a", W), Creature("b", T), Creature("c", S)
EN, FR = language("en"), language("fr")
PLAYERS = [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}]
TABLE = GameSetup(players=PLAYERS, board="gathering-isle")
# Round 6 of 6 at Energy and Reset, Ann a Wyrm, Bob a Troll, Cy two Sprites, none placed.
LAST_RESET = (
    "38 6/6 energy_and_reset:2:0 abc 0,2,3 "
    "039/100/000/000,129/010/000/000,137/002/000/000 -:0 - - 0 -"
)


class Clock:
    """A clock the test moves by hand, for the tap guards."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def later(self) -> None:
        """Past the guard time: a new tap, not the second half of a double tap."""
        self.now += GUARD_S * 2


@pytest.fixture
def store():
    with open_store("sqlite://") as opened:
        yield opened


@pytest.fixture
def clock():
    return Clock()


def to_reset(store, setup=TABLE):
    """Round 1 at Energy and Reset: Ann a Wyrm, Bob a Troll, Cy two Sprites."""
    saved = store.new_game(setup)
    for tap in (
        [Summon(W, by="a")],
        [Skip("summoning", T, "b"), Summon(T, by="b")],
        [Skip("summoning", S, "c"), Summon(S, by="c")],
        [Summon(S, by="c")],
        [Skip("summoning")],
        [Skip("actions")],
    ):
        saved = store.append_all(saved.id, tap, saved.revision)
    assert saved.state.phase is Phase.ENERGY_AND_RESET
    return saved.id


def phone(store, game_id, clock):
    """One device's Energy and Reset on the game, its tap guards on the test's clock."""
    session = GameSession(store, game_id)
    turns = Turns(session, lambda revision: None)
    return ResetEntry(session, turns, guard=TapGuard(clock), asked_anew=TapGuard(clock))


def placed(entry):
    """Territory -> [(player, kind)] of the entry's draft, for short assertions."""
    return {
        territory: [(c.player, c.kind.value) for c in creatures]
        for territory, creatures in entry.draft.placed.items()
        if creatures
    }


def test_a_place_puts_the_creature_asked_about_and_asks_about_the_next(store, clock):
    entry = phone(store, to_reset(store), clock)
    assert entry.open and entry.selected == ANN_W and entry.draft.left == 4
    step = entry.place("rune-hollow")
    assert step.announce and step.redraw and step.said is None and step.go is None
    assert placed(entry) == {"rune-hollow": [("a", "wyrm")]}
    assert entry.selected == BOB_T and entry.draft.left == 3
    # Stored, not only shown: a device opening the screen now sees it.
    assert placed(phone(store, entry.session.id, clock)) == placed(entry)


def test_a_double_tap_places_one_creature(store, clock):
    entry = phone(store, to_reset(store), clock)
    entry.place("rune-hollow")
    entry.shown()
    again = entry.place("rune-hollow")
    assert not again.announce and again.said is None
    assert placed(entry) == {"rune-hollow": [("a", "wyrm")]}


def test_taking_back_a_creature_not_there_is_refused_naming_it(store, clock):
    game_id = to_reset(store)
    here, there = phone(store, game_id, clock), phone(store, game_id, clock)
    here.place("rune-hollow")
    # The other phone still shows the Wyrm there when this one takes it off.
    there.entered_elsewhere(here.version)
    clock.later()
    assert here.take_back(ANN_W, "rune-hollow").announce and here.selected == ANN_W
    clock.later()
    step = there.take_back(ANN_W, "rune-hollow")
    assert step.error and not step.announce and step.redraw
    assert EN.render(step.said) == "Ann's Wyrm is no longer there: another device moved it"
    assert placed(there) == {}


def test_two_phones_placing_at_once_keep_both(store, clock):
    """A change made from a draft another phone has since changed is made again
    from the stored one, so neither placement is lost."""
    game_id = to_reset(store)
    ann, cy = phone(store, game_id, clock), phone(store, game_id, clock)
    cy.select(CY_S)
    assert ann.place("rune-hollow").announce
    # Cy's phone has not heard of Ann's change yet: its draft is the one before it.
    assert placed(cy) == {}
    assert cy.place("skalds-stair").announce
    both = {"rune-hollow": [("a", "wyrm")], "skalds-stair": [("c", "sprite")]}
    assert placed(cy) == both
    assert placed(phone(store, game_id, clock)) == both


def test_another_phone_placing_the_creature_asked_about_asks_anew(store, clock):
    """A territory tapped just after another device placed the creature this one
    was asked about was meant for that creature: it is not put on the next."""
    game_id = to_reset(store)
    here, there = phone(store, game_id, clock), phone(store, game_id, clock)
    assert here.selected == there.selected == ANN_W
    there.place("rune-hollow")
    step = here.entered_elsewhere(there.version)
    assert step.redraw and here.selected == BOB_T
    refused = here.place("ashgrove")
    assert refused.error and not refused.announce
    assert EN.render(refused.said) == (
        "Ann's Wyrm was just placed on another device (Rune Hollow): nothing was placed. "
        "Where is the next one now?"
    )
    assert placed(here) == {"rune-hollow": [("a", "wyrm")]}
    clock.later()
    assert here.place("ashgrove").announce
    assert placed(here) == {"rune-hollow": [("a", "wyrm")], "ashgrove": [("b", "troll")]}


def test_a_placement_that_lost_a_race_says_what_stands_instead(store, clock):
    """Two phones place Bob's only Troll within moments, the second before it heard of the
    first: the first stored wins, and the second is told in one sentence where the Troll
    stands, never left to find out."""
    game_id = to_reset(store)
    bob, chloe = phone(store, game_id, clock), phone(store, game_id, clock)
    bob.select(BOB_T)
    chloe.select(BOB_T)
    assert bob.place("skalds-stair").announce
    lost = chloe.place("ashgrove")
    assert lost.error and lost.redraw and not lost.announce
    assert EN.render(lost.said) == (
        "Bob's Troll was just placed on another device (Skald's Stair): "
        "nothing was put in Ashgrove."
    )
    assert FR.render(lost.said).startswith("Le Troll de Bob vient d'être placé sur un autre")
    assert placed(chloe) == {"skalds-stair": [("b", "troll")]}
    # The question moves on: Chloé's next tap places the next creature.
    assert chloe.selected == CY_S


def test_a_placement_after_the_creature_was_marked_gone_elsewhere_says_so(store, clock):
    game_id = to_reset(store)
    here, there = phone(store, game_id, clock), phone(store, game_id, clock)
    assert there.mark_gone().announce
    lost = here.place("rune-hollow")
    assert EN.render(lost.said) == (
        "Ann's Wyrm was just marked as not on the board on another device: "
        "nothing was put in Rune Hollow."
    )


def test_marking_gone_a_creature_placed_elsewhere_meanwhile_says_where_it_stands(store, clock):
    game_id = to_reset(store)
    here, there = phone(store, game_id, clock), phone(store, game_id, clock)
    assert there.place("rune-hollow").announce
    lost = here.mark_gone()
    assert lost.error and not lost.announce and here.selected == BOB_T
    assert EN.render(lost.said) == (
        "Ann's Wyrm was just placed on another device (Rune Hollow): "
        "it was not marked as off the board."
    )
    assert not here.draft.gone.get(ANN_W)


def test_a_change_elsewhere_that_keeps_the_question_still_guards_other_taps(store, clock):
    game_id = to_reset(store)
    here, there = phone(store, game_id, clock), phone(store, game_id, clock)
    there.select(CY_S)
    there.place("skalds-stair")
    here.entered_elsewhere(there.version)
    # The question did not move: a territory is this device's own, and goes through.
    assert here.selected == ANN_W and here.place("rune-hollow").announce
    # A tap on a creature, which another device's change may have moved, is refused in
    # the moment after one.
    clock.later()
    there.place("skalds-stair")
    here.entered_elsewhere(there.version)
    step = here.take_back(ANN_W, "rune-hollow")
    assert step.error and not step.announce and not step.redraw
    assert EN.render(step.said).startswith("The screen changed just as you tapped")
    assert placed(here)["rune-hollow"] == [("a", "wyrm")]


def test_an_old_or_own_version_redraws_nothing(store, clock):
    entry = phone(store, to_reset(store), clock)
    entry.place("rune-hollow")
    assert not entry.entered_elsewhere(entry.version).redraw
    assert not entry.entered_elsewhere(0).redraw


def test_marking_gone_and_restoring(store, clock):
    entry = phone(store, to_reset(store), clock)
    assert entry.mark_gone().announce
    assert entry.draft.gone == {ANN_W: 1} and entry.selected == BOB_T
    assert [c for c, _ in entry.draft.gone_groups()] == [ANN_W]
    clock.later()
    step = entry.restore(ANN_W)
    assert step.announce and entry.selected == ANN_W and not entry.draft.gone.get(ANN_W)
    clock.later()
    refused = entry.restore(ANN_W)
    assert refused.error and EN.render(refused.said) == (
        "Ann's Wyrm is no longer marked as off the board: another device placed it"
    )


def test_declining_a_domination_bonus_and_taking_it_again(store, clock):
    """Ruling 10: each domination bonus is optional, per territory."""
    entry = phone(store, to_reset(store), clock)
    entry.select(CY_S)
    entry.place("skalds-stair")
    clock.later()
    entry.place("skalds-stair")
    held = entry.held(entry.tally())
    assert held == {"skalds-stair": ("c", 1, True)}
    clock.later()
    assert entry.decline("c", "skalds-stair", take=False).announce
    assert entry.held(entry.tally()) == {"skalds-stair": ("c", 1, False)}
    # The question stays where it was: declining places nothing.
    assert entry.selected == ANN_W
    clock.later()
    entry.decline("c", "skalds-stair", take=True)
    assert entry.held(entry.tally()) == {"skalds-stair": ("c", 1, True)}


def test_apply_is_refused_naming_what_is_left(store, clock):
    entry = phone(store, to_reset(store), clock)
    step = entry.apply()
    assert step.error and step.redraw and step.go is None
    assert "Bob" in EN.render(step.said)
    assert entry.session.state.phase is Phase.ENERGY_AND_RESET


def place_all(entry, clock, territories=("rune-hollow", "ashgrove", "skalds-stair")):
    """Put Ann's Wyrm, Bob's Troll and Cy's Sprites where they go, in the order asked."""
    for territory in (*territories, territories[-1]):
        clock.later()
        assert entry.place(territory).announce
    assert entry.selected is None


def test_apply_goes_on_to_the_next_round_and_the_other_phone_follows(store, clock):
    game_id = to_reset(store)
    here, there = phone(store, game_id, clock), phone(store, game_id, clock)
    place_all(here, clock)
    clock.later()
    step = here.apply()
    assert step.go == f"/game/{game_id}" and step.said is None
    assert here.session.state.round == 2
    followed = there.recorded_elsewhere(here.session.saved.revision)
    assert followed.go == f"/game/{game_id}"
    assert EN.render(followed.said) == "Another device recorded in this game; here it is now."


def test_apply_in_the_last_round_goes_to_the_result(store, clock):
    game_id = store.new_game(GameSetup(players=PLAYERS, board="gathering-isle", start=LAST_RESET))
    entry = phone(store, game_id.id, clock)
    place_all(entry, clock)
    clock.later()
    step = entry.apply()
    assert entry.session.state.is_terminal
    assert step.go == f"/game/{game_id.id}/end"


def test_a_late_summon_elsewhere_adds_a_creature_to_place(store, clock):
    game_id = to_reset(store)
    here, there = phone(store, game_id, clock), phone(store, game_id, clock)
    assert there.turns.record([LateSummon("b", S)], None).ok
    step = here.recorded_elsewhere(there.session.saved.revision)
    assert step.redraw and step.go is None and here.draft.left == 5
    # What this device announced itself is nothing new to it.
    assert not there.recorded_elsewhere(there.session.saved.revision).redraw


def test_start_over_throws_the_draft_away_for_every_phone(store, clock):
    game_id = to_reset(store)
    entry = phone(store, game_id, clock)
    place_all(entry, clock)
    step = entry.start_over()
    assert step.announce and step.redraw
    assert placed(entry) == {} and entry.selected == ANN_W and entry.draft.left == 4
    assert placed(phone(store, game_id, clock)) == {}


def test_a_game_past_energy_and_reset_has_no_draft(store, clock):
    saved = store.new_game(TABLE)
    assert not phone(store, saved.id, clock).open


def seated(store, game_id, clock, seat, others=("a", "b", "c")):
    """A device seated as `seat` on a shared table where `others` have a device each."""
    session = GameSession(store, game_id, lambda: seat, lambda: set(others))
    turns = Turns(session, lambda revision: None)
    return ResetEntry(session, turns, guard=TapGuard(clock), asked_anew=TapGuard(clock))


def cy_holds_skalds_stair(store, clock):
    """Cy's two Sprites fill Skald's Stair: Cy holds it whole."""
    game_id = to_reset(store)
    entry = phone(store, game_id, clock)
    entry.select(CY_S)
    entry.place("skalds-stair")
    clock.later()
    entry.place("skalds-stair")
    clock.later()
    return game_id


def test_a_bonus_is_declined_only_by_its_holder_and_the_card_says_who(store, clock):
    """Ruling 10: taking a domination bonus is its holder's choice, so it is made on the
    holder's own device (or the scorekeeper's); another seated player's switch is locked,
    saying whose it is."""
    game_id = cy_holds_skalds_stair(store, clock)
    ann = seated(store, game_id, clock, "a")
    shown = ann.bonuses(ann.tally())["skalds-stair"]
    assert (shown.player, shown.bonus, shown.taken, shown.declined_by) == ("c", 1, True, None)
    assert EN.render(shown.locked) == (
        "Cy's bonus is taken or declined on Cy's own device or the scorekeeper's."
    )
    refused = ann.decline("c", "skalds-stair", take=False)
    assert refused.error and not refused.announce and refused.said == shown.locked
    assert ann.held(ann.tally()) == {"skalds-stair": ("c", 1, True)}
    cy = seated(store, game_id, clock, "c")
    assert cy.bonuses(cy.tally())["skalds-stair"].locked is None
    assert cy.decline("c", "skalds-stair", take=False).announce
    ann.entered_elsewhere(cy.version)
    shown = ann.bonuses(ann.tally())["skalds-stair"]
    assert not shown.taken and EN.render(shown.declined_by) == "declined by Cy"
    assert FR.render(shown.declined_by) == "refusé par Cy"


def test_the_scorekeeper_or_any_phone_for_a_holder_with_no_device_declines(store, clock):
    game_id = cy_holds_skalds_stair(store, clock)
    keeper = seated(store, game_id, clock, SCOREKEEPER)
    assert keeper.decline("c", "skalds-stair", take=False).announce
    shown = keeper.bonuses(keeper.tally())["skalds-stair"]
    assert EN.render(shown.declined_by) == "declined by the scorekeeper"
    clock.later()
    # Cy has no device of his own: Ann's phone takes his bonus after all, and may decline it.
    ann = seated(store, game_id, clock, "a", others=("a", "b"))
    assert ann.bonuses(ann.tally())["skalds-stair"].locked is None
    assert ann.decline("c", "skalds-stair", take=True).announce
    assert ann.bonuses(ann.tally())["skalds-stair"].taken
    clock.later()
    assert ann.decline("c", "skalds-stair", take=False).announce
    shown = ann.bonuses(ann.tally())["skalds-stair"]
    assert EN.render(shown.declined_by) == "declined by Ann"
    # A table's only phone says nothing of who: it is everyone's.
    only = phone(store, game_id, clock)
    clock.later()
    assert only.decline("c", "skalds-stair", take=True).announce
    clock.later()
    assert only.decline("c", "skalds-stair", take=False).announce
    assert only.bonuses(only.tally())["skalds-stair"].declined_by is None


def test_a_seated_phone_is_asked_first_about_its_own_players_creatures(store, clock):
    """Each phone fixes what its player knows: Cy's phone starts on Cy's Sprites, not on the
    first player's Wyrm; once they are placed it goes on with the table's in turn order."""
    game_id = to_reset(store)
    cy = seated(store, game_id, clock, "c")
    assert cy.selected == CY_S
    cy.place("skalds-stair")
    clock.later()
    assert cy.selected == CY_S
    cy.place("skalds-stair")
    assert cy.selected == ANN_W
    # The scorekeeper (no player of its own) and an unshared phone start in turn order.
    assert seated(store, game_id, clock, SCOREKEEPER).selected == ANN_W
    assert phone(store, to_reset(store), clock).selected == ANN_W
