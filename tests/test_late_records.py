"""What a real table forgets can be told late, at Energy and Reset.

A summon nobody entered pays its cost and is placed like any other creature; a removal
nobody entered pays its bounty, which can win the game at 36 (ruling 11); a Wyrm swap nobody
entered pays its 1 energy (ruling 8). All are commands of the log (`late_summon`,
`late_removal`, `late_swap`), undone like any record, told in words.
"""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from companion.boards import shipped_board
from companion.cli.game import game_app
from companion.engine import Game, GameState, IllegalCommand, Phase
from companion.engine.serialize import state_to_json
from companion.engine.table_reset import reset_draft
from companion.language.render import render
from companion.store.store import open_store
from models.commands import (
    EnergyAndReset,
    LateRemoval,
    LateSummon,
    LateSwap,
    Placement,
    Skip,
    Summon,
    command_from_json,
    command_to_json,
)
from models.rules import CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
SETUP = GameSetup(
    players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}],
    board="gathering-isle",
)
GAME = Game(SETUP, shipped_board("gathering-isle"))


def at_reset(*counts: int, energy: str = "10,10,10") -> GameState:
    """Energy and Reset of round 2 with each seat's creatures on the board by the record
    (a Wyrm first, then Trolls, then Sprites), from position text."""
    groups = []
    for count in counts:
        wyrm = min(1, count)
        trolls = min(3, count - wyrm)
        on = f"{wyrm}{trolls}{count - wyrm - trolls}"
        groups.append(f"{1 - wyrm}{3 - trolls}{9 - int(on[2])}/{on}/000/{on}")
    text = f"38 2/6 energy_and_reset:0:0 abc {energy} {','.join(groups)} -:0 - - 0 -"
    return GameState.from_position(GAME, text)


def refused(state, command, message: str) -> None:
    """Refused with `message`, and the state is exactly as it was."""
    before = state_to_json(state)
    with pytest.raises(IllegalCommand, match=re.escape(message)):
        state.apply(command)
    assert state_to_json(state) == before


def test_a_late_summon_pays_and_is_then_placed_like_any_creature():
    state = at_reset(1, 1, 0)
    late = LateSummon("c", T)
    assert str(state.sentence(late)) == (
        "recorded late: Cy summoned a Troll this round, for 3 energy (10 → 7)"
    )
    assert render(state.sentence(late), "fr") == (
        "enregistré après coup\u202f: Cy a invoqué un Troll pendant cette manche, "
        "pour 3 points d'énergie (10 → 7)"
    )
    state.apply(late)
    assert state.energy_of("c") == 7
    assert state.holdings("c").on_board[T] == 1
    # The draft asks where it stands; a record leaving it out is refused by name.
    draft = reset_draft(state)
    assert dict(draft.groups()).get(draft_creature("c", T)) == 1
    refused(
        state,
        EnergyAndReset((Placement("rh1", "a", W), Placement("rh2", "b", W)), removed=()),
        "Cy's Troll is on the board by the record",
    )


def draft_creature(player, kind):
    """The draft's name for one of a player's creatures of a kind."""
    from companion.engine.table_reset import Creature

    return Creature(player, kind)


@pytest.mark.parametrize(
    ("late", "reason"),
    [
        (LateSummon("a", W), "Ann has no Wyrm left to summon"),
        (LateSummon("x", S), "there is no player 'x' in this game"),
    ],
)
def test_a_late_summon_is_refused_with_its_reason(late, reason):
    refused(at_reset(1, 1, 1), late, reason)


def test_a_late_summon_needs_the_energy_and_a_vacant_place():
    refused(at_reset(1, 1, 1, energy="10,2,10"), LateSummon("b", T), "Bob has 2 energy")
    refused(at_reset(13, 12, 13), LateSummon("b", S), "by the record the isle has no vacant")


def test_late_records_belong_to_energy_and_reset():
    state = GAME.new_initial_state()
    refused(state, LateSummon("a", S), "recorded late only at Energy and Reset")
    refused(state, LateRemoval("a", "b", S), "recorded late only at Energy and Reset")
    refused(state, LateSwap("a"), "recorded late only at Energy and Reset")


def test_a_late_wyrm_swap_pays_its_energy():
    """Ruling 8: a Wyrm swap costs 1 energy; the creatures stay on the board, to place."""
    state = at_reset(2, 1, 1)  # Ann a Wyrm and a Troll; Bob and Cy a Wyrm each
    late = LateSwap("a")
    assert str(state.sentence(late)) == (
        "recorded late: Ann's Wyrm traded places with another of their creatures this round, "
        "for 1 energy (10 → 9)"
    )
    assert render(state.sentence(late), "fr") == (
        "enregistré après coup\u202f: le Wyrm d'Ann a échangé sa place avec une autre de ses "
        "créatures pendant cette manche, pour 1 point d'énergie (10 → 9)"
    )
    state.apply(late)
    assert state.energy_of("a") == 9
    assert state.holdings("a").on_board[W] == 1 and state.holdings("a").on_board[T] == 1


