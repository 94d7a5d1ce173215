"""The design's rulings 1-14, each encoded by tests that cite it, in both modes where it applies."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from pydantic import ValidationError

from companion.engine import Game, GameState, IllegalCommand, Phase
from companion.engine.constants import KIND_INDEX
from companion.engine.dice import attack_odds
from companion.engine.flow import settle
from companion.engine.reset_phase import Pass as TallyPass
from companion.language.render import language
from models.board import Board
from models.commands import (
    Activate,
    Attack,
    Correction,
    Declined,
    Dominate,
    Done,
    EndActivation,
    EnergyAndReset,
    Move,
    Pass,
    Placement,
    Removal,
    Summon,
    Swap,
)
from models.rules import CREATURES, KIND_ORDER, CreatureKind
from models.setup import GameSetup

W, T, S = CreatureKind.WYRM, CreatureKind.TROLL, CreatureKind.SPRITE

# --- helpers ------------------------------------------------------------------------------------

# One line of ten locations: w1-w2-w3-m1-m2-e1-e2-e3-e4-e5, in three territories.
LINE = Board(
    id="test-line",
    name="Test line",
    territories=[
        {"id": "west", "name": "West", "bonus": 2, "locations": ["w1", "w2", "w3"]},
        {"id": "mid", "name": "Mid", "bonus": 1, "locations": ["m1", "m2"]},
        {"id": "east", "name": "East", "bonus": 3, "locations": ["e1", "e2", "e3", "e4", "e5"]},
    ],
    paths=[
        ["w1", "w2"],
        ["w2", "w3"],
        ["w3", "m1"],
        ["m1", "m2"],
        ["m2", "e1"],
        ["e1", "e2"],
        ["e2", "e3"],
        ["e3", "e4"],
        ["e4", "e5"],
    ],
)
BOTH_MODES = pytest.mark.parametrize("mode", ["digital", "table"])


def new_game(mode="digital", players=("red", "blue"), turn_order=(), final_round=6) -> Game:
    """A game on the LINE board."""
    setup = GameSetup(
        players=[{"id": p} for p in players],
        board=LINE,
        mode=mode,
        final_round=final_round,
        turn_order=turn_order,
    )
    return Game(setup, LINE)


def arrange(
    placements=None,
    *,
    mode="digital",
    players=("red", "blue"),
    turn_order=(),
    energy=None,
    phase=Phase.ACTIONS,
    step=W,
    round_no=1,
    final_round=6,
    face_down=(),
    returning=None,
):
    """A state with creatures exactly where the test wants them ({location: (player, kind)}),
    written as position text (docs/engine.md) and read back by the engine.

    Table games only count the creatures on the board (the locations are just labels).
    `returning` gives creatures removed this round ({player: {kind: count}}), back next
    round. The state is settled, so it stops at the first player with a decision in `phase`
    / `step`.
    """
    game = new_game(mode, players, turn_order, final_round)
    seats = {player: index for index, player in enumerate(game.players)}
    on_board = [[0, 0, 0] for _ in game.players]
    ready = [[0, 0, 0] for _ in game.players]
    back = [[0, 0, 0] for _ in game.players]
    tokens: dict[str, str] = {}
    for where, (player, kind) in (placements or {}).items():
        seat, k = seats[player], KIND_INDEX[kind]
        on_board[seat][k] += 1
        down = where in face_down
        ready[seat][k] += 0 if down else 1
        letter = kind.value[0]
        tokens[where] = SEAT_LETTERS[seat] + (letter if down else letter.upper())
    for player, kinds in (returning or {}).items():
        for kind, count in kinds.items():
            back[seats[player]][KIND_INDEX[kind]] = count
    owned = [CREATURES[kind].owned for kind in KIND_ORDER]
    creatures = ",".join(
        "/".join(
            "".join(str(n) for n in row)
            for row in (
                [owned[k] - on_board[seat][k] - back[seat][k] for k in range(3)],
                on_board[seat],
                back[seat],
                ready[seat] if game.digital else on_board[seat],
            )
        )
        for seat in range(len(game.players))
    )
    board = ""
    empty = 0
    for location in game.isle.location_ids:
        if location in tokens and game.digital:
            board += (str(empty) if empty else "") + tokens[location]
            empty = 0
        else:
            empty += 1
    board += str(empty) if empty else ""
    order = "".join(SEAT_LETTERS[seats[p]] for p in (turn_order or game.players))
    energies = ",".join(str((energy or {}).get(p, 5)) for p in game.players)
    text = (
        f"{board} {round_no}/{final_round} {phase.value}:{KIND_INDEX[step]}:0 {order} "
        f"{energies} {creatures} -:0 - - 0 -"
    )
    state = GameState.from_position(game, text)
    settle(state)
    return state


SEAT_LETTERS = "abcd"


def at(state, where):
    """Who stands at a location, as (player, kind), or None."""
    token = state.occupant[state.game.isle.index[where]]
    return None if token is None else (state.game.players[token[0]], KIND_ORDER[token[1]])


def is_down(state, where) -> bool:
    """Whether the creature at a location is face-down."""
    return state.face_down[state.game.isle.index[where]]


def energies(state) -> dict[str, int]:
    """Every player's energy by id."""
    return dict(zip(state.game.players, state.energy, strict=True))


def order(state) -> list[str]:
    """The turn order as player ids."""
    return [state.game.players[seat] for seat in state.turn_order]


def snapshot(state):
    """Everything an illegal command must leave alone."""
    return (
        state.energy[:],
        [r[:] for r in state.reserve],
        [r[:] for r in state.on_board],
        [r[:] for r in state.returning],
        state.occupant[:],
        state.face_down[:],
        state.turn_order[:],
        state.round,
        state.phase,
        state.step,
        state.turn,
        state.active,
        state.actions_left,
    )


