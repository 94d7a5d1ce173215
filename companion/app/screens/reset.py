"""Energy and Reset at the table: where each new or moved creature stands, then Apply.

The screen starts from the engine's draft (`companion/engine/table_reset.py`): the board
last seen, minus what the record says was removed, and the creatures still to place. It
asks about one of them at a time ("Where is Bob's Sprite now?"): a tap on a territory puts
it there and the question moves on by itself, a tap on a creature takes it off again (how
a move is entered), "Not on the board" marks it gone. The players' energy after the reset
and the next order stay in the bar at the bottom, beside Apply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.game_panels import tally_lines
from companion.app.game_words import order_of, say
from companion.app.session import GameSession
from companion.app.sizes import TAP
from companion.app.theme import ACCENT_TEXT, CREATURE_MARK, colour_of
from companion.app.turns import Turns
from companion.app.widgets import WIDE, big_button, notify, player_chip
from companion.engine import Phase, Tally
from companion.engine.names import kinds_term, territory_term
from companion.engine.table_reset import Creature, ResetDraft, reset_draft
from companion.language import Message, Value

if TYPE_CHECKING:
    from companion.app.main import App

SLOT = TAP  # a creature or an empty place on a territory card: one tap target
GAP = 4
TIMES = "\N{MULTIPLICATION SIGN}"
# Wider than this, the question and the tally sit beside the territories.
TWO_COLUMNS = 800
SELECTED_BORDER = ft.Border.all(3, ACCENT_TEXT)
PLAIN_BORDER = ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)


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
    """The draft being entered, the territory cards, the question, and the tally bar."""

    def __init__(self, app: App, session: GameSession, view: ft.View) -> None:
        self.app = app
        self.session = session
        self.view = view
        # The device's language, read as the screen is built: a switch builds it again.
        self.words = words = app.words
        # Records go through the turn controller the table screen shares.
        self.turns = Turns(session, lambda revision: app.announce(session.id, revision))
        self.view.appbar = ft.AppBar(
            # Two lines where the language's name for it is long (French, on a phone).
            title=ft.Text(say(words, "game.phase.energy_and_reset"), max_lines=2, size=18),
            leading=ft.IconButton(
                ft.Icons.ARROW_BACK,
                tooltip=say(words, "game.reset.back"),
                on_click=lambda _: self.app.go(f"/game/{self.session.id}"),
            ),
        )
        # Set by render before anything shows them (the tally by refresh).
        self.draft: ResetDraft
        self.selected: Creature | None = None
        self.tally: Tally | Message
        # Applied on another phone: this screen's board is for a round that is over.
        app.follow(
            session.id,
            lambda _revision: app.go(f"/game/{session.id}", say(words, "game.reset.elsewhere")),
        )

    @property
    def _draft_key(self) -> str:
        return f"reset-draft/{self.session.id}"

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
        # What was entered survives leaving the screen (or the phone turning, which builds it
        # anew) as long as nothing was recorded meanwhile.
        store = self.app.page.session.store
        kept = store.get(self._draft_key)
        if kept is not None and kept[0] == self.session.saved.revision:
            _, self.draft, self.selected = kept
        else:
            self.draft = reset_draft(state)
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
        self.more = ft.ExpansionTile(
            # Beside the cards there is room to read it; on a phone it waits below them.
            expanded=wide,
            title=ft.Text(
                say(self.words, "game.reset.explained"), size=15, weight=ft.FontWeight.BOLD
            ),
            controls=[
                ft.Container(
                    padding=ft.Padding.only(left=12, right=12, bottom=12), content=self.explained
                )
            ],
        )
        self.view.data = WIDE
        self.view.bottom_appbar = self.bar.control
        if wide:
            # Territories beside the question: a phone on its side keeps both in view.
            self.view.controls = [
                ft.Row(
                    [
                        ft.Column(
                            [self.prompt.control, ft.Card(content=self.more)],
                            width=340,
                            scroll=ft.ScrollMode.AUTO,
                        ),
                        ft.Column([self.grid(wide=True)], expand=True, scroll=ft.ScrollMode.AUTO),
                    ],
                    expand=True,
                    vertical_alignment=ft.CrossAxisAlignment.START,
                    spacing=12,
                )
            ]
        else:
            self.view.controls = [
                self.prompt.control,
                ft.Column(
                    [self.grid(wide=False), ft.Card(content=self.more)],
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

    # --- taps ------------------------------------------------------------------------------

    def place(self, territory_id: str) -> None:
        """Put the creature asked about in a territory, and ask about the next one."""
        draft = self.draft
        if self.selected is None:
            notify(self.app.page, say(self.words, "game.reset.all_placed_tap"))
            return
        refusal = draft.put(self.selected, territory_id)
        if refusal is not None:
            notify(self.app.page, self.words.render(refusal), error=True)
            return
        self.selected = draft.next_to_place(self.selected)
        self.changed()

    def take_back(self, creature: Creature, territory_id: str) -> None:
        """Take a creature off a territory: it is the one asked about now (a move's first tap)."""
        self.draft.take_back(creature, territory_id)
        self.selected = creature
        self.changed()

    def select(self, creature: Creature) -> None:
        """Ask about another group of creatures still to place."""
        self.selected = creature
        self.changed()

    def mark_gone(self, _: ft.Event[Any]) -> None:
        """The creature asked about is not on the board: it went without a recorded removal."""
        if self.selected is None:
            return
        self.draft.mark_gone(self.selected)
        self.selected = self.draft.next_to_place(self.selected)
        self.changed()

    def restore(self, creature: Creature) -> None:
        """A creature marked gone is on the board after all: ask where."""
        self.draft.restore(creature)
        self.selected = creature
        self.changed()

    def decline(self, player: str, territory_id: str, take: bool) -> None:
        """Take or decline a domination bonus (ruling 10: each is optional)."""
        self.draft.decline(player, territory_id, not take)
        self.changed()

    def changed(self) -> None:
        """Keep what is entered for this revision, then show it."""
        self.app.page.session.store.set(
            self._draft_key, (self.session.saved.revision, self.draft, self.selected)
        )
        self.app.page.update(*self.refresh())

    def apply(self, _: ft.Event[Any]) -> None:
        """Record the Energy and Reset and go on to the next round (or the result)."""
        outcome = self.turns.record([self.draft.command()], None)
        if not outcome.ok:
            # The engine names what is not accounted for: the fix is on this screen.
            notify(self.app.page, outcome.text(self.words), error=True)
            return
        kept = self.app.page.session.store
        if kept.contains_key(self._draft_key):
            kept.remove(self._draft_key)
        if self.session.state.is_terminal:
            self.app.go(f"/game/{self.session.id}/end")
        else:
            self.app.go(f"/game/{self.session.id}")

    # --- showing ---------------------------------------------------------------------------

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
        """The engine's sentence for each player, the next order and any tie, under the cards."""
        tally = self.tally
        words = self.words
        if isinstance(tally, Message):
            key: object = tally
        else:
            explained = tuple(
                line.explanation(self.session.label(line.player)) for line in tally.players
            )
            key = (explained, tally.turn_order, tally.order_messages, tally.winner_message)
        if self.explained.data == key:
            return []
        self.explained.data = key
        if isinstance(tally, Message):
            said = say(words, "game.refused", reason=tally)
            self.explained.controls = [ft.Text(said, size=15, color=ft.Colors.ERROR)]
            return [self.explained]
        lines = tally_lines(self.session, tally, words)
        lines.append(ft.Divider())
        winner = tally.winner_message
        ending = (
            words.render(winner)
            if tally.game_over and winner is not None
            else say(words, "game.tally.next_order", order=self.order(tally))
        )
        lines.append(ft.Text(ending, size=16, weight=ft.FontWeight.BOLD))
        lines.extend(ft.Text(words.render(note), size=14) for note in tally.order_messages)
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


def tap_target(
    label: str,
    on_tap: Callable[[], None],
    visual: ft.Control,
    selected: bool | None = None,
) -> ft.Control:
    """A tappable control that screen readers (and browser tests) see as one button, `label`.

    The button node sits inside the tapping container: around it, it would not carry the tap,
    and a tap through the accessibility tree would reach the territory card behind it.
    """
    return ft.Container(
        on_click=lambda _: on_tap(),
        content=ft.Semantics(
            label=label,
            button=True,
            selected=selected,
            exclude_semantics=True,
            content=visual,
        ),
    )


def creature_face(screen: ResetScreen, creature: Creature, size: int = SLOT) -> ft.Control:
    """A creature as a counter: its kind's letter big, its owner's letter and shape small."""
    colour = colour_of(screen.session.colour(creature.player))
    owner = (screen.session.label(creature.player)[:1] or "?").upper()
    return ft.Container(
        width=size,
        height=size,
        border_radius=10,
        bgcolor=colour.hex,
        border=ft.Border.all(2, "#101010"),
        alignment=ft.Alignment.CENTER,
        content=ft.Column(
            [
                ft.Text(
                    CREATURE_MARK[creature.kind],
                    size=round(size * 0.38),
                    weight=ft.FontWeight.BOLD,
                    color=colour.on_hex,
                ),
                ft.Text(
                    f"{owner}{colour.mark}",
                    size=round(size * 0.22),
                    color=colour.on_hex,
                    no_wrap=True,
                ),
            ],
            spacing=0,
            tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER,
        ),
    )


class Prompt:
    """The question at the top: where is the creature asked about, and the ones still to place."""

    def __init__(self, screen: ResetScreen) -> None:
        self.screen = screen
        words = screen.words
        self.chip = ft.Container(width=40)
        self.question = ft.Text(size=17, weight=ft.FontWeight.BOLD, expand=True)
        self.note = ft.Text(size=13, color=ft.Colors.ON_SURFACE_VARIANT)
        self.gone_button = ft.OutlinedButton(
            content=say(words, "game.reset.gone"),
            icon=ft.Icons.CLOSE,
            height=TAP,
            on_click=screen.mark_gone,
            tooltip=say(words, "game.reset.gone_help"),
        )
        # The button first: it stays in one place while the groups after it come and go.
        self.tray = ft.Row(wrap=True, spacing=GAP + 2, run_spacing=GAP + 2, data=())
        self.control = ft.Semantics(
            identifier="reset-prompt",
            content=ft.Card(
                margin=0,
                content=ft.Container(
                    padding=10,
                    content=ft.Column(
                        [
                            ft.Row(
                                # The question says whose creature it is: the chip is a picture.
                                [
                                    ft.Semantics(exclude_semantics=True, content=self.chip),
                                    self.question,
                                ],
                                spacing=8,
                                vertical_alignment=ft.CrossAxisAlignment.CENTER,
                            ),
                            self.note,
                            self.tray,
                        ],
                        spacing=6,
                        tight=True,
                    ),
                ),
            ),
        )

    def show(self) -> list[ft.Control]:
        """Ask about the selected creature; list every group still to place, and the gone ones."""
        screen = self.screen
        draft = screen.draft
        selected = screen.selected
        words = screen.words
        groups = draft.groups()
        if selected is not None:
            count = dict(groups)[selected]
            self.chip.content = creature_face(screen, selected, size=40)
            self.question.value = say(words, "game.reset.where", creature=draft.naming(selected))
            notes = [
                say(words, "game.reset.still_to_place", count=draft.left),
                say(words, "game.reset.gone_means"),
            ]
            if count > 1:
                notes.insert(0, say(words, "game.reset.like_it", count=count))
            note = draft.note_messages.get(selected)
            if note is not None:
                notes.append(words.render(note))
            self.note.value = " · ".join(notes)
        else:
            self.chip.content = ft.Icon(ft.Icons.CHECK_CIRCLE, color=ACCENT_TEXT, size=32)
            self.question.value = say(words, "game.reset.all_accounted")
            # Creatures move during the round without a record: the table checks the board.
            self.note.value = say(words, "game.reset.check_board")
        self.gone_button.visible = selected is not None
        gone = draft.gone_groups()
        key = (tuple(groups), tuple(gone), selected)
        if self.tray.data != key:
            self.tray.data = key
            self.tray.controls = [
                self.gone_button,
                *(self.tray_chip(c, n, selected=c == selected) for c, n in groups),
                *(self.tray_chip(c, n, gone=True) for c, n in gone),
            ]
            self.tray.visible = bool(groups or gone)
        return [self.control]

    def tray_chip(
        self, creature: Creature, count: int, *, selected: bool = False, gone: bool = False
    ) -> ft.Control:
        """A group still to place (tap: ask about it) or marked gone (tap: place it after all).

        The group asked about has a ▶ and a thick border; a gone one is crossed and faded.
        """
        screen = self.screen
        group = screen.group_label(creature, count)
        if gone:
            label = say(screen.words, "game.reset.chip_gone", group=group)
            tap = screen.restore
        else:
            chip = "game.reset.chip_now" if selected else "game.reset.chip"
            label = say(screen.words, chip, group=group)
            tap = screen.select
        mark = ft.Text("▶", size=14, color=ACCENT_TEXT) if selected else None
        return tap_target(
            label,
            lambda: tap(creature),
            ft.Container(
                height=TAP,
                padding=ft.Padding.symmetric(horizontal=5),
                border_radius=10,
                border=SELECTED_BORDER if selected else PLAIN_BORDER,
                opacity=0.7 if gone else 1,
                content=ft.Row(
                    [
                        *([mark] if mark else []),
                        *([ft.Icon(ft.Icons.CLOSE, size=16)] if gone else []),
                        creature_face(screen, creature, size=38),
                        ft.Text(f"{TIMES}{count}", size=15, weight=ft.FontWeight.BOLD),
                    ],
                    spacing=3,
                    tight=True,
                ),
            ),
            selected=selected,
        )


class TerritoryCard:
    """A territory: its places, the creatures there (tap: take off), empty places (tap: put)."""

    def __init__(self, screen: ResetScreen, territory_id: str) -> None:
        self.screen = screen
        self.territory = screen.draft.territory(territory_id)
        # The territory as sentences name it (shipped names translated), and as its card does.
        self.named = territory_term(screen.session.saved.game.board, self.territory)
        self.title = ft.Text(
            screen.words.value(self.named, "nu"),
            size=14,
            weight=ft.FontWeight.BOLD,
            # French names are longer: two lines before any is cut short.
            max_lines=2,
            overflow=ft.TextOverflow.ELLIPSIS,
        )
        self.info = ft.Text(size=12, color=ft.Colors.ON_SURFACE_VARIANT)
        self.slots = ft.Row(wrap=True, spacing=GAP, run_spacing=GAP, data=None)
        self.holder = ft.Row(spacing=4, data=None)
        # The whole line toggles the bonus, not only the switch: one tap target tall.
        self.holder_box = ft.Container(
            height=TAP, visible=False, content=self.holder, on_click=lambda _: self.toggle()
        )
        self.box = ft.Container(
            col={"two": 6, "three": 4, "four": 3, "five": 12 / 5},
            padding=8,
            border_radius=12,
            bgcolor=ft.Colors.SURFACE_CONTAINER,
            on_click=lambda _: screen.place(territory_id),
            content=ft.Column([self.title, self.info, self.slots, self.holder_box], spacing=4),
        )
        self.control = self.box

    def show(self, held: tuple[str, int, bool] | None) -> list[ft.Control]:
        """Fill in the places; `held` is (player, bonus, taken) when one player holds it all."""
        screen = self.screen
        draft = screen.draft
        creatures = tuple(draft.placed[self.territory.id])
        size = len(self.territory.locations)
        free = draft.free(self.territory.id)
        self.info.value = say(
            screen.words,
            "game.reset.places",
            placed=size - free,
            size=size,
            bonus=self.territory.bonus,
        )
        changed: list[ft.Control] = [self.info]
        key = (creatures, screen.selected)
        if self.slots.data != key:
            self.slots.data = key
            self.slots.controls = [self.creature(c) for c in creatures] + [
                self.empty(first=i == 0) for i in range(free)
            ]
            changed.append(self.slots)
        if self.holder.data != held:
            self.holder.data = held
            self.holder_box.visible = held is not None
            if held is not None:
                self.holder.controls = self.held_row(*held)
            changed.append(self.holder_box)
        return changed

    def toggle(self) -> None:
        """Take the bonus shown if it is declined, decline it if it is taken."""
        if self.holder.data is not None:
            player, _, taken = self.holder.data
            self.screen.decline(player, self.territory.id, not taken)

    def creature(self, creature: Creature) -> ft.Control:
        """A creature on this territory; a tap takes it off, to put it elsewhere or mark it gone."""
        screen = self.screen
        return tap_target(
            say(
                screen.words,
                "game.reset.take_off",
                creature=screen.draft.naming(creature),
                territory=self.named,
            ),
            lambda: screen.take_back(creature, self.territory.id),
            creature_face(screen, creature),
        )

    def empty(self, first: bool) -> ft.Control:
        """An empty place: a tap puts the creature asked about here (the first shows a +)."""
        screen = self.screen
        selected = screen.selected
        plus = first and selected is not None
        box = ft.Container(
            width=SLOT,
            height=SLOT,
            border_radius=10,
            border=ft.Border.all(
                2 if plus else 1, ACCENT_TEXT if plus else ft.Colors.OUTLINE_VARIANT
            ),
            alignment=ft.Alignment.CENTER,
            content=ft.Text("+", size=24, color=ACCENT_TEXT, weight=ft.FontWeight.BOLD)
            if plus
            else None,
        )
        if not plus:
            # One button per territory for screen readers: the other places are the card's tap.
            return ft.Semantics(exclude_semantics=True, content=box)
        assert selected is not None, "a + is shown only while a creature is to place"
        return tap_target(
            say(
                screen.words,
                "game.reset.put",
                creature=screen.draft.naming(selected),
                territory=self.named,
            ),
            lambda: screen.place(self.territory.id),
            box,
        )

    def held_row(self, player: str, bonus: int, taken: bool) -> list[ft.Control]:
        """One player holds every place: their bonus, taken unless switched off (ruling 10)."""
        screen = self.screen
        name = screen.session.label(player)
        territory = self.territory
        words = screen.words
        return [
            player_chip(name, screen.session.colour(player), size=24),
            ft.Text(
                say(words, "game.reset.takes", bonus=bonus)
                if taken
                else say(words, "game.reset.declines"),
                size=12,
                weight=ft.FontWeight.BOLD,
                expand=True,
            ),
            ft.Switch(
                value=taken,
                tooltip=say(
                    words, "game.tally.take", player=name, territory=self.named, bonus=bonus
                ),
                on_change=lambda e: screen.decline(player, territory.id, e.control.value),
            ),
        ]


class TallyBar:
    """Pinned at the bottom: each player's energy before → after, the next order, Apply."""

    def __init__(self, screen: ResetScreen, wide: bool) -> None:
        self.screen = screen
        session = screen.session
        order = screen.draft.order
        self.numbers = {player: ft.Text(size=16, weight=ft.FontWeight.BOLD) for player in order}
        lines: list[ft.Control] = [
            ft.Row(
                [
                    player_chip(session.label(player), session.colour(player), size=24),
                    ft.Text(
                        session.label(player),
                        size=14,
                        max_lines=1,
                        overflow=ft.TextOverflow.ELLIPSIS,
                        expand=not wide,
                    ),
                    self.numbers[player],
                ],
                spacing=6,
                tight=wide,
            )
            for player in order
        ]
        self.next = ft.Text(size=13, max_lines=2, overflow=ft.TextOverflow.ELLIPSIS)
        self.status = ft.Text(
            size=12, color=ft.Colors.ON_SURFACE_VARIANT, text_align=ft.TextAlign.CENTER
        )
        self.apply_button = big_button(
            say(screen.words, "game.reset.apply"), screen.apply, icon=ft.Icons.CHECK
        )
        players = (
            ft.Row(lines, wrap=True, spacing=16, run_spacing=2)
            if wide
            else ft.Column(lines, spacing=2)
        )
        # One sentence for screen readers (and tests), set by `show`, instead of a dozen texts.
        self.summary = ft.Semantics(
            identifier="reset-tally",
            exclude_semantics=True,
            expand=True,
            content=ft.Column([players, self.next], spacing=2),
        )
        rows = 1 if wide else len(order)
        self.control = ft.BottomAppBar(
            height=16 + max(rows * 26 + 36, TAP + 24),
            padding=ft.Padding.symmetric(horizontal=12, vertical=8),
            content=ft.Row(
                [
                    self.summary,
                    ft.Column(
                        [self.apply_button, self.status],
                        spacing=2,
                        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                ],
                spacing=10,
                vertical_alignment=ft.CrossAxisAlignment.START,
            ),
        )

    def show(self) -> list[ft.Control]:
        """The tally's numbers; while creatures are to place they are only so far."""
        screen = self.screen
        tally = screen.tally
        left = screen.draft.left
        words = screen.words
        if isinstance(tally, Message):
            for text in self.numbers.values():
                text.value = "?"
            self.next.value = say(words, "game.refused", reason=tally)
            self.next.color = ft.Colors.ERROR
        else:
            for line in tally.players:
                self.numbers[line.player].value = say(
                    words, "game.tally.change", before=line.before, after=line.after
                )
            self.next.color = None
            winner = tally.winner_message
            self.next.value = (
                words.render(winner)
                if tally.game_over and winner is not None
                else say(words, "game.reset.next", order=screen.order(tally))
            )
        # Not final while creatures are still to place: greyed, and said so under Apply.
        for text in self.numbers.values():
            text.color = ft.Colors.ON_SURFACE_VARIANT if left else None
        self.status.value = (
            say(words, "game.reset.left", count=left) if left else say(words, "game.reset.all_in")
        )
        numbers = ", ".join(f"{screen.session.label(p)} {t.value}" for p, t in self.numbers.items())
        heading = (
            say(words, "game.reset.tally_so_far", count=left)
            if left
            else say(words, "game.reset.tally")
        )
        self.summary.label = say(
            words, "game.reset.summary", heading=heading, numbers=numbers, next=self.next.value
        )
        return [self.control]
