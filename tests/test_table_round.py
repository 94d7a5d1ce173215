"""Who acts, skipping ahead and accounting for every creature: the table round of log version 2.

Each test names the part of the design it holds the engine to: the `by` field (a command
says who makes it), `skip` (a quiet step costs one record), the v2 Energy and Reset
(every creature placed or marked removed) and version 1 logs replaying as before.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest

from companion.boards import shipped_board
from companion.engine import Game, IllegalCommand, Phase
from companion.engine.replay import replay
from companion.engine.serialize import state_to_json
from companion.engine.versions import upgrade
from models.commands import (
    EnergyAndReset,
    Pass,
    Placement,
    Removal,
    Removed,
    Skip,
    Summon,
    Swap,
    command_from_json,
    command_to_json,
)
from models.game_log import GameLog
from models.rules import CreatureKind
from models.setup import GameSetup, Mode

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE
SETUP = GameSetup(
    players=[{"id": "a", "name": "Alice"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cara"}],
    board="gathering-isle",
)


def new_state():
    """Round 1 of a 3-player table game on Gathering Isle, Alice first."""
    return Game(SETUP, shipped_board("gathering-isle")).new_initial_state()


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


# --- `by`: every player's command says who makes it ------------------------------------------


def test_a_command_made_for_someone_whose_turn_it_is_not_is_refused_naming_both():
    state = new_state()
    state.apply(Pass(by="a"))
    # A second phone's "Alice: done with Wyrms" arrives after the first: Bob's turn is intact.
    refused(state, Pass(by="a"), "it is Bob's turn, not Alice's")
    # Only a player's own pass of the step waits for their turn (a summon may be said ahead).
    refused(state, Pass(by="c"), "it is Bob's turn, not Cara's")
    refused(state, Summon(W, by="nobody"), "there is no player 'nobody' in this game")
    assert where(state) == ("summoning", "wyrm", "b")
    state.apply(Summon(W, by="b"))
    assert state.energy_of("b") == 0


def test_a_command_without_by_is_the_current_players_as_in_version_1():
    state = new_state()
    state.apply(Summon(W))
    assert state.energy_of("a") == 0
    assert state.sign(Pass()) == Pass(by="b")
    # Records for the whole table name nobody.
    assert state.sign(Skip("summoning")) == Skip("summoning")


def wyrm_and_sprite_acting():
    """Round 1's Actions phase: Alice's Wyrm and Bob's Sprite on the board, Alice to act."""
    state = new_state()
    for command in (
        Summon(W, by="a"),
        Skip("summoning", S, "b"),
        Summon(S, by="b"),
        Skip("summoning"),
    ):
        state.apply(command)
    return state


def test_a_removal_is_made_by_the_player_whose_creatures_act_now():
    state = wyrm_and_sprite_acting()
    assert where(state) == ("actions", "wyrm", "a")
    # Bob has no Wyrm: his tap is refused with the reason the step passes him over.
    refused(state, Removal("a", W, by="b"), "Bob has no Wyrms on the board")
    state.apply(Removal("b", S, by="a"))
    assert state.energy_of("a") == 1


# --- skip: a quiet step or phase costs one record ----------------------------------------------


def test_skip_to_the_end_of_summoning_passes_everyone_left_in_one_record():
    state = new_state()
    state.apply(Summon(W, by="a"))
    skip = Skip("summoning")
    assert str(state.sentence(skip)) == (
        "Bob and Cara are done summoning Wyrms; Bob and Cara are done summoning Trolls; "
        "Bob and Cara are done summoning Sprites"
    )
    state.apply(skip)
    # Nobody but Alice has a creature: her Wyrm could remove nobody, so nobody is asked in the
    # Actions phase (one pass rule in every step).
    assert where(state) == ("energy_and_reset", None, None)


def test_skip_to_a_player_in_a_later_step_stops_at_their_decision():
    state = new_state()
    state.apply(Skip("summoning", S, "c"))
    assert where(state) == ("summoning", "sprite", "c")
    assert state.energy == [5, 5, 5]


def test_a_quiet_actions_phase_is_one_record():
    state = new_state()
    for command in (Summon(W, by="a"), Skip("summoning", T, "b"), Summon(T, by="b")):
        state.apply(command)
    state.apply(Skip("summoning"))
    assert where(state)[0] == "actions"
    state.apply(Skip("actions"))
    assert state.phase is Phase.ENERGY_AND_RESET


def test_a_skip_to_a_point_the_round_has_passed_is_refused_not_moved_on():
    state = new_state()
    state.apply(Skip("summoning", T))
    # The same tap from a second phone: nothing left to skip to the Trolls step.
    refused(state, Skip("summoning", T), "there is nothing to skip: it is the summoning phase")
    refused(state, Skip("summoning", W, "c"), "there is nothing to skip")
    refused(state, Skip("summoning", S, "x"), "there is no player 'x' in this game")
    refused(state, Skip("summoning", None, "b"), "a skip to a player names the step too")