def refused(state, command, message: str) -> None:
    """The command is illegal with a message containing `message`, and changes nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalCommand, match=re.escape(message)):
        state.apply(command)
    assert snapshot(state) == before


def pass_round(state) -> None:
    """Pass every remaining decision of the Summoning and Actions phases of this round."""
    start = state.round
    while state.round == start and state.phase in (Phase.SUMMONING, Phase.ACTIONS):
        state.apply(Pass())


# --- Ruling 1: energy starts at 5, never below 0, unpaid summons and swaps are illegal ---------


@BOTH_MODES
def test_energy_starts_at_five(mode):
    """Ruling 1: every player starts on 5 energy."""
    state = new_game(mode, players=("a", "b", "c")).new_initial_state()
    assert state.energy == [5, 5, 5]


@BOTH_MODES
def test_unaffordable_summon_is_refused_with_a_clear_message(mode):
    """Ruling 1: a summon the player cannot pay for is illegal and says why."""
    state = arrange(mode=mode, phase=Phase.SUMMONING, step=W, energy={"red": 4})
    # The step passes red over (one pass rule), and her tap is told why.
    assert state.current_player == "blue"
    refused(
        state,
        Summon(W, "w1" if mode == "digital" else None, by="red"),
        "red cannot summon Wyrms: 4 energy",
    )


@BOTH_MODES
def test_summoning_down_to_exactly_zero(mode):
    """Ruling 1: a player may spend every point, then summons nothing more (never below 0)."""
    state = arrange(mode=mode, phase=Phase.SUMMONING, step=W)
    state.apply(Summon(W, "w1" if mode == "digital" else None))
    assert energies(state) == {"red": 0, "blue": 5}
    # red, on 0, is skipped: blue decides in every remaining summoning step.
    for kind in (W, T, S):
        assert (state.current_player, state.step_kind) == ("blue", kind)
        state.apply(Pass())
    # Digital: red's Wyrm acts. Table (one pass rule): it could remove nothing, blue
    # has no creature, so nobody is asked in the Actions phase.
    assert state.phase is (Phase.ACTIONS if mode == "digital" else Phase.ENERGY_AND_RESET)
    assert energies(state) == {"red": 0, "blue": 5}


def test_unaffordable_wyrm_swap_is_refused_digital():
    """Ruling 1: a Wyrm swap with no energy to pay is illegal, and not offered."""
    state = arrange({"w1": ("red", W), "w2": ("red", T)}, energy={"red": 0})
    state.apply(Activate("w1"))
    assert Swap("w2") not in state.legal_commands()
    refused(state, Swap("w2"), "a Wyrm swap costs 1 energy and red has none")


def test_unaffordable_wyrm_swap_is_refused_table():
    """Ruling 1: at the table too, a Wyrm swap with no energy is illegal, and not offered."""
    state = arrange(
        {"a": ("red", W), "b": ("red", T), "c": ("blue", S)}, mode="table", energy={"red": 0}
    )
    assert state.current_player == "red"  # asked: the Wyrm could remove blue's Sprite
    assert Swap() not in state.legal_commands()
    refused(state, Swap(), "a Wyrm swap costs 1 energy and red has none")


def test_correction_cannot_take_energy_below_zero():
    """Ruling 1: a table correction may reach 0 but never go below it."""
    state = arrange(mode="table", phase=Phase.SUMMONING, energy={"red": 2})
    refused(state, Correction("red", -3, "miscounted"), "that would put red on -1")
    state.apply(Correction("red", -2, "miscounted"))
    assert energies(state)["red"] == 0


def test_correction_record_needs_a_reason_and_stays_on_the_track():
    """Ruling 1: a table correction is on record with its reason and keeps energy within 0-35."""
    state = arrange(mode="table", phase=Phase.SUMMONING, energy={"red": 30})
    refused(state, Correction("red", 2, "   "), "a correction needs a reason")
    refused(state, Correction("red", 0, "nothing"), "a correction of 0 changes nothing")
    refused(state, Correction("red", 6, "counted a bounty"), "that would put red on 36")
    refused(state, Correction("grey", 1, "typo"), "there is no player 'grey' in this game")
    fix = Correction("red", 5, "forgot a bounty")
    assert str(state.sentence(fix)) == "red's energy corrected by +5 (30 → 35): forgot a bounty"
    state.apply(fix)
    assert energies(state) == {"red": 35, "blue": 5}
    assert state.phase is Phase.SUMMONING  # 35 is on the track: no win
    digital = arrange(phase=Phase.SUMMONING)
    refused(digital, Correction("red", 1, "typo"), "correcting energy by hand is for table games")


# --- Ruling 2: modifier bands ---------------------------------------------------------------


@BOTH_MODES
@pytest.mark.parametrize(
    ("before", "after"),
    [
        ((9, 10), (14, 13)),
        ((18, 19), (21, 19)),
        ((23, 24), (23, 21)),
        ((29, 30), (26, 25)),
        ((0, 35), (5, 30)),
    ],
)
def test_energy_modifier_bands(mode, before, after):
    """Ruling 2: 0-9 +5; 10-18 +3; 19-23 nothing; 24-29 -3; 30-35 -5, applied at reset."""
    state = arrange(
        mode=mode, phase=Phase.SUMMONING, energy=dict(zip(("red", "blue"), before, strict=True))
    )
    pass_round(state)
    if mode == "table":
        assert state.phase is Phase.ENERGY_AND_RESET
        state.apply(EnergyAndReset())
    assert state.round == 2
    assert (energies(state)["red"], energies(state)["blue"]) == after
    assert [line.modifier for line in state.last_tally.players] == [
        a - b for a, b in zip(after, before, strict=True)
    ]


# --- Ruling 3: summoning by kind, in turn order, any number, any vacant location --------------


@BOTH_MODES
def test_summoning_goes_by_kind_then_turn_order(mode):
    """Ruling 3: Wyrms, then Trolls, then Sprites; in each step every player in turn order."""
    state = arrange(
        mode=mode,
        turn_order=("blue", "red"),
        phase=Phase.SUMMONING,
        step=W,
        energy={"red": 20, "blue": 20},
    )
    digital = mode == "digital"

    def summon(kind, where):
        state.apply(Summon(kind, where if digital else None))

    assert (state.current_player, state.step_kind) == ("blue", W)
    refused(state, Summon(T, "w1" if digital else None), "it is the Wyrms step, not Trolls")
    summon(W, "w1")  # blue owns one Wyrm: its step is over by itself
    assert (state.current_player, state.step_kind) == ("red", W)
    summon(W, "w2")
    assert (state.current_player, state.step_kind) == ("blue", T)
    summon(T, "w3")
    summon(T, "m1")  # as many as they choose
    assert (state.current_player, state.step_kind) == ("blue", T)
    state.apply(Pass())
    assert (state.current_player, state.step_kind) == ("red", T)
    state.apply(Pass())  # or none
    assert (state.current_player, state.step_kind) == ("blue", S)
    summon(S, "e5")
    state.apply(Pass())
    assert (state.current_player, state.step_kind) == ("red", S)
    summon(S, "e1")
    state.apply(Pass())
    assert state.phase is Phase.ACTIONS
    assert energies(state) == {"blue": 20 - 5 - 3 - 3 - 1, "red": 20 - 5 - 1}
    assert state.on_board == [[1, 0, 1], [1, 2, 1]]
    assert state.reserve == [[0, 3, 8], [0, 1, 8]]
    if digital:
        assert [at(state, x) for x in ("w1", "w2", "w3", "m1", "e5", "e1")] == [
            ("blue", W),
            ("red", W),
            ("blue", T),
            ("blue", T),
            ("blue", S),
            ("red", S),
        ]


def test_summon_onto_any_vacant_location_only():
    """Ruling 3: a digital summon goes onto a vacant location, anywhere on the isle."""
    state = arrange({"e3": ("blue", S)}, phase=Phase.SUMMONING, step=S)
    legal = state.legal_commands()
    assert Summon(S, "e3") not in legal
    assert {c.location for c in legal if isinstance(c, Summon)} == set(LINE.location_ids) - {"e3"}
    refused(state, Summon(S, "e3"), "East 3 is not vacant")
    refused(state, Summon(S, None), "the digital board needs a location")
    refused(state, Summon(S, "x9"), "there is no location 'x9' on this board")


def test_no_vacant_location_means_no_summon():
    """Ruling 3: with every location taken, nobody can summon and the phase moves on."""
    placed = {x: ("blue", S) for x in LINE.location_ids[:9]} | {"e5": ("red", S)}
    state = arrange(placed, phase=Phase.SUMMONING, step=W)
    assert (state.phase, state.step_kind, state.current_player) == (Phase.ACTIONS, S, "red")


def test_table_summons_record_no_location():
    """Ruling 3: at the table a summon is recorded without a location."""
    state = arrange(mode="table", phase=Phase.SUMMONING, step=S)
    # And, as in every table step, nothing more this phase or round (engine/ahead.py).
    assert state.legal_commands() == [Summon(S), Done("summoning"), Done("round"), Pass()]
    refused(state, Summon(S, "w1"), "table games do not record locations for summons")


# --- Ruling 4: creatures stay; removed ones come back next round -------------------------------


def test_creatures_stay_on_the_board_across_rounds():
    """Ruling 4: creatures stay where they are into the next round, face-up again."""
    state = arrange({"w1": ("red", T), "e5": ("blue", S)}, step=T)
    state.apply(Activate("w1"))
    state.apply(Move("w2"))
    state.apply(EndActivation())
    pass_round(state)
    assert state.round == 2
    assert (at(state, "w2"), at(state, "e5")) == (("red", T), ("blue", S))
    assert state.on_board == [[0, 1, 0], [0, 0, 1]]
    assert not any(state.face_down)


def test_removed_creature_returns_next_round_digital():
    """Ruling 4: a removed Wyrm is out for the rest of the round, back in reserve next round."""
    state = arrange({"m2": ("blue", W), "e1": ("red", W)}, turn_order=("blue", "red"))
    state.apply(Activate("m2"))
    state.apply(Attack("e1", attack_roll=4))
    assert state.reserve[0][0] == 0
    assert state.on_board[0][0] == 0
    assert state.returning[0][0] == 1
    pass_round(state)
    assert state.round == 2
    assert state.reserve[0][0] == 1
    assert state.returning[0][0] == 0
    # Round 2: red (10 after reset, lowest) may summon the Wyrm again.
    assert energies(state) == {"red": 10, "blue": 13}
    assert (state.current_player, state.step_kind) == ("red", W)
    state.apply(Summon(W, "w1"))
    assert at(state, "w1") == ("red", W)


def test_removed_creature_does_not_act_this_round():
    """Ruling 4: blue's Troll, removed before it acted, gets no turn in the Troll step."""
    placed = {"m1": ("red", T), "m2": ("blue", T), "e5": ("blue", S)}
    state = arrange(placed, step=T)
    state.apply(Activate("m1"))
    state.apply(Attack("m2", attack_roll=6))
    state.apply(EndActivation())
    assert (state.current_player, state.step_kind) == ("blue", S)
    assert [c for c in state.legal_commands() if isinstance(c, Activate)] == [Activate("e5")]


