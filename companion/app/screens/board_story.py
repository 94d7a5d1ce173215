"""The digital board's story since a person's last turn: each player's lines, the rest in a
dialog, and the record being replayed on the isle with Skip.

The story itself (what happened, grouped, what is shown first) is the play layer's
(`play/board_summary.py`); this draws it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import player_chip
from companion.language import Message, Value
from companion.language.render import Language
from companion.play.board_summary import Replay, Story
from companion.play.game_words import say
from companion.play.session import GameSession


class StoryCard:
    """Draws the story since a person's last turn, and the replay of it."""

    def __init__(
        self,
        session: GameSession,
        words: Language,
        *,
        on_replay: Callable[[], None],
        on_skip: Callable[[], None],
        show_dialog: Callable[[Any], None],
        page_pop: Callable[[], object],
    ) -> None:
        self.session = session
        self.words = words
        self.on_replay = on_replay
        self.on_skip = on_skip
        self.show_dialog = show_dialog
        self.page_pop = page_pop

    def story_part(self, story: Story, replay: bool = True) -> ft.Control:
        """Everything since this player last decided, in the order it happened: its first
        lines, "and N more" opening the rest, and Replay where asked for (computers play
        fast: what changed while the player looked away is told where they look, not only
        in the log)."""
        words = self.words
        heading = say(words, "game.board.since_last", player=self.session.label(story.player))
        # Replay where there are records to play again (not only players passed over).
        again = ft.OutlinedButton(
            say(words, "game.summary.replay"),
            icon=ft.Icons.REPLAY,
            on_click=lambda _: self.on_replay(),
            visible=replay and bool(story.steps),
        )
        head = ft.Row(
            [ft.Text(heading, size=14, weight=ft.FontWeight.BOLD, expand=True), again],
            vertical_alignment=ft.CrossAxisAlignment.CENTER,
        )
        lines: list[ft.Control] = [head]
        for group, shown in story.shown():
            lines.extend(
                self.group_lines(group.player, group.counts, [line.said for line in shown])
            )
        hidden = story.hidden()
        if hidden:
            lines.append(
                ft.TextButton(
                    say(words, "game.summary.more", count=hidden),
                    icon=ft.Icons.EXPAND_MORE,
                    on_click=lambda _: self.open_story(story),
                )
            )
        return ft.Semantics(identifier="story", content=ft.Column(lines, spacing=4))

    def group_lines(
        self, player: str | None, counts: Value | None, said: list[Message]
    ) -> list[ft.Control]:
        """One player's part of the story: their counter, name and counts, then each line."""
        words = self.words
        if player is None:
            name = say(words, "game.phase.energy_and_reset")
            head: list[ft.Control] = [ft.Icon(ft.Icons.BALANCE, size=20)]
        else:
            name = self.session.label(player)
            head = [player_chip(name, self.session.colour(player), size=22)]
        title = [ft.TextSpan(name, ft.TextStyle(weight=ft.FontWeight.BOLD))]
        if counts is not None:
            title.append(
                ft.TextSpan(
                    f" · {words.value(counts)}", ft.TextStyle(color=ft.Colors.ON_SURFACE_VARIANT)
                )
            )
        lines: list[ft.Control] = [
            ft.Row([*head, ft.Text(spans=title, size=14, expand=True)], spacing=6)
        ]
        lines.extend(ft.Text(f"• {words.render(line)}", size=14) for line in said)
        return lines

    def open_story(self, story: Story) -> None:
        """The whole story in a dialog, every line of every player."""
        words = self.words
        body: list[ft.Control] = []
        for group in story.groups:
            body.extend(
                self.group_lines(group.player, group.counts, [line.said for line in group.lines])
            )
        heading = say(words, "game.board.since_last", player=self.session.label(story.player))
        dialog = ft.AlertDialog(
            title=ft.Text(heading, size=18),
            content=ft.Semantics(
                identifier="story-all",
                content=ft.Column(body, spacing=4, scroll=ft.ScrollMode.AUTO, tight=True),
            ),
            actions=[
                ft.TextButton(say(words, "game.summary.close"), on_click=lambda _: self.page_pop())
            ],
            scrollable=True,
        )
        self.show_dialog(dialog)

    def replay_part(self, replay: Replay) -> ft.Control:
        """The record being replayed on the isle, and Skip."""
        words = self.words
        index = replay.index or 0
        step = replay.steps[index]
        said = say(
            words,
            "game.summary.replaying",
            index=index + 1,
            count=len(replay.steps),
            what=step.said,
        )
        return ft.Semantics(
            identifier="replay",
            label=said,
            content=ft.Container(
                padding=8,
                border_radius=8,
                bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                content=ft.Row(
                    [
                        ft.Icon(ft.Icons.REPLAY, color=ACCENT_TEXT),
                        ft.Text(said, size=14, expand=True),
                        ft.TextButton(
                            say(words, "game.summary.skip"),
                            icon=ft.Icons.SKIP_NEXT,
                            on_click=lambda _: self.on_skip(),
                        ),
                    ],
                    spacing=8,
                ),
            ),
        )