def test_a_late_wyrm_swap_is_refused_as_a_swap_in_the_wyrms_step_is():
    """Ruling 8: a swap needs the player's Wyrm, another creature of theirs, and 1 energy."""
    refused(at_reset(2, 1, 1), LateSwap("b"), "Bob has no other creature on the board")
    refused(at_reset(2, 0, 1), LateSwap("b"), "Bob has no Wyrm on the board")
    refused(at_reset(2, 1, 1, energy="0,10,10"), LateSwap("a"), "a Wyrm swap costs 1 energy")


def test_a_late_removal_pays_its_bounty_and_sends_the_creature_back():
    state = at_reset(2, 2, 0)  # Ann and Bob: a Wyrm and a Troll each
    late = LateRemoval("a", "b", T)
    assert str(state.sentence(late)) == (
        "recorded late: Ann removed Bob's Troll this round and gains 2 (10 → 12)"
    )
    state.apply(late)
    assert state.energy_of("a") == 12
    assert state.holdings("b").on_board[T] == 0
    assert state.holdings("b").returning[T] == 1


def test_a_late_removal_is_refused_with_its_reason():
    state = at_reset(2, 1, 1)  # Ann a Wyrm and a Troll; Bob and Cy a Wyrm each
    refused(state, LateRemoval("a", "a", W), "Ann cannot remove their own creature")
    refused(state, LateRemoval("a", "b", T), "Bob has no Troll on the board")
    # Ann has one Sprite on the board, Bob a Wyrm.
    sprites_only = GameState.from_position(
        GAME,
        "38 2/6 energy_and_reset:0:0 abc 10,10,10 138/001/000/001,039/100/000/100,"
        "139/000/000/000 -:0 - - 0 -",
    )
    # Ruling 7: a Sprite's best is 1 + 6 = 7, under a Wyrm's 8.
    refused(
        sprites_only,
        LateRemoval("a", "b", W),
        "Ann has no creature on the board that could remove a Wyrm",
    )


def test_a_late_bounty_that_reaches_36_wins_at_once():
    """Ruling 11: reaching 36 wins whenever it happens; the removal came before the passes."""
    state = at_reset(2, 2, 1, energy="33,34,20")
    state.apply(LateRemoval("b", "a", W))
    assert state.phase is Phase.GAME_OVER
    assert (state.winner_id, state.summoner) == ("b", True)
    assert state.energy_of("b") == 37


def test_late_records_travel_as_json_and_through_the_store(tmp_path):
    for command in (LateSummon("a", S), LateRemoval("a", "b", T), LateSwap("a")):
        assert command_from_json(json.loads(json.dumps(command_to_json(command)))) == command
    with open_store(f"sqlite:///{tmp_path}/games.sqlite3") as store:
        saved = store.new_game(SETUP)
        saved = store.append_all(
            saved.id, [Summon(W, by="a"), Skip("summoning", T, "b")], saved.revision
        )
        saved = store.append_all(
            saved.id, [Summon(T, by="b"), Skip("summoning"), Skip("actions")], saved.revision
        )
        assert saved.state.phase is Phase.ENERGY_AND_RESET
        saved = store.append(saved.id, LateSummon("c", S), saved.revision)
        assert str(saved.undo_label) == (
            "recorded late: Cy summoned a Sprite this round, for 1 energy (5 → 4)"
        )
        saved = store.undo(saved.id, saved.revision)
        assert saved.state.energy_of("c") == 5
        saved = store.redo(saved.id, saved.revision)
        assert saved.state.energy_of("c") == 4


def test_game_do_records_a_late_removal(tmp_path):
    db = ("--db", str(tmp_path / "games.sqlite3"))
    runner = CliRunner()
    game_id = runner.invoke(game_app, ["new", "--players", "a:Ann,b:Bob", *db]).output.strip()
    for command in (
        {"type": "summon", "kind": "wyrm"},
        {"type": "summon", "kind": "wyrm"},
        {"type": "skip", "phase": "actions"},
        {"type": "late_removal", "player": "a", "victim": "b", "kind": "wyrm"},
    ):
        result = runner.invoke(game_app, ["do", game_id, json.dumps(command), *db])
        assert result.exit_code == 0, result.output
    assert "recorded late: Ann removed Bob's Wyrm this round and gains 3" in result.output