def test_removed_creature_returns_next_round_table():
    """Ruling 4: a recorded removal keeps the creature out until the next round."""
    state = arrange({"a": ("red", T), "b": ("blue", T)}, mode="table", step=T)
    assert state.current_player == "red"
    state.apply(Removal("blue", T))
    assert (state.reserve[1][1], state.on_board[1][1], state.returning[1][1]) == (2, 0, 1)
    pass_round(state)
    state.apply(EnergyAndReset(placements=(Placement("w1", "red", T),)))
    assert (state.reserve[1][1], state.on_board[1][1], state.returning[1][1]) == (3, 0, 0)


def test_summon_of_a_removed_creature_this_round_says_when_it_returns():
    """Ruling 4: trying to summon a creature that is away this round names its return."""
    state = arrange(phase=Phase.SUMMONING, step=W, returning={"red": {W: 1}})
    # The step passes red over, and her tap is told why.
    assert state.current_player == "blue"
    refused(state, Summon(W, "w1", by="red"), "red has no Wyrms left to summon (1 back next round)")


def test_unrecorded_missing_creature_returns_next_round_table():
    """Ruling 4: a creature on record but not seen at reset is treated as removed."""
    state = arrange({"a": ("red", S), "b": ("red", S)}, mode="table", phase=Phase.ENERGY_AND_RESET)
    state.apply(EnergyAndReset(placements=(Placement("e1", "red", S),)))
    assert (state.reserve[0][2], state.on_board[0][2], state.returning[0][2]) == (8, 1, 0)


# --- Ruling 5: action phase by kind, one creature at a time, limits 2/3/1 ----------------------


@pytest.mark.parametrize(
    ("kind", "path"),
    [(W, ["w2", "w3"]), (T, ["w2", "w3", "m1"]), (S, ["w2"])],
)
def test_action_limits(kind, path):
    """Ruling 5: a Wyrm takes up to 2 actions, a Troll 3, a Sprite 1; then it is done."""
    # blue's creature of the same kind keeps the round from ending when red is done.
    state = arrange({"w1": ("red", kind), "e5": ("blue", kind)}, step=kind)
    state.apply(Activate("w1"))
    assert state.actions_left == CREATURES[kind].actions == len(path)
    for where in path:
        state.apply(Move(where))
    assert state.active is None
    assert at(state, path[-1]) == ("red", kind)
    assert is_down(state, path[-1])
    refused(state, Move("e5"), "no creature is being activated")


def test_actions_go_by_kind_then_turn_order_digital():
    """Ruling 5: the Wyrm step, then the Troll step, each player in turn order."""
    state = arrange(
        {"w1": ("red", W), "w3": ("blue", W), "e5": ("red", T), "e3": ("blue", T)},
        turn_order=("blue", "red"),
    )
    assert (state.current_player, state.step_kind) == ("blue", W)
    refused(state, Activate("e3"), "blue has no Wyrm at East 3")
    state.apply(Activate("w3"))
    state.apply(EndActivation())
    assert (state.current_player, state.step_kind) == ("red", W)
    state.apply(Pass())
    assert (state.current_player, state.step_kind) == ("blue", T)
    state.apply(Pass())
    assert (state.current_player, state.step_kind) == ("red", T)
    state.apply(Pass())
    # Nobody has a Sprite: the round goes on to Energy and Reset and round 2.
    assert state.round == 2