def test_skip_is_for_the_table_only():
    digital = Game(
        SETUP.model_copy(update={"mode": Mode.DIGITAL}), shipped_board("gathering-isle")
    ).new_initial_state()
    refused(digital, Skip("summoning"), "skipping ahead is for table games")


def test_a_player_the_step_passes_over_is_told_why():
    state = new_state()
    state.apply(Summon(W, by="a"))
    assert str(state.blocker("a")) == "Alice has no Wyrms left to summon"
    state.apply(Skip("summoning", T))
    assert str(state.blocker("a")) == "Alice cannot summon Trolls: 0 energy"
    assert state.blocker("b") is None
    state.apply(Summon(T, by="b"))
    state.apply(Skip("summoning"))
    assert where(state) == ("actions", "wyrm", "a")
    assert str(state.blocker("b")) == "Bob has no Wyrms on the board"


# --- Energy and Reset accounts for every creature (version 2) ----------------------------------


def to_reset(state) -> None:
    """Alice a Wyrm, Bob two Sprites, then straight to Energy and Reset."""
    for command in (
        Summon(W, by="a"),
        Skip("summoning", S, "b"),
        Summon(S, by="b"),
        Summon(S, by="b"),
        Skip("summoning"),
        Skip("actions"),
    ):
        state.apply(command)
    assert state.phase is Phase.ENERGY_AND_RESET


def test_an_energy_and_reset_that_leaves_a_creature_out_is_refused_naming_it():
    state = new_state()
    to_reset(state)
    refused(
        state,
        EnergyAndReset(placements=(Placement("ag1", "a", W),), removed=()),
        "2 of Bob's Sprites are on the board by the record: place them or mark them removed",
    )
    refused(
        state,
        EnergyAndReset(placements=(Placement("ag2", "b", S),), removed=(Removed("b", S),)),
        "Alice's Wyrm is on the board by the record: place it or mark it removed",
    )
    refused(
        state,
        EnergyAndReset(removed=(Removed("a", W), Removed("a", W))),
        "Alice has 1 Wyrms on the board by the record, not 2",
    )


def test_a_creature_marked_removed_comes_back_next_round_without_a_bounty():
    state = new_state()
    to_reset(state)
    state.apply(
        EnergyAndReset(
            placements=(Placement("ag1", "a", W), Placement("ag2", "b", S)),
            removed=(Removed("b", S),),
        )
    )
    assert state.round == 2
    seat = state.game.seat["b"]
    assert state.on_board[seat] == [0, 0, 1]
    assert state.reserve[seat] == [1, 3, 8]
    # Nobody was paid for it: Bob's energy is his band and Sprites only.
    assert state.last_tally.players[-1].player in ("a", "b", "c")


def test_version_1_energy_and_reset_still_takes_what_it_leaves_out_as_removed():
    state = new_state()
    to_reset(state)
    state.apply(EnergyAndReset(placements=(Placement("ag1", "a", W),)))
    assert state.on_board[state.game.seat["b"]] == [0, 0, 0]
    assert state.reserve[state.game.seat["b"]] == [1, 3, 9]


# --- version 1 logs replay and import exactly as before ----------------------------------------


def v1_game(seed: int) -> list:
    """A random table game as a version 1 log writes it: no `by`, left-out creatures removed."""
    rng = random.Random(seed)
    state = new_state()
    commands = []
    while not state.is_terminal and len(commands) < 400:
        if state.phase is Phase.ENERGY_AND_RESET:
            isle = state.game.isle
            free = list(isle.location_ids)
            rng.shuffle(free)
            placements = []
            for seat, counts in enumerate(state.on_board):
                for k, count in enumerate(counts):
                    kept = rng.randint(0, count)
                    placements += [
                        Placement(free.pop(), state.game.players[seat], list(CreatureKind)[k])
                        for _ in range(kept)
                    ]
            command = EnergyAndReset(tuple(placements))
        else:
            command = rng.choice(state.legal_commands())
        state.apply(command)
        commands.append(command)
    return commands


@pytest.mark.parametrize("seed", range(6))
def test_a_version_1_log_upgraded_to_version_2_replays_to_the_same_state(seed):
    commands = v1_game(seed)
    game = Game(SETUP, shipped_board("gathering-isle"))
    old = replay(game, commands)
    state = game.new_initial_state()
    upgraded = []
    for command in commands:
        upgraded.append(upgrade(state, command))
        state.apply(command)
    log = GameLog.of(SETUP, upgraded)
    assert log.version == 2
    assert state_to_json(replay(game, log.parsed_commands())) == state_to_json(old)
    assert GameLog.of(SETUP, commands).version == 1


def test_a_version_2_log_must_say_who_acts_and_what_left_the_board():
    bare = GameLog(version=2, setup=SETUP, commands=[{"type": "pass"}])
    with pytest.raises(ValueError, match="command 0: the pass command does not say who makes it"):
        bare.parsed_commands()
    reset = GameLog(version=2, setup=SETUP, commands=[{"type": "energy_and_reset"}])
    with pytest.raises(ValueError, match="command 0: an energy_and_reset command lists"):
        reset.parsed_commands()
    # The same commands are a fine version 1 log.
    assert GameLog(version=1, setup=SETUP, commands=[{"type": "pass"}]).parsed_commands() == [
        Pass()
    ]


