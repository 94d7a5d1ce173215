"""The engine's query surface (companion/engine/queries.py): what views and bots may ask."""

import random
from collections import deque

import pytest

from companion.boards import shipped_board
from companion.engine import Game, GameState, IllegalCommand, Phase, position_keys, queries
from companion.engine.dice import attack_odds, with_rolls
from companion.engine.table_reset import reset_draft
from models.commands import (
    Activate,
    Attack,
    Declined,
    Dominate,
    EnergyAndReset,
    Move,
    Pass,
    Summon,
)
from models.rules import CreatureKind as K
from models.seeded_dice import SeededDice
from models.setup import GameSetup

DUEL = shipped_board("duel-isle")


def duel(mode: str = "digital") -> Game:
    setup = GameSetup(
        players=[{"id": "red", "name": "Ragna"}, {"id": "blue", "name": "Bjorn"}],
        board="duel-isle",
        mode=mode,
    )
    return Game(setup, DUEL)


def sprite_beside_wyrm():
    """Ragna's Wyrm at rh1 being activated, Bjorn's Sprite beside it at rh2."""
    state = duel().new_initial_state()
    for command in [Summon(K.WYRM, "rh1"), Pass(), Pass(), Summon(K.SPRITE, "rh2"), Pass()]:
        state.apply(command)
    state.apply(Activate("rh1"))
    return state


def pass_until(state, done):
    """Everyone passes until `done()` says the position wanted is reached."""
    while not done():
        state.apply(Pass())


def test_whose_decision_and_what_they_may_do():
    state = duel().new_initial_state()
    turn = state.decision()
    assert (turn.player, turn.phase, turn.kind, turn.active) == (
        "red",
        Phase.SUMMONING,
        K.WYRM,
        None,
    )
    assert turn.commands == tuple(state.legal_commands())
    state = sprite_beside_wyrm()
    turn = state.decision()
    assert (turn.player, turn.phase, turn.active, turn.actions_left) == (
        "red",
        Phase.ACTIONS,
        "rh1",
        2,
    )
    assert turn.territory is None and turn.bonuses_left == 0


def test_reserves_costs_and_creatures_by_player_and_location():
    state = duel().new_initial_state()
    red = state.holdings("red")
    assert (red.energy, red.reserve[K.WYRM], red.reserve[K.SPRITE], red.on_board[K.WYRM]) == (
        5,
        1,
        9,
        0,
    )
    assert red.costs == {K.WYRM: 5, K.TROLL: 3, K.SPRITE: 1}
    state.apply(Summon(K.WYRM, "rh1"))
    red = state.holdings("red")
    assert (red.energy, red.reserve[K.WYRM], red.on_board[K.WYRM]) == (0, 0, 1)
    assert state.creatures() == {"rh1": queries.Creature("red", K.WYRM, False, False)}
    assert state.order() == ("red", "blue")


def test_a_removed_creature_is_coming_back_next_round():
    state = sprite_beside_wyrm()
    # A 6 for the Wyrm beats any Sprite roll but a 6 + support: Bjorn's Sprite goes.
    state.apply(Attack("rh2", attack_roll=6, defence_roll=1))
    blue = state.holdings("blue")
    assert (blue.on_board[K.SPRITE], blue.returning[K.SPRITE]) == (0, 1)
    assert state.creatures()["rh2"] == queries.Creature("red", K.WYRM, False, True)


def test_each_space_has_its_legal_command_and_moves_their_cost():
    state = sprite_beside_wyrm()
    spaces = state.space_commands()
    legal = state.legal_commands()
    assert all(command in legal for command in spaces.values())
    assert spaces["rh2"] == Attack("rh2")
    costs = state.move_costs()
    assert {place for place, c in spaces.items() if isinstance(c, Move)} == set(costs)
    assert costs["nc4"] == 1 and costs["nc3"] == 2


def _distance(neighbours, start, goal, blocked):
    seen, frontier = {start: 0}, deque([start])
    while frontier:
        here = frontier.popleft()
        for there in neighbours[here]:
            if there not in seen and there not in blocked:
                seen[there] = seen[here] + 1
                frontier.append(there)
    return seen.get(goal)


def test_a_move_through_a_friend_goes_through_it_and_costs_what_the_engine_charges():
    """Ruling 6: the way passes the mover's own Troll, and is as long as the cost."""
    isle = duel().isle
    neighbours = {
        isle.location_ids[i]: [isle.location_ids[n] for n in near]
        for i, near in enumerate(isle.neighbours)
    }
    # A Wyrm at a, its owner's Troll at b beside it, and c beside b: the way around b is longer.
    a, b, c = next(
        (a, b, c)
        for a in neighbours
        for b in neighbours[a]
        for c in neighbours[b]
        if c != a and c not in neighbours[a] and (_distance(neighbours, a, c, {b}) or 99) > 2
    )
    # Round 1's start, Ragna with 20 energy: enough for the Wyrm and the Troll.
    start = "24 1/6 summoning:0:0 ab 20,5 139/000/000/000,139/000/000/000 -:0 - - 0 -"
    state = GameState.from_position(duel(), start)
    state.apply(Summon(K.WYRM, a))
    pass_until(state, lambda: state.step_kind is K.TROLL and state.current_player == "red")
    state.apply(Summon(K.TROLL, b))
    pass_until(state, lambda: state.phase is Phase.ACTIONS)
    state.apply(Activate(a))
    assert state.move_costs()[c] == 2
    assert state.move_path(c) == (a, b, c)
    state.apply(Move(c))
    assert state.holdings("red").energy == 12 and state.creatures()[c].kind is K.WYRM