def test_actions_go_by_kind_then_turn_order_table():
    """Ruling 5: at the table too, only players with creatures of the step's kind are asked."""
    state = arrange({"a": ("red", T), "b": ("blue", S), "c": ("red", S)}, mode="table")
    assert (state.current_player, state.step_kind) == ("red", T)
    state.apply(Pass())
    assert (state.current_player, state.step_kind) == ("red", S)
    state.apply(Pass())
    assert (state.current_player, state.step_kind) == ("blue", S)
    state.apply(Pass())
    assert state.phase is Phase.ENERGY_AND_RESET


def test_one_creature_at_a_time_in_the_players_order():
    """Ruling 5: finish one Troll before the next; the player chooses which goes first."""
    state = arrange({"w1": ("red", T), "e5": ("red", T)}, step=T)
    state.apply(Activate("e5"))
    refused(state, Activate("w1"), "finish the creature at East 5 before activating another")
    state.apply(Move("e4"))
    state.apply(EndActivation())
    assert is_down(state, "e4")
    refused(state, Activate("e4"), "the Troll at East 4 has already acted this round")
    state.apply(Activate("w1"))
    assert state.actions_left == 3


def test_zero_actions_is_allowed():
    """Ruling 5: a creature may be activated and end at once, taking no action."""
    state = arrange({"w1": ("red", T), "e5": ("red", T)}, step=T, energy={"red": 7})
    state.apply(Activate("w1"))
    state.apply(EndActivation())
    assert at(state, "w1") == ("red", T)
    assert is_down(state, "w1")
    assert energies(state)["red"] == 7
    assert state.current_player == "red"  # the other Troll may still act
    assert Activate("e5") in state.legal_commands()


def test_creatures_summoned_this_round_act_this_round():
    """Ruling 5: a Troll summoned in this round's Summoning phase acts in its Actions phase."""
    state = new_game().new_initial_state()
    state.apply(Pass())  # red: no Wyrm
    state.apply(Pass())  # blue: no Wyrm
    state.apply(Summon(T, "w1"))  # red, 5 -> 2, cannot afford another
    assert (state.current_player, state.step_kind) == ("blue", T)
    state.apply(Pass())
    state.apply(Pass())  # red: no Sprites
    state.apply(Pass())  # blue: no Sprites
    assert (state.phase, state.step_kind, state.current_player) == (Phase.ACTIONS, T, "red")
    assert state.legal_commands()[0] == Activate("w1")


# --- Ruling 6: moves --------------------------------------------------------------------------


def test_move_through_own_creature_costs_its_full_length():
    """Ruling 6: one command passes through a friend, costing one action per location entered."""
    state = arrange({"w1": ("red", T), "w2": ("red", S)}, step=T)
    state.apply(Activate("w1"))
    moves = {c.to for c in state.legal_commands() if isinstance(c, Move)}
    assert moves == {"w3", "m1"}
    assert str(state.sentence(Move("w3"))) == "red's Troll at West 1 moves to West 3 (2 actions)"
    state.apply(Move("w3"))
    assert state.actions_left == 1
    assert (at(state, "w1"), at(state, "w2"), at(state, "w3")) == (None, ("red", S), ("red", T))


def test_move_through_empty_locations_costs_one_each():
    """Ruling 6: one action per location entered, empty ones too."""
    state = arrange({"w1": ("red", T)}, step=T)
    state.apply(Activate("w1"))
    state.apply(Move("m1"))
    assert state.actions_left == 0
    assert at(state, "m1") == ("red", T)


def test_move_must_end_on_an_empty_location():
    """Ruling 6: a move may not end on a friend."""
    state = arrange({"w1": ("red", T), "w2": ("red", S)}, step=T)
    state.apply(Activate("w1"))
    refused(
        state, Move("w2"), "West 2 is taken by red's Sprite: a creature moves only onto an empty"
    )


def test_move_never_through_a_rival():
    """Ruling 6: a rival's creature blocks the way; it can be attacked instead."""
    state = arrange({"w1": ("red", T), "w2": ("blue", S)}, step=T)
    state.apply(Activate("w1"))
    assert [c for c in state.legal_commands() if isinstance(c, Move)] == []
    assert Attack("w2") in state.legal_commands()
    refused(state, Move("w3"), "the creature at West 1 cannot reach West 3 with 3 actions left")


def test_move_too_long_for_the_actions_left():
    """Ruling 6: a Sprite (1 action) cannot pass through a friend, which needs 2."""
    state = arrange({"w1": ("red", S), "w2": ("red", T)}, step=S)
    state.apply(Activate("w1"))
    assert state.legal_commands() == [EndActivation(), Pass()]
    refused(state, Move("w3"), "cannot reach West 3 with 1 action left")


# --- Ruling 7: attacks --------------------------------------------------------------------------


def test_sprite_defence_rulebook_example():
    """Ruling 7, rulebook example: Troll 4+2=6 against Sprite 4+3 other Sprites=7: fails."""
    placed = {"m2": ("john", T), "e1": ("sarah", S)}
    placed |= {x: ("sarah", S) for x in ("e2", "e3", "e4")}
    state = arrange(placed, players=("john", "sarah"), step=T, energy={"john": 10})
    assert state.current_player == "john"
    state.apply(Activate("m2"))
    attack = Attack("e1", attack_roll=4, defence_roll=4)
    assert str(state.sentence(attack)) == (
        "john's Troll at Mid 2 attacks sarah's Sprite at East 1: "
        "4+2=6 against 4+3=7, the attack fails"
    )
    state.apply(attack)
    assert (at(state, "m2"), at(state, "e1")) == (("john", T), ("sarah", S))
    assert energies(state) == {"john": 10, "sarah": 5}
    assert state.actions_left == 2  # John may attack again
    # A second attack that matches the defence succeeds.
    state.apply(Attack("e1", attack_roll=5, defence_roll=4))
    assert (at(state, "m2"), at(state, "e1")) == (None, ("john", T))
    assert energies(state)["john"] == 11
    assert state.on_board[1][2] == 3
    assert state.returning[1][2] == 1
    assert state.actions_left == 1