def test_replay_refuses_a_version_2_log_whose_by_is_wrong_in_one_line(tmp_path):
    log = GameLog(
        setup=SETUP,
        commands=[{"type": "pass", "by": "a"}, {"type": "pass", "by": "a"}],
    )
    path = tmp_path / "game.json"
    path.write_text(log.model_dump_json())
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["error: command 1: it is Bob's turn, not Alice's"]


def test_commands_round_trip_through_json_with_by_and_removed():
    for command in (
        Swap(by="a"),
        Skip("summoning", S, "c"),
        Skip("actions"),
        EnergyAndReset(removed=(Removed("b", T),)),
        EnergyAndReset(removed=()),
        EnergyAndReset(),
    ):
        data = json.loads(json.dumps(command_to_json(command)))
        assert command_from_json(data) == command
    assert "removed" not in command_to_json(EnergyAndReset())
    assert command_to_json(EnergyAndReset(removed=()))["removed"] == []


# --- reach: one table tap, the skip it needs and the command --------------------------------


def test_a_tap_on_a_later_players_summon_records_a_skip_to_them_first():
    state = new_state()
    assert state.reach(Summon(W, by="a")) == [Summon(W, by="a")]
    assert state.reach(Summon(T, by="b")) == [Skip("summoning", T, "b"), Summon(T, by="b")]
    # Checked on a copy: nothing changed yet.
    assert where(state) == ("summoning", "wyrm", "a")


def test_a_tap_the_round_has_passed_or_the_rules_refuse_is_refused_by_reach():
    state = new_state()
    state.apply(Summon(W, by="a"))
    # Her turn in this step is over, and she has no Wyrm left anyway: the reason is said.
    with pytest.raises(IllegalCommand, match="Alice has no Wyrms left to summon"):
        state.reach(Summon(W, by="a"))
    # Alice has no energy left for a Troll: the refusal says so, not whose turn it is.
    with pytest.raises(IllegalCommand, match="Alice cannot summon Trolls: 0 energy"):
        state.reach(Summon(T, by="a"))
    assert where(state) == ("summoning", "wyrm", "b")


def test_a_swap_reaches_the_wyrms_step_and_a_removal_names_its_step():
    state = wyrm_and_sprite_acting()
    assert state.reach(Removal("b", S, by="a"), W) == [Removal("b", S, by="a")]
    # Bob has no Wyrm: the Wyrms step passes him over, so no tap can be his swap.
    with pytest.raises(IllegalCommand, match="Bob has no Wyrms on the board"):
        state.reach(Swap(by="b"))


# --- ruling 7 at the table: only removals the acting creatures could make -----------------------


def actions_with_everything():
    """Round 1's Actions at the Wyrms step: Alice and Bob a Wyrm each, Cara three Sprites."""
    state = new_state()
    for command in (
        Summon(W, by="a"),
        Summon(W, by="b"),
        Skip("summoning", S, "c"),
        Summon(S, by="c"),
        Summon(S, by="c"),
        Summon(S, by="c"),
        Skip("summoning"),
    ):
        state.apply(command)
    return state


def test_a_wyrm_removes_at_most_as_many_creatures_as_its_actions():
    """Ruling 7: each attack is an action, and a Wyrm has 2 (ruling 5)."""
    state = actions_with_everything()
    assert where(state) == ("actions", "wyrm", "a")
    state.apply(Removal("c", S, by="a"))
    # The third removal cannot be made: the second is the last, and the log says why Alice is
    # then passed over (nothing left to record, so no pass is asked of her).
    last = Removal("c", S, by="a")
    assert str(state.sentence(last)) == (
        "Alice removes Cara's Sprite and gains 1 (1 → 2); Alice's Wyrms have used all their actions"
    )
    state.apply(last)
    assert where(state) == ("actions", "wyrm", "b")
    refused(state, Removal("c", S, by="a"), "it is Bob's turn, not Alice's")
    # The next player's Wyrm has its own actions.
    state.apply(Removal("c", S, by="b"))
    assert state.energy_of("b") == 1


def test_a_sprite_cannot_remove_a_wyrm():
    """Ruling 7: a Sprite's best total is 1 + 6 = 7, under a Wyrm's defence of 8."""
    state = new_state()
    for command in (
        Summon(W, by="a"),
        Skip("summoning", T, "b"),
        Summon(T, by="b"),
        Skip("summoning", S, "c"),
        Summon(S, by="c"),
        Skip("summoning"),
    ):
        state.apply(command)
    # Cara is asked in the Sprites step: her Sprite could remove Bob's Troll (1 + 6 = 7).
    state.apply(Skip("actions", S, "c"))
    assert where(state) == ("actions", "sprite", "c")
    refused(
        state,
        Removal("a", W, by="c"),
        "a Sprite cannot remove a Wyrm: its best roll, 7, is under the Wyrm's defence of 8",
    )
    assert Removal("a", W) not in state.legal_commands()
