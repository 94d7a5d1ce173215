"""The story since a person's last turn reads in the order it happened, each Energy and Reset
a divider between rounds; and when the computers end a round, what they did is on the
Energy and Reset's card, before play goes on."""

from __future__ import annotations

import asyncio

from test_board_follow import against_greedy
from test_turns import Stage, store  # noqa: F401 - the store fixture

from companion.play.board_summary import story_since, story_to_reset
from companion.play.session import GameSession
from models.commands import Activate, EndActivation, Summon
from models.rules import CreatureKind as K
from models.setup import GameSetup

HOT_SEAT = GameSetup(
    players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}],
    board="duel-isle",
    mode="digital",
)


def test_a_players_next_round_comes_after_the_energy_and_reset_not_with_their_last(store):  # noqa: F811
    session = GameSession(store, store.new_game(HOT_SEAT).id)
    for command, by in [
        (Summon(K.WYRM, "rh1"), "red"),
        (Summon(K.WYRM, "rh2"), "blue"),
        (Activate("rh1"), "red"),
        (EndActivation(), "red"),
        (Activate("rh2"), "blue"),
        (EndActivation(), "blue"),  # the round ends; Bjorn, on less energy, goes first
        (Summon(K.TROLL, "nc1"), "blue"),
    ]:
        assert session.do(command, by).ok, command
    story = story_since(session, "red")
    runs = [
        (group.player, [seq for line in group.lines for seq in line.seqs]) for group in story.groups
    ]
    assert runs[0] == ("blue", [5, 6])
    assert runs[1] == (None, [])  # Energy and Reset, round 1
    assert runs[-1] == ("blue", [7])
    told = [seq for _, seqs in runs for seq in seqs]
    assert told == sorted(told) == list(story.seqs)


def test_the_computers_play_up_to_the_energy_and_reset_is_told_on_its_card(store):  # noqa: F811
    turns, person = against_greedy(store)
    person(Summon(K.WYRM, "rh1"))
    person(Activate("rh1"))
    assert turns.record([EndActivation()], "red").ok
    asyncio.run(turns.play_bots(Stage()))
    assert turns.reset_waiting() is not None
    told = story_to_reset(turns.session, turns.bots)
    assert told is not None and told.player == "red"
    log = turns.session.saved.log
    last = max(i for i, entry in enumerate(log) if entry.command.by == "red")
    # Every computer record since Ragna's last, none of the tally's (the card's own).
    assert [seq for line in told.lines for seq in line.seqs] == [e.seq for e in log[last + 1 :]]
    assert all(group.player == "blue" for group in told.groups)


def test_a_round_a_person_ended_needs_no_story_on_its_card(store):  # noqa: F811
    session = GameSession(store, store.new_game(HOT_SEAT).id)
    for command, by in [
        (Summon(K.WYRM, "rh1"), "red"),
        (Summon(K.WYRM, "rh2"), "blue"),
        (Activate("rh1"), "red"),
        (EndActivation(), "red"),
        (Activate("rh2"), "blue"),
        (EndActivation(), "blue"),
    ]:
        assert session.do(command, by).ok, command
    assert session.saved.log[-1].reset is not None
    assert story_to_reset(session, ()) is None