def test_sprite_defence_counts_only_the_owners_other_sprites_in_the_territory():
    """Ruling 7: a rival's Sprite, the owner's Troll and Sprites elsewhere add nothing."""
    placed = {
        "m2": ("john", T),
        "e1": ("sarah", S),
        "e2": ("sarah", S),  # counts: +1
        "e3": ("john", S),  # a rival's Sprite
        "e4": ("sarah", T),  # not a Sprite
        "m1": ("sarah", S),  # another territory
    }
    state = arrange(placed, players=("john", "sarah"), step=T)
    state.apply(Activate("m2"))
    attack = Attack("e1", attack_roll=1, defence_roll=2)
    assert str(state.sentence(attack)).endswith(
        "1+2=3 against 2+1=3, removed, and the attacker moves into its space; john gains 1 (5 → 6)"
    )
    state.apply(attack)
    assert at(state, "e1") == ("john", T)


def test_a_won_attack_says_the_attacker_moves_into_the_space_it_won_in_both_languages():
    """Ruling 7: on success the attacker moves into the defender's location, and its
    sentence says so."""
    state = arrange({"m2": ("john", T), "e1": ("sarah", T)}, players=("john", "sarah"), step=T)
    state.apply(Activate("m2"))
    won = Attack("e1", attack_roll=6)
    english = str(state.sentence(won))
    french = language("fr").render(state.sentence(won))
    assert "removed, and the attacker moves into its space;" in english
    assert "retiré, et l'attaquant prend sa case\u202f;" in french
    lost = Attack("e1", attack_roll=1)
    assert "moves into" not in str(state.sentence(lost))
    state.apply(won)
    assert at(state, "e1") == ("john", T) and at(state, "m2") is None


@pytest.mark.parametrize(
    ("attacker", "defender", "roll", "success"),
    [
        (W, W, 4, True),  # 4+4=8 against 8
        (W, W, 3, False),
        (T, T, 5, True),  # 5+2=7 against 7
        (T, T, 4, False),
        (T, W, 6, True),  # 6+2=8 against 8
        (S, T, 6, True),  # 6+1=7 against 7
        (S, W, 6, False),  # a Sprite can never beat a Wyrm
    ],
)
def test_attack_total_against_fixed_defence(attacker, defender, roll, success):
    """Ruling 7: d6 + bonus (Wyrm 4, Troll 2, Sprite 1) succeeds at or above 8 / 7."""
    # blue's Sprite at e5 keeps the round going after a Sprite's single action.
    placed = {"m1": ("red", attacker), "m2": ("blue", defender), "e5": ("blue", S)}
    state = arrange(placed, step=attacker, energy={"red": 10})
    state.apply(Activate("m1"))
    state.apply(Attack("m2", attack_roll=roll))
    bounty = CREATURES[defender].bounty
    if success:
        assert (at(state, "m1"), at(state, "m2")) == (None, ("red", attacker))
        assert energies(state) == {"red": 10 + bounty, "blue": 5}
        assert state.returning[1][KIND_INDEX[defender]] == 1
    else:
        assert (at(state, "m1"), at(state, "m2")) == (("red", attacker), ("blue", defender))
        assert energies(state) == {"red": 10, "blue": 5}
        assert state.returning[1] == [0, 0, 0]


@pytest.mark.parametrize(("victim", "bounty"), [(W, 3), (T, 2), (S, 1)])
def test_bounty_is_paid_at_once_digital(victim, bounty):
    """Ruling 7: removing a Wyrm / Troll / Sprite pays 3 / 2 / 1 at once, with no action."""
    state = arrange({"m1": ("red", W), "m2": ("blue", victim)}, energy={"red": 10})
    state.apply(Activate("m1"))
    state.apply(Attack("m2", attack_roll=6, defence_roll=1 if victim is S else None))
    assert energies(state)["red"] == 10 + bounty
    # Moving in costs nothing: the Wyrm has its second action left, still at m2.
    assert (state.active, state.actions_left) == (LINE.location_ids.index("m2"), 1)


@pytest.mark.parametrize(("victim", "bounty"), [(W, 3), (T, 2), (S, 1)])
def test_bounty_is_paid_at_once_table(victim, bounty):
    """Ruling 7: a recorded removal pays 3 / 2 / 1 to the player whose turn it is (a Troll
    removes any kind: 2 + 6 reaches even a Wyrm's defence of 8)."""
    # Blue's second creature leaves red's Troll something to do after (the one pass rule).
    state = arrange(
        {"a": ("red", T), "b": ("blue", victim), "c": ("blue", S)},
        mode="table",
        step=T,
        energy={"red": 10},
    )
    assert state.current_player == "red"
    assert str(state.sentence(Removal("blue", victim))) == (
        f"red removes blue's {victim.title} and gains {bounty} (10 → {10 + bounty})"
    )
    state.apply(Removal("blue", victim))
    assert energies(state) == {"red": 10 + bounty, "blue": 5}


def test_removal_record_checks():
    """Ruling 7: a removal names a rival's creature that is on the board by the record."""
    state = arrange({"a": ("red", T), "b": ("blue", S)}, mode="table", step=T)
    refused(state, Removal("red", T), "red cannot remove their own creature for a bounty")
    refused(state, Removal("blue", W), "blue has no Wyrm on the board")
    refused(state, Removal("grey", S), "there is no player 'grey' in this game")
    assert [c for c in state.legal_commands() if isinstance(c, Removal)] == [Removal("blue", S)]
    early = arrange({"a": ("red", T), "b": ("blue", S)}, mode="table", phase=Phase.SUMMONING)
    refused(early, Removal("blue", S), "removing a creature belongs to the actions phase")
    digital = arrange({"m1": ("red", T), "m2": ("blue", S)}, step=T)
    refused(digital, Removal("blue", S), "recording a removal is for table games")


def test_attack_needs_an_adjacent_enemy_and_the_dice():
    """Ruling 7: only an adjacent enemy can be attacked; the dice travel with the command."""
    placed = {"m1": ("red", T), "m2": ("blue", T), "w3": ("red", S), "e1": ("blue", S)}
    state = arrange(placed, step=T)
    state.apply(Activate("m1"))
    assert [c for c in state.legal_commands() if isinstance(c, Attack)] == [Attack("m2")]
    refused(state, Attack("e1", 6, 1), "East 1 is not next to the active creature")
    refused(state, Attack("w3", 6, 1), "there is no enemy creature at West 3")
    refused(state, Attack("m2"), "an attack needs the attacker's die roll")
    refused(state, Attack("m2", 6, 3), "only a Sprite rolls to defend")


def test_attack_on_a_sprite_needs_the_defenders_roll():
    """Ruling 7: the Sprite's owner rolls its defence."""
    state = arrange({"m1": ("red", T), "m2": ("blue", S)}, step=T)
    state.apply(Activate("m1"))
    refused(state, Attack("m2", 6), "an attack on a Sprite needs the defender's die roll too")


