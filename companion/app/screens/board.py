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
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import flet as ft

from companion.app.board_frame import (
    PADDING,
    SIDEWAYS_PADDING,
    SPACING,
    Arrangement,
    arrangement,
    isle_height,
    isle_width,
    sideways_isle,
)
from companion.app.board_view import IsleCanvas
from companion.app.game_panels import GameBar, PlayersCard
from companion.app.screens.board_attack import AttackPanel
from companion.app.screens.board_cards import BOT_NAMES, BoardCards
from companion.app.screens.board_motion import GLIDE_FRAME_S, GLIDE_FRAMES, HAND_GLIDE_FRAMES, glide
from companion.app.screens.board_side import SideRail, drawer
from companion.app.theme import colour_of
from companion.app.widgets import WIDE, energy_track, notify, screen, section
from companion.language import Message
from companion.play.board_device import STORED_PACE, TIMINGS, Pace, pace_of, went_on_key
from companion.play.board_summary import Replay, Step, Story, latest, story_since
from companion.play.board_taps import targets
from companion.play.game_words import say
from companion.play.session import GameSession, Outcome
from companion.play.tap_guard import TapGuard, Verdict
from companion.play.turns import Turns, seat_bots
from models.commands import Attack, Command, Dominate, Move

if TYPE_CHECKING:
    from companion.app.main import App

T = TypeVar("T")

# Where a browser's session keeps, for its screens built again, the pace it read and the
# store of its kept settings.
SESSION_PACE = "board-pace"
SESSION_PREFS = "board-prefs"


def build(app: App, game_id: str) -> ft.View:
    """The digital board for one saved game."""
    session = app.session(game_id)
    view = screen(f"/game/{game_id}", spacing=10)
    board = BoardScreen(app, session, view)
    board.render()
    app.follow(game_id, board.changed_elsewhere)
    board.wake_bots()
    app.page.run_task(board.turns.keep_watch, board)
    if board.turns.bots and app.page.session.store.get(SESSION_PACE) is None:
        app.page.run_task(board.read_pace)
    return view


