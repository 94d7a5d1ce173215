"""Table rules: a summon needs a vacant place by the record, one pass rule in
every step, and every refusal gives its real reason.

Positions are written as position text (docs/engine.md), so each test starts exactly where
it means to.
"""

from __future__ import annotations

import re

import pytest

from companion.boards import shipped_board
from companion.engine import Game, GameState, IllegalCommand, Phase
from companion.engine.serialize import state_to_json
from models.commands import (
    EnergyAndReset,
    Pass,
    Placement,
    Removal,
    Skip,
    Summon,
    Swap,
)
from models.rules import CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
SETUP = GameSetup(
    players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}],
    board="gathering-isle",
)
GAME = Game(SETUP, shipped_board("gathering-isle"))


def new_state():
    """Round 1 of a 3-player table game on Gathering Isle (38 places), Ann first."""
    return GAME.new_initial_state()


def where(state) -> tuple[str, str | None, str | None]:
    """(phase, step kind, whose turn) for short assertions."""
    kind = state.step_kind.value if state.step_kind else None
    return state.phase.value, kind, state.current_player


def refused(state, command, message: str) -> None:
    """Refused with `message`, and the state is exactly as it was."""
    before = state_to_json(state)
    with pytest.raises(IllegalCommand, match=re.escape(message)):
        state.apply(command)
    assert state_to_json(state) == before


def play(state, *commands) -> None:
    """Apply commands in order."""
    for command in commands:
        state.apply(command)


def creatures(count: int) -> str:
    """A seat's creature counts in position text with `count` on the board (Wyrm, Trolls,
    then Sprites), none coming back: reserve/on board/returning/ready."""
    wyrm = min(1, count)
    trolls = min(3, count - wyrm)
    sprites = count - wyrm - trolls
    on = f"{wyrm}{trolls}{sprites}"
    return f"{1 - wyrm}{3 - trolls}{9 - sprites}/{on}/000/{on}"


def at(phase: str, *counts: int, energy: str = "20,20,20", removals: int = 0):
    """A table position on Gathering Isle (38 places) in round 2: `phase` as position text
    writes it ('summoning:2:1' is the Sprites step, Bob's turn), each seat's creatures on
    the board by the record."""
    groups = ",".join(creatures(count) for count in counts)
    text = f"38 2/6 {phase} abc {energy} {groups} -:0 - - {removals} -"
    return GameState.from_position(GAME, text)


# --- a summon needs a vacant place by the record ------------------------------------------


def test_a_summon_onto_a_full_isle_is_refused_and_nobody_is_asked_to_summon():
    """Rulebook: a summoned creature goes onto a vacant location. At the table the record
    counts the creatures on the board (last Energy and Reset's, less removals, plus summons)."""
    state = at("summoning:2:1", 13, 12, 12)  # 37 creatures on 38 places
    assert where(state) == ("summoning", "sprite", "b")
    state.apply(Summon(S, by="b"))  # the 38th place
    # Bob could pay for another Sprite and Cy for one, but there is no place: nobody is asked.
    assert where(state)[0] == "actions"


def test_the_summoner_is_told_the_isle_is_full_by_the_record():
    # Bob to decide with every place taken (a position the engine passes over by itself).
    full = at("summoning:2:1", 13, 12, 13)
    assert str(full.blocker("b")) == (
        "Bob cannot summon: by the record, all 38 places of the isle hold a creature"
    )
    refused(full, Summon(S, by="b"), "by the record the isle has no vacant place (38 creatures")
    assert Summon(S) not in full.legal_commands()


# --- refusals give their real reason ------------------------------------------------------


def test_a_troll_one_cannot_afford_is_refused_with_the_energy_not_the_turn():
    """The reason given is the real one, energy, not 'it is Bob's turn, not Ann's'."""
    state = new_state()
    state.apply(Summon(W, by="a"))  # Ann is on 0
    with pytest.raises(IllegalCommand, match="Ann cannot summon Trolls: 0 energy"):
        state.reach(Summon(T, by="a"))