@pytest.mark.parametrize(
    ("attacker", "defender", "support", "odds"),
    [
        (T, T, 0, Fraction(2, 6)),  # 5 or 6, +2, reaches 7
        (W, W, 0, Fraction(3, 6)),  # 4, 5 or 6, +4, reaches 8
        (S, W, 0, Fraction(0)),  # 6+1 never reaches 8
        (W, S, 0, Fraction(35, 36)),  # only 1+4 against a lone Sprite's 6 fails
        (T, S, 3, Fraction(15, 36)),  # d6+2 against d6+3: the attacker's die must be higher
    ],
)
def test_one_statement_of_the_attack_gives_odds_outcomes_and_sentences(
    attacker, defender, support, odds
):
    """Ruling 7: the odds, the chance outcomes, the applied result and the sentence agree."""
    assert attack_odds(attacker, defender, support) == odds
    placed = {"m2": ("red", attacker), "e1": ("blue", defender)}
    # The defending Sprite's support: its owner's other Sprites in East.
    placed |= {f"e{2 + i}": ("blue", S) for i in range(support)}
    state = arrange(placed, step=attacker, energy={"red": 10})
    state.apply(Activate("m2"))
    outcomes = state.chance_outcomes(Attack("e1"))
    assert sum(p for p, _ in outcomes) == pytest.approx(1)
    assert len(outcomes) == (1 if odds == 0 else 2)
    for probability, rolled in outcomes:
        after = state.clone()
        after.apply(rolled)
        removed = at(after, "e1") == ("red", attacker)
        assert probability == pytest.approx(float(odds if removed else 1 - odds))
        assert str(state.sentence(rolled)).endswith("fails") is not removed
    assert state.chance_outcomes(Move("m1")) == [(1.0, Move("m1"))]


# --- Ruling 8: Wyrm swap ------------------------------------------------------------------------


def test_wyrm_swap_costs_one_energy_and_no_action():
    """Ruling 8: the active Wyrm trades places with its own neighbour for 1 energy, any times."""
    state = arrange({"w2": ("red", W), "w3": ("red", T), "w1": ("red", S)})
    state.apply(Activate("w2"))
    assert str(state.sentence(Swap("w3"))) == (
        "red's Wyrm at West 2 trades places with red's Troll at West 3 for 1 energy (5 → 4)"
    )
    state.apply(Swap("w3"))
    assert (at(state, "w2"), at(state, "w3")) == (("red", T), ("red", W))
    assert (energies(state)["red"], state.actions_left) == (4, 2)
    state.apply(Swap("w2"))
    state.apply(Swap("w1"))
    assert (at(state, "w1"), at(state, "w2"), at(state, "w3")) == (
        ("red", W),
        ("red", S),
        ("red", T),
    )
    assert (energies(state)["red"], state.actions_left) == (2, 2)


def test_wyrm_swap_down_to_zero_then_no_more():
    """Rulings 1 and 8: the last point of energy pays a swap; then no swap is offered."""
    state = arrange({"w2": ("red", W), "w3": ("red", T)}, energy={"red": 1})
    state.apply(Activate("w2"))
    state.apply(Swap("w3"))
    assert energies(state)["red"] == 0
    assert state.actions_left == 2
    assert [c for c in state.legal_commands() if isinstance(c, Swap)] == []
    refused(state, Swap("w2"), "a Wyrm swap costs 1 energy and red has none")


def test_swapped_creature_still_acts_in_its_own_step():
    """Ruling 8: the Troll a Wyrm traded places with acts later from its new location."""
    state = arrange({"w2": ("red", W), "w3": ("red", T)})
    state.apply(Activate("w2"))
    state.apply(Swap("w3"))
    state.apply(EndActivation())
    assert (state.current_player, state.step_kind) == ("red", T)
    assert state.legal_commands()[0] == Activate("w2")


def test_wyrm_swap_only_with_an_adjacent_own_creature():
    """Ruling 8: not with an empty location, a rival, or a creature two steps away."""
    state = arrange({"w2": ("red", W), "w3": ("blue", T), "m1": ("red", T)})
    state.apply(Activate("w2"))
    assert [c for c in state.legal_commands() if isinstance(c, Swap)] == []
    refused(state, Swap("w3"), "the Wyrm has no creature of its own to swap with at West 3")
    refused(state, Swap("w1"), "the Wyrm has no creature of its own to swap with at West 1")
    refused(state, Swap("m1"), "the Wyrm has no creature of its own to swap with at Mid 1")


def test_wyrm_can_still_swap_after_its_actions():
    """Ruling 8: swaps happen any time during the Wyrm's activation, even with no actions left."""
    state = arrange({"w1": ("red", W), "m1": ("red", S)})
    state.apply(Activate("w1"))
    state.apply(Move("w2"))
    state.apply(Move("w3"))
    assert (state.active, state.actions_left) == (LINE.location_ids.index("w3"), 0)
    state.apply(Swap("m1"))
    assert (at(state, "w3"), at(state, "m1")) == (("red", S), ("red", W))
    assert energies(state)["red"] == 4
    state.apply(EndActivation())
    assert is_down(state, "m1")
    assert not is_down(state, "w3")  # the Sprite still has to act


def test_only_a_wyrm_swaps():
    """Ruling 8: a Troll's activation has no swap."""
    state = arrange({"w1": ("red", T), "w2": ("red", S)}, step=T)
    state.apply(Activate("w1"))
    refused(state, Swap("w2"), "only a Wyrm can swap places")


def test_wyrm_swap_table():
    """Ruling 8: at the table a swap is recorded in the Wyrms step for 1 energy, no location."""
    state = arrange({"a": ("red", W), "b": ("red", S)}, mode="table")
    assert state.legal_commands() == [Swap(), Done("round"), Pass()]
    state.apply(Swap())
    state.apply(Swap())
    assert energies(state)["red"] == 3
    assert (state.current_player, state.step_kind) == ("red", W)
    refused(state, Swap("a"), "table games do not record locations for swaps")
    lonely = arrange({"a": ("red", W), "b": ("blue", S)}, mode="table")
    refused(lonely, Swap(), "red has no other creature on the board to swap with")


# --- Ruling 9: inactive creatures can be attacked; reset turns them face-up ----------------------


def test_face_down_creature_can_be_attacked():
    """Ruling 9: a Troll that has already acted can still be attacked and removed."""
    state = arrange(
        {"m2": ("blue", T), "m1": ("red", T)}, turn_order=("blue", "red"), step=T, face_down=["m2"]
    )
    assert state.current_player == "red"  # blue's only Troll has acted
    state.apply(Activate("m1"))
    assert Attack("m2") in state.legal_commands()
    state.apply(Attack("m2", attack_roll=5))
    assert at(state, "m2") == ("red", T)
    assert energies(state)["red"] == 7


