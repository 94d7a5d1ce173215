"""Who plays now, and how: turn driving for the table and the digital board, without Flet.

`Turns` owns what the screens used to decide among their drawing: whose decision it is
(a person's or a computer seat's), playing computer seats one visible command at a time,
the undo policy (against computers, undo takes back the person's last command and every
computer command after it), and which device drives the computers when several show one
game (the one that recorded last; the others follow). A screen tells it how to announce a
change to the game's other devices, and for computer play gives it a `Stage`, the few
things only a screen can do; tests give it fakes.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Protocol

from companion.app.session import GameSession, Outcome
from companion.bots import Bot, make_bot
from companion.engine.queries import turn_key, undo_depth
from companion.engine.wording import counted
from models.commands import Command, EndActivation, Pass
from models.setup import GameSetup

# How long a computer's command stays pointed out before it is played, in seconds, and how
# much of that one computer turn may take in all: past it the turn's commands are played
# without a pause (the board and the log show them). A pass or the end of an activation
# changes nothing to watch. With a level's thinking budget per turn this keeps a person's
# waits short (issue 11; measured by `python -m companion bench --waits`).
SHOW_EACH = 0.3
SHOW_PER_TURN = 0.6


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


# think(bot.choose, state): how a bot's search is run (off the event loop in the app).
Think = Callable[..., Awaitable[Command]]


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


def pause_for(command: Command, shown: float = 0.0) -> float:
    """How long a computer's command is pointed out, after `shown` seconds of its turn's."""
    if isinstance(command, Pass | EndActivation):
        return 0.0
    return max(0.0, min(SHOW_EACH, SHOW_PER_TURN - shown))


class Turns:
    """One game's turn driving on one screen: records, undo and redo, and the computer seats."""

    def __init__(
        self,
        session: GameSession,
        announce: Callable[[int], None],
        bots: Mapping[str, Bot] | None = None,
        think: Think = asyncio.to_thread,
    ) -> None:
        self.session = session
        # Tells the game's other devices about a revision this one recorded.
        self.announce = announce
        # Kept as long as the screen: a searching bot reuses what it worked out last time.
        self.bots = dict(bots or {})
        self.think = think
        # Computers are playing, or a person's move is being shown: no other play starts.
        self.busy = False
        # Another device recorded last: it plays the computers' turns, this one follows.
        self.following = False
        # (player, command) a computer is about to play, pointed out meanwhile.
        self.showing: tuple[str, Command] | None = None

    # --- whose decision -------------------------------------------------------------------

    def bot_to_move(self) -> Bot | None:
        """The bot whose decision it is, if a computer seat is to play."""
        player = self.session.state.current_player
        return self.bots.get(player) if player else None

    def human_to_move(self) -> bool:
        """Whether a person decides now."""
        return self.session.state.current_player is not None and self.bot_to_move() is None

    # --- records --------------------------------------------------------------------------

    def record(
        self, commands: Sequence[Command], by: str | None, revision: int | None = None
    ) -> Outcome:
        """Record what one tap says, for the player and revision the screen showed."""
        outcome = self.session.do_all(commands, by, revision)
        if outcome.ok:
            self.recorded_here()
        return outcome

    def recorded_here(self) -> None:
        """This device wrote to the game: the others follow it, and it plays the computers."""
        self.following = False
        self.announce(self.session.saved.revision)

    def changed_elsewhere(self, revision: int) -> bool:
        """Another device recorded in this game: load it and leave it the computers.

        False when this device already has that revision (it announced it itself).
        """
        if revision == self.session.saved.revision:
            return False
        self.following = True
        self.session.refresh()
        return True

    # --- undo policy ----------------------------------------------------------------------

    def undo_depth(self) -> int:
        """How many commands Undo takes back now: against computers, back to a person's."""
        log = self.session.saved.log
        if not self.bots:
            return 1 if log else 0
        return undo_depth([entry.command for entry in log], self.bots)

    def undo_text(self) -> str | None:
        """What Undo takes back now, computers' commands after a person's included."""
        depth = self.undo_depth()
        if not depth:
            return None
        if not self.bots:
            return self.session.saved.undo_label
        entry = self.session.saved.log[-depth]
        after = depth - 1
        more = f" and {counted(after, 'computer command')} after it" if after else ""
        return f"{entry.description}{more}"

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

    def redo(self) -> Outcome:
        """Bring back the newest undone command, and the computers' commands after it."""
        outcome = self.session.redo()
        while outcome.ok and self.bot_to_move() is not None and self.session.saved.redo_label:
            outcome = self.session.redo()
        if outcome.ok:
            self.recorded_here()
        return outcome

    # --- computer seats -------------------------------------------------------------------

    def should_play(self) -> bool:
        """Whether this device is to start the computers' play now."""
        return (
            not self.busy
            and not self.following
            and not self.session.state.is_terminal
            and self.bot_to_move() is not None
        )

    async def play_bots(self, stage: Stage) -> None:
        """Let computers play, one shown command at a time, until a person's turn or the end.

        A choice made for a position someone has since undone is dropped, and the bot
        decides again; a refused command or a failing bot stops play until a person acts.
        """
        self.busy = True
        # The turn being shown, and the seconds of it shown before the command now shown.
        shown_turn: tuple[object, ...] | None = None
        shown = pause = 0.0
        try:
            while stage.on_screen() and not self.following:
                bot = self.bot_to_move()
                if bot is None:
                    return
                state = self.session.state
                player = state.current_player
                assert player is not None, "a bot is to move: someone decides"
                revision = self.session.saved.revision
                try:
                    command = await self.think(bot.choose, state.clone())
                except Exception as error:
                    # Reported in one line; the person can go on or reload.
                    name = self.session.label(player)
                    stage.show(Outcome(False, f"{name} (computer) could not decide: {error}"))
                    return
                if self.session.saved.revision != revision:
                    continue  # someone undid meanwhile: decide again from the new position
                turn = turn_key(state)
                shown = shown + pause if turn == shown_turn else 0.0
                shown_turn, pause = turn, pause_for(command, shown)
                self.showing = (player, command)
                stage.show(None)
                await stage.present(player, command, pause)
                self.showing = None
                if self.session.saved.revision != revision or not stage.on_screen():
                    continue
                outcome = self.record([command], player)
                if outcome.ok and self.session.state.is_terminal:
                    stage.finished()
                    return
                stage.show(outcome)
                if not outcome.ok:
                    return  # never loop on a refusal
        finally:
            self.busy = False
            self.showing = None
