"""The computer opponents at engine level: legal choices, determinism, the time budget, simulate.

The strength figures (greedy against random, mcts against greedy) come from `simulate`
and are reported in docs/bots.md; these tests check correctness, not strength.
"""

import json
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from companion.boards import shipped_board
from companion.bots import BOT_NAMES, GreedyBot, MctsBot, make_bot
from companion.bots.evaluation import Evaluator
from companion.bots.mcts import Chance
from companion.bots.playout import play
from companion.bots.simulate import simulate, wilson
from companion.cli import app
from companion.engine import Game
from companion.engine.constants import SPRITE
from companion.engine.dice import attack_odds, with_rolls
from companion.engine.position_keys import turn_key
from companion.engine.serialize import state_to_json
from models.commands import Attack
from models.opponents import MCTS_LEVELS
from models.rules import KIND_ORDER
from models.seeded_dice import SeededDice
from models.setup import GameSetup

PLAYERS = ["red", "blue", "green", "yellow"]
PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def make_game(players: int) -> Game:
    board_id = "duel-isle" if players == 2 else "gathering-isle"
    setup = GameSetup(
        players=[{"id": p} for p in PLAYERS[:players]], board=board_id, mode="digital"
    )
    return Game(setup, shipped_board(board_id))


def random_state(players: int, seed: int, steps: int):
    """The state after up to `steps` random legal commands (earlier if the game ends)."""
    state = make_game(players).new_initial_state()
    rng = random.Random(seed)
    roll = SeededDice(seed)
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(with_rolls(state, rng.choice(state.legal_commands()), roll))
    return state


def searcher(seed: int = 0, iterations: int = 15) -> MctsBot:
    """An mcts bot bounded by iterations only, so it behaves the same on any machine."""
    return MctsBot(seed, budget_ms=60_000, iterations=iterations)


random_states = st.builds(
    random_state,
    players=st.integers(2, 4),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
)


@PROPERTY
@given(state=random_states, seed=st.integers(0, 1000))
def test_greedy_chooses_a_legal_command(state, seed):
    if state.is_terminal:
        return
    before = state_to_json(state)
    command = GreedyBot(seed).choose(state)
    assert command in state.legal_commands()
    assert state_to_json(state) == before  # the bot looked ahead on copies only
    state.apply(with_rolls(state, command, SeededDice(seed)))


@PROPERTY
@given(state=random_states, seed=st.integers(0, 1000))
def test_mcts_chooses_a_legal_command(state, seed):
    if state.is_terminal:
        return
    before = state_to_json(state)
    command = searcher(seed).choose(state)
    assert command in state.legal_commands()
    assert state_to_json(state) == before  # the bot looked ahead on copies only
    state.apply(with_rolls(state, command, SeededDice(seed)))


def attack_positions(games: int):
    """Every (state, attack) met in random 2-player games."""
    for seed in range(games):
        state = make_game(2).new_initial_state()
        rng = random.Random(seed)
        roll = SeededDice(seed)
        while not state.is_terminal:
            commands = state.legal_commands()
            for command in commands:
                if type(command) is Attack:
                    yield state, command
            state.apply(with_rolls(state, rng.choice(commands), roll))


def test_attack_chances_follow_the_engines_odds_and_dice():
    """The outcomes add up to 1, their dice give what they claim, at the engine's odds."""
    seen = 0
    for state, command in attack_positions(10):
        target = state.game.isle.index[command.target]
        attacker = state.occupant[state.active][1]
        defender = state.occupant[target][1]
        support = state.sprite_support(target) if defender == SPRITE else 0
        odds = float(attack_odds(KIND_ORDER[attacker], KIND_ORDER[defender], support))
        chances = state.chance_outcomes(command)
        assert abs(sum(p for p, _ in chances) - 1) < 1e-9
        succeeded = 0.0
        for probability, rolled in chances:
            after = state.clone()
            after.apply(rolled)
            if after.occupant[target] != state.occupant[target]:
                succeeded += probability
        assert abs(succeeded - odds) < 1e-9
        seen += 1
    assert seen > 50


def test_values_are_win_chances():
    evaluator = Evaluator()
    for seed in range(10):
        state = random_state(3, seed, 150)
        values = evaluator.values(state, state.round)
        assert abs(sum(values) - 1) < 1e-9
        assert all(0 <= value <= 1 for value in values)
    over = random_state(2, 1, 10_000)
    assert over.is_terminal
    # A Summoner's win is worth 1, a win on most energy a hair less (test_bots_like_players).
    assert evaluator.values(over, over.round)[over.winner] > 1 - 1e-6


def test_greedy_is_deterministic_given_its_seed():
    def game(seed):
        bots = [GreedyBot(seed), GreedyBot(seed + 1)]
        return play(make_game(2), bots, SeededDice(seed)).commands

    assert game(3) == game(3)