def test_reset_turns_every_creature_face_up():
    """Ruling 9: all creatures turn face-up at Energy and Reset."""
    state = arrange({"w1": ("red", T), "e5": ("blue", T)}, step=T)
    state.apply(Activate("w1"))
    state.apply(EndActivation())
    state.apply(Activate("e5"))
    state.apply(EndActivation())
    assert state.round == 2
    assert (is_down(state, "w1"), is_down(state, "e5")) == (False, False)


# --- Ruling 10: Energy and Reset in three passes -----------------------------------------------


def test_reset_passes_in_order_digital():
    """Ruling 10: modifiers, then uncontested Sprites, then domination (asked, optional)."""
    placed = {
        "w1": ("red", S),
        "w2": ("red", S),
        "w3": ("red", T),  # red holds West (bonus 2): 2 Sprites and a Troll
        "m1": ("blue", S),
        "m2": ("blue", S),  # blue holds Mid (bonus 1)
        "e1": ("red", S),
        "e2": ("blue", S),  # East is contested
    }
    state = arrange(placed, step=S, face_down=list(placed), energy={"red": 12, "blue": 20})
    assert state.phase is Phase.ENERGY_AND_RESET
    assert state.current_player == "red"
    assert state.legal_commands() == [Dominate("west", True), Dominate("west", False)]
    refused(state, Dominate("mid", True), "the decision now is red's bonus for west")
    assert str(state.sentence(Dominate("west", True))) == (
        "red takes the 2-energy bonus for holding West"
    )
    state.apply(Dominate("west", True))
    assert state.current_player == "blue"
    state.apply(Dominate("mid", False))
    assert state.round == 2
    red, blue = state.last_tally.player("red"), state.last_tally.player("blue")
    assert (red.modifier, red.sprites, red.domination, red.after) == (3, 2, 2, 19)
    assert (blue.modifier, blue.sprites, blue.domination, blue.after) == (0, 2, 0, 22)
    assert energies(state) == {"red": 19, "blue": 22}


def test_reset_with_placements_and_declined_domination_table():
    """Ruling 10: at the table the seen board and any declined bonus give the same passes."""
    counts = {"a": ("red", S), "b": ("red", S), "c": ("red", T), "d": ("blue", S)}
    state = arrange(counts, mode="table", phase=Phase.ENERGY_AND_RESET, energy={"red": 12})
    command = EnergyAndReset(
        placements=(
            Placement("w1", "red", S),
            Placement("w2", "red", S),
            Placement("w3", "red", T),
            Placement("m1", "blue", S),
        ),
        declined=(Declined("red", "west"),),
    )
    assert str(state.sentence(command)) == (
        "Energy and Reset of round 1 with 4 creatures on the board, 1 bonus declined"
    )
    state.apply(command)
    red, blue = state.last_tally.player("red"), state.last_tally.player("blue")
    assert (red.modifier, red.sprites, red.domination, red.after) == (3, 2, 0, 17)
    assert [(d.territory, d.taken) for d in red.dominated] == [("west", False)]
    assert (blue.modifier, blue.sprites, blue.domination, blue.after) == (5, 1, 0, 11)
    assert energies(state) == {"red": 17, "blue": 11}
    assert order(state) == ["blue", "red"]
    assert (at(state, "w1"), at(state, "m1"), at(state, "m2")) == (("red", S), ("blue", S), None)


def test_table_reset_checks_its_record():
    """Ruling 10: the table's board record must match the creatures on record."""
    state = arrange({"a": ("red", S)}, mode="table", phase=Phase.ENERGY_AND_RESET)
    two = (Placement("w1", "red", S), Placement("w2", "red", S))
    refused(
        state,
        EnergyAndReset(placements=two),
        "red has 1 Sprites on the board by the record, not 2: record the summon first",
    )
    same = (Placement("w1", "red", S), Placement("w1", "blue", S))
    refused(state, EnergyAndReset(placements=same), "location w1 holds two creatures")
    refused(
        state,
        EnergyAndReset(declined=(Declined("red", "nowhere"),)),
        "there is no territory 'nowhere' on this board",
    )
    early = arrange(mode="table", phase=Phase.SUMMONING)
    refused(early, EnergyAndReset(), "Energy and Reset comes after the Actions phase")
    digital = arrange(phase=Phase.SUMMONING)
    refused(digital, EnergyAndReset(), "recording the board at Energy and Reset is for table")


# --- Ruling 11: 36 wins at once -----------------------------------------------------------------


def test_bounty_reaching_36_wins_at_once_digital():
    """Ruling 11: an attack's bounty that reaches 36 ends the game there, Summoner status."""
    state = arrange(
        {"m1": ("red", W), "m2": ("blue", W), "e5": ("blue", T)}, energy={"red": 33, "blue": 30}
    )
    state.apply(Activate("m1"))
    state.apply(Attack("m2", attack_roll=5))
    assert state.phase is Phase.GAME_OVER
    assert (state.winner_id, state.summoner, state.is_terminal) == ("red", True, True)
    assert energies(state) == {"red": 36, "blue": 30}
    assert at(state, "m2") == ("red", W)
    assert state.legal_commands() == []
    refused(state, Pass(), "the game is over")


def test_removal_reaching_36_wins_at_once_table():
    """Ruling 11: a recorded removal that reaches 36 wins at once."""
    state = arrange({"a": ("red", T), "b": ("blue", S)}, mode="table", step=T, energy={"red": 35})
    state.apply(Removal("blue", S))
    assert (state.phase, state.winner_id, state.summoner) == (Phase.GAME_OVER, "red", True)
    assert energies(state)["red"] == 36


def test_sprite_pass_reaching_36_wins_without_asking_for_domination():
    """Ruling 11: 36 in the Sprite pass ends the game; no later pass or choice is made."""
    placed = {x: ("red", S) for x in ("e1", "e2", "e3", "e4", "e5", "w1")}
    placed |= {"m1": ("blue", S), "m2": ("blue", S)}
    state = arrange(placed, step=S, face_down=list(placed), energy={"red": 35, "blue": 10})
    assert state.phase is Phase.GAME_OVER
    assert (state.winner_id, state.summoner) == ("red", True)
    assert state.last_tally.decided_in is TallyPass.SPRITES
    assert energies(state) == {"red": 36, "blue": 13}  # blue's Sprites were never counted


def test_domination_reaching_36_wins_digital():
    """Ruling 11: taking a domination bonus that reaches 36 wins at once."""
    placed = {x: ("red", S) for x in ("e1", "e2", "e3", "e4", "e5")}
    state = arrange(placed, step=S, face_down=list(placed), energy={"red": 35, "blue": 10})
    assert state.legal_commands() == [Dominate("east", True), Dominate("east", False)]
    state.apply(Dominate("east", True))
    assert (state.phase, state.winner_id, state.summoner) == (Phase.GAME_OVER, "red", True)
    assert energies(state) == {"red": 38, "blue": 13}


