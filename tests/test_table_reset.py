"""Energy and Reset at the table: what the screen starts from and the record it ends in.

Nothing assumed: the draft starts from the last board seen (ruling 4: creatures
stay on the board across rounds) minus what was removed, and never guesses which creature a
recorded removal took; the record it makes places or marks gone every creature on record.
"""

from __future__ import annotations

import re

import pytest

from companion.boards import shipped_board
from companion.engine import Game, IllegalCommand, Phase
from companion.engine.table_reset import Creature, reset_draft
from models.commands import EnergyAndReset, Placement, Removal, Removed, Skip, Summon
from models.rules import CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
SETUP = GameSetup(
    players=[{"id": "a", "name": "Alice"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cara"}],
    board="gathering-isle",
)
ALICE_W, BOB_T, BOB_S, CARA_S = (
    Creature("a", W),
    Creature("b", T),
    Creature("b", S),
    Creature("c", S),
)
# Round 1's board: Alice's Wyrm in Rune Hollow, Bob's Troll and a Sprite in Ashgrove, his
# other Sprite in Troll Mire, Cara's two Sprites in Ember Barrows.
ROUND_1_BOARD = (
    Placement("rh1", "a", W),
    Placement("ag1", "b", T),
    Placement("ag2", "b", S),
    Placement("tm1", "b", S),
    Placement("eb1", "c", S),
    Placement("eb2", "c", S),
)


def play(state, *commands) -> None:
    for command in commands:
        state.apply(command)


def round_1():
    """Round 1 summoned and played; Energy and Reset still to record."""
    state = Game(SETUP, shipped_board("gathering-isle")).new_initial_state()
    play(
        state,
        Summon(W, by="a"),
        Skip("summoning", T, "b"),
        Summon(T, by="b"),
        Skip("summoning", S, "b"),
        Summon(S, by="b"),
        Summon(S, by="b"),
        Summon(S, by="c"),
        Summon(S, by="c"),
        Skip("summoning"),
        Skip("actions"),
    )
    return state


def round_2():
    """Round 2's Summoning, ROUND_1_BOARD having been recorded at round 1's Energy and Reset."""
    state = round_1()
    play(state, EnergyAndReset(ROUND_1_BOARD, (), ()))
    assert state.round == 2
    return state


def to_reset(state, *removals) -> None:
    """Skip to the Actions phase, record removals (made by Alice's Wyrm), skip to the reset."""
    play(state, Skip("summoning"))
    assert state.current_player == "a" and state.step_kind is W
    play(state, *removals, Skip("actions"))
    assert state.phase is Phase.ENERGY_AND_RESET


def where(draft) -> dict[str, list[tuple[str, str]]]:
    """The pre-filled board, short: territory id -> [(player, kind mark)], empty ones left out."""
    return {
        territory: [(c.player, c.kind.value[0].upper()) for c in creatures]
        for territory, creatures in draft.placed.items()
        if creatures
    }


def test_round_1_has_nothing_to_start_from_so_every_creature_is_to_place():
    """Nothing assumed; this round's summons are to place, none is pre-filled."""
    draft = reset_draft(round_1())
    assert where(draft) == {}
    assert draft.groups() == [(ALICE_W, 1), (BOB_T, 1), (BOB_S, 2), (CARA_S, 2)]
    assert draft.left == 6
    assert str(draft.notes[BOB_S]) == "2 summoned this round"


def test_without_a_removal_every_creature_stays_where_it_was_seen_and_summons_are_to_place():
    """Ruling 4: creatures stay on the board across rounds, so the last board seen is kept."""
    state = round_2()
    play(state, Skip("summoning", S, "c"), Summon(S, by="c"))
    to_reset(state)
    draft = reset_draft(state)
    assert where(draft) == {
        "rune-hollow": [("a", "W")],
        "ashgrove": [("b", "T"), ("b", "S")],
        "troll-mire": [("b", "S")],
        "ember-barrows": [("c", "S"), ("c", "S")],
    }
    assert draft.groups() == [(CARA_S, 1)]
    assert str(draft.notes[CARA_S]) == "1 summoned this round"


def test_a_removed_creature_from_one_territory_is_not_pre_filled_and_the_rest_are():
    """No wrong advice: the removed Troll is not offered, and the record is accepted."""
    state = round_2()
    to_reset(state, Removal("b", T, by="a"), Removal("c", S, by="a"))
    draft = reset_draft(state)
    assert where(draft)["ashgrove"] == [("b", "S")]
    assert where(draft)["ember-barrows"] == [("c", "S")]
    assert draft.left == 0
    play(state, draft.command())
    assert state.round == 3
    assert state.on_board[state.game.seat["b"]] == [0, 0, 2]


def test_when_removals_took_only_new_creatures_the_old_ones_stay():
    """A group with nothing last seen: the removals took this round's summons, none is guessed."""
    state = round_2()
    play(state, Skip("summoning", T, "c"), Summon(T, by="c"), Summon(T, by="c"))
    to_reset(state, Removal("c", T, by="a"))
    draft = reset_draft(state)
    assert draft.groups() == [(Creature("c", T), 1)]
    assert where(draft)["ember-barrows"] == [("c", "S"), ("c", "S")]


def test_when_the_record_cannot_say_which_creature_was_removed_none_of_that_group_is_pre_filled():
    """Bob's Sprites stood in two territories and one was removed: ask, do not guess."""
    state = round_2()
    to_reset(state, Removal("b", S, by="a"))
    draft = reset_draft(state)
    assert where(draft)["ashgrove"] == [("b", "T")]
    assert "troll-mire" not in where(draft)
    assert draft.groups() == [(BOB_S, 1)]
    assert str(draft.notes[BOB_S]) == "last seen: Ashgrove, Troll Mire; 1 removed this round"


def test_a_removal_in_a_group_with_new_summons_is_not_guessed_either():
    """One territory last seen but a summon too: the removed one may be old or new."""
    state = round_2()
    play(state, Skip("summoning", S, "c"), Summon(S, by="c"))
    to_reset(state, Removal("c", S, by="a"))
    draft = reset_draft(state)
    assert "ember-barrows" not in where(draft)
    assert draft.groups()[-1] == (CARA_S, 2)
    assert str(draft.notes[CARA_S]) == "last seen: Ember Barrows; 1 removed this round"


def test_a_group_all_removed_leaves_nothing_to_place_or_pre_fill():
    state = round_2()
    to_reset(state, Removal("c", S, by="a"), Removal("c", S, by="a"))
    draft = reset_draft(state)
    assert "ember-barrows" not in where(draft)
    assert CARA_S not in dict(draft.groups())


def test_placing_taking_back_and_marking_gone_keep_every_creature_in_one_place():
    """One tap places; taking a creature off makes it to place again (a move); gone can undo."""
    draft = reset_draft(round_1())
    assert draft.next_to_place(None) == ALICE_W
    assert draft.place(ALICE_W, "skalds-stair") is None
    # Alice's only Wyrm is placed: the next group follows by itself.
    assert draft.next_to_place(ALICE_W) == BOB_T
    assert draft.place(ALICE_W, "thingstead") == "Alice's Wyrm is not waiting to be placed"
    assert draft.place(BOB_S, "skalds-stair") is None
    assert draft.next_to_place(BOB_S) == BOB_S  # one more of Bob's Sprites
    assert draft.place(BOB_T, "skalds-stair") == (
        "Skald's Stair is full (2 of 2 places): tap a creature there to take it off first"
    )
    draft.take_back(ALICE_W, "skalds-stair")
    assert draft.free("skalds-stair") == 1
    draft.mark_gone(CARA_S)
    assert draft.gone_groups() == [(CARA_S, 1)]
    draft.restore(CARA_S)
    assert draft.gone_groups() == []
    with pytest.raises(ValueError, match="Cara's Sprite is not marked as off the board"):
        draft.restore(CARA_S)
    for _ in range(2):
        draft.mark_gone(CARA_S)
    with pytest.raises(ValueError, match="not waiting to be placed"):
        draft.mark_gone(CARA_S)
    # Past the last group the questions go round to the first one still to place.
    assert draft.next_to_place(CARA_S) == ALICE_W
    assert draft.left == 3 and draft.gone_groups() == [(CARA_S, 2)]


def test_the_record_is_refused_naming_what_is_left_and_the_trial_counts_it_as_gone():
    """No silent loss: a creature nobody placed is never taken as removed by the record."""
    state = round_2()
    to_reset(state, Removal("b", S, by="a"))
    draft = reset_draft(state)
    with pytest.raises(
        IllegalCommand, match=re.escape("Bob's Sprite is on the board by the record")
    ):
        state.clone().apply(draft.command())
    trial = draft.trial()
    assert trial.removed == (Removed("b", S),)
    state.clone().apply(trial)  # the preview's record is accepted
    assert draft.command().removed == ()


def test_the_record_lays_creatures_on_their_territories_and_lists_the_gone_ones():
    state = round_2()
    to_reset(state, Removal("b", S, by="a"))
    draft = reset_draft(state)
    draft.mark_gone(BOB_S)
    draft.take_back(ALICE_W, "rune-hollow")
    assert draft.place(ALICE_W, "skalds-stair") is None
    command = draft.command()
    assert command.removed == (Removed("b", S),)
    assert command.placements == (
        Placement("ss1", "a", W),
        Placement("ag1", "b", T),
        Placement("eb1", "c", S),
        Placement("eb2", "c", S),
    )
    play(state, command)
    seat = state.game.seat
    assert state.on_board[seat["b"]] == [0, 1, 0]
    # Creatures marked gone come back next round without paying anyone a bounty.
    assert state.reserve[seat["b"]][2] == 9
    assert reset_draft_board(state) == {
        "skalds-stair": ["a"],
        "ashgrove": ["b"],
        "ember-barrows": ["c", "c"],
    }


def reset_draft_board(state) -> dict[str, list[str]]:
    """Owners per territory on the board the engine now holds as last seen."""
    isle = state.game.isle
    board: dict[str, list[str]] = {}
    for location, token in enumerate(state.occupant):
        if token is not None:
            board.setdefault(isle.territory_ids[isle.territory_of[location]], []).append(
                state.game.players[token[0]]
            )
    return board


def test_a_declined_bonus_is_recorded_only_while_the_territory_is_held():
    """Ruling 10: each domination bonus is optional; a bonus lost since is no choice at all."""
    draft = reset_draft(round_1())
    for creature in (BOB_S, BOB_S):
        assert draft.place(creature, "skalds-stair") is None
    draft.decline("b", "skalds-stair", True)
    draft.decline("c", "ember-barrows", True)  # Cara holds nothing there: not recorded
    assert draft.trial().declined == (("b", "skalds-stair"),)
    draft.take_back(BOB_S, "skalds-stair")
    assert draft.trial().declined == ()
    draft.decline("b", "skalds-stair", False)
    assert draft.declined == {("c", "ember-barrows")}


def test_a_version_2_record_from_the_draft_replays_like_the_one_written_by_hand():
    state = round_1()
    draft = reset_draft(state)
    for placement in ROUND_1_BOARD:
        territory = state.game.board.territory_of(placement.location).id
        assert draft.place(Creature(placement.player, placement.kind), territory) is None
    by_hand = state.clone()
    play(by_hand, EnergyAndReset(ROUND_1_BOARD, (), ()))
    play(state, draft.command())
    assert state.occupant == by_hand.occupant and state.energy == by_hand.energy
