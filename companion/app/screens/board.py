"""The digital board: the isle drawn, play by touch, dice, Energy and Reset, computer opponents.

Every rule comes from the engine's query surface: what a tap may do is a space's legal
command, why it may not is the engine's refusal, the odds and tallies are the engine's.
Whose turn it is, the computer seats, undo and which device drives them are the turn
controller's (`companion/play/turns.py`); this screen draws and turns taps into commands.
Every command, a person's or a computer's, goes through the session into the store, so a
digital game undoes, resumes and replays like any other.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, TypeVar

import flet as ft

from companion.app.aid_dialog import aid_button
from companion.app.board_view import IsleCanvas
from companion.app.game_panels import GameBar, PlayersCard
from companion.app.screens import board_pace, board_render, board_replay
from companion.app.screens.board_attack import AttackPanel
from companion.app.screens.board_bar import BottomBar
from companion.app.screens.board_cards import BoardCards
from companion.app.screens.board_coach import BarsCard, HintCard
from companion.app.screens.board_frame import Frame
from companion.app.screens.board_motion import GLIDE_FRAME_S, GLIDE_FRAMES, HAND_GLIDE_FRAMES, glide
from companion.app.screens.board_pace import SESSION_PACE
from companion.app.screens.board_side import SideRail
from companion.app.theme import colour_of
from companion.app.widgets import notify, screen
from companion.language import Message
from companion.play.aid_view import opening_part
from companion.play.board_device import TIMINGS, pace_of, went_on_key
from companion.play.board_frame import (
    Arrangement,
    arrangement,
    isle_height,
    isle_width,
    side_width,
    sideways_isle,
)
from companion.play.board_refusals import untaken
from companion.play.board_summary import Replay, Story
from companion.play.board_taps import meaning
from companion.play.game_words import say
from companion.play.session import GameSession, Outcome
from companion.play.tap_guard import TapGuard, Verdict
from companion.play.turns import Turns, seat_bots
from models.commands import Attack, Command, Move

if TYPE_CHECKING:
    from companion.app.main import App

T = TypeVar("T")


def build(app: App, game_id: str) -> ft.View:
    """The digital board for one saved game."""
    session = app.session(game_id)
    view = screen(f"/game/{game_id}", spacing=10)
    board = BoardScreen(app, session, view)
    board.render()
    app.bus.follow(game_id, board.changed_elsewhere)
    board.wake_bots()
    app.page.run_task(board.turns.keep_watch, board)
    if board.turns.bots and app.page.session.store.get(SESSION_PACE) is None:
        app.page.run_task(board_pace.read_pace, board)
    return view


class BoardScreen:
    """Draws the game and turns taps into commands; the turn controller plays the computers."""

    def __init__(self, app: App, session: GameSession, view: ft.View) -> None:
        self.app = app
        self.session = session
        self.view = view
        # The device's language, read as the screen is built: a switch builds it again.
        self.words = words = app.words
        searches = app.service.searches
        bots = seat_bots(session)
        self.turns = Turns(
            session, self.announce, bots, think=searches.think, leases=app.service.leases
        )
        if any(bot.budget_ms is not None for bot in bots.values()):
            searches.warm()
        # A screen built again for this browser (a phone turned) does not ask again to go on
        # from an Energy and Reset it went on from: the browser's session remembers.
        self.went_on_key = went_on_key(session.id)
        self.turns.went_on = app.page.session.store.get(self.went_on_key)
        self.pace = pace_of(app.page.session.store.get(SESSION_PACE))
        self.turns.timing = TIMINGS[self.pace]
        # The attack panel last opened, closed if another device moves the game on.
        self.attack: AttackPanel | None = None
        self.shown_player: str | None = session.state.current_player
        # One tap, one record: a double tap's second half on a space is dropped (on the web,
        # by the page itself, by the phone's clock).
        self.guard = TapGuard(doubles=not app.page.web)
        # The story since the person to decide last decided, and the "Last:" line, for the
        # revision they were told at; a replay of the story under way.
        self.kept_story: tuple[int, str, Story] | None = None
        self.kept_latest: tuple[int, tuple[Message, tuple[Message, ...]] | None] | None = None
        self.kept_reset_story: tuple[int, Story | None] | None = None
        self.replay: Replay | None = None
        page = app.page
        width, height = page.width or 360, page.height or 740
        self.shown = arrangement(width, height)
        board = session.saved.game.board
        colours = {
            player.id: colour_of(player.colour or player.id)
            for player in session.saved.setup.players
        }
        self.isle = IsleCanvas(
            board,
            colours,
            self.tapped,
            isle_width(board, width, height),
            self.board_height,
            words=words,
            tight=self.shown is Arrangement.SIDEWAYS,
            on_tap_sea=self.tapped_sea,
        )
        app.on_page_resize(self.resized)
        self.cards = BoardCards(session, self.turns, self.record, app.go, words)
        self.cards.on_replay = self.start_replay
        self.cards.on_skip = self.skip_replay
        self.cards.show_dialog = page.show_dialog
        self.cards.page_pop = page.pop_dialog
        self.bottom = BottomBar(
            session, self.turns, self.record, self.go_on, self.cards.go_on_label, words
        )
        self.bottom.fit_width(width)

        # The rules at a glance open at the part of the phase being played, or read.
        def aid_part() -> str | None:
            reading = self.turns.reset_waiting() is not None
            return opening_part(session.state.phase, reading=reading)

        aid = [aid_button(app, aid_part) for _ in range(2)]
        self.game_bar = GameBar(app.go, session.id, self.undo, self.redo, words, aid[0], width)
        rail_taps = (self.undo, self.redo, self.open_panels)
        self.rail = SideRail(app.go, session.id, rail_taps, words, aid[1])
        notes = {player: say(words, "game.players.computer") for player in self.turns.bots}
        self.players = PlayersCard(session, notes, words=words)
        # Under the players while an Energy and Reset is read: who is ringed already, and why.
        self.ringed = ft.Text(size=13, color=ft.Colors.ON_SURFACE_VARIANT, visible=False)
        # The isle and what goes around it in each arrangement, made once.
        self.frame = Frame(self.isle.control, self.rail.control, self.bottom.slot, words)
        # Panels that change seldom, by name: what they were made from, and the control.
        self.made: dict[str, tuple[Any, ft.Control]] = {}
        # The coach: "What would the computer do?" and the chance bars.
        self.hint = HintCard(self)
        self.chances = BarsCard(self)
        self.arrange()

    def arrange(self) -> None:
        """Lay the screen out for the page as it is: bars and panels where this arrangement
        puts them, the isle fitted to it."""
        page = self.app.page
        width, height = page.width or 360, page.height or 740
        self.shown = shown = arrangement(width, height)
        sideways = shown is Arrangement.SIDEWAYS
        self.bottom.dock(sideways)
        self.game_bar.fit_width(width)
        self.view.appbar = None if sideways else self.game_bar.control
        board = self.session.saved.game.board
        self.frame.arrange(self.view, shown, sideways_isle(board, width, height)[0])
        self.rail.room = side_width(board, width, height)
        self.isle.tight = sideways
        # The screen is sent whole next (`show`): the isle is not sent on its own first.
        self.isle.refit(isle_width(board, width, height), send=False)

    def resized(self) -> None:
        """The page turned or resized: the screen is laid out again if its arrangement
        changed (a tablet's size to a phone's on its side), the isle fits it again, and so
        does the bottom bar."""
        page = self.app.page
        shown = arrangement(page.width or 360, page.height or 740)
        if shown is not self.shown or shown is Arrangement.SIDEWAYS:
            # Sideways the isle's width follows the height too: laid out again whole.
            self.arrange()
            self.show(None)
            return
        docked = self.shown is not Arrangement.SIDEWAYS  # the bar is on the page
        if self.bottom.fit_width(page.width or 360) and docked and self.bottom.bar.visible:
            self.bottom.bar.update()
        self.game_bar.refit(page.width or 360, docked)
        self.isle.refit()

    def board_height(self, width: float) -> float:
        """The canvas height for a canvas width, on the page as it is now."""
        page = self.app.page
        return isle_height(
            self.session.saved.game.board, width, page.width or 360, page.height or 740
        )

    def open_panels(self, _: ft.Event[Any]) -> None:
        """Open the panels' drawer (a phone on its side)."""
        self.app.page.run_task(self.app.page.show_end_drawer)

    # --- the turn controller's stage --------------------------------------------------------

    def on_screen(self) -> bool:
        """Whether this screen is the one shown, to a browser still connected."""
        try:
            # A closed tab leaves its session disconnected (kept a while for a reload).
            connected = self.app.page.session.connection is not None
        except RuntimeError:  # the session is gone
            return False
        return connected and not self.closed()

    def closed(self) -> bool:
        """Whether another screen has replaced this one."""
        views = self.app.page.views
        return not views or views[-1] is not self.view

    def wake(self) -> None:
        """This device drives the computers and one is to play: let it, unless the dice of a
        person's attack are still on screen (their Continue lets the computers play)."""
        if self.attack is not None and self.attack.dialog.open:
            return
        self.wake_bots()
        self.show(None)

    async def wait(self, seconds: float) -> None:
        """Leave the screen as it is for a while (an Energy and Reset being read)."""
        await asyncio.sleep(seconds)

    def show(self, outcome: Outcome | None) -> None:
        """Redraw; only a refusal needs a message (what was done shows in the turn card)."""
        self.render()
        if outcome is not None and not outcome.ok:
            self.tell(outcome.text(self.words), error=True)
        self.app.page.update()

    def finished(self) -> None:
        """Go to the result."""
        self.app.go(f"/game/{self.session.id}/end")

    def announce(self, revision: int) -> None:
        """Tell the game's other devices about a revision recorded here."""
        self.app.bus.announce(self.session.id, revision)

    async def present(self, player: str, command: Command, seconds: float) -> None:
        """Point out a computer's command (already drawn); a move glides through the pause."""
        frames = min(GLIDE_FRAMES, int(seconds / GLIDE_FRAME_S))
        if isinstance(command, Move) and frames:
            await glide(self.isle, self.session.state, command, self.on_screen, frames=frames)
        else:
            await asyncio.sleep(seconds)

    # --- a person's actions -----------------------------------------------------------

    def tell(self, message: str, *, error: bool = False) -> None:
        """A short message at the bottom; on a phone on its side, beside the isle, never over
        its spaces (a refusal there would cover the bottom row for seconds)."""
        page = self.app.page
        beside = 0.0
        if self.shown is Arrangement.SIDEWAYS:
            width, height = page.width or 844, page.height or 390
            beside = isle_width(self.session.saved.game.board, width, height)
        notify(page, message, error=error, beside=beside)

    def tapped(self, location: str) -> None:
        """A tap on a space: the legal command it means, or the engine's reason it cannot be;
        a tap the isle cannot take now is told why, never ignored."""
        verdict = self.guard.tap()
        if verdict is Verdict.DOUBLE:
            return
        if verdict is Verdict.CHANGED:
            self.tell(say(self.words, "game.tap.changed"), error=True)
            return
        if self.replay is not None and self.replay.running:
            self.skip_replay()
            self.tell(say(self.words, "game.board.tap_replay"))
            return
        refused = self.untaken()
        if refused is not None:
            self.tell(refused, error=True)
            return
        if self.turns.busy:
            return  # the person's own move is still gliding
        command = meaning(self.session.state, location, self.session.refusal)
        if command is None:
            return
        if isinstance(command, Message):
            self.tell(self.words.render(command), error=True)
            return
        if isinstance(command, Attack):
            self.attack = AttackPanel(self, command)
            self.attack.open()
            return
        if isinstance(command, Move):
            self.turns.busy = True  # no second tap, and no computer, while the creature travels
            self.app.page.run_task(self.move_by_hand, command)
            return
        self.record(command)

    def tapped_sea(self, _: tuple[float, float]) -> None:
        """A tap on the isle off every space: told why the isle takes no tap now, if so."""
        refused = self.untaken()
        if refused is not None and self.guard.tap() is Verdict.SEND:
            self.tell(refused, error=True)

    def untaken(self) -> str | None:
        """Why the isle takes no tap now, in a sentence (`play/board_refusals.untaken`)."""
        bots = {player: self.cards.bot_names.get(player, "") for player in self.turns.bots}
        waiting = self.turns.reset_waiting() is not None
        said = untaken(self.session.state, waiting, bots, self.session.label)
        return None if said is None else self.words.render(said)

    async def move_by_hand(self, move: Move) -> None:
        """A person's move: the creature glides its way, then the move is recorded."""
        revision = self.session.saved.revision
        try:
            await glide(
                self.isle, self.session.state, move, self.on_screen, frames=HAND_GLIDE_FRAMES
            )
        finally:
            self.turns.busy = False
        # Another device may have moved the game on meanwhile: the move was for before.
        if self.on_screen() and self.session.saved.revision == revision:
            self.record(move)

    def record(self, command: Command) -> Outcome:
        """Send a command through the store, for the player shown, and show what happened."""
        outcome = self.turns.record([command], self.shown_player)
        self.after(outcome)
        return outcome

    def after(self, outcome: Outcome) -> None:
        """Show what happened, and let a computer play if its turn has come."""
        if self.over():
            self.finished()
            return
        self.show(outcome)
        self.wake_bots()

    def over(self) -> bool:
        """Whether the game is over and nothing is left to show here before the result."""
        return self.session.state.is_terminal and self.turns.reset_waiting() is None

    def go_on(self) -> None:
        """Continue, after an Energy and Reset: the next round (or the result) and its play."""
        self.turns.go_on()
        self.app.page.session.store.set(self.went_on_key, self.turns.went_on)
        self.after(Outcome(True))

    # --- the story since a person's last turn, replayed ----------------------------------

    def start_replay(self) -> None:
        """Play the story since the person's last turn again on the isle."""
        board_replay.start_replay(self)

    def skip_replay(self) -> None:
        """Stop the replay: the isle shows the game as it is."""
        board_replay.skip_replay(self)

    def changed_elsewhere(self, revision: int) -> None:
        """Another device recorded in this game: show it as it is now, and leave it the bots."""
        if not self.turns.changed_elsewhere(revision):
            return
        self.guard.changed_elsewhere()
        if self.replay is not None:
            self.replay.skip()
            self.replay = None
        # An attack being rolled here was meant for the position before: it no longer stands.
        # (Only the attack panel: a message sliding in is a dialog too, and may stay.)
        if self.attack is not None and self.attack.dialog.open:
            self.attack.close()
            self.tell(say(self.words, "game.board.moved_on_elsewhere"))
        if self.over():
            self.finished()
            return
        self.show(None)

    def undo(self, _: ft.Event[Any]) -> None:
        """Take back the newest command of a person, and the computers' commands after it."""
        self.replay = None
        self.after(self.turns.undo())

    def redo(self, _: ft.Event[Any]) -> None:
        """Bring back what Undo took back: a person's command and the computers' after it."""
        self.replay = None
        self.after(self.turns.redo())

    def wake_bots(self) -> None:
        """Start the computers' play if one of them is to decide and this device drives them."""
        if self.turns.should_play():
            # Busy from now, not from when the task starts: a second wake meanwhile starts nothing.
            self.turns.busy = True
            self.app.page.run_task(self.turns.play_bots, self)

    # --- drawing ----------------------------------------------------------------------

    def render(self) -> None:
        """Rebuild the screen from the saved game's state (`board_render`)."""
        board_render.render(self)