def test_winning_domination_bonus_stops_the_game_at_once():
    """Ruling 11: red takes a bonus that reaches 36; the game stops, blue is not asked."""
    placed = {x: ("red", S) for x in ("e1", "e2", "e3", "e4", "e5")}
    placed |= {"m1": ("blue", S), "m2": ("blue", S)}  # blue holds Mid: a later choice
    state = arrange(placed, step=S, face_down=list(placed), energy={"red": 35, "blue": 10})
    assert state.current_player == "red"
    state.apply(Dominate("east", True))
    assert (state.phase, state.winner_id, state.summoner) == (Phase.GAME_OVER, "red", True)
    assert state.legal_commands() == []
    assert energies(state) == {"red": 38, "blue": 15}


# --- Ruling 12: next turn order -------------------------------------------------------------------


def test_next_turn_order_rulebook_tie_example_table():
    """Ruling 12, rulebook example: John (2nd) and Sarah (4th) tie for first; Sarah goes first."""
    players = ("ann", "john", "bob", "sarah")
    state = arrange(
        mode="table",
        players=players,
        phase=Phase.ENERGY_AND_RESET,
        energy={"ann": 20, "john": 10, "bob": 25, "sarah": 10},
    )
    state.apply(EnergyAndReset())
    assert energies(state) == {"ann": 20, "john": 13, "bob": 22, "sarah": 13}
    assert order(state) == ["sarah", "john", "ann", "bob"]
    assert state.round == 2


def test_next_turn_order_lowest_first_with_tie_digital():
    """Ruling 12: lowest first; a tie puts the later player of this round first."""
    energy = {"a": 12, "b": 2, "c": 12}
    state = arrange(phase=Phase.SUMMONING, players=("a", "b", "c"), energy=energy)
    pass_round(state)
    assert energies(state) == {"a": 15, "b": 7, "c": 15}
    assert order(state) == ["b", "c", "a"]


# --- Ruling 13: rounds and the final-round winner ------------------------------------------------


def test_seventh_round_only_for_three_or_four_players():
    """Ruling 13: 6 rounds; a 7th by agreement for 3-4 players only; nothing else."""
    with pytest.raises(ValidationError, match="3 or more players"):
        new_game(final_round=7)
    assert new_game(players=("a", "b", "c"), final_round=7).final_round == 7
    assert new_game(players=("a", "b", "c", "d"), final_round=7).final_round == 7
    assert new_game().final_round == 6
    for rounds in (5, 8):
        with pytest.raises(ValidationError, match="a game lasts 6 rounds, or 7 by agreement"):
            new_game(players=("a", "b", "c"), final_round=rounds)


@BOTH_MODES
def test_final_round_most_energy_wins_without_summoner(mode):
    """Ruling 13: after round 6's reset the most energy wins, with no Summoner status."""
    state = arrange(mode=mode, phase=Phase.SUMMONING, round_no=6, energy={"red": 20, "blue": 18})
    pass_round(state)
    if mode == "table":
        state.apply(EnergyAndReset())
    assert state.phase is Phase.GAME_OVER
    assert energies(state) == {"red": 20, "blue": 21}
    assert (state.winner_id, state.summoner) == ("blue", False)
    assert state.round == 6


def test_seven_round_game_plays_round_seven():
    """Ruling 13: in a 7-round game round 6 ends like any other round."""
    state = arrange(phase=Phase.SUMMONING, players=("a", "b", "c"), final_round=7, round_no=6)
    pass_round(state)
    assert (state.round, state.phase, state.winner_id) == (7, Phase.SUMMONING, None)
    pass_round(state)
    assert state.phase is Phase.GAME_OVER


@BOTH_MODES
def test_final_round_tie_rulebook_example(mode):
    """Ruling 13, rulebook example: John (2nd) and Sarah (3rd) tie on 27; Sarah wins."""
    state = arrange(
        mode=mode,
        players=("ann", "john", "sarah"),
        phase=Phase.SUMMONING,
        round_no=6,
        energy={"ann": 10, "john": 32, "sarah": 32},
    )
    pass_round(state)
    if mode == "table":
        state.apply(EnergyAndReset())
    assert energies(state) == {"ann": 13, "john": 27, "sarah": 27}
    assert (state.phase, state.winner_id, state.summoner) == (Phase.GAME_OVER, "sarah", False)
    assert str(state.last_tally.winner_message) == (
        "john and sarah tie on 27; sarah was latest in the final round's order and wins."
    )


# --- Ruling 14: players, creatures and costs ------------------------------------------------------


@pytest.mark.parametrize("count", [1, 5])
def test_two_to_four_players_only(count):
    """Ruling 14: fewer than 2 or more than 4 players is refused."""
    with pytest.raises(ValidationError):
        GameSetup(players=[{"id": f"p{i}"} for i in range(count)], board=LINE)


@BOTH_MODES
@pytest.mark.parametrize("count", [2, 3, 4])
def test_each_player_owns_1_3_9(mode, count):
    """Ruling 14: 2-4 players each start with 1 Wyrm, 3 Trolls and 9 Sprites in reserve."""
    state = new_game(mode, players=tuple(f"p{i}" for i in range(count))).new_initial_state()
    assert state.reserve == [[1, 3, 9]] * count
    assert state.on_board == [[0, 0, 0]] * count


def test_rules_table_costs_and_counts():
    """Ruling 14: costs 5 / 3 / 1 and 1 / 3 / 9 owned, in the table every part reads."""
    assert [(CREATURES[k].cost, CREATURES[k].owned) for k in (W, T, S)] == [(5, 1), (3, 3), (1, 9)]


@BOTH_MODES
def test_summoning_costs(mode):
    """Ruling 14: a Wyrm costs 5, a Troll 3, a Sprite 1; at most 3 Trolls."""
    state = arrange(mode=mode, phase=Phase.SUMMONING, energy={"red": 30})
    digital = mode == "digital"
    spent = []
    for kind, where in ((W, "w1"), (T, "w2"), (T, "w3"), (T, "m1"), (S, "m2")):
        before = state.energy[0]
        assert state.step_kind == kind
        state.apply(Summon(kind, where if digital else None))
        spent.append(before - state.energy[0])
        # blue (5 energy) is asked after red is done with each kind.
        if state.current_player == "blue":
            state.apply(Pass())
    assert spent == [5, 3, 3, 3, 1]
    assert state.reserve[0] == [0, 0, 8]
    assert state.energy[0] == 30 - 15