class BoardScreen:
    """Draws the game and turns taps into commands; the turn controller plays the computers."""

    def __init__(self, app: App, session: GameSession, view: ft.View) -> None:
        self.app = app
        self.session = session
        self.view = view
        # The device's language, read as the screen is built: a switch builds it again.
        self.words = words = app.words
        self.turns = Turns(session, self.announce, seat_bots(session), leases=app.service.leases)
        # A screen built again for this browser (a phone turned) does not ask again to go on
        # from an Energy and Reset it went on from: the browser's session remembers.
        self.went_on_key = went_on_key(session.id)
        self.turns.went_on = app.page.session.store.get(self.went_on_key)
        self.pace = pace_of(app.page.session.store.get(SESSION_PACE))
        self.turns.timing = TIMINGS[self.pace]
        # The attack panel last opened, closed if another device moves the game on.
        self.attack: AttackPanel | None = None
        self.shown_player: str | None = session.state.current_player
        # One tap, one record: a double tap's second half on a space is dropped (issue 20).
        self.guard = TapGuard()
        # The story since the person to decide last decided, and the "Last:" line, for the
        # revision they were told at; a replay of the story under way.
        self._story: tuple[int, str, Story] | None = None
        self._latest: tuple[int, tuple[Message, tuple[Message, ...]] | None] | None = None
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
        self.cards = BoardCards(session, self.turns, self.record, self.go_on, app.go, words)
        self.cards.on_replay = self.start_replay
        self.cards.on_skip = self.skip_replay
        self.cards.show_dialog = page.show_dialog
        self.cards.page_pop = page.pop_dialog
        self.cards.fit_width(width)
        self.game_bar = GameBar(app.go, session.id, self.undo, self.redo, words)
        self.rail = SideRail(app.go, session.id, self.undo, self.redo, self.open_panels, words)
        notes = {player: say(words, "game.players.computer") for player in self.turns.bots}
        self.players = PlayersCard(session, notes, words=words)
        # Under the players while an Energy and Reset is read: who is ringed already, and why.
        self.ringed = ft.Text(size=13, color=ft.Colors.ON_SURFACE_VARIANT, visible=False)
        # The isle with its key, made once: a new parent at every redraw would send the whole
        # isle (every space, every shape) to the browser again.
        self.legend = ft.Text(
            say(words, "game.board.legend"), size=12, color=ft.Colors.ON_SURFACE_VARIANT
        )
        self.isle_box = ft.Container(content=self.isle.control, border_radius=12)
        self.board = ft.Column(
            [self.isle_box], spacing=6, horizontal_alignment=ft.CrossAxisAlignment.STRETCH
        )
        # Side by side, each column scrolls on its own: scrolling down the panels leaves the
        # isle in view beside them.
        self.panels = ft.Column(expand=12 - 7, scroll=ft.ScrollMode.AUTO)
        self.layout = ft.Row(
            [
                ft.Column([self.board], expand=7, scroll=ft.ScrollMode.AUTO),
                self.panels,
            ],
            expand=True,
            spacing=SPACING,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        # A phone on its side: the isle the screen's height, and beside it the rail, the turn
        # card (scrolling) and the buttons; the panels in a drawer.
        self.card_slot = ft.Column(scroll=ft.ScrollMode.AUTO, expand=True)
        self.side = ft.Column(
            [self.rail.control, self.card_slot, self.cards.slot],
            expand=True,
            spacing=6,
        )
        self.sideways = ft.Row(
            [self.board, self.side],
            expand=True,
            spacing=SPACING,
            vertical_alignment=ft.CrossAxisAlignment.START,
        )
        self.drawer_column = ft.Column(spacing=8)
        self.drawer = drawer([self.drawer_column])
        # Panels that change seldom, by name: what they were made from, and the control.
        self._made: dict[str, tuple[Any, ft.Control]] = {}
        self.arrange()

    def arrange(self) -> None:
        """Lay the screen out for the page as it is: bars and panels where this arrangement
        puts them, the isle fitted to it."""
        page = self.app.page
        width, height = page.width or 360, page.height or 740
        self.shown = shown = arrangement(width, height)
        view = self.view
        sideways = shown is Arrangement.SIDEWAYS
        self.cards.dock(sideways)
        view.appbar = None if sideways else self.game_bar.control
        view.end_drawer = self.drawer if sideways else None
        view.padding = SIDEWAYS_PADDING if sideways else PADDING
        view.scroll = ft.ScrollMode.AUTO if shown is Arrangement.PHONE else None
        self.board.controls = (
            [self.isle_box, self.legend] if shown is Arrangement.TABLET else [self.isle_box]
        )
        if sideways:
            board = self.session.saved.game.board
            isle, _ = sideways_isle(board, width, height)
            self.board.width = self.isle_box.width = isle
        else:
            self.board.width = self.isle_box.width = None
        self.isle.tight = sideways
        self.isle.refit(isle_width(self.session.saved.game.board, width, height))

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
        if self.cards.fit_width(page.width or 360) and docked and self.cards.bar.visible:
            self.cards.bar.update()
        self.isle.refit()

    def board_height(self, width: float) -> float:
        """The canvas height for a canvas width, on the page as it is now."""
        page = self.app.page
        return isle_height(
            self.session.saved.game.board, width, page.width or 360, page.height or 740
        )

    async def read_pace(self) -> None:
        """The pace this browser keeps (normal if none), read once per browser session."""
        kept = await self.prefs().get(STORED_PACE)
        self.app.page.session.store.set(SESSION_PACE, str(kept or ""))
        pace = pace_of(kept)
        if pace is not self.pace:
            self.pace = pace
            self.turns.timing = TIMINGS[pace]
            if not self.closed():
                self.show(None)

    def set_pace(self, pace: Pace) -> None:
        """This device's pace from now on, kept in its browser."""
        self.pace = pace
        self.turns.timing = TIMINGS[pace]
        self.app.page.session.store.set(SESSION_PACE, pace.value)
        self.app.page.run_task(self.prefs().set, STORED_PACE, pace.value)
        self.show(None)

    def prefs(self) -> ft.SharedPreferences:
        """This browser's kept settings (one per browser session)."""
        store = self.app.page.session.store
        prefs = store.get(SESSION_PREFS)
        if not isinstance(prefs, ft.SharedPreferences):
            prefs = ft.SharedPreferences()
            store.set(SESSION_PREFS, prefs)
        return prefs

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
        self.app.announce(self.session.id, revision)

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
        its spaces (issue 24's trial: a refusal covered the bottom row for seconds)."""
        page = self.app.page
        beside = 0.0
        if self.shown is Arrangement.SIDEWAYS:
            width, height = page.width or 844, page.height or 390
            beside = isle_width(self.session.saved.game.board, width, height)
        notify(page, message, error=error, beside=beside)

    def tapped(self, location: str) -> None:
        """A tap on a space: the legal command it means, or the engine's reason it cannot be;
        a tap the isle cannot take now is told why (issue 24), never ignored."""
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
        state = self.session.state
        command = state.tap_command(location)
        if command is None:
            return
        if command not in state.legal_commands():
            reason = self.session.refusal(command)
            said = self.words.render(reason) if reason else say(self.words, "game.board.nothing")
            self.tell(said, error=True)
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
        """Why the isle takes no tap now, in a sentence: an Energy and Reset to read, a
        computer's turn, the game over; None when a person is to decide."""
        state = self.session.state
        words = self.words
        waiting = self.turns.reset_waiting()
        if waiting is not None and state.last_tally is not None:
            round_ = state.last_tally.round or state.round
            return say(words, "game.board.tap_reset", round=round_, button=self.cards.go_on_label())
        if state.is_terminal:
            return say(words, "game.board.over")
        player = state.current_player
        if player is not None and player in self.turns.bots:
            bot = self.cards.bot_names.get(player, "")
            level = say(words, BOT_NAMES[bot]) if bot in BOT_NAMES else bot
            return say(
                words, "game.board.tap_computer", player=self.session.label(player), level=level
            )
        return None

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

    def story(self, player: str) -> Story:
        """Everything since `player` last decided, worked out once per revision."""
        revision = self.session.saved.revision
        if self._story is None or self._story[:2] != (revision, player):
            self._story = (revision, player, story_since(self.session, player))
        return self._story[2]

    def last_line(self) -> tuple[Message, tuple[Message, ...]] | None:
        """The newest record's line and the players it passed over, once per revision."""
        revision = self.session.saved.revision
        if self._latest is None or self._latest[0] != revision:
            self._latest = (revision, latest(self.session))
        return self._latest[1]

    def start_replay(self) -> None:
        """Play the story since the person's last turn again on the isle."""
        player = self.session.state.current_player
        if player is None or self.turns.busy:
            return
        steps = self.story(player).steps
        if not steps:
            return
        self.replay = Replay(steps)
        self.app.page.run_task(self.run_replay, self.replay)

    def skip_replay(self) -> None:
        """Stop the replay: the isle shows the game as it is."""
        if self.replay is not None:
            self.replay.skip()
            self.replay = None
            if not self.closed():
                self.show(None)

    async def run_replay(self, replay: Replay) -> None:
        """Each record of the story on the isle in turn, at this device's pace; then the game
        as it is."""
        seconds = self.turns.timing.replay
        # Whether the record shown last glided: a glide took half of its time already.
        glided = False

        async def show(index: int, step: Step) -> None:
            nonlocal glided
            glided = False
            if not self.on_screen() or replay is not self.replay:
                replay.skip()
                return
            self.show(None)
            if isinstance(step.command, Move):
                frames = min(GLIDE_FRAMES * 2, int(seconds / 2 / GLIDE_FRAME_S))
                await glide(self.isle, step.before, step.command, self.on_screen, frames=frames)
                glided = True

        async def sleep(pause: float) -> None:
            # Every record is on the isle for the whole pause: a move's glide is half of it.
            await asyncio.sleep(pause / 2 if glided else pause)

        await replay.run(show, seconds, sleep)
        if replay is self.replay:
            self.replay = None
            if self.on_screen():
                self.show(None)

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
        """Rebuild the screen from the saved game's state."""
        state = self.session.state
        # A tap is made by the player this drawing shows, whatever the game has moved on to.
        self.shown_player = state.current_player
        waiting = self.turns.reset_waiting() is not None and state.last_tally is not None
        # Until play goes on, the round shown is the one whose Energy and Reset is read.
        shown_round = state.last_tally.round if waiting and state.last_tally else None
        words = self.words
        undo, redo = self.turns.undo_text(words), self.turns.redo_text(words)
        self.game_bar.show(state, undo, redo, shown_round)
        self.rail.show(state, undo, redo, shown_round)
        self.players.show(state)
        self.cards.bottom_bar()
        self.view.bottom_appbar = None if self.shown is Arrangement.SIDEWAYS else self.cards.bar
        self.draw_isle(waiting)
        tally = state.last_tally
        # Play waits while an Energy and Reset is shown; it takes the step guide's place.
        if waiting and tally:
            card = self.cards.reset_card(tally)
        else:
            player = state.current_player
            story = (
                self.story(player)
                if player is not None and self.turns.human_to_move() and self.replay is None
                else None
            )
            card = self.cards.turn_card(story, self.last_line(), self.replay)
        ringed = self.cards.ringed_note() if waiting else None
        self.ringed.value = ringed or ""
        self.ringed.visible = ringed is not None
        energy = self._kept(
            "energy",
            self.counters(),
            lambda c: section(say(words, "game.board.energy"), energy_track(c, words)),
        )
        # The computers' pace, where there are computers: under the players, short.
        pace = (
            [
                self._kept(
                    "pace", self.pace, lambda _: self.cards.pace_card(self.pace, self.set_pace)
                )
            ]
            if self.turns.bots
            else []
        )
        others: list[ft.Control] = [self.players.control, self.ringed, *pace, energy]
        if tally is not None and not waiting:
            others.append(self._kept("tally", tally, self.cards.tally_card))
        self.view.data = WIDE
        if self.shown is Arrangement.SIDEWAYS:
            self.card_slot.controls = [card]
            self.drawer_column.controls = [*others, self.legend]
            self.view.controls = [self.sideways]
        elif self.shown is Arrangement.TABLET:
            self.panels.controls = [card, *others]
            self.view.controls = [self.layout]
        elif waiting:
            # The Energy and Reset is read first; the isle waits under it.
            self.view.controls = [card, self.board, self.legend, *others]
        else:
            # The isle on top never moves as the step guide under it grows or shrinks.
            self.view.controls = [self.board, card, self.legend, *others]

    def draw_isle(self, waiting: bool) -> None:
        """The isle as the game stands, with what a tap would do; or, while the story is
        replayed, the position its record was played from, the record's spaces pointed out."""
        state = self.session.state
        replay = self.replay
        if replay is not None and replay.index is not None:
            step = replay.steps[replay.index]
            before = step.before
            self.isle.show(before.creatures(), {}, state.game.labels, before.places(step.command))
            return
        marks = targets(state) if self.turns.human_to_move() and not waiting else {}
        flash: tuple[str, ...] = ()
        turn = state.decision()
        if self.turns.showing is not None:
            flash = state.places(self.turns.showing[1])
        elif turn is not None and turn.territory is not None:
            flash = state.places(Dominate(turn.territory, True))
        self.isle.show(state.creatures(), marks, state.game.labels, flash)

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