def test_a_path_to_an_occupied_or_unreachable_space_is_refused():
    state = sprite_beside_wyrm()
    with pytest.raises(IllegalCommand, match="cannot be reached"):
        state.move_path("rh2")
    with pytest.raises(IllegalCommand, match="no creature is being activated"):
        duel().new_initial_state().move_path("rh1")


def test_an_attacks_breakdown_is_ruling_7_with_the_engines_odds():
    state = sprite_beside_wyrm()
    view = state.attack_view(Attack("rh2"))
    assert (view.attacker, view.attacker_kind, view.defender, view.defender_kind) == (
        "red",
        K.WYRM,
        "blue",
        K.SPRITE,
    )
    assert (view.bonus, view.defence, view.support, view.bounty) == (4, None, 0, 1)
    assert view.defence_roll
    assert view.chance == attack_odds(K.WYRM, K.SPRITE, 0)
    assert str(view.explanation()) == (
        "Your Wyrm rolls a d6 + 4; the Sprite rolls a d6 + 0 (0 other Sprites of its owner "
        "there). Success removes it and gains 1 energy."
    )
    # The engine's chance outcomes, which the bots search, weigh the same odds.
    success = next(
        p for p, attack in state.chance_outcomes(Attack("rh2")) if state.attack_outcome(attack)[2]
    )
    assert success == pytest.approx(float(view.chance))


def test_the_table_tally_is_previewed_on_a_copy_and_a_refusal_says_why():
    state = duel(mode="table").new_initial_state()
    state.apply(Summon(K.WYRM))
    pass_until(state, lambda: state.phase is Phase.ENERGY_AND_RESET)
    record = reset_draft(state).trial()
    before = position_keys.position_key(state)
    tally = queries.tally_after(state, record)
    assert position_keys.position_key(state) == before
    assert [line.player for line in tally.players] == ["red", "blue"]
    with pytest.raises(IllegalCommand):
        queries.tally_after(state, EnergyAndReset((), (Declined("red", "nowhere"),), ()))


def test_who_made_each_command_is_the_logs_by():
    assert queries.made_by(Summon(K.WYRM, by="red")) == "red"
    assert queries.made_by(EnergyAndReset(())) is None
    # A table record names nobody and counts as a person's: undo stops there.
    log = [Pass(by="red"), EnergyAndReset(()), Pass(by="blue")]
    assert queries.undo_depth(log, {"blue"}) == 2


def test_queries_change_nothing_and_equal_positions_have_equal_keys():
    game = duel()
    rng, dice = random.Random(3), SeededDice(3)
    state = game.new_initial_state()
    for _ in range(400):
        if state.is_terminal:
            break
        key = position_keys.position_key(state)
        assert position_keys.position_key(state.clone()) == key
        state.decision()
        state.space_commands()
        state.move_costs()
        for player in game.players:
            state.holdings(player)
        state.creatures()
        if state.phase is Phase.ENERGY_AND_RESET and state.pending:
            state.domination_preview(True)
            assert isinstance(state.decision().commands[0], Dominate)
        assert position_keys.position_key(state) == key
        state.apply(with_rolls(state, rng.choice(state.legal_commands()), dice))


def test_a_tap_asks_for_the_command_its_space_is_marked_with_and_one_declaration_answers():
    """The digital board's tap mapping is the engine's: on every space of positions
    met in random games, the one declaration answering a tap gives the space's own legal
    command wherever the space has one."""
    import random

    from companion.boards import shipped_board
    from companion.engine import Game
    from companion.engine.commands._declaration import Tapped
    from companion.engine.dice import with_rolls
    from models.rules import CreatureKind
    from models.setup import GameSetup

    setup = GameSetup(
        players=[{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}],
        board="gathering-isle",
        mode="digital",
    )
    game = Game(setup, shipped_board("gathering-isle"))
    state = game.new_initial_state()
    chooser = random.Random(3)
    declarations = game.rules.declarations.values()
    checked = 0
    while state.phase is not Phase.GAME_OVER and checked < 4000:
        marked = state.space_commands()
        for location in game.board.location_ids:
            command = state.tap_command(location)
            if location in marked:
                assert command == marked[location], (state, location)
            checked += 1
        command = chooser.choice(state.legal_commands())
        state.apply(with_rolls(state, command, lambda: chooser.randint(1, 6)))
    assert checked >= 1000
    # Exclusive by construction: for any tap, at most one declaration answers.
    for phase in (Phase.SUMMONING, Phase.ACTIONS):
        for active in (None, "x1", "x2"):
            for owner in (None, "a", "b"):
                for kind in CreatureKind:
                    tapped = Tapped("x2", "a", phase, kind, active, owner)
                    answers = [d.tap(tapped) for d in declarations if d.tap(tapped) is not None]
                    assert len(answers) <= 1, (tapped, answers)
