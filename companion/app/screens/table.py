"""The table screen: energy track, turn order, round rune, reserves, and one tap per event."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.aid_dialog import PHONE_WIDTH, aid_button
from companion.app.coach_panels import ChanceCard
from companion.app.game_panels import GameBar, PlayersCard, page_turns
from companion.app.order_strip import OrderStrip
from companion.app.screens.seat import seat_line
from companion.app.screens.table_correction import correction_tool
from companion.app.screens.table_turn import TurnCard
from companion.app.widgets import (
    WIDE,
    EnergyTrack,
    NamedPicker,
    big_button,
    notify,
    screen,
    section,
)
from companion.engine import Phase
from companion.play.aid_view import opening_part
from companion.play.game_words import say
from companion.play.odds_tool import OddsTool
from companion.play.session import GameSession, Moment, Outcome
from companion.play.tap_guard import TapGuard, Verdict
from models.commands import Command
from models.rules import CreatureKind
from models.seeded_dice import SeededDice

if TYPE_CHECKING:
    from companion.app.main import App

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
# Below this page height (a phone turned sideways) the turn card leaves out its guide.
COMPACT_HEIGHT = 500


def build(app: App, game_id: str) -> ft.View:
    """The table screen for one saved game."""
    session = app.session(game_id)
    view = screen(f"/game/{game_id}", spacing=10)
    TableScreen(app, session, view).render()
    return view


# The phases a round is played in, before its Energy and Reset.
PLAYING = (Phase.SUMMONING, Phase.ACTIONS)


class TableScreen:
    """Draws the game and records what the table does, changing the screen after each tap.

    Every control is made once and changed in place, so a tap sends the client only the
    values that changed, not a new screen.
    """

    def __init__(self, app: App, session: GameSession, view: ft.View) -> None:
        self.app = app
        self.session = session
        self.view = view
        # The device's language, read as the screen is built: a switch builds it again.
        self.words = words = app.words
        # Turn driving shared with the digital board: records, undo, other devices.
        self.turns = page_turns(app, session)
        self.die = ft.Text("", size=40)
        # The rules at a glance open at the part of the phase being played.
        aid = aid_button(app, lambda: opening_part(session.state.phase))
        self.bar = GameBar(
            app.go, session.id, self.undo, self.redo, words, aid, app.page.width or PHONE_WIDTH
        )
        self.track = EnergyTrack((), words)
        self.strip = OrderStrip(session, words)
        self.players = PlayersCard(session, words=words)
        # One tap, one record: every tap of this screen asks it first (a web page tells double
        # taps apart itself, by the phone's clock).
        self.guard = TapGuard(doubles=not app.page.web)
        self.turn = TurnCard(
            session, self.record, app.go, self.undo_at, words, self.guard, self.tap_changed
        )
        self.turn.compact = (app.page.height or 740) < COMPACT_HEIGHT
        # Below the turn card: a line that appears or grows never moves a control under a finger.
        self.chances = ChanceCard(app, session)
        view.appbar = self.bar.control
        # A phone turned: the round's title fits the bar's new width.
        app.on_page_resize(lambda: self.bar.refit(app.page.width or PHONE_WIDTH, True))
        app.bus.follow(session.id, self.changed_elsewhere)
        # One column on a phone; two side by side on a tablet or desktop.
        view.data = WIDE
        seat = seat_line(app, session.id)
        view.controls = [
            *([seat] if seat is not None else []),
            ft.ResponsiveRow(
                [
                    ft.Column(
                        [
                            self.strip.control,
                            self.turn.control,
                            self.chances.control,
                            self.players.control,
                        ],
                        col={"md": 6},
                    ),
                    ft.Column(
                        [
                            section(say(words, "game.board.energy"), self.track.control),
                            self.tools_card(),
                        ],
                        col={"md": 6},
                    ),
                ]
            ),
        ]

    # --- actions --------------------------------------------------------------------------

    def record(
        self,
        commands: Sequence[Command],
        by: str | None,
        revision: int | None = None,
        moment: Moment | None = None,
        again: Command | None = None,
    ) -> None:
        """Send what a tap says through the store, for the player, revision and moment it
        showed (`again`: what it says at any moment, GameSession.do_all)."""
        phase = self.session.state.phase
        outcome = self.turns.record(commands, by, revision, moment, again)
        entered_reset = (
            phase is not Phase.ENERGY_AND_RESET
            and self.session.state.phase is Phase.ENERGY_AND_RESET
        )
        if outcome.ok and entered_reset:
            # The round's last creature has acted: the next thing to do is the tally.
            self.app.go(f"/game/{self.session.id}/reset")
            return
        self.after(outcome)

    def after(self, outcome: Outcome, *, announce: bool = False) -> None:
        """Show the new state; a refusal (or, with `announce`, any outcome) as a message too.

        What was recorded shows in the turn card's last line, so a plain record needs no
        message sliding in over the screen.
        """
        if outcome.ok and self.session.state.is_terminal:
            self.app.go(f"/game/{self.session.id}/end")
            return
        # Only the panels a record can change are compared and sent, not the tools and layout;
        # the new state goes first, the message after it.
        self.app.page.update(*self.render())
        if announce or not outcome.ok:
            notify(self.app.page, outcome.text(self.words), error=not outcome.ok)

    def changed_elsewhere(self, revision: int) -> None:
        """Another phone recorded something in this game: show the game as it is now."""
        if not self.turns.changed_elsewhere(revision):
            return
        self.guard.changed_elsewhere()
        state = self.session.state
        if state.is_terminal:
            self.app.go(f"/game/{self.session.id}/end")
        elif self.turn.phase in PLAYING and state.phase is Phase.ENERGY_AND_RESET:
            # Another phone recorded the round's last action: every phone goes to the tally.
            self.app.go(f"/game/{self.session.id}/reset")
        else:
            self.app.page.update(*self.render())

    def tap_changed(self) -> None:
        """A tap came just as the screen changed: nothing was recorded; say so."""
        notify(self.app.page, say(self.words, "game.tap.changed"), error=True)

    def undo(self, _: ft.Event[Any]) -> None:
        """Take back the newest record (the bar's Undo; a double tap takes back one)."""
        verdict = self.guard.tap()
        if verdict is Verdict.CHANGED:
            self.tap_changed()
        if verdict is Verdict.SEND:
            self.after(self.turns.undo(), announce=True)
            self.guard.settled()

    def undo_at(self, revision: int) -> None:
        """Take back the newest record as the tapped drawing (at `revision`) showed it."""
        self.after(self.turns.undo(revision), announce=True)

    def redo(self, _: ft.Event[Any]) -> None:
        """Bring back the newest undone record (a double tap brings back one)."""
        verdict = self.guard.tap()
        if verdict is Verdict.CHANGED:
            self.tap_changed()
        if verdict is Verdict.SEND:
            self.after(self.turns.redo(), announce=True)
            self.guard.settled()

    # --- drawing --------------------------------------------------------------------------

    def render(self) -> list[ft.Control]:
        """Set every panel from the saved game's state; the controls that may have changed."""
        state = self.session.state
        words = self.words
        undo = self.turns.undo_text(words)
        undo_refused, redo_refused = self.session.undo_refusal(), self.session.redo_refusal()
        refused = (
            None if undo_refused is None else words.render(undo_refused),
            None if redo_refused is None else words.render(redo_refused),
        )
        self.bar.show(state, undo, self.session.redo_text(words), refused=refused)
        self.strip.show(state)
        self.turn.show(undo, refused[0])
        self.players.show(state)
        moved = self.track.show(self.counters())
        return [
            self.bar.control,
            self.strip.control,
            self.turn.control,
            *self.chances.show(),
            self.players.control,
            *moved,
        ]

    def counters(self) -> list[tuple[str, str, int]]:
        """(name, colour, energy) per player in turn order, for the track."""
        state = self.session.state
        return [
            (self.session.label(player), self.session.colour(player), state.energy_of(player))
            for player in state.order()
        ]

    # --- table tools ----------------------------------------------------------------------

    def tools_card(self) -> ft.Control:
        """A d6, the attack odds helper and a correction by hand."""
        die = SeededDice()  # unseeded: a die for the table, not the engine's

        def roll(_: ft.Event[Any]) -> None:
            face = die()
            self.die.value = f"{DIE_FACES[face - 1]} {words.number(face)}"
            self.app.page.update()

        words = self.words
        return section(
            say(words, "game.tools.title"),
            ft.Row(
                [
                    big_button(
                        say(words, "game.tools.roll"), roll, icon=ft.Icons.CASINO, primary=False
                    ),
                    self.die,
                ],
                spacing=16,
            ),
            self.odds_helper(),
            correction_tool(self),
        )

    def odds_helper(self) -> ft.Control:
        """The chance that an attack succeeds, for any attacker and defender (from the engine)."""
        tool = OddsTool(self.words)
        result = ft.Text(size=18, weight=ft.FontWeight.BOLD)
        words = self.words

        def update() -> None:
            odds = tool.odds(
                CreatureKind(attacker.value), CreatureKind(defender.value), int(support.value)
            )
            support_part.visible = odds.support
            result.value = odds.said

        def picked() -> None:
            update()
            self.app.page.update()

        # Named pickers: a screen reader says each one's question and choice.
        kinds = list(tool.kinds())
        attacker = NamedPicker(
            say(words, "game.tools.attacker"), kinds, tool.ATTACKER.value, "odds-attacker", picked
        )
        defender = NamedPicker(
            say(words, "game.tools.defender"), kinds, tool.DEFENDER.value, "odds-defender", picked
        )
        support = NamedPicker(
            say(words, "game.tools.support"), list(tool.supports()), "0", "odds-support", picked
        )
        attacker.dropdown.width = defender.dropdown.width = 150
        support.dropdown.width = 200
        # The explanation wraps below the field: as the field's helper text it was cut short.
        support_part = ft.Column(
            [
                support.control,
                ft.Text(say(words, "game.tools.support_help"), size=13),
            ],
            spacing=4,
        )
        update()
        return ft.Column(
            [
                ft.Text(say(words, "game.tools.odds_title"), size=15, weight=ft.FontWeight.BOLD),
                ft.Row(
                    [
                        attacker.control,
                        defender.control,
                    ],
                    wrap=True,
                ),
                support_part,
                result,
            ],
            spacing=8,
        )