def test_mcts_is_deterministic_given_its_seed_and_iterations():
    def opening(seed):
        state = make_game(2).new_initial_state()
        bots = [searcher(seed, 10), searcher(seed + 1, 10)]
        roll = SeededDice(seed)
        commands = []
        while not state.is_terminal and state.round == 1:
            command = with_rolls(state, bots[state.current_seat].choose(state), roll)
            state.apply(command)
            commands.append(command)
        return commands

    assert opening(5) == opening(5)


@pytest.mark.parametrize("players", [2, 3])
def test_mcts_backs_values_up_as_max_n_with_chance_nodes_at_their_odds(players):
    for state in decisions(players, 11, 3):
        bot = searcher(2, 300)
        bot.choose(state)
        root = bot._spent
        assert root is not None and root.children
        checked = 0
        stack = [root]
        while stack:
            node = stack.pop()
            if type(node) is Chance:
                expected = [
                    sum(p * outcome.value[seat] for p, outcome in node.outcomes)
                    for seat in range(players)
                ]
                assert node.value == pytest.approx(expected)
                stack.extend(outcome for _, outcome in node.outcomes)
            elif node.children is not None:
                # A node is worth its best child's values for the seat deciding there.
                best = max(child.value[node.mover] for _, child in node.children)
                assert node.value[node.mover] == best
                assert any(child.value == node.value for _, child in node.children)
                stack.extend(child for _, child in node.children)
                checked += 1
        assert checked > 1


def decisions(players: int, seed: int, count: int):
    """`count` states with a real choice, spread over a random game."""
    state = make_game(players).new_initial_state()
    rng = random.Random(seed)
    roll = SeededDice(seed)
    found = []
    while not state.is_terminal and len(found) < count:
        commands = state.legal_commands()
        if len(commands) > 1 and rng.random() < 0.1:
            found.append(state.clone())
        state.apply(with_rolls(state, rng.choice(commands), roll))
    return found


class WorkClock:
    """A clock that moves only when the bot evaluates a position: 1 ms each time, or
    `slow_ms` from the `slow_after`-th evaluation on."""

    def __init__(self, bot: MctsBot, slow_after: int | None = None, slow_ms: float = 1) -> None:
        self.now = 0.0
        self.evaluations = 0
        values = bot.evaluator.values

        def timed(state, horizon):
            self.evaluations += 1
            slow = slow_after is not None and self.evaluations > slow_after
            self.now += (slow_ms if slow else 1) / 1000
            return values(state, horizon)

        bot.evaluator.values = timed

    def __call__(self) -> float:
        return self.now


def test_mcts_budget_check_stops_before_an_expansion_that_would_not_fit():
    """With work as the only thing that takes time, every search ends within its share.

    A turn's first decision may spend half the turn's budget: 100 ms of 200."""
    for players in (2, 4):
        for state in decisions(players, 4, 8):
            bot = MctsBot(1, budget_ms=200)
            bot.clock = WorkClock(bot)
            bot.choose(state)
            assert bot.last_iterations > 0
            assert bot.clock.now <= 0.100, repr(state)


def test_mcts_stops_within_its_budget_when_the_work_suddenly_slows():
    """The pace estimate is only a guess: an expansion that turns out slower stops at the
    deadline, so a decision runs over by at most one child's evaluation (never more
    than 20% over the budget)."""
    for players in (2, 4):
        for state in decisions(players, 4, 8):
            bot = MctsBot(1, budget_ms=200)
            bot.clock = WorkClock(bot, slow_after=40, slow_ms=8)
            command = bot.choose(state)
            assert command in state.legal_commands()
            # Aimed at 90 ms (a turn's first decision: 90% of half of 200); one child (two
            # outcomes at most, 8 ms each) may finish after it.
            assert bot.clock.now <= 0.090 + 0.016 + 1e-9, repr(state)


def test_mcts_spends_one_budget_per_turn_however_many_decisions_it_takes():
    """The budget is per turn, so a table waits one budget per computer seat."""
    game = make_game(2)
    state = game.new_initial_state()
    roll = SeededDice(3)
    bot = MctsBot(1, budget_ms=200)
    bot.clock = WorkClock(bot)
    spent_by_turn: dict[tuple, float] = {}
    while not state.is_terminal and len(spent_by_turn) < 12:
        turn = turn_key(state)
        before = bot.clock.now
        command = bot.choose(state)
        spent_by_turn[turn] = spent_by_turn.get(turn, 0.0) + bot.clock.now - before
        state.apply(with_rolls(state, command, roll))
    assert len(spent_by_turn) == 12
    # A turn's decisions together keep to its budget (90% aimed, one child's evaluation over).
    assert max(spent_by_turn.values()) <= 0.200 + 0.002
    # A new turn gets a whole budget again: some turn spends more than half of one.
    assert max(spent_by_turn.values()) > 0.100


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_no_seat_is_ever_asked_a_decision_with_one_legal_choice(seed, players):
    """A decision with one legal choice costs no thinking time. The engine settles
    such steps itself (digital flow), so no bot or person is ever asked one."""
    state, rng, roll = make_game(players).new_initial_state(), random.Random(seed), SeededDice(seed)
    while not state.is_terminal:
        legal = state.legal_commands()
        assert len(legal) > 1, repr(state)
        state.apply(with_rolls(state, rng.choice(legal), roll))


