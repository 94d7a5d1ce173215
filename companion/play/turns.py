"""Who plays now, and how: turn driving for the table and the digital board, without Flet.

`Turns` owns what the screens used to decide among their drawing: whose decision it is
(a person's or a computer seat's), playing computer seats one visible command at a time,
the undo policy (against computers, undo takes back the person's last command and every
computer command after it), when play goes on after an Energy and Reset (a person's tap
on Continue, or by itself after a while in a game no person plays), and which device
drives the computers when several show one game: the one that recorded last, as long as
it keeps saying it is there (`leases.py`); the others follow, and one of them takes over when
it falls silent. A screen tells it how to announce a change to the game's other devices,
and for computer play gives it a `Stage`, the few things only a screen can do; tests give
it fakes and a fake clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Protocol

from companion.bots import Bot, make_bot
from companion.engine import GameState
from companion.engine.position_keys import turn_key
from companion.engine.queries import undo_depth
from companion.language import Message
from companion.language.render import Language
from companion.play.board_device import TIMINGS, Pace, Timing
from companion.play.leases import BEAT_S, Leases
from companion.play.searches import think_in_thread
from companion.play.session import GameSession, Moment, Outcome
from companion.store.store import LogEntry, tap_size
from models.commands import Activate, Command, EndActivation, Pass
from models.setup import GameSetup

log = logging.getLogger(__name__)

# How long a computer's command stays pointed out before it is played, in seconds, and how
# much of that one computer turn may take in all: past it the turn's commands are played
# without a pause (the board and the log show them). A pass or the end of an activation
# changes nothing to watch, and an activation is seen in the move or attack that follows
# it (the active creature is ringed). With a level's thinking budget per turn this keeps a person's
# waits short (measured by `python -m companion bench waits`). These are the normal
# pace's; a device may pick another (`board_device.Pace`).
NORMAL = TIMINGS[Pace.NORMAL]
SHOW_EACH = NORMAL.each
SHOW_PER_TURN = NORMAL.per_turn
# In a game no person plays, an Energy and Reset stays on screen this long, then play goes
# on by itself: someone watching can read it (or tap Continue sooner), and nothing waits
# for a tap that no player is there to give.
UNATTENDED_RESET_S = 8.0


class Stage(Protocol):
    """What a screen does while computers play: show things; the controller decides them."""

    def on_screen(self) -> bool:
        """Whether the screen is still the one shown (a computer stops playing when not)."""
        ...

    def show(self, outcome: Outcome | None) -> None:
        """Draw the game as it is now; an outcome refused is said too."""
        ...

    def finished(self) -> None:
        """The game is over: go to the result."""
        ...

    async def present(self, player: str, command: Command, seconds: float) -> None:
        """Point out a computer's command for about `seconds` before it is played."""
        ...

    async def wait(self, seconds: float) -> None:
        """Let `seconds` pass with the screen as it is (an Energy and Reset being read)."""
        ...

    def closed(self) -> bool:
        """Whether the screen was left for good (another screen shown): its watch ends."""
        ...

    def wake(self) -> None:
        """Start the computers' play on this device (it has taken them over)."""
        ...


# think(bot, state): how a bot's decision is worked out, off the event loop (in the app, a
# search in a worker process: `searches.Searches.think`).
Think = Callable[[Bot, GameState], Awaitable[Command]]


def bot_seats(setup: GameSetup) -> dict[str, str]:
    """The seats computer opponents play: player id -> bot name."""
    return {player.id: player.bot for player in setup.players if player.bot}


def seat_bots(session: GameSession) -> dict[str, Bot]:
    """A bot for each computer seat, seeded by the game and the seat, so choices reproduce."""
    base = zlib.crc32(session.id.encode())
    players = session.saved.game.players
    return {
        player: make_bot(name, seed=base + players.index(player))
        for player, name in bot_seats(session.saved.setup).items()
    }


def pause_for(command: Command, shown: float = 0.0, timing: Timing = NORMAL) -> float:
    """How long a computer's command is pointed out, after `shown` seconds of its turn's,
    at a pace's `timing`."""
    if isinstance(command, Pass | EndActivation | Activate):
        return 0.0
    return max(0.0, min(timing.each, timing.per_turn - shown))


