"""Energy and Reset at the table: where each new or moved creature stands, then Apply.

The screen shows the table's draft: what every device at the table has entered so
far, kept in the store, held against the record by the engine (`companion/engine/
table_reset.py`). It asks about one creature at a time ("Where is Bob's Sprite now?"): a tap
on a territory puts it there and the question moves on by itself, a tap on a creature takes it
off again (how a move is entered), "Not on the board" marks it gone. Every change is stored
before it shows, and every other device on the game shows it at once. The players' energy
after the reset and the next order stay in the bar at the bottom, beside Apply; a summon or a
removal the table forgot to enter is recorded here, late.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.aid_dialog import aid_button
from companion.app.game_panels import page_turns
from companion.app.screens.reset_bar import TallyBar, explanation
from companion.app.screens.reset_cards import Prompt, TerritoryCard
from companion.app.screens.reset_late import LateMenu
from companion.app.widgets import WIDE, big_button, notify
from companion.engine import Tally
from companion.engine.constants import Phase
from companion.engine.names import kinds_term
from companion.engine.table_reset import Creature, ResetDraft
from companion.language import Message, Value
from companion.play.aid_view import opening_part
from companion.play.game_words import order_of, say
from companion.play.reset_entry import ResetEntry, Step
from companion.play.session import GameSession
from companion.play.tap_guard import TapGuard

if TYPE_CHECKING:
    from companion.app.main import App

# Wider than this, the question and the tally sit beside the territories.
TWO_COLUMNS = 800
GAP = 4


def build(app: App, game_id: str) -> ft.View:
    """The Energy and Reset screen for one saved game."""
    session = app.session(game_id)
    view = ft.View(
        route=f"/game/{game_id}/reset",
        padding=ft.Padding.symmetric(horizontal=8, vertical=8),
        spacing=8,
        horizontal_alignment=ft.CrossAxisAlignment.STRETCH,
    )
    ResetScreen(app, session, view).render()
    return view


class ResetScreen:
    """The table's draft, the territory cards, the question, and the tally bar."""

    def __init__(self, app: App, session: GameSession, view: ft.View) -> None:
        self.app = app
        self.session = session
        self.view = view
        # The device's language, read as the screen is built: a switch builds it again.
        self.words = words = app.words
        # Records go through the turn controller the table screen shares.
        self.turns = page_turns(app, session)
        self.late = LateMenu(self)
        self.view.appbar = ft.AppBar(
            # Two lines where the language's name for it is long (French, on a phone).
            title=ft.Text(say(words, "game.phase.energy_and_reset"), max_lines=2, size=18),
            leading=ft.IconButton(
                ft.Icons.ARROW_BACK,
                tooltip=say(words, "game.reset.back"),
                on_click=lambda _: self.app.go(f"/game/{self.session.id}"),
            ),
            actions=[
                aid_button(app, lambda: opening_part(Phase.ENERGY_AND_RESET)),
                self.late.menu(),
            ],
        )
        self.entry = ResetEntry(session, self.turns, TapGuard(doubles=not app.page.web))
        # Set by refresh before anything shows it.
        self.tally: Tally | Message
        app.bus.follow(session.id, self.recorded_elsewhere)
        app.bus.follow_draft(session.id, self.entered_elsewhere)

    def render(self) -> None:
        """Show the screen for the game's state: the draft to enter, or why there is none."""
        if not self.entry.open:
            self.view.controls = [
                ft.Text(say(self.words, "game.reset.not_now"), size=16),
                big_button(
                    say(self.words, "game.reset.back"),
                    lambda _: self.app.go(f"/game/{self.session.id}"),
                ),
            ]
            return
        self.entry.load()
        self.lay_out()
        self.refresh()

    def lay_out(self) -> None:
        """Make the controls once: the question, the cards, the bar; taps change them in place."""
        draft = self.draft
        width = self.app.page.width or 0
        wide = width > TWO_COLUMNS
        self.prompt = Prompt(self)
        self.cards = {t.id: TerritoryCard(self, t.id) for t in draft.territories}
        self.bar = TallyBar(self, wide)
        self.explained = ft.Column(spacing=8)
        self.view.data = WIDE
        self.view.bottom_appbar = self.bar.control
        if wide:
            # Territories beside the question and the tally's explanation: all in view.
            side = ft.Card(
                content=ft.Container(
                    padding=12,
                    content=ft.Column(
                        [
                            ft.Text(
                                say(self.words, "game.reset.explained"),
                                size=15,
                                weight=ft.FontWeight.BOLD,
                            ),
                            self.explained,
                        ],
                        spacing=8,
                    ),
                )
            )
            self.view.controls = [
                ft.Row(
                    [
                        ft.Column(
                            [self.prompt.control, side], width=340, scroll=ft.ScrollMode.AUTO
                        ),
                        ft.Column([self.grid(wide=True)], expand=True, scroll=ft.ScrollMode.AUTO),
                    ],
                    expand=True,
                    vertical_alignment=ft.CrossAxisAlignment.START,
                    spacing=12,
                )
            ]
        else:
            # On a phone the territories take the room; the explanation is the bar's Why.
            self.view.controls = [
                self.prompt.control,
                ft.Column(
                    [self.grid(wide=False)],
                    expand=True,
                    scroll=ft.ScrollMode.AUTO,
                    spacing=8,
                ),
            ]

    def grid(self, wide: bool) -> ft.Control:
        """The territory cards in board order: two to a row on a phone, more where they fit."""
        # A card needs about 180 px (three places a row). ResponsiveRow counts the window's
        # width, so when wide the breakpoints allow for the question's column beside the cards.
        breakpoints: dict[ft.ResponsiveRowBreakpoint | str, int | float]
        if wide:
            breakpoints = {"two": 0, "three": 900, "four": 1080, "five": 1260}
        else:
            breakpoints = {"two": 0, "three": 548, "four": 728}
        return ft.ResponsiveRow(
            [card.control for card in self.cards.values()],
            spacing=GAP * 2,
            run_spacing=GAP * 2,
            breakpoints=breakpoints,
        )

    # --- taps and other devices' changes: the play layer decides, the screen carries out --

    @property
    def draft(self) -> ResetDraft:
        """The table's draft as this device has it."""
        return self.entry.draft

    @property
    def selected(self) -> Creature | None:
        """The creature this device is asked about (None: all are accounted for)."""
        return self.entry.selected

    def carry_out(self, step: Step) -> None:
        """Announce, show, say or go as a step of the play layer says."""
        if step.go is not None:
            said = None if step.said is None else self.words.render(step.said)
            self.app.go(step.go, said)
            return
        if step.announce:
            self.app.bus.announce_draft(self.session.id, self.entry.version)
        if step.redraw:
            self.show_draft()
        if step.said is not None:
            # Above the pinned totals, which a message must not hide.
            notify(self.app.page, self.words.render(step.said), error=step.error, bar=True)

    def tapped(self, step: Step) -> None:
        """Carry out a tap's step; the guard time runs from when it shows."""
        self.carry_out(step)
        self.entry.shown()

    def place(self, territory_id: str) -> None:
        """Put the creature asked about in a territory, and ask about the next one."""
        self.tapped(self.entry.place(territory_id))

    def take_back(self, creature: Creature, territory_id: str) -> None:
        """Take a creature off a territory: it is the one asked about now."""
        self.tapped(self.entry.take_back(creature, territory_id))

    def select(self, creature: Creature) -> None:
        """Ask about another group of creatures still to place (this device only)."""
        self.entry.select(creature)
        self.show_draft()

    def mark_gone(self, _: ft.Event[Any]) -> None:
        """The creature asked about is not on the board."""
        self.tapped(self.entry.mark_gone())

    def restore(self, creature: Creature) -> None:
        """A creature marked gone is on the board after all: ask where."""
        self.tapped(self.entry.restore(creature))

    def decline(self, player: str, territory_id: str, take: bool) -> None:
        """Take or decline a domination bonus (ruling 10)."""
        self.tapped(self.entry.decline(player, territory_id, take))

    def start_over(self) -> None:
        """Throw away what the table entered: the draft starts again from the record."""
        self.carry_out(self.entry.start_over())

    def apply(self, _: ft.Event[Any]) -> None:
        """Record the Energy and Reset and go on to the next round (or the result)."""
        self.tapped(self.entry.apply())

    def entered_elsewhere(self, version: int) -> None:
        """Another device changed the draft: show it as it is now."""
        self.carry_out(self.entry.entered_elsewhere(version))

    def recorded_elsewhere(self, revision: int) -> None:
        """Another device recorded in this game: show the draft against it, or leave."""
        self.carry_out(self.entry.recorded_elsewhere(revision))

    def changed_record(self) -> None:
        """This device recorded late: show the draft against the record, or leave."""
        self.carry_out(self.entry.changed_record())

    # --- showing ---------------------------------------------------------------------------

    def show_draft(self) -> None:
        """Send what changed to the screen."""
        self.app.page.update(*self.refresh())

    def refresh(self) -> list[ft.Control]:
        """Show the draft and the engine's tally for it; the controls that changed."""
        # While creatures are still to place, the tally is a preview with them counted as gone.
        self.tally = self.entry.tally()
        held = self.entry.bonuses(self.tally)
        changed = [*self.prompt.show(), *self.bar.show()]
        for territory_id, card in self.cards.items():
            changed.extend(card.show(held.get(territory_id)))
        changed.extend(self.show_explained())
        return changed

    def show_explained(self) -> list[ft.Control]:
        """The engine's sentence for each player, the next order and any tie."""
        key, lines = explanation(self)
        if self.explained.data == key:
            return []
        self.explained.data = key
        self.explained.controls = lines
        return [self.explained]

    def order(self, tally: Tally) -> Value:
        """The next round's order in names."""
        return order_of(self.session.label(p) for p in tally.turn_order)

    def name(self, creature: Creature) -> str:
        """A creature as players say it: "Bob's Troll" ("le Troll de Bob")."""
        return self.words.render(self.draft.naming(creature))

    def group_label(self, creature: Creature, count: int) -> str:
        """A group as players say it: "Bob's Troll"; for several, the plural and how many."""
        if count == 1:
            return self.name(creature)
        return say(
            self.words,
            "game.reset.group",
            player=self.session.label(creature.player),
            kinds=kinds_term(creature.kind),
            count=count,
        )
