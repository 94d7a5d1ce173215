"""What the table forgot to enter, told at Energy and Reset (issue 20): a summon or a removal
made this round that nobody recorded, and starting the draft over.

Both records are the engine's (`late_summon`, `late_removal`): a late summon pays its cost and
its creature is then placed like any other; a late removal pays its bounty, which can win the
game at 36. Each dialog says what the record will do, or why the engine refuses it, before it
is recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.game_words import say
from companion.app.sizes import TAP
from companion.app.widgets import notify
from companion.engine.names import kind_term
from companion.language import Message
from models.commands import Command, LateRemoval, LateSummon
from models.rules import CREATURES, KIND_ORDER, CreatureKind

if TYPE_CHECKING:
    from companion.app.screens.reset import ResetScreen

# The dialogs' width where there is room; a phone's is narrower and the dialog follows it.
DIALOG_WIDTH = 420


class LateRecords:
    """The screen's menu of records made late, and their dialogs."""

    def __init__(self, screen: ResetScreen) -> None:
        self.screen = screen

    def menu(self) -> ft.Control:
        """The app bar's menu: a summon or a removal nobody entered, start over."""
        words = self.screen.words
        return ft.PopupMenuButton(
            icon=ft.Icons.MORE_VERT,
            tooltip=say(words, "game.late.menu"),
            # One tap target (48 px), as every control.
            size_constraints=ft.BoxConstraints(min_width=TAP, min_height=TAP),
            padding=12,
            items=[
                ft.PopupMenuItem(
                    content=say(words, "game.late.summon_title"),
                    icon=ft.Icons.ADD_CIRCLE_OUTLINE,
                    on_click=lambda _: self.summon_dialog(),
                ),
                ft.PopupMenuItem(
                    content=say(words, "game.late.removal_title"),
                    icon=ft.Icons.REMOVE_CIRCLE_OUTLINE,
                    on_click=lambda _: self.removal_dialog(),
                ),
                ft.PopupMenuItem(
                    content=say(words, "game.late.start_over"),
                    icon=ft.Icons.RESTART_ALT,
                    on_click=lambda _: self.start_over_dialog(),
                ),
            ],
        )

    # --- the pickers -------------------------------------------------------------------------

    def player_picker(self, label: str, value: str, changed: Callable[[], None]) -> ft.Dropdown:
        """A player, by name, in turn order."""
        session = self.screen.session
        return ft.Dropdown(
            label=label,
            value=value,
            expand=True,
            options=[
                ft.DropdownOption(key=p, text=session.label(p)) for p in session.state.order()
            ],
            on_select=lambda _: changed(),
        )

    def kind_picker(self, changed: Callable[[], None], *, costs: bool) -> ft.Dropdown:
        """A creature kind; with its cost when the record pays one."""
        words = self.screen.words

        def label(kind: CreatureKind) -> str:
            name = words.value(kind_term(kind), "nu")
            if not costs:
                return name
            energy = words.render(Message("count.energy", count=CREATURES[kind].cost))
            return f"{name} ({energy})"

        return ft.Dropdown(
            label=say(words, "game.late.what"),
            value=CreatureKind.SPRITE.value,
            expand=True,
            options=[ft.DropdownOption(key=kind.value, text=label(kind)) for kind in KIND_ORDER],
            on_select=lambda _: changed(),
        )

    # --- the dialogs ---------------------------------------------------------------------------

    def summon_dialog(self) -> None:
        """Who summoned, and what: it pays now, then is placed like any creature."""
        words = self.screen.words
        order = self.screen.session.state.order()
        who = self.player_picker(say(words, "game.late.who_summoned"), order[0], lambda: said())
        kind = self.kind_picker(lambda: said(), costs=True)

        def command() -> Command:
            assert who.value is not None and kind.value is not None, "both are always picked"
            return LateSummon(who.value, CreatureKind(kind.value))

        said = self.dialog(
            say(words, "game.late.summon_title"),
            say(words, "game.late.summon_help"),
            [who, kind],
            command,
        )

    def removal_dialog(self) -> None:
        """Who removed whose creature: the bounty is paid now, and can win the game."""
        words = self.screen.words
        order = self.screen.session.state.order()
        who = self.player_picker(say(words, "game.late.who_removed"), order[0], lambda: said())
        victim = self.player_picker(say(words, "game.late.whose"), order[-1], lambda: said())
        kind = self.kind_picker(lambda: said(), costs=False)

        def command() -> Command:
            assert who.value and victim.value and kind.value, "every field is always picked"
            return LateRemoval(who.value, victim.value, CreatureKind(kind.value))

        said = self.dialog(
            say(words, "game.late.removal_title"),
            say(words, "game.late.removal_help"),
            [who, victim, kind],
            command,
        )

    def dialog(
        self,
        title: str,
        help_text: str,
        fields: list[ft.Control],
        command: Callable[[], Command],
    ) -> Callable[[], None]:
        """Show a late record's dialog: what it will do (or why not) as the fields change."""
        screen = self.screen
        page = screen.app.page
        words = screen.words
        preview = ft.Text(size=14)
        record = ft.FilledButton(say(words, "game.late.record"))

        def said() -> None:
            wanted = command()
            refusal = screen.session.refusal(wanted)
            if refusal is None:
                state = screen.session.state
                sentence = say(words, "game.sentence", said=state.sentence(wanted))
                after = state.clone()
                after.apply(wanted)
                if after.winner_id is not None:
                    # A bounty that reaches 36 ends the game: said before it is recorded.
                    winner = screen.session.label(after.winner_id)
                    energy = after.energy_of(after.winner_id)
                    sentence += " " + say(words, "game.late.wins", player=winner, energy=energy)
                preview.value = sentence
                preview.color = None
            else:
                preview.value = words.render(refusal)
                preview.color = ft.Colors.ERROR
            record.disabled = refusal is not None
            page.update()

        def save(_: ft.Event[Any]) -> None:
            outcome = screen.turns.record([command()], None)
            if not outcome.ok:
                preview.value = outcome.text(words)
                preview.color = ft.Colors.ERROR
                page.update()
                return
            page.pop_dialog()
            notify(page, outcome.text(words))
            screen.changed_record()

        record.on_click = save
        page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(title),
                content=ft.Column(
                    [ft.Text(help_text, size=14), *fields, preview],
                    tight=True,
                    spacing=12,
                    width=DIALOG_WIDTH,
                ),
                actions=[
                    ft.TextButton(say(words, "game.attack.cancel"), on_click=self.close),
                    record,
                ],
            )
        )
        said()
        return said

    def start_over_dialog(self) -> None:
        """Throw the draft away, after asking: every device starts this Energy and Reset over."""
        screen = self.screen
        words = screen.words

        def confirmed(_: ft.Event[Any]) -> None:
            screen.app.page.pop_dialog()
            screen.start_over()

        screen.app.page.show_dialog(
            ft.AlertDialog(
                title=ft.Text(say(words, "game.late.start_over")),
                content=ft.Text(say(words, "game.late.start_over_help"), size=14),
                actions=[
                    ft.FilledButton(say(words, "game.attack.cancel"), on_click=self.close),
                    ft.TextButton(say(words, "game.late.start_over"), on_click=confirmed),
                ],
            )
        )

    def close(self, _: ft.Event[Any]) -> None:
        """Close the dialog shown."""
        self.screen.app.page.pop_dialog()
