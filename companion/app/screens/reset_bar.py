"""The Energy and Reset screen's pinned bar: each player's energy before → after, the next
order, the tally explained one tap away, and Apply, which says what is still to place."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.game_panels import tally_lines
from companion.app.sizes import TAP
from companion.app.widgets import big_button, player_chip
from companion.language import Message
from companion.play.game_words import say

if TYPE_CHECKING:
    from companion.app.screens.reset import ResetScreen


def explanation(screen: ResetScreen) -> tuple[object, list[ft.Control]]:
    """The engine's sentence for each player, the next order and any tie: (a key that changes
    when they do, the lines)."""
    tally = screen.tally
    words = screen.words
    if isinstance(tally, Message):
        said = say(words, "game.refused", reason=tally)
        return tally, [ft.Text(said, size=15, color=ft.Colors.ERROR)]
    explained = tuple(line.explanation(screen.session.label(line.player)) for line in tally.players)
    key = (explained, tally.turn_order, tally.order_messages, tally.winner_message)
    lines = tally_lines(screen.session, tally, words)
    lines.append(ft.Divider())
    winner = tally.winner_message
    ending = (
        words.render(winner)
        if tally.game_over and winner is not None
        else say(words, "game.tally.next_order", order=screen.order(tally))
    )
    lines.append(ft.Text(ending, size=16, weight=ft.FontWeight.BOLD))
    if not tally.game_over:
        # How a tie in the next order was broken: there is no next round after the last.
        lines.extend(ft.Text(words.render(note), size=14) for note in tally.order_messages)
    return key, lines


class TallyBar:
    """Pinned at the bottom: each player's energy before → after, the next order, Why, Apply.

    On a phone it stays low (the players' numbers two to a line), so the territories keep at
    least half the screen while creatures are placed.
    """

    def __init__(self, screen: ResetScreen, wide: bool) -> None:
        self.screen = screen
        self.wide = wide
        session = screen.session
        words = screen.words
        order = screen.draft.order
        self.numbers = {player: ft.Text(size=15, weight=ft.FontWeight.BOLD) for player in order}
        items: list[ft.Control] = [
            ft.Row(
                [
                    player_chip(session.label(player), session.colour(player), size=22),
                    ft.Text(
                        session.label(player),
                        size=13,
                        max_lines=1,
                        overflow=ft.TextOverflow.ELLIPSIS,
                        width=None if wide else 64,
                    ),
                    self.numbers[player],
                ],
                spacing=4,
                tight=True,
            )
            for player in order
        ]
        self.next = ft.Text(size=13, max_lines=1, overflow=ft.TextOverflow.ELLIPSIS, expand=True)
        self.apply_button = big_button(
            say(words, "game.reset.apply"), screen.apply, icon=ft.Icons.CHECK
        )
        self.why = ft.TextButton(
            say(words, "game.reset.why"),
            icon=ft.Icons.HELP_OUTLINE,
            height=TAP,
            on_click=self.explain,
            tooltip=say(words, "game.reset.explained"),
            visible=not wide,
        )
        # One sentence for screen readers (and tests), set by `show`, instead of a dozen texts.
        self.summary = ft.Semantics(
            identifier="reset-tally",
            exclude_semantics=True,
            content=ft.Row(items, wrap=True, spacing=14, run_spacing=2),
        )
        # The numbers, two players a line on a phone, and the next turn order: beside the
        # buttons when the screen is wide, on a line of its own on a phone (beside them it was
        # cut to a name and a half on a 360 px phone).
        lines = 1 if wide else (len(order) + 1) // 2 + 1
        buttons = [self.why, ft.Semantics(identifier="reset-apply", content=self.apply_button)]
        rows = [self.summary] if wide else [self.summary, ft.Row([self.next])]
        self.control = ft.BottomAppBar(
            height=12 + lines * 24 + 6 + TAP,
            padding=ft.Padding.symmetric(horizontal=10, vertical=6),
            content=ft.Column(
                [
                    *rows,
                    ft.Row(
                        [self.next, *buttons] if wide else buttons,
                        spacing=6,
                        alignment=ft.MainAxisAlignment.END,
                        vertical_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                ],
                spacing=6,
            ),
        )

    def explain(self, _: ft.Event[Any]) -> None:
        """The tally explained, over the screen: each player's numbers, the next order, ties."""
        screen = self.screen
        lines = explanation(screen)[1]
        page = screen.app.page
        page.show_dialog(
            ft.BottomSheet(
                ft.Container(
                    padding=16,
                    content=ft.Column(
                        [
                            ft.Text(
                                say(screen.words, "game.reset.explained"),
                                size=17,
                                weight=ft.FontWeight.BOLD,
                            ),
                            *lines,
                        ],
                        spacing=8,
                        tight=True,
                        scroll=ft.ScrollMode.AUTO,
                    ),
                ),
                show_drag_handle=True,
                scrollable=True,
            )
        )

    def show(self) -> list[ft.Control]:
        """The tally's numbers; while creatures are to place they are only so far, and Apply
        says how many are left instead of looking ready."""
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
        # Not final while creatures are still to place: greyed, and Apply says what is left.
        for text in self.numbers.values():
            text.color = ft.Colors.ON_SURFACE_VARIANT if left else None
        self.apply_button.content = (
            say(words, "game.reset.to_place", count=left)
            if left
            else say(words, "game.reset.apply")
        )
        self.apply_button.disabled = bool(left)
        self.apply_button.icon = None if left else ft.Icons.CHECK
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