class Turns:
    """One game's turn driving on one screen: records, undo and redo, and the computer seats."""

    def __init__(
        self,
        session: GameSession,
        announce: Callable[[int], None],
        bots: Mapping[str, Bot] | None = None,
        think: Think = think_in_thread,
        leases: Leases | None = None,
        device: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        # Tells the game's other devices about a revision this one recorded.
        self.announce = announce
        # Kept as long as the screen: a searching bot reuses what it worked out last time.
        self.bots = dict(bots or {})
        self.think = think
        # Computers are playing, or a person's move is being shown: no other play starts.
        self.busy = False
        # (player, command) a computer is about to play, pointed out meanwhile.
        self.showing: tuple[str, Command] | None = None
        # Shared by every page of the server (its Service); a screen alone has its own.
        self.leases = leases if leases is not None else Leases()
        # This screen's name among the game's devices, for the leases.
        self.device = device or secrets.token_hex(6)
        # The log entry (its seq) whose Energy and Reset this device has gone on from.
        self.went_on: int | None = None
        # An Energy and Reset a redo brought back (its entry's seq): shown again, as when it
        # was first played, until someone goes on.
        self.reread: int | None = None
        # How fast the computers' commands go by on this device.
        self.timing: Timing = NORMAL
        # Times drawing a computer's command, which comes out of the pause that shows it.
        self.clock = clock

    # --- whose decision -------------------------------------------------------------------

    def bot_to_move(self) -> Bot | None:
        """The bot whose decision it is, if a computer seat is to play."""
        player = self.session.state.current_player
        return self.bots.get(player) if player else None

    def human_to_move(self) -> bool:
        """Whether a person decides now."""
        return self.session.state.current_player is not None and self.bot_to_move() is None

    def computers_resting(self) -> bool:
        """Whether no computer plays now: a person decides, the game is over, or an Energy
        and Reset waits for a person to go on (whoever plays first next round): the
        position on screen stays as it is, so the coach may judge it."""
        return self.bot_to_move() is None or (
            self.reset_waiting() is not None and not self.unattended
        )

    @property
    def unattended(self) -> bool:
        """Whether computers play every seat: nobody at the table is asked to tap."""
        return bool(self.bots) and len(self.bots) == len(self.session.saved.setup.players)

    # --- Energy and Reset shown before play goes on -------------------------------------

    def reset_waiting(self) -> LogEntry | None:
        """The newest log entry, if it finished an Energy and Reset this device has not yet
        gone on from, or the one a redo here brought back: the tally is shown, and play
        waits."""
        log = self.session.saved.log
        if self.reread is not None:
            brought = next((entry for entry in log if entry.seq == self.reread), None)
            if brought is not None and brought.reset is not None:
                return brought
        if log and log[-1].reset is not None and log[-1].seq != self.went_on:
            return log[-1]
        return None

    def go_on(self) -> None:
        """Someone here has seen the Energy and Reset: play goes on, driven from this device."""
        entry = self.reset_waiting()
        log = self.session.saved.log
        if entry is not None and entry is log[-1]:
            self.went_on = entry.seq
        self.reread = None
        if self.bots:
            self.leases.claim(self.session.id, self.device)

    # --- which device drives the computers ---------------------------------------------

    def drives(self) -> bool:
        """Whether this device plays the computers: it holds the game's lease, or takes it
        because nobody does or the device that did has gone silent."""
        return self.leases.holds(self.session.id, self.device)

    async def keep_watch(
        self, stage: Stage, sleep: Callable[[float], Awaitable[object]] = asyncio.sleep
    ) -> None:
        """While the screen is open: renew this device's lease while someone can see it, and
        start the computers' play once this device drives them (taken over from one gone)."""
        try:
            while not stage.closed():
                if self.bots and stage.on_screen():
                    self.leases.renew(self.session.id, self.device)
                    if self.should_play():
                        stage.wake()
                await sleep(BEAT_S)
        finally:
            self.leases.release(self.session.id, self.device)

    # --- records --------------------------------------------------------------------------

    def record(
        self,
        commands: Sequence[Command],
        by: str | None,
        revision: int | None = None,
        moment: Moment | None = None,
        again: Command | None = None,
    ) -> Outcome:
        """Record what one tap says, for the player, revision and moment the screen showed
        (`again`: what it says at any moment, GameSession.do_all)."""
        outcome = self.session.do_all(commands, by, revision, moment, again)
        if outcome.ok:
            self.recorded_here()
        return outcome

    def recorded_here(self) -> None:
        """This device wrote to the game: the others follow it, and it plays the computers."""
        self.reread = None
        if self.bots:
            self.leases.claim(self.session.id, self.device)
        self.announce(self.session.saved.revision)

    def changed_elsewhere(self, revision: int) -> bool:
        """Another device recorded in this game (and claimed its computers): load it.

        False when this device already has that revision (it announced it itself).
        """
        if revision == self.session.saved.revision:
            return False
        self.session.refresh(revision)
        return True

    # --- undo policy ----------------------------------------------------------------------

    def undo_depth(self) -> int:
        """How many commands Undo takes back now: against computers, back to a person's."""
        log = self.session.saved.log
        if not self.bots:
            return 1 if log else 0
        return undo_depth([entry.command for entry in log], self.bots)

    def undo_text(self, words: Language) -> str | None:
        """What Undo takes back now, computers' commands after a person's included."""
        depth = self.undo_depth()
        if not depth:
            return None
        if not self.bots:
            return self.session.undo_text(words)
        log = self.session.saved.log
        entry = self.session.entry_text(words, len(log) - depth)
        after = depth - 1
        if not after:
            return entry
        return words.render(Message("game.undo_and_computers", entry=entry, count=after))

    def undo(self, revision: int | None = None) -> Outcome:
        """Take back the newest person's command and the computers' after it (or, at the
        table, the newest record, as of the `revision` the screen showed)."""
        depth = self.undo_depth()
        outcome = self.session.undo(revision)
        for _step in range(depth - 1):
            if not outcome.ok:
                break
            outcome = self.session.undo()
        if outcome.ok:
            self.recorded_here()
        return outcome

    def redo_entries(self) -> tuple[LogEntry, ...]:
        """What Redo brings back now: the newest undone tap and, against computers, every
        computer command after it up to a person's decision: what Undo took back."""
        undone = self.session.saved.undone
        count = tap_size(undone)
        if not count or not self.bots:
            return undone[:count]
        trial = self.session.state.clone()
        for entry in undone[:count]:
            trial.apply(entry.command)
        while count < len(undone) and not trial.is_terminal and trial.current_player in self.bots:
            size = tap_size(undone[count:])
            for entry in undone[count : count + size]:
                trial.apply(entry.command)
            count += size
        return undone[:count]

    def redo_text(self, words: Language) -> str | None:
        """What Redo brings back now, said as Undo says what it takes back."""
        brought = self.redo_entries()
        if not brought:
            return None
        entry = self.session.redo_text(words)
        after = len(brought) - tap_size(brought)
        if not after or entry is None:
            return entry
        return words.render(Message("game.undo_and_computers", entry=entry, count=after))

    def redo(self) -> Outcome:
        """Bring back the newest undone command, and the computers' commands after it; an
        Energy and Reset among them is shown again before play goes on."""
        brought = {entry.seq for entry in self.redo_entries()}
        outcome = self.session.redo()
        while outcome.ok and self.bot_to_move() is not None and self.session.saved.redo_label:
            outcome = self.session.redo()
        if outcome.ok:
            self.recorded_here()
            resets = [e.seq for e in self.session.saved.log if e.seq in brought and e.reset]
            self.reread = resets[-1] if resets else None
        return outcome

    # --- computer seats -------------------------------------------------------------------

    def should_play(self) -> bool:
        """Whether this device is to start the computers' play now (or, in a game no person
        plays, go on by itself from an Energy and Reset)."""
        if self.busy or not self.bots:
            return False
        if self.reset_waiting() is not None:
            wanted = self.unattended
        else:
            wanted = not self.session.state.is_terminal and self.bot_to_move() is not None
        return wanted and self.drives()

    async def play_bots(self, stage: Stage) -> None:
        """Let computers play, one shown command at a time, until a person's turn or the end.

        While a command is pointed out, the next computer decision is already worked out
        from the position it leads to (unless dice decide that position), so a computer's
        pause to show and its next search overlap, and drawing comes out of the pause; an
        attack with a pause is shown once played instead, its dice told (one drawing); a
        command with no pause (a pass, or once its turn's showing time is spent) is not
        drawn on its own, dice or not: the next drawing shows it done.
        Play stops at an Energy and Reset until a person goes on (in a game no person
        plays, it goes on by itself after a while). A choice made for a position someone
        has since undone is dropped, and the bot decides again; a record another device
        made first leaves the computers to it; any other refusal, or a failing bot, stops
        play until a person acts.
        """
        self.busy = True
        # The turn being shown, and the seconds of it shown before the command now shown.
        shown_turn: tuple[object, ...] | None = None
        shown = pause = 0.0
        # The next decision, worked out while the command before it is shown: the revision
        # recording that command made, and the search.
        ahead: tuple[int, asyncio.Future[Command]] | None = None
        try:
            while stage.on_screen() and self.drives():
                waiting = self.reset_waiting()
                if waiting is not None:
                    if not self.unattended:
                        return
                    await stage.wait(UNATTENDED_RESET_S)
                    if self.reset_waiting() == waiting:
                        self.go_on()
                    continue
                if self.session.state.is_terminal:
                    stage.finished()
                    return
                bot = self.bot_to_move()
                if bot is None:
                    return
                state = self.session.state
                player = state.current_player
                assert player is not None, "a bot is to move: someone decides"
                revision = self.session.saved.revision
                search = self._search_for(ahead, revision, bot, state)
                ahead = None
                try:
                    command = await search
                except Exception:
                    # The person is told in a sentence; the reason goes to the server's log.
                    log.exception("computer %s failed to decide in game %s", bot, self.session.id)
                    said = Message("game.bot_failed", player=self.session.label(player))
                    stage.show(Outcome(False, said))
                    return
                if self.session.saved.revision != revision:
                    continue  # someone undid meanwhile: decide again from the new position
                turn = turn_key(state)
                shown = shown + pause if turn == shown_turn else 0.0
                shown_turn, pause = turn, pause_for(command, shown, self.timing)
                # An attack's beat is its outcome, its dice told: drawn once it is played.
                rolled = bool(pause) and not _certain(state, command)
                if pause and not rolled:
                    self.showing = (player, command)
                    drawing = self.clock()
                    stage.show(None)
                    ahead = self._think_ahead(state, command, revision)
                    drawn = self.clock() - drawing
                    await stage.present(player, command, max(0.0, pause - drawn))
                    self.showing = None
                else:
                    # Nothing to point out (a pass, or the turn's showing time spent): the
                    # command is recorded at once, and drawn done with the next one shown.
                    ahead = self._think_ahead(state, command, revision)
                if self.session.saved.revision != revision or not stage.on_screen():
                    await _settled(ahead)  # it was for the command not recorded
                    ahead = None
                    continue
                outcome = self.record([command], player)
                if not outcome.ok:
                    await _settled(ahead)
                    ahead = None
                    if self.session.saved.revision != revision:
                        continue  # another device recorded first: it drives now
                if outcome.ok and self.session.state.is_terminal and not self.reset_waiting():
                    stage.finished()
                    return
                if ahead is None and (pause or not outcome.ok or not self._bots_go_on()):
                    # Otherwise the next drawing, as soon as the next decision is made or
                    # the next command is shown, shows this command done: drawing the whole
                    # screen costs more than a computer's search, so a command played
                    # without a pause (an attack once its turn's showing time is spent) is
                    # not drawn on its own either.
                    drawing = self.clock()
                    stage.show(outcome)
                    if rolled and outcome.ok:
                        await stage.wait(max(0.0, pause - (self.clock() - drawing)))
                if not outcome.ok:
                    return  # never loop on a refusal
        finally:
            await _settled(ahead)
            self.busy = False
            self.showing = None

    def _bots_go_on(self) -> bool:
        """Whether a computer decides next, with no Energy and Reset to show first."""
        return self.reset_waiting() is None and self.bot_to_move() is not None

    def _search_for(
        self,
        ahead: tuple[int, asyncio.Future[Command]] | None,
        revision: int,
        bot: Bot,
        state: GameState,
    ) -> Awaitable[Command]:
        """The search deciding at `revision`: the one worked out ahead if it was for this
        revision (kept only when the command it followed was recorded here, as revision
        `revision`), else a new one, once the one ahead has ended."""
        if ahead is not None and ahead[0] == revision:
            return ahead[1]

        async def anew() -> Command:
            await _settled(ahead)
            return await self.think(bot, state.clone())

        return anew()

    def _think_ahead(
        self, state: GameState, command: Command, revision: int
    ) -> tuple[int, asyncio.Future[Command]] | None:
        """Start the next computer decision from the position `command` leads to, if that
        position is known before it is recorded (no dice to roll) and a computer decides
        there within the same round; None otherwise."""
        if not _certain(state, command):
            return None
        after = state.clone()
        after.apply(command)
        player = after.current_player
        bot = self.bots.get(player) if player else None
        if bot is None or after.is_terminal or after.round != state.round:
            return None
        return revision + 1, asyncio.ensure_future(self.think(bot, after))


def _certain(state: GameState, command: Command) -> bool:
    """Whether `command` leads to one known position (no dice decide it)."""
    return state.chance_outcomes(command) == [(1.0, command)]


async def _settled(ahead: tuple[int, asyncio.Future[Command]] | None) -> None:
    """Let a search started ahead finish, its choice dropped: a bot searches once at a time."""
    if ahead is not None:
        with contextlib.suppress(Exception):
            await ahead[1]