def test_mcts_stops_near_its_budget():
    """With the real clock: the search ends. Not a benchmark, the box is shared and a busy
    machine can hold a process off the CPU for a while; simulate reports the real overruns."""
    for state in decisions(3, 7, 4):
        bot = MctsBot(1, budget_ms=100)
        started = time.perf_counter()
        command = bot.choose(state)
        elapsed_ms = (time.perf_counter() - started) * 1000
        assert command in state.legal_commands()
        assert elapsed_ms < 100 * 10


def test_make_bot_knows_names_and_levels():
    assert {make_bot(name).name for name in BOT_NAMES} == set(BOT_NAMES)
    assert make_bot("mcts:easy").budget_ms == MCTS_LEVELS["easy"]
    assert make_bot("mcts", budget_ms=250).budget_ms == 250
    assert make_bot("mcts").budget_ms == MCTS_LEVELS["normal"]
    # A level searches so many iterations per decision (its time caps them); plain mcts
    # searches for its whole budget.
    levels = [make_bot(f"mcts:{level}") for level in ("easy", "normal", "hard")]
    assert [bot.iterations for bot in levels] == [1, 3, 250]
    assert make_bot("mcts").iterations is None
    for bad in ("chess", "mcts:expert", "greedy:hard"):
        with pytest.raises(ValueError):
            make_bot(bad)


def test_simulate_rotates_bots_over_seats_and_start_positions():
    report = simulate(2, 4, 3, ["greedy", "random"], workers=1)
    assert report.errors == 0
    assert report.seats_by_bot == {"greedy": 4, "random": 4}
    assert sum(report.wins_by_bot.values()) == 4
    assert report.summoner_wins + report.final_round_wins == 4
    assert report.max_overrun_by_bot == {}


def test_simulate_mcts_in_parallel_processes():
    report = simulate(2, 2, 1, ["mcts", "greedy"], budget_ms=20, workers=2)
    assert report.errors == 0, report.error_samples
    assert report.workers == 2
    assert sum(report.wins_by_bot.values()) == 2
    assert set(report.max_overrun_by_bot) == {"mcts"}
    assert report.longest_decision_ms_by_bot["mcts"] > 0


def test_simulate_reports_win_rates_with_their_95_percent_intervals():
    report = simulate(2, 4, 3, ["greedy", "random"], workers=1)
    rate, low, high = report.win_rates()["greedy"]
    assert rate == report.wins_by_bot["greedy"] / 4
    assert 0.0 <= low <= rate <= high <= 1.0
    # Wilson's interval for 65 of 100: 55.3% to 73.6%.
    assert wilson(65, 100) == pytest.approx((0.5525, 0.7364), abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert report.to_json()["win_rate_by_bot"]["greedy"]["rate"] == rate


def test_simulate_on_the_cpu_clock_gives_searching_bots_budgets_of_their_own_time():
    clocks = []

    def record(seed, budget_ms, iterations, clock):
        clocks.append(clock)
        return MctsBot(seed, budget_ms=budget_ms, iterations=iterations, clock=clock)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("companion.bots.MctsBot", record)
        report = simulate(2, 1, 1, ["mcts", "greedy"], budget_ms=20, cpu_clock=True)
    assert report.errors == 0, report.error_samples
    assert report.clock == "cpu"
    # The last made is the game's seat (simulate first checks every name it is given).
    assert clocks[-1] is time.thread_time
    assert "budgets on CPU time" in report.lines()[0]


def test_simulate_command_takes_bots_per_seat_budget_and_workers():
    runner = CliRunner()
    args = ["--bots", "mcts,greedy", "--budget-ms", "20", "--games", "2", "--workers", "1"]
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["bots"] == ["mcts", "greedy"]
    assert report["budget_ms"] == 20
    assert report["errors"] == 0
    assert set(report["max_overrun_by_bot"]) == {"mcts"}
    old_flag = runner.invoke(app, ["simulate", "--bot", "random", "--games", "2", "--workers", "1"])
    assert old_flag.exit_code == 0, old_flag.output
    for bad in (["--workers", "0"], ["--bots", "chess"], ["--budget-ms", "0"]):
        refused = runner.invoke(app, ["simulate", "--games", "1", *bad])
        assert refused.exit_code == 2
