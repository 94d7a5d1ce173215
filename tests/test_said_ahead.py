"""Said ahead at the table (docs/rulings.md, "Said ahead at the table"): a player records their
own summons, removals and Wyrm swap before the turn order reaches them, or says they record
nothing more; each counts at once, and the turn order then passes them over where they are
past. Rulings 3 and 5 still order each player's own records (Wyrms, Trolls, Sprites;
Summoning before Actions); ruling 11 still ends the game at 36 at once.
"""

from __future__ import annotations

import re

import pytest
from test_table_round import new_state, where

from companion.engine import IllegalCommand, Phase
from companion.engine.replay import replay
from companion.engine.serialize import state_to_json
from models.commands import Correction, Done, Pass, Removal, Skip, Summon, Swap
from models.rules import CreatureKind

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE


def refused(state, command, message: str) -> None:
    """Refused with `message`, and the state, what was said ahead included, as it was."""
    before = (state_to_json(state), state.ahead[:], state.ahead_removals[:])
    with pytest.raises(IllegalCommand, match=re.escape(message)):
        state.apply(command)
    assert (state_to_json(state), state.ahead, state.ahead_removals) == before


def rich():
    """Round 1, Alice to decide on Wyrms, everyone on 20 energy."""
    state = new_state()
    for player in "abc":
        state.apply(Correction(player, 15, "a rich test table"))
    return state


def test_a_summon_said_ahead_counts_at_once_and_the_turn_order_passes_its_player_over():
    state = rich()
    # Cara summons a Troll while Alice decides on Wyrms: paid now, Cara is past the Wyrms.
    state.apply(Summon(T, by="c"))
    assert state.energy_of("c") == 17 and state.reserve_of("c", T) == 2
    assert where(state) == ("summoning", "wyrm", "a")
    state.apply(Pass(by="a"))
    state.apply(Pass(by="b"))
    # Cara is not asked about Wyrms: the Trolls step begins with Alice.
    assert where(state) == ("summoning", "troll", "a")
    state.apply(Pass(by="a"))
    state.apply(Pass(by="b"))
    # Cara's turn in the Trolls step is hers: she may summon another, or pass.
    assert where(state) == ("summoning", "troll", "c")
    state.apply(Summon(T, by="c"))
    assert state.reserve_of("c", T) == 1


def test_a_players_own_earlier_step_is_over_once_they_said_a_later_one():
    """Ruling 3 orders each player's own summons: a Wyrm after their Troll is refused."""
    state = rich()
    state.apply(Summon(T, by="c"))
    refused(state, Summon(W, by="c"), "Cara summons no more Wyrms this round: that turn is over")
    # And what would pass them over anyway comes first.
    state.apply(Summon(W, by="a"))
    refused(state, Summon(W, by="a"), "Alice has no Wyrms left to summon")


def test_the_player_whose_turn_it_is_moves_on_by_saying_a_later_step():
    state = rich()
    state.apply(Summon(S, by="a"))
    assert where(state) == ("summoning", "wyrm", "b")
    assert state.ahead == [2, 0, 0]


def test_only_a_players_pass_of_the_step_waits_for_their_turn():
    state = rich()
    refused(state, Pass(by="c"), "it is Alice's turn, not Cara's")


def test_nothing_more_passes_a_player_over_for_the_rest_of_the_phase_or_round():
    state = rich()
    state.apply(Done("summoning", by="b"))
    state.apply(Done("round", by="c"))
    refused(state, Done("round", by="c"), "Cara already records nothing more this round")
    refused(state, Summon(S, by="c"), "Cara summons no more Sprites this round: that turn is over")
    # Only Alice is asked in the Summoning phase.
    state.apply(Pass(by="a"))
    assert where(state) == ("summoning", "troll", "a")
    state.apply(Skip("summoning"))
    # Bob said he summons nothing more, not that his creatures do nothing: with none on the
    # board, Actions pass everyone over and the round waits for Energy and Reset.
    assert state.phase is Phase.ENERGY_AND_RESET


def test_a_removal_said_ahead_names_its_creatures_and_pays_its_bounty_at_once():
    state = rich()
    state.apply(Summon(W, by="a"))
    state.apply(Summon(T, by="b"))
    state.apply(Summon(S, by="c"))
    state.apply(Skip("summoning"))
    assert where(state) == ("actions", "wyrm", "a")
    # Cara's Sprite removed Bob's Troll (a Sprite's best roll, 1 + 6, beats a Troll's 7).
    state.apply(Removal("b", T, by="c", attacker=S))
    assert state.energy_of("c") == 19 + 2
    # Her one Sprite has acted: she has nothing more to record this round.
    assert state.ahead[2] == 6
    # Alice's Wyrm still decides.
    assert where(state) == ("actions", "wyrm", "a")


def test_removals_said_ahead_count_against_the_creatures_actions():
    """Ruling 5: a Sprite acts once: one removal said ahead uses it."""
    state = rich()
    for player in "abc":
        state.apply(Summon(S, by=player))
    state.apply(Skip("summoning"))
    state.apply(Removal("a", S, by="c", attacker=S))
    refused(state, Removal("b", S, by="c", attacker=S), "Cara's Sprites have had their turn")


def test_reaching_36_by_a_removal_said_ahead_wins_at_once():
    """Ruling 11: the first to 36 wins, whenever it happens."""
    state = new_state()
    state.apply(Correction("c", 30, "nearly there"))
    state.apply(Skip("summoning", T))
    for player in "abc":
        state.apply(Summon(T, by=player))
    state.apply(Skip("summoning"))
    assert where(state) == ("actions", "troll", "a")
    state.apply(Removal("b", T, by="c", attacker=T))
    assert state.energy_of("c") == 34 and not state.is_terminal
    state.apply(Removal("a", T, by="c", attacker=T))
    assert state.is_terminal and state.winner_id == "c" and state.summoner


def test_a_wyrm_swap_said_ahead_is_paid_at_once():
    state = rich()
    state.apply(Summon(W, by="c"))
    state.apply(Summon(S, by="c"))
    state.apply(Skip("summoning"))
    state.apply(Swap(by="c"))
    assert state.energy_of("c") == 20 - 5 - 1 - 1


def test_a_log_said_ahead_replays_to_the_same_state():
    state = rich()
    commands = [
        Summon(T, by="c"),
        Done("summoning", by="b"),
        Summon(W, by="a"),
        Pass(by="a"),
        Summon(S, by="c"),
        Done("round", by="c"),
    ]
    for command in commands:
        state.apply(command)
    log = [Correction(player, 15, "a rich test table") for player in "abc"] + commands
    again = replay(state.game, log)
    assert (state_to_json(again), again.ahead) == (state_to_json(state), state.ahead)
