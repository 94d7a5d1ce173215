"""Energy and Reset at the table: where each new or moved creature stands, then Apply.

The screen shows the table's draft (issue 20): what every device at the table has entered so
far, kept in the store, held against the record by the engine (`companion/engine/
table_reset.py`). It asks about one creature at a time ("Where is Bob's Sprite now?"): a tap
on a territory puts it there and the question moves on by itself, a tap on a creature takes it
off again (how a move is entered), "Not on the board" marks it gone. Every change is stored
before it shows, and every other device on the game shows it at once. The players' energy
after the reset and the next order stay in the bar at the bottom, beside Apply; a summon or a
removal the table forgot to enter is recorded here, late.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.screens.reset_bar import TallyBar, explanation
from companion.app.screens.reset_cards import Prompt, TerritoryCard
from companion.app.screens.reset_late import LateRecords
from companion.app.widgets import WIDE, big_button, notify
from companion.engine import Phase, Tally
from companion.engine.names import kinds_term
from companion.engine.table_reset import Creature, ResetDraft
from companion.language import Message, Value
from companion.play.game_words import order_of, say
from companion.play.session import GameSession
from companion.play.tap_guard import TapGuard, Verdict
from companion.play.turns import Turns

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
        self.turns = Turns(
            session,
            lambda revision: app.bus.announce(session.id, revision),
            leases=app.service.leases,
        )
        self.guard = TapGuard()
        # Says when another device's change moved this device's question to another
        # creature: a territory tapped in that moment was meant for the one asked before.
        self.asked_anew = TapGuard()
        self.late = LateRecords(self)
        self.view.appbar = ft.AppBar(
            # Two lines where the language's name for it is long (French, on a phone).
            title=ft.Text(say(words, "game.phase.energy_and_reset"), max_lines=2, size=18),
            leading=ft.IconButton(
                ft.Icons.ARROW_BACK,
                tooltip=say(words, "game.reset.back"),
                on_click=lambda _: self.app.go(f"/game/{self.session.id}"),
            ),
            actions=[self.late.menu()],
        )
        # Set by render before anything shows them (the tally by refresh).
        self.draft: ResetDraft
        self.version = 0
        self.selected: Creature | None = None
        self.tally: Tally | Message
        app.bus.follow(session.id, self.recorded_elsewhere)
        app.bus.follow_draft(session.id, self.entered_elsewhere)

    def render(self) -> None:
        """Show the screen for the game's state: the draft to enter, or why there is none."""
        state = self.session.state
        if state.phase is not Phase.ENERGY_AND_RESET or state.game.digital:
            self.view.controls = [
                ft.Text(say(self.words, "game.reset.not_now"), size=16),
                big_button(
                    say(self.words, "game.reset.back"),
                    lambda _: self.app.go(f"/game/{self.session.id}"),
                ),
            ]
            return
        self.draft, self.version = self.session.draft()
        self.selected = self.draft.next_to_place(None)
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

    # --- taps: each a change of the table's draft, stored before it shows -----------------

    def edit(
        self,
        change: Callable[[ResetDraft], Message | None],
        then: Creature | None,
        *,
        moves: bool = True,
    ) -> None:
        """Make a change to the draft for a tap; `then` is the creature to ask about next
        (None: whichever comes next).

        `moves` is False for a target another device's change cannot move or re-aim (a
        territory: what it puts there is this device's own question), so two phones placing
        at the same moment both place.
        """
        verdict = self.guard.tap(current=moves)
        if verdict is Verdict.DOUBLE:
            return
        if verdict is Verdict.CHANGED:
            notify(self.app.page, say(self.words, "game.tap.changed"), error=True)
            return
        outcome, self.draft, self.version = self.session.change_draft(change)
        if outcome.ok:
            self.app.bus.announce_draft(self.session.id, self.version)
            self.selected = then if then is not None else self.draft.next_to_place(self.selected)
        else:
            notify(self.app.page, outcome.text(self.words), error=True)
        self.show_draft()
        self.guard.settled()

    def place(self, territory_id: str) -> None:
        """Put the creature asked about in a territory, and ask about the next one."""
        creature = self.selected
        if creature is None:
            notify(self.app.page, say(self.words, "game.reset.all_placed_tap"))
            return
        if self.asked_anew.tap() is Verdict.CHANGED:
            # Another device placed the creature this one was asked about a moment ago: the
            # tap was meant for that one, and is not put on the next.
            said = say(self.words, "game.reset.asked_anew", creature=self.draft.naming(creature))
            notify(self.app.page, said, error=True)
            return
        self.edit(lambda draft: draft.put(creature, territory_id), None, moves=False)

    def take_back(self, creature: Creature, territory_id: str) -> None:
        """Take a creature off a territory: it is the one asked about now (a move's first tap)."""

        def change(draft: ResetDraft) -> Message | None:
            if creature not in draft.placed[territory_id]:
                return Message("draft.not_there", creature=draft.naming(creature))
            draft.take_back(creature, territory_id)
            return None

        self.edit(change, creature)

    def select(self, creature: Creature) -> None:
        """Ask about another group of creatures still to place (this device only)."""
        self.selected = creature
        self.show_draft()

    def mark_gone(self, _: ft.Event[Any]) -> None:
        """The creature asked about is not on the board: it went without a recorded removal."""
        creature = self.selected
        if creature is None:
            return

        def change(draft: ResetDraft) -> Message | None:
            if not draft.to_place.get(creature):
                return Message("draft.not_waiting", creature=draft.naming(creature))
            draft.mark_gone(creature)
            return None

        self.edit(change, None)

    def restore(self, creature: Creature) -> None:
        """A creature marked gone is on the board after all: ask where."""

        def change(draft: ResetDraft) -> Message | None:
            if not draft.gone.get(creature):
                return Message("draft.not_gone", creature=draft.naming(creature))
            draft.restore(creature)
            return None

        self.edit(change, creature)

    def decline(self, player: str, territory_id: str, take: bool) -> None:
        """Take or decline a domination bonus (ruling 10: each is optional)."""

        def change(draft: ResetDraft) -> Message | None:
            draft.decline(player, territory_id, not take)
            return None

        self.edit(change, self.selected)

    def start_over(self) -> None:
        """Throw away what the table entered: the draft starts again from the record."""
        outcome = self.session.start_draft_over()
        if not outcome.ok:
            notify(self.app.page, outcome.text(self.words), error=True)
            return
        self.draft, self.version = self.session.draft()
        self.app.bus.announce_draft(self.session.id, self.version)
        self.selected = self.draft.next_to_place(None)
        self.show_draft()

    def apply(self, _: ft.Event[Any]) -> None:
        """Record the Energy and Reset and go on to the next round (or the result)."""
        if self.guard.tap() is not Verdict.SEND:
            return
        self.draft, self.version = self.session.draft()
        outcome = self.turns.record([self.draft.command()], None)
        self.guard.settled()
        if not outcome.ok:
            # The engine names what is not accounted for: the fix is on this screen.
            self.show_draft()
            notify(self.app.page, outcome.text(self.words), error=True)
            return
        if self.session.state.is_terminal:
            self.app.go(f"/game/{self.session.id}/end")
        else:
            self.app.go(f"/game/{self.session.id}")

    # --- what other devices did -------------------------------------------------------------

    def entered_elsewhere(self, version: int) -> None:
        """Another device changed the draft: show it as it is now."""
        if version <= self.version:
            return
        self.draft, self.version = self.session.draft()
        self.redrawn()

    def recorded_elsewhere(self, revision: int) -> None:
        """Another device recorded in this game: a late record changes the draft; the
        record applied (or undone past this phase) ends this screen's business."""
        if not self.turns.changed_elsewhere(revision):
            return
        self.changed_record(elsewhere=True)

    def changed_record(self, *, elsewhere: bool = False) -> None:
        """The record changed (here or elsewhere): show the draft against it, or leave."""
        state = self.session.state
        if state.phase is not Phase.ENERGY_AND_RESET:
            where = f"/game/{self.session.id}" + ("/end" if state.is_terminal else "")
            said = say(self.words, "game.reset.elsewhere") if elsewhere else None
            self.app.go(where, said)
            return
        self.draft, self.version = self.session.draft()
        self.redrawn(elsewhere=elsewhere)

    def redrawn(self, *, elsewhere: bool = True) -> None:
        """Show the draft as it is now; after another device's change, a tap in the next
        moments was aimed at what was there before (the tap guards)."""
        if self.selected not in dict(self.draft.groups()):
            self.selected = self.draft.next_to_place(self.selected)
            if elsewhere:
                self.asked_anew.changed_elsewhere()
        if elsewhere:
            self.guard.changed_elsewhere()
        self.show_draft()

    # --- showing ---------------------------------------------------------------------------

    def show_draft(self) -> None:
        """Send what changed to the screen."""
        self.app.page.update(*self.refresh())

    def refresh(self) -> list[ft.Control]:
        """Show the draft and the engine's tally for it; the controls that changed."""
        # While creatures are still to place, the tally is a preview with them counted as gone.
        self.tally = self.session.reset_preview(self.draft.trial())
        held = {}
        if isinstance(self.tally, Tally):
            for line in self.tally.players:
                for territory in line.dominated:
                    held[territory.territory] = (line.player, territory.bonus, territory.taken)
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
