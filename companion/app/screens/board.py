"""The digital board: the isle drawn, play by touch, dice, Energy and Reset, computer opponents.

Every rule comes from the engine's query surface: what a tap may do is a space's legal
command, why it may not is the engine's refusal, the odds and tallies are the engine's.
Whose turn it is, the computer seats, undo and which device drives them are the turn
controller's (`companion/app/turns.py`); this screen draws and turns taps into commands.
Every command, a person's or a computer's, goes through the session into the store, so a
digital game undoes, resumes and replays like any other.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import flet as ft

from companion.app.board_geometry import canvas_height
from companion.app.board_taps import tap_command, targets
from companion.app.board_view import IsleCanvas
from companion.app.game_panels import GameBar, PlayersCard
from companion.app.game_words import say
from companion.app.screens.board_attack import AttackPanel
from companion.app.screens.board_cards import BOTTOM_BAR, BoardCards
from companion.app.screens.board_motion import GLIDE_FRAME_S, GLIDE_FRAMES, HAND_GLIDE_FRAMES, glide
from companion.app.session import GameSession, Outcome
from companion.app.theme import colour_of
from companion.app.turns import Turns, seat_bots
from companion.app.widgets import WIDE, energy_track, notify, screen, section
from models.commands import Attack, Command, Dominate, Move

if TYPE_CHECKING:
    from companion.app.main import App

T = TypeVar("T")

# Page widths from which the board and the panels sit side by side (Flet's "md" breakpoint).
SIDE_BY_SIDE = 768
# The screen's padding and the space between its columns, as `widgets.screen` and Flet set them.
SCREEN_PADDING = 12
ROW_SPACING = 10
BOARD_COLUMNS = 7


def build(app: App, game_id: str) -> ft.View:
    """The digital board for one saved game."""
    session = app.session(game_id)
    view = screen(f"/game/{game_id}", spacing=10)
    board = BoardScreen(app, session, view)
    board.render()
    app.follow(game_id, board.changed_elsewhere)
    board.wake_bots()
    app.page.run_task(board.turns.keep_watch, board)
    return view


class BoardScreen:
    """Draws the game and turns taps into commands; the turn controller plays the computers."""

    def __init__(self, app: App, session: GameSession, view: ft.View) -> None:
        self.app = app
        self.session = session
        self.view = view
        # The device's language, read as the screen is built: a switch builds it again.
        self.words = words = app.words
        self.turns = Turns(session, self.announce, seat_bots(session))
        # A screen built again for this browser (a phone turned) does not ask again to go on
        # from an Energy and Reset it went on from: the browser's session remembers.
        self.went_on_key = f"went-on/{session.id}"
        self.turns.went_on = app.page.session.store.get(self.went_on_key)
        # The attack panel last opened, closed if another device moves the game on.
        self.attack: AttackPanel | None = None
        self.shown_player: str | None = session.state.current_player
        page = app.page
        width = page.width or 360
        self.side_by_side = width >= SIDE_BY_SIDE
        # A first guess at the canvas width; the canvas reports its real width once laid out.
        inner = width - 2 * SCREEN_PADDING
        board_width = inner * BOARD_COLUMNS / 12 - ROW_SPACING if self.side_by_side else inner
        setup = session.saved.setup
        colours = {player.id: colour_of(player.colour or player.id) for player in setup.players}
        self.isle = IsleCanvas(
            session.saved.game.board,
            colours,
            self.tapped,
            board_width,
            self.board_height,
            words=words,
        )
        app.on_page_resize(self.resized)
        self.cards = BoardCards(session, self.turns, self.record, self.go_on, app.go, words)
        self.cards.fit_width(width)
        self.game_bar = GameBar(app.go, session.id, self.undo, self.redo, words)
        view.appbar = self.game_bar.control
        notes = {player: say(words, "game.players.computer") for player in self.turns.bots}
        self.players = PlayersCard(session, notes, words=words)
        # The isle with its key, made once: a new parent at every redraw would send the whole
        # isle (every space, every shape) to the browser again.
        # The key to the marks: under the isle beside the panels; on a phone under the step
        # guide, so what to do next comes right after the isle.
        self.legend = ft.Text(
            say(words, "game.board.legend"), size=12, color=ft.Colors.ON_SURFACE_VARIANT
        )
        isle = ft.Container(content=self.isle.control, border_radius=12)
        self.board = ft.Column(
            [isle, self.legend] if self.side_by_side else [isle],
            spacing=6,
            horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
        )
        # Side by side, each column scrolls on its own: on a short screen (a phone turned
        # sideways) scrolling down the isle leaves the step guide in view beside it.
        self.panels = ft.Column(expand=12 - BOARD_COLUMNS, scroll=ft.ScrollMode.AUTO)
        self.layout = ft.Row(
            [
                ft.Column([self.board], expand=BOARD_COLUMNS, scroll=ft.ScrollMode.AUTO),
                self.panels,
            ],
            expand=True,
            spacing=ROW_SPACING,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        if self.side_by_side:
            view.scroll = None
        # Panels that change seldom, by name: what they were made from, and the control.
        self._made: dict[str, tuple[Any, ft.Control]] = {}

    def resized(self) -> None:
        """The page turned or resized: the isle fits it again, and so does the bottom bar."""
        if self.cards.fit_width(self.app.page.width or 360) and self.cards.bar.visible:
            self.cards.bar.update()
        self.isle.refit()

    def board_height(self, width: float) -> float:
        """The canvas height for a canvas width, on the page as it is now."""
        page = self.app.page
        height = page.height or 740
        # Beside the panels the isle may fill the screen's height; above them, most of it.
        side_by_side = (page.width or 360) >= SIDE_BY_SIDE
        max_height = height - 140 - BOTTOM_BAR if side_by_side else height * 0.7
        return canvas_height(self.session.saved.game.board, width, max_height)

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
            notify(self.app.page, outcome.text(self.words), error=True)
        self.app.page.update()

    def finished(self) -> None:
        """Go to the result."""
        self.app.go(f"/game/{self.session.id}/end")

    def announce(self, revision: int) -> None:
        """Tell the game's other devices about a revision recorded here."""
        self.app.announce(self.session.id, revision)

    async def present(self, player: str, command: Command, seconds: float) -> None:
        """Point out a computer's command (already drawn); a move glides through the pause."""
        frames = min(GLIDE_FRAMES, int(seconds / GLIDE_FRAME_S))
        if isinstance(command, Move) and frames:
            await glide(self.isle, self.session.state, command, self.on_screen, frames=frames)
        else:
            await asyncio.sleep(seconds)

    # --- a person's actions -----------------------------------------------------------

    def tapped(self, location: str) -> None:
        """A tap on a space: the legal command it means, or the engine's reason it cannot be."""
        if self.turns.busy or not self.turns.human_to_move() or self.turns.reset_waiting():
            return
        state = self.session.state
        command = tap_command(state, location)
        if command is None:
            return
        if command not in state.legal_commands():
            reason = self.session.refusal(command)
            said = self.words.render(reason) if reason else say(self.words, "game.board.nothing")
            notify(self.app.page, said, error=True)
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
        self.after(Outcome(True, ""))

    def changed_elsewhere(self, revision: int) -> None:
        """Another device recorded in this game: show it as it is now, and leave it the bots."""
        if not self.turns.changed_elsewhere(revision):
            return
        # An attack being rolled here was meant for the position before: it no longer stands.
        # (Only the attack panel: a message sliding in is a dialog too, and may stay.)
        if self.attack is not None and self.attack.dialog.open:
            self.attack.close()
            notify(self.app.page, say(self.words, "game.board.moved_on_elsewhere"))
        if self.over():
            self.finished()
            return
        self.show(None)

    def undo(self, _: ft.Event[Any]) -> None:
        """Take back the newest command of a person, and the computers' commands after it."""
        self.after(self.turns.undo())

    def redo(self, _: ft.Event[Any]) -> None:
        """Bring back the newest undone command, and the computers' commands after it."""
        self.after(self.turns.redo())

    def wake_bots(self) -> None:
        """Start the computers' play if one of them is to decide and this device drives them."""
        if self.turns.should_play():
            # Busy from now, not from when the task starts: a second wake meanwhile starts nothing.
            self.turns.busy = True
            self.app.page.run_task(self.turns.play_bots, self)

    # --- drawing ----------------------------------------------------------------------

    def render(self) -> None:
        """Rebuild the screen from the saved game's state."""
        state = self.session.state
        # A tap is made by the player this drawing shows, whatever the game has moved on to.
        self.shown_player = state.current_player
        waiting = self.turns.reset_waiting() is not None and state.last_tally is not None
        # Until play goes on, the round shown is the one whose Energy and Reset is read.
        shown_round = state.last_tally.round if waiting and state.last_tally else None
        words = self.words
        self.game_bar.show(
            state, self.turns.undo_text(words), self.session.redo_text(words), shown_round
        )
        self.players.show(state)
        self.view.bottom_appbar = self.cards.bottom_bar()
        marks = targets(state) if self.turns.human_to_move() and not waiting else {}
        flash: tuple[str, ...] = ()
        turn = state.decision()
        if self.turns.showing is not None:
            flash = state.places(self.turns.showing[1])
        elif turn is not None and turn.territory is not None:
            flash = state.places(Dominate(turn.territory, True))
        self.isle.show(state.creatures(), marks, state.game.labels, flash)
        tally = state.last_tally
        # Play waits while an Energy and Reset is shown; it takes the step guide's place.
        panels = [
            self.cards.reset_card(tally) if waiting and tally else self.cards.turn_card(),
            self.players.control,
            self._kept(
                "energy",
                self.counters(),
                lambda c: section(say(words, "game.board.energy"), energy_track(c, words)),
            ),
        ]
        if tally is not None and not waiting:
            panels.append(self._kept("tally", tally, self.cards.tally_card))
        self.view.data = WIDE
        if self.side_by_side:
            self.panels.controls = panels
            self.view.controls = [self.layout]
        elif waiting:
            # The Energy and Reset is read first; the isle waits under it.
            self.view.controls = [panels[0], self.board, self.legend, *panels[1:]]
        else:
            # The isle on top never moves as the step guide under it grows or shrinks.
            self.view.controls = [self.board, panels[0], self.legend, *panels[1:]]

    def _kept(self, name: str, key: T, build: Callable[[T], ft.Control]) -> ft.Control:
        """The control `build(key)` makes, made again only when `key` has changed: a control
        kept is compared, not sent again, when the screen is redrawn for each command."""
        kept = self._made.get(name)
        if kept is None or kept[0] != key:
            kept = (key, build(key))
            self._made[name] = kept
        return kept[1]

    def counters(self) -> list[tuple[str, str, int]]:
        """(name, colour, energy) per player in turn order, for the track."""
        state = self.session.state
        return [
            (self.session.label(p), self.session.colour(p), state.energy_of(p))
            for p in state.order()
        ]
