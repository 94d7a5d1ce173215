"""The digital board's cards: the step guide, the domination choice, the Energy and Reset
just run (play waits for Continue), the last tally, the computers' pace.

The story since a person's last turn is `board_story`, the bar of buttons `board_bar`.

Each is drawn from the engine's query surface (`GameState.decision`, `domination_preview`,
the tally) and the turn controller (a computer thinking, the command it is about to play,
an Energy and Reset waiting to be read).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

from companion.app.game_panels import tally_lines
from companion.app.screens.board_story import StoryCard
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import big_button, player_chip, section
from companion.engine import Tally
from companion.engine.names import kinds_term
from companion.language import Message, Value
from companion.language.render import Language
from companion.play.board_device import PACE_NAMES, Pace
from companion.play.board_guide import phase_name, ringed, step_guide, territory_of
from companion.play.board_refusals import bot_level, go_on_label
from companion.play.board_summary import Replay, Story
from companion.play.game_words import order_of, say
from companion.play.session import GameSession
from companion.play.turns import UNATTENDED_RESET_S, Turns, bot_seats
from models.commands import Command, Dominate
from models.rules import KIND_ORDER


class BoardCards:
    """The cards beside the isle, and the bar of buttons that end a turn or an activation."""

    def __init__(
        self,
        session: GameSession,
        turns: Turns,
        record: Callable[[Command], object],
        go: Callable[[str], None],
        words: Language,
    ) -> None:
        self.words = words
        self.session = session
        self.turns = turns
        self.record = record
        self.go = go
        self.bot_names = bot_seats(session.saved.setup)
        # Set by the screen: Replay started and skipped, a dialog shown and closed.
        self.on_replay: Callable[[], None] = lambda: None
        self.on_skip: Callable[[], None] = lambda: None
        self.show_dialog: Callable[[Any], None] = lambda _: None
        self.page_pop: Callable[[], object] = lambda: None
        self.story = StoryCard(
            session,
            words,
            on_replay=lambda: self.on_replay(),
            on_skip=lambda: self.on_skip(),
            show_dialog=lambda dialog: self.show_dialog(dialog),
            page_pop=lambda: self.page_pop(),
        )

    def turn_card(
        self,
        story: Story | None = None,
        last: tuple[Message, tuple[Message, ...]] | None = None,
        replay: Replay | None = None,
    ) -> ft.Control:
        """The step guide: whose turn, phase and step, what to do, and the domination choice;
        on a person's turn the `story` since they last decided after what to do (the `replay`
        of it under way before); last, the `last` record with the players it passed over."""
        state = self.session.state
        words = self.words
        turn = state.decision()
        if turn is None:
            parts: list[ft.Control] = [
                ft.Text(say(words, "game.board.over"), size=18, weight=ft.FontWeight.BOLD),
                big_button(
                    say(words, "game.board.see_result"),
                    lambda _: self.go(f"/game/{self.session.id}/end"),
                    icon=ft.Icons.EMOJI_EVENTS,
                ),
            ]
        else:
            parts = [self.whose_turn(turn.player)]
            if self.turns.bot_to_move() is not None:
                parts.append(self.bot_part(turn.player))
            else:
                guide = ft.Text(step_guide(state, words), size=15)
                if replay is not None and replay.running:
                    parts += [self.story.replay_part(replay), guide]
                else:
                    # What to do now first: on a phone on its side the story below may need
                    # a scroll, the guide never.
                    parts.append(guide)
                if turn.territory is not None:
                    parts.append(self.domination_part(turn.territory, turn.bonuses_left))
                if (replay is None or not replay.running) and story is not None and story.lines:
                    parts.append(self.story.story_part(story))
        if last is not None:
            said, passes = last
            quiet = ft.Colors.ON_SURFACE_VARIANT
            parts.append(ft.Text(say(words, "game.board.last", what=said), size=13, color=quiet))
            parts.extend(
                ft.Text(words.render(note), size=13, color=quiet, italic=True) for note in passes
            )
        return ft.Semantics(
            identifier="turn-card",
            content=ft.Card(content=ft.Container(padding=12, content=ft.Column(parts, spacing=8))),
        )

    def pace_card(self, pace: Pace, on_change: Callable[[Pace], None]) -> ft.Control:
        """The computers' pace on this device: quick, normal or slow."""
        words = self.words

        def changed(event: ft.Event[ft.SegmentedButton]) -> None:
            selected = event.control.selected
            if selected:
                on_change(Pace(selected[0]))

        return section(
            say(words, "game.pace.title"),
            ft.SegmentedButton(
                segments=[
                    ft.Segment(value=choice.value, label=ft.Text(say(words, PACE_NAMES[choice])))
                    for choice in Pace
                ],
                selected=[pace.value],
                on_change=changed,
                # In a phone's side drawer the check mark would split "Normal" over two
                # lines; the chosen pace is told by its filled segment and its label.
                show_selected_icon=False,
                style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=4)),
            ),
            ft.Text(say(words, "game.pace.hint"), size=12, color=ft.Colors.ON_SURFACE_VARIANT),
        )

    def whose_turn(self, player: str) -> ft.Control:
        """The current player's counter and name, large, over the phase and step."""
        name = self.session.label(player)
        bot = self.bot_names.get(player)
        if bot:
            heading = say(self.words, "game.board.turn_of_bot", player=name, level=bot_level(bot))
        else:
            heading = say(self.words, "game.board.turn_of", player=name)
        return ft.Row(
            [
                player_chip(name, self.session.colour(player), size=40),
                ft.Column(
                    [
                        ft.Text(heading, size=20, weight=ft.FontWeight.BOLD),
                        self.step_line(),
                    ],
                    spacing=2,
                    expand=True,
                ),
            ],
            spacing=12,
        )

    def step_line(self) -> ft.Control:
        """The phase, and the kinds of its steps with the current one picked out."""
        state = self.session.state
        words = self.words
        spans = [ft.TextSpan(phase_name(state.phase, words))]
        if state.step_kind is not None:
            spans.append(ft.TextSpan(say(words, "game.board.step_colon")))
            for kind in KIND_ORDER:
                current = kind is state.step_kind
                spans.append(
                    ft.TextSpan(
                        words.value(kinds_term(kind), "nu"),
                        ft.TextStyle(
                            weight=ft.FontWeight.BOLD if current else None,
                            color=ACCENT_TEXT if current else ft.Colors.ON_SURFACE_VARIANT,
                        ),
                    )
                )
                if kind is not KIND_ORDER[-1]:
                    spans.append(
                        ft.TextSpan(" → ", ft.TextStyle(color=ft.Colors.ON_SURFACE_VARIANT))
                    )
        return ft.Text(spans=spans, size=15)

    def bot_part(self, player: str) -> ft.Control:
        """What the computer opponent is doing: thinking, or the command about to be played."""
        name = self.session.label(player)
        if self.turns.showing is None:
            return ft.Row(
                [
                    ft.ProgressRing(width=22, height=22),
                    ft.Text(say(self.words, "game.board.thinking", player=name), size=16),
                ],
                spacing=10,
            )
        command = self.turns.showing[1]
        said = self.words.render(self.session.state.sentence(command))
        return ft.Text(said, size=16, weight=ft.FontWeight.BOLD)

    def domination_part(self, territory_id: str, bonuses_left: int) -> ft.Control:
        """Take or decline a territory's bonus, each with the engine's tally it would lead to."""
        state = self.session.state
        player = state.current_player
        assert player is not None, "a domination choice is someone's"
        name = self.session.label(player)
        words = self.words
        territory = territory_of(state, territory_id)
        options: list[ft.Control] = []
        take_label = say(words, "game.dominate.take", bonus=territory.bonus)
        for take, label in ((True, take_label), (False, say(words, "game.dominate.decline"))):
            tally = state.domination_preview(take)
            line = tally.player(player)
            winner = tally.winner_message if tally.game_over else None
            outcome = (
                words.render(winner)
                if winner is not None
                else say(words, "game.tally.next_order", order=self.order(tally))
            )
            command = Dominate(territory_id, take)
            options.append(
                ft.Container(
                    padding=10,
                    border_radius=10,
                    bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                    col={"sm": 6},
                    content=ft.Column(
                        [
                            big_button(label, lambda _, c=command: self.record(c), primary=take),
                            ft.Text(
                                say(
                                    words,
                                    "game.dominate.change",
                                    player=name,
                                    before=line.before,
                                    after=line.after,
                                ),
                                size=18,
                                weight=ft.FontWeight.BOLD,
                            ),
                            ft.Text(words.render(line.explanation(name)), size=13),
                            ft.Text(outcome, size=13),
                        ],
                        spacing=6,
                    ),
                )
            )
        parts: list[ft.Control] = [ft.ResponsiveRow(options, spacing=8, run_spacing=8)]
        if bonuses_left > 1:
            parts.append(
                ft.Text(
                    say(words, "game.dominate.others_taken"),
                    size=12,
                    color=ft.Colors.ON_SURFACE_VARIANT,
                )
            )
        return ft.Column(parts, spacing=6)

    def tally_card(self, tally: Tally) -> ft.Control:
        """The last Energy and Reset as the engine computed it, each number explained."""
        words = self.words
        lines = tally_lines(self.session, tally, words)
        order = say(words, "game.tally.this_order", order=self.order(tally))
        lines.append(ft.Text(order, size=15, weight=ft.FontWeight.BOLD))
        lines.extend(ft.Text(words.render(note), size=13) for note in tally.order_messages)
        return ft.Semantics(
            identifier="last-tally",
            content=section(reset_title(words, tally), *lines),
        )

    def reset_card(self, tally: Tally, story: Story | None = None) -> ft.Control:
        """The Energy and Reset just run, in place of the step guide until someone goes on;
        first, the `story` of what the computers played up to it, if they ended the round."""
        words = self.words
        title = reset_title(words, tally)
        lines: list[ft.Control] = []
        if story is not None:
            lines += [self.story.story_part(story, replay=False), ft.Divider()]
        lines.append(ft.Text(title, size=20, weight=ft.FontWeight.BOLD))
        lines.extend(tally_lines(self.session, tally, words))
        winner = tally.winner_message
        if tally.game_over and winner is not None:
            lines.append(ft.Text(words.render(winner), size=16, weight=ft.FontWeight.BOLD))
        else:
            order = say(words, "game.tally.next_order", order=self.order(tally))
            lines.append(ft.Text(order, size=16, weight=ft.FontWeight.BOLD))
            lines.extend(ft.Text(words.render(note), size=14) for note in tally.order_messages)
            ringed = self.ringed_note()
            if ringed:
                lines.append(ft.Text(ringed, size=13, color=ft.Colors.ON_SURFACE_VARIANT))
        # The hint names the button as it reads: 'Continue to round 3', 'See the result'.
        button = self.go_on_label()
        if self.turns.unattended:
            seconds = round(UNATTENDED_RESET_S)
            hint = say(words, "game.tally.goes_on_alone", count=seconds, button=button)
        else:
            hint = say(words, "game.tally.goes_on", button=button)
        lines.append(ft.Text(hint, size=13, color=ft.Colors.ON_SURFACE_VARIANT))
        return ft.Semantics(
            identifier="reset-card",
            content=ft.Card(content=ft.Container(padding=12, content=ft.Column(lines, spacing=8))),
        )

    def ringed_note(self) -> str | None:
        """While an Energy and Reset is read, the players' card already rings the next
        round's first player: who that is and why, or None when the game is over."""
        said = ringed(self.session.state, self.session.label)
        return None if said is None else self.words.render(said)

    def go_on_label(self) -> str:
        """What the button that leaves an Energy and Reset says: the next round, or the result."""
        return self.words.render(go_on_label(self.session.state))

    def order(self, tally: Tally) -> Value:
        """The next round's order of a tally, by the players' names."""
        return order_of(self.session.label(p) for p in tally.turn_order)


def reset_title(words: Language, tally: Tally) -> str:
    """'Energy and Reset of round 3' (or without a round, for a tally that names none)."""
    if tally.round is None:
        return say(words, "game.phase.energy_and_reset")
    return say(words, "game.tally.title", round=tally.round)
