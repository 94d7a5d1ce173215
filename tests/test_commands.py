"""Each command type is declared once, in its own module, with every part together.

The claim of `companion/engine/commands/`: a command's check and effect, its sentence,
its legal commands, the board spaces it marks and its chance outcomes live in one module,
and each rule set (table play, digital play) either has the command or refuses it with a
sentence. Adding a command type to `models/commands.py` without its module fails here.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.boards import shipped_board
from companion.engine import Game, IllegalCommand, Phase
from companion.engine.commands import MODULES, Declaration, Moment
from companion.engine.dice import with_rolls
from companion.engine.rulesets import DIGITAL_PLAY, RULE_SETS, TABLE_PLAY
from companion.play.board_taps import targets
from models.commands import (
    COMMAND_TYPES,
    PLAYER_COMMANDS,
    Activate,
    Attack,
    Correction,
    EndActivation,
    EnergyAndReset,
    Move,
    Removal,
    Skip,
    Summon,
    Swap,
)
from models.rules import CreatureKind
from models.seeded_dice import SeededDice
from models.setup import GameSetup, Mode

PACKAGE = Path(__file__).resolve().parent.parent / "companion" / "engine" / "commands"


def declarations(module) -> list[Declaration]:
    return [d for d in (module.TABLE, module.DIGITAL) if d is not None]


def test_every_command_type_has_exactly_one_module():
    owners = {name: [] for name in COMMAND_TYPES}
    for module in MODULES:
        (command,) = {d.command for d in declarations(module)}
        owners[next(n for n, cls in COMMAND_TYPES.items() if cls is command)].append(module)
    assert {name: len(found) for name, found in owners.items()} == dict.fromkeys(COMMAND_TYPES, 1)


def test_every_module_in_the_package_is_registered():
    files = {path.stem for path in PACKAGE.glob("*.py") if not path.stem.startswith("_")}
    assert files == {module.__name__.rsplit(".", 1)[1] for module in MODULES}


def test_every_declaration_provides_every_part():
    for module in MODULES:
        for declaration in declarations(module):
            parts = (declaration.apply, declaration.describe, declaration.places)
            more = (declaration.space, declaration.chances, declaration.step)
            assert all(callable(part) for part in (*parts, *more))
            assert declaration.what
            if declaration.always is not None:
                assert type(declaration.always) is declaration.command
                assert declaration.legal is None and declaration.moments
            elif declaration.legal is None:
                # Only a table record, whose values are the table's to say, is never listed.
                assert declaration.command not in PLAYER_COMMANDS
                assert declaration.moments == ()
            else:
                assert callable(declaration.legal) and declaration.moments


@pytest.mark.parametrize("rules", [TABLE_PLAY, DIGITAL_PLAY], ids=["table", "digital"])
def test_a_rule_set_has_or_refuses_every_command_and_lists_in_one_order(rules):
    assert rules.declarations.keys().isdisjoint(rules.refusals)
    assert set(rules.declarations) | set(rules.refusals) == set(COMMAND_TYPES.values())
    for moment in Moment:
        ranks = [d.rank for d in rules.declarations.values() if moment in d.moments]
        assert len(ranks) == len(set(ranks)), f"two commands share a place in the {moment} list"


def game(mode: Mode, board: str = "duel-isle") -> Game:
    setup = GameSetup(players=[{"id": "red"}, {"id": "blue"}], board=board, mode=mode)
    return Game(setup, shipped_board(board))


def test_the_mode_picks_the_rule_set_once():
    assert game(Mode.TABLE).rules is RULE_SETS[Mode.TABLE] is TABLE_PLAY
    assert game(Mode.DIGITAL).rules is DIGITAL_PLAY


@pytest.mark.parametrize(
    ("mode", "command", "refusal"),
    [
        (Mode.TABLE, Activate("rh1"), "activating a creature is for the digital board"),
        (Mode.TABLE, Move("rh1"), "moving a creature is for the digital board"),
        (Mode.TABLE, Attack("rh1", 6), "attacking a creature is for the digital board"),
        (Mode.TABLE, EndActivation(), "ending an activation is for the digital board"),
        (Mode.DIGITAL, Removal("blue", CreatureKind.SPRITE), "recording a removal is for table"),
        (Mode.DIGITAL, Correction("red", 1, "typo"), "correcting energy by hand is for table"),
        (Mode.DIGITAL, EnergyAndReset(), "recording the board at Energy and Reset is for table"),
        (Mode.DIGITAL, Skip("summoning"), "skipping ahead is for table games"),
    ],
)
def test_the_other_rule_sets_commands_are_refused_by_name(mode, command, refusal):
    state = game(mode).new_initial_state()
    with pytest.raises(IllegalCommand, match=refusal):
        state.apply(command)


def test_the_parts_agree_with_play_and_with_the_board_view():
    """Over whole digital games: every legal command has a sentence of its own, marks spaces
    of the board, and the board view's marks and pointed-out spaces are the declared ones."""
    rng = random.Random(3)
    roll = SeededDice(3)
    places = set(shipped_board("duel-isle").location_ids)
    seen: set[type] = set()
    for _ in range(3):
        state = game(Mode.DIGITAL).new_initial_state()
        while not state.is_terminal:
            legal = state.legal_commands()
            marked = {state.space_of(c): c for c in legal if state.space_of(c) is not None}
            assert {space: target.command for space, target in targets(state).items()} == marked
            for command in legal:
                seen.add(type(command))
                name = type(command).__name__
                assert not str(state.sentence(command)).startswith(name)
                assert set(state.places(command)) <= places
                outcomes = state.chance_outcomes(command)
                assert sum(p for p, _ in outcomes) == pytest.approx(1)
            state.apply(with_rolls(state, rng.choice(legal), roll))
    assert seen == set(DIGITAL_PLAY.declarations)


def test_table_records_with_free_values_are_never_listed():
    state = game(Mode.TABLE).new_initial_state()
    while state.phase is not Phase.ENERGY_AND_RESET:
        state.apply(Skip(state.phase.value))
    assert state.legal_commands() == []
    listed = {
        declaration.command
        for rules in RULE_SETS.values()
        for declaration in rules.declarations.values()
        if declaration.legal is not None or declaration.always is not None
    }
    assert not {Correction, EnergyAndReset, Skip} & listed


def test_a_table_tap_skips_to_the_step_its_declaration_names():
    """A swap's declaration puts it in the Wyrms step, whatever kind the tap names."""
    state = game(Mode.TABLE).new_initial_state()
    state.apply(Summon(CreatureKind.WYRM, by="red"))
    state.apply(Correction("blue", 4, "energy found under the board"))
    state.apply(Summon(CreatureKind.WYRM, by="blue"))
    state.apply(Summon(CreatureKind.TROLL, by="blue"))
    state.apply(Skip("summoning"))
    assert (state.phase, state.step_kind, state.current_player) == (
        Phase.ACTIONS,
        CreatureKind.WYRM,
        "red",
    )
    swap = Swap(by="blue")
    expected = [Skip("actions", CreatureKind.WYRM, "blue"), swap]
    assert state.reach(swap) == state.reach(swap, CreatureKind.SPRITE) == expected
    assert TABLE_PLAY.step(Removal("red", CreatureKind.WYRM), CreatureKind.TROLL) == (
        Phase.ACTIONS,
        CreatureKind.TROLL,
    )
