"""The Energy and Reset screen's parts that show the draft: the question with the creatures
still to place, and a card per territory (companion/app/screens/reset.py puts them together).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from companion.app.sizes import TAP
from companion.app.theme import ACCENT_TEXT, CREATURE_MARK, colour_of
from companion.app.widgets import player_chip
from companion.engine.names import territory_term
from companion.engine.table_reset import Creature
from companion.play.game_words import say
from companion.play.reset_entry import Bonus

if TYPE_CHECKING:
    from companion.app.screens.reset import ResetScreen

SLOT = TAP  # a creature or an empty place on a territory card: one tap target
GAP = 4
TIMES = "\N{MULTIPLICATION SIGN}"
SELECTED_BORDER = ft.Border.all(3, ACCENT_TEXT)
# The question card's rows keep their height whatever they say, so the territories below
# never move under a finger: two lines of question, two of note, a row of chips.
QUESTION_HEIGHT = 44
NOTE_HEIGHT = 34
PLAIN_BORDER = ft.Border.all(1, ft.Colors.OUTLINE_VARIANT)


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
        self.question = ft.Text(
            size=16,
            weight=ft.FontWeight.BOLD,
            expand=True,
            max_lines=2,
            overflow=ft.TextOverflow.ELLIPSIS,
        )
        self.note = ft.Text(
            size=13,
            color=ft.Colors.ON_SURFACE_VARIANT,
            max_lines=2,
            overflow=ft.TextOverflow.ELLIPSIS,
        )
        self.gone_button = ft.OutlinedButton(
            content=say(words, "game.reset.gone"),
            icon=ft.Icons.CLOSE,
            height=TAP,
            on_click=screen.mark_gone,
            tooltip=say(words, "game.reset.gone_help"),
        )
        # The button first: it stays in one place while the groups after it come and go. One
        # row, scrolled sideways when it is long: the card never changes height.
        self.tray = ft.Row(spacing=GAP + 2, scroll=ft.ScrollMode.AUTO, data=())
        self.control = ft.Semantics(
            identifier="reset-prompt",
            content=ft.Card(
                margin=0,
                content=ft.Container(
                    padding=8,
                    content=ft.Column(
                        [
                            ft.Container(
                                height=QUESTION_HEIGHT,
                                content=ft.Row(
                                    # The question says whose creature it is: the chip is a
                                    # picture.
                                    [
                                        ft.Semantics(exclude_semantics=True, content=self.chip),
                                        self.question,
                                    ],
                                    spacing=8,
                                    vertical_alignment=ft.CrossAxisAlignment.CENTER,
                                ),
                            ),
                            ft.Container(height=NOTE_HEIGHT, content=self.note),
                            ft.Container(height=TAP, content=self.tray),
                        ],
                        spacing=4,
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
            # How many are left is Apply's to say; what "not on the board" means, its tooltip's.
            notes: list[str] = []
            if count > 1:
                notes.insert(0, say(words, "game.reset.like_it", count=count))
            note = draft.notes.get(selected)
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
        self.holder = ft.Row(spacing=4, data=None, vertical_alignment=ft.CrossAxisAlignment.CENTER)
        # The whole line toggles the bonus, not only the switch: one tap target tall. Kept
        # when nobody holds the territory, so no card grows under a finger.
        self.holder_box = ft.Container(
            height=TAP, content=self.holder, on_click=lambda _: self.toggle()
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

    def show(self, held: Bonus | None) -> list[ft.Control]:
        """Fill in the places; `held` is the bonus when one player holds it all."""
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
        if self.holder.data != held or not self.holder.controls:
            self.holder.data = held
            if held is not None:
                self.holder.controls = self.held_row(held)
            else:
                self.holder.controls = [
                    ft.Text(
                        say(screen.words, "game.reset.unheld"),
                        size=12,
                        color=ft.Colors.ON_SURFACE_VARIANT,
                        expand=True,
                    )
                ]
            changed.append(self.holder_box)
        return changed

    def toggle(self) -> None:
        """Take the bonus shown if it is declined, decline it if it is taken."""
        held = self.holder.data
        if held is not None:
            # On a device that may not switch it, the play layer's refusal says whose it is.
            self.screen.decline(held.player, self.territory.id, not held.taken)

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

    def held_row(self, held: Bonus) -> list[ft.Control]:
        """One player holds every place: their bonus, taken unless switched off (ruling 10),
        who declined it; where this device may not use the switch, a lock saying whose it is
        stands in its place (a disabled switch would read as a bonus switched off)."""
        screen = self.screen
        player = held.player
        name = screen.session.label(player)
        territory = self.territory
        words = screen.words
        if held.taken:
            state = say(words, "game.reset.takes", bonus=held.bonus)
        elif held.declined_by is not None:
            state = words.render(held.declined_by)
        else:
            state = say(words, "game.reset.declines")
        take = say(words, "game.tally.take", player=name, territory=self.named, bonus=held.bonus)
        return [
            player_chip(name, screen.session.colour(player), size=24),
            ft.Text(state, size=12, weight=ft.FontWeight.BOLD, expand=True),
            ft.Switch(
                value=held.taken,
                tooltip=take,
                on_change=lambda e: screen.decline(player, territory.id, e.control.value),
            )
            if held.locked is None
            else locked_mark(words.render(held.locked)),
        ]


def locked_mark(why: str) -> ft.Control:
    """A lock where a control this device may not use would be, saying why (tooltip and
    screen reader)."""
    return ft.Semantics(
        label=why,
        content=ft.Container(
            width=48,
            height=48,
            alignment=ft.Alignment.CENTER,
            tooltip=why,
            content=ft.Icon(ft.Icons.LOCK_OUTLINE, size=20, color=ft.Colors.ON_SURFACE_VARIANT),
        ),
    )