def test_a_fourth_troll_is_refused_with_the_reserve():
    state = at("summoning:1:1", 4, 1, 1)  # Ann has her Wyrm and 3 Trolls out
    assert where(state) == ("summoning", "troll", "b")
    with pytest.raises(IllegalCommand, match="Ann has no Trolls left to summon"):
        state.reach(Summon(T, by="a"))
    refused(state, Summon(T, by="a"), "Ann has no Trolls left to summon")


def test_a_creature_removed_this_round_is_not_asked_to_be_summoned_again():
    """Placing a creature removed this round never says 'record the summon first'."""
    state = new_state()
    play(
        state,
        Summon(W, by="a"),
        Skip("summoning", S, "b"),
        Summon(S, by="b"),
        Skip("summoning"),
        Removal("b", S, by="a"),
    )
    assert state.phase is Phase.ENERGY_AND_RESET
    seen = EnergyAndReset(
        (Placement("rh1", "a", W), Placement("rh2", "b", S)),
        removed=(),
    )
    refused(
        state,
        seen,
        "Bob has 0 Sprites on the board by the record, not 1: 1 was removed this round "
        "and comes back next round",
    )
    state.apply(EnergyAndReset((Placement("rh1", "a", W),), removed=()))
    assert state.round == 2


# --- one pass rule in every step ------------------------------------------------------------


def test_a_player_whose_creatures_could_record_nothing_is_passed_over_and_told_why():
    """Neither Actions nor Summoning asks for a pass from a creature with nothing left to
    do: a player is asked only if they could record something."""
    state = new_state()
    play(state, Summon(W, by="a"), Skip("summoning", S, "b"), Summon(S, by="b"))
    play(state, Skip("summoning"))
    # Ann's Wyrm could remove Bob's Sprite: she is asked.
    assert where(state) == ("actions", "wyrm", "a")
    assert str(state.blocker("c")) == "Cy has no Wyrms on the board"
    state.apply(Pass(by="a"))
    # Bob's Sprite could remove no Wyrm, and nobody has Trolls: straight to Energy and Reset.
    assert state.phase is Phase.ENERGY_AND_RESET


def test_the_last_removal_a_creature_could_make_ends_its_players_turn():
    state = new_state()
    play(
        state,
        Skip("summoning", T, "a"),
        Summon(T, by="a"),
        Skip("summoning", S, "b"),
        Summon(S, by="b"),
        Summon(S, by="b"),
        Summon(S, by="b"),
        Summon(S, by="b"),
        Skip("summoning"),
    )
    assert where(state) == ("actions", "troll", "a")
    play(state, Removal("b", S, by="a"), Removal("b", S, by="a"))
    assert where(state) == ("actions", "troll", "a")
    last = Removal("b", S, by="a")
    assert str(state.sentence(last)).endswith("Ann's Trolls have used all their actions")
    state.apply(last)
    # Ann is passed over; Bob's last Sprite is asked in the Sprites step: 1 + 6 reaches the
    # Troll's defence of 7.
    assert where(state) == ("actions", "sprite", "b")


def test_a_wyrm_with_a_swap_left_is_still_asked():
    state = at("actions:0:0", 2, 0, 0, energy="5,5,5")
    # Nobody else has a creature, but Ann's Wyrm could swap with her Troll: she is asked.
    assert state.blocker("a") is None
    assert Swap() in state.legal_commands()
    # With no energy for the swap her Wyrm could record nothing: the step passes her over.
    broke = at("actions:0:0", 2, 0, 0, energy="0,5,5")
    assert str(broke.blocker("a")) == "Ann's Wyrms could remove none of the creatures on the board"


def test_standings_put_the_winner_first_and_break_a_tie_as_the_final_round_does():
    """Ruling 13: a final-round tie goes to the tied player later in that round's order; the
    result screen lists players in the engine's order, not by energy alone."""
    groups = ",".join(creatures(1) for _ in range(3))
    # Cy, later in the order a, b, c than Ann on the same 27, won the final round.
    for result in ("c", "-"):  # with the winner recorded, and by the tie-break alone
        over = f"38 6/6 game_over:0:0 abc 27,24,27 {groups} -:0 - - 0 {result}"
        assert GameState.from_position(GAME, over).standings() == ("c", "a", "b")
