"""Computers' searches in worker processes of their own, so that a search never holds the
interpreter lock the server's pages are drawn under.

A search run in a thread of the server would share its interpreter lock with the event
loop: every time the loop waits for the network, it waits again for the lock, and on a busy
machine a tap on another page takes seconds to answer. Here each searching bot lives in
one worker process, the same one at every decision (its search tree and its turn's time
budget stay there); the server sends the position and gets the command back, waiting in a
thread that holds no lock meanwhile. A bot that answers at once (greedy, random) is asked
in a thread, as before. A worker that dies is started again and the bot sent anew; if that
fails too, the search runs in a thread, so a person always gets the computer's move.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import os
import threading
import weakref
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import cast

from companion.bots import Bot
from companion.engine import GameState
from models.commands import Command

log = logging.getLogger(__name__)

# Bots a worker keeps, the least recently asked going first: a searching bot's trees take
# about a megabyte. A bot dropped is sent again, anew, when its game asks next.
KEPT_BOTS = 32
# Worker processes a server starts, at most: one per core, two on a small machine.
MOST_WORKERS = 2


async def think_in_thread(bot: Bot, state: GameState) -> Command:
    """A bot's decision worked out in a thread of this process."""
    return await asyncio.to_thread(bot.choose, state)


def searches(bot: Bot) -> bool:
    """Whether a bot searches (it has a time budget), rather than answering at once."""
    return bot.budget_ms is not None


def serve(connection: Connection) -> None:
    """A worker's life: keep the bots it is sent, and answer each position with a command."""
    bots: OrderedDict[int, Bot] = OrderedDict()
    while True:
        try:
            token, sent, state = connection.recv()
        except (EOFError, OSError):
            return  # the server has gone
        if sent is not None:
            bots[token] = sent
        bot = bots.get(token)
        answer: tuple[str, object]
        if bot is None:
            answer = ("unknown", None)
        else:
            bots.move_to_end(token)
            while len(bots) > KEPT_BOTS:
                bots.popitem(last=False)
            try:
                answer = ("chose", bot.choose(state))
            # A failing bot is told to the server, which says it to the person.
            except Exception as error:
                answer = ("failed", f"{type(error).__name__}: {error}")
        try:
            connection.send(answer)
        except OSError:
            return


class _Worker:
    """One worker process, the bots sent to it, and the one thread that talks to it."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.talk = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"search-{number}")
        self.process: BaseProcess | None = None
        self.connection: Connection | None = None
        # Tokens of the bots this worker holds (as far as the server knows).
        self.holds: set[int] = set()

    def start(self) -> None:
        """Start the process if it is not running (a spawned interpreter: nothing of the
        server's threads, sockets or database connections goes with it)."""
        if self.process is not None and self.process.is_alive():
            return
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=serve, args=(theirs,), name=f"search-{self.number}", daemon=True
        )
        process.start()
        theirs.close()
        self.process, self.connection, self.holds = process, ours, set()

    def ask(self, token: int, bot: Bot, state: GameState) -> Command:
        """The bot's command for `state`, worked out in the process (runs in `talk`)."""
        for attempt in range(2):
            self.start()
            assert self.connection is not None, "started"
            sent = None if token in self.holds else bot
            try:
                self.connection.send((token, sent, state))
                kind, value = self.connection.recv()
            except (EOFError, OSError):
                log.warning("a search worker stopped; starting it again")
                self.stop()
                continue
            if kind == "unknown":
                self.holds.discard(token)
                if attempt == 0:
                    continue
            self.holds.add(token)
            if kind == "failed":
                raise RuntimeError(value)
            if kind == "chose":
                return cast(Command, value)
        log.warning("no search worker answered: the search runs in a thread")
        return bot.choose(state)

    def stop(self) -> None:
        """End the process (its bots are sent anew to the next one)."""
        if self.connection is not None:
            self.connection.close()
        if self.process is not None:
            self.process.join(timeout=1)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(timeout=1)
        self.process, self.connection, self.holds = None, None, set()


class Searches:
    """The server's worker processes for computers' searches, started when first needed;
    with `processes=False` (an app bundle, where no interpreter can be spawned) every bot
    decides in a thread."""

    def __init__(self, workers: int | None = None, *, processes: bool = True) -> None:
        count = workers or min(MOST_WORKERS, os.cpu_count() or 1)
        self._workers = [_Worker(number) for number in range(count if processes else 0)]
        self._tokens: weakref.WeakKeyDictionary[Bot, int] = weakref.WeakKeyDictionary()
        self._numbers = itertools.count()
        self._lock = threading.Lock()

    def warm(self) -> None:
        """Start the workers now, so the first computer's decision does not wait for them."""
        for worker in self._workers:
            worker.talk.submit(worker.start)

    async def think(self, bot: Bot, state: GameState) -> Command:
        """The bot's decision: a search in its worker process, any other bot in a thread."""
        if not searches(bot) or not self._workers:
            return await think_in_thread(bot, state)
        with self._lock:
            token = self._tokens.get(bot)
            if token is None:
                token = self._tokens[bot] = next(self._numbers)
        worker = self._workers[token % len(self._workers)]
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(worker.talk, worker.ask, token, bot, state)

    def close(self) -> None:
        """Stop every worker process."""
        for worker in self._workers:
            worker.talk.submit(worker.stop).result()
            worker.talk.shutdown()
