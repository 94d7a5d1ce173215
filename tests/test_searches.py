"""Computers' searches in worker processes (companion/play/searches.py): the same choices
as in the server's own process, the bot kept in its worker between decisions, a worker
that dies replaced, a failing bot said in a sentence, and bots that answer at once left
in a thread."""

from __future__ import annotations

import asyncio
import os

import pytest

from companion.boards import shipped_board
from companion.bots import MctsBot
from companion.engine import Game, GameState
from companion.play.searches import Searches
from models.commands import Command
from models.setup import GameSetup, Mode


class CountingBot:
    """Plays the n-th legal command at its n-th decision, and says where it decided."""

    name = "counting"

    def __init__(self, budget_ms: float | None = 10.0) -> None:
        self.budget_ms = budget_ms
        self.decided = 0
        self.where: list[int] = []

    def choose(self, state: GameState) -> Command:
        commands = state.legal_commands()
        command = commands[self.decided % len(commands)]
        self.decided += 1
        self.where.append(os.getpid())
        return command


class FailingBot:
    """A searching bot with a bug."""

    name = "failing"
    budget_ms = 10.0

    def choose(self, state: GameState) -> Command:
        raise ValueError("no command for this position")


def start() -> GameState:
    setup = GameSetup(players=[{"id": "red"}, {"id": "blue"}], board="duel-isle", mode=Mode.DIGITAL)
    return Game(setup, shipped_board("duel-isle")).new_initial_state()


@pytest.fixture
def searches():
    pool = Searches(workers=1)
    yield pool
    pool.close()


def decide(searches: Searches, bot, state: GameState) -> Command:
    return asyncio.run(searches.think(bot, state.clone()))


def play(state: GameState, command: Command) -> None:
    state.apply(state.chance_outcomes(command)[0][1])


def test_a_search_in_a_worker_makes_the_same_choices_as_here(searches):
    # The tree kept from one decision to the next stays in the worker: with a cap on
    # iterations (no clock involved), every choice is the one a bot here makes.
    here = MctsBot(5, budget_ms=10_000_000, iterations=60)
    there = MctsBot(5, budget_ms=10_000_000, iterations=60)
    state = start()
    for _ in range(6):
        command = here.choose(state.clone())
        assert decide(searches, there, state) == command
        play(state, command)


def test_a_searching_bot_lives_in_its_worker_between_decisions(searches):
    bot = CountingBot()
    state = start()
    first = decide(searches, bot, state)
    second = decide(searches, bot, state)
    commands = state.legal_commands()
    # The worker's copy counted both decisions; the server's copy never decided.
    assert (first, second) == (commands[0], commands[1 % len(commands)])
    assert bot.decided == 0


def test_a_bot_that_answers_at_once_decides_in_this_process(searches):
    bot = CountingBot(budget_ms=None)
    decide(searches, bot, start())
    assert bot.where == [os.getpid()]


def test_a_worker_that_died_is_replaced_and_the_bot_sent_again(searches):
    bot = CountingBot()
    state = start()
    decide(searches, bot, state)
    worker = searches._workers[0]
    assert worker.process is not None
    worker.process.kill()
    worker.process.join(timeout=5)
    # The new worker has the bot as it was sent first: it counts from its first decision.
    assert decide(searches, bot, state) == state.legal_commands()[0]
    assert worker.process is not None and worker.process.is_alive()


def test_a_failing_bot_is_said_in_a_sentence(searches):
    with pytest.raises(RuntimeError, match="ValueError: no command for this position"):
        decide(searches, FailingBot(), start())


def test_without_processes_every_bot_decides_in_a_thread():
    pool = Searches(processes=False)
    bot = CountingBot()
    decide(pool, bot, start())
    assert bot.where == [os.getpid()]
    pool.close()
