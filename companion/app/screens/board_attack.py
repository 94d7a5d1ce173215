"""The attack panel of the digital board: the engine's breakdown and chance, then the dice.

The odds and what they mean come from the engine (`GameState.attack_view`); *Roll* records
the attack without dice (the store rolls them from the game's seeded dice) and *Enter my
dice* records the faces of real ones. The dice then tumble and land on the logged faces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft
from babel.numbers import format_percent

from companion.app.aid_dialog import open_aid
from companion.app.screens.board_motion import DIE_FACES, die_face, tumble
from companion.app.theme import ACCENT, ACCENT_TEXT
from companion.engine.names import kind_term
from companion.play.aid_view import opening_part
from companion.play.game_words import say
from models.commands import Attack
from models.rules import DIE_SIDES

if TYPE_CHECKING:
    from companion.app.screens.board import BoardScreen

# Pages narrower than this stack the panel's buttons; the panel is at most PANEL_WIDTH wide,
# within the room the dialog leaves at the page's sides (its inset, less on a phone, and
# its content's padding).
NARROW = 480
PANEL_WIDTH = 420
DIALOG_INSET = 40
PHONE_INSET = 12
CONTENT_PADDING = 20
# A die face to tap, entering real dice: larger than a tap target, to read at a glance.
FACE = 56


class AttackPanel:
    """One attack's dialog, from the odds to the dice as they fell."""

    def __init__(self, screen: BoardScreen, attack: Attack) -> None:
        self.screen = screen
        self.attack = attack
        state = screen.session.state
        # The device's language, read as the panel is made.
        self.words = words = screen.words
        self.view = state.attack_view(attack)
        labels = state.game.labels
        view = self.view
        self.captions = (
            say(
                words,
                "game.attack.caption",
                player=labels[view.attacker],
                kind=kind_term(view.attacker_kind),
            ),
            say(
                words,
                "game.attack.caption",
                player=labels[view.defender],
                kind=kind_term(view.defender_kind),
            ),
        )
        self.faces: dict[str, int | None] = {"attack": None, "defence": None}
        self.die_a = ft.Text("", size=44)
        self.die_d = ft.Text("", size=44)
        # Set by a tap on the tumbling dice: they land at once.
        self.skipped = False
        self.explain = ft.Text(words.render(view.explanation()), size=15)
        chance = view.chance
        self.chance = ft.Text(
            say(
                words,
                "game.attack.chance",
                chances=chance.numerator,
                outof=chance.denominator,
                percent=format_percent(float(chance), locale=words.locale),
            ),
            size=20,
            weight=ft.FontWeight.BOLD,
            color=ACCENT_TEXT,
        )
        # The odds of every other attack, in the rules at a glance, over this panel.
        odds = ft.TextButton(
            say(words, "aid.app.odds"),
            icon=ft.Icons.MENU_BOOK,
            on_click=lambda _: open_aid(screen.app, opening_part(attacking=True)),
        )
        self.body = ft.Column([self.explain, self.chance, odds], tight=True, spacing=10)
        page_width = screen.app.page.width or 360
        # On a phone the buttons stand full width under the text, not in a ragged stack; the
        # panel keeps one width from the odds to the dice.
        self.narrow = page_width < NARROW
        self.buttons = ft.Column(spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        inset = PHONE_INSET if self.narrow else DIALOG_INSET
        self.dialog = ft.AlertDialog(
            title=ft.Text(words.render(state.sentence(attack)), size=18),
            content=ft.Container(
                width=min(PANEL_WIDTH, page_width - 2 * (inset + CONTENT_PADDING)),
                content=ft.Column([self.body, self.buttons], tight=True, spacing=16),
            ),
            inset_padding=ft.Padding.symmetric(horizontal=inset, vertical=24),
            content_padding=CONTENT_PADDING,
        )
        self.set_buttons(
            ft.TextButton(
                say(words, "game.attack.cancel"), on_click=lambda _: screen.app.page.pop_dialog()
            ),
            ft.OutlinedButton(
                say(words, "game.attack.enter_dice"), icon=ft.Icons.EDIT, on_click=self.enter_faces
            ),
            ft.FilledButton(
                say(words, "game.attack.roll"), icon=ft.Icons.CASINO, on_click=self.roll
            ),
        )

    def set_buttons(self, *buttons: ft.Control) -> None:
        """The panel's buttons, least to most wanted: in a row at the bottom, or on a phone
        one under another across the panel, the most wanted on top."""
        if self.narrow:
            self.dialog.actions = []
            self.buttons.controls = list(reversed(buttons))
        else:
            self.dialog.actions = list(buttons)

    def open(self) -> None:
        """Show the panel."""
        self.screen.app.page.show_dialog(self.dialog)

    def close(self) -> None:
        """Close it, if open (the game moved on elsewhere)."""
        if self.dialog.open:
            self.dialog.open = False
            self.dialog.update()

    def roll(self, _: ft.Event[Any]) -> None:
        """Record the attack without dice: the store rolls them."""
        self.play(self.attack)

    def enter_faces(self, _: ft.Event[Any]) -> None:
        """Ask for the face each real die shows."""
        page = self.screen.app.page
        words = self.words
        rows: list[ft.Control] = [
            self.explain,
            self.chance,
            self.face_row(say(words, "game.attack.your_die"), "attack"),
        ]
        if self.view.defence_roll:
            rows.append(self.face_row(say(words, "game.attack.sprite_die"), "defence"))
        # What these dice make, before the attack is recorded with them.
        self.total = ft.Semantics(
            identifier="dice-total",
            content=ft.Text(
                say(words, "game.attack.faces_first"), size=16, weight=ft.FontWeight.BOLD
            ),
        )
        rows.append(self.total)
        self.body.controls = rows
        # Enabled once every die has a face: no tap is spent on a refusal.
        self.with_faces = ft.FilledButton(
            say(words, "game.attack.with_dice"), on_click=self.physical, disabled=True
        )
        self.set_buttons(
            ft.TextButton(say(words, "game.attack.cancel"), on_click=lambda _: page.pop_dialog()),
            self.with_faces,
        )
        page.update()

    def faces_complete(self) -> bool:
        """Whether every die of the attack has its face tapped."""
        faces = self.faces
        return faces["attack"] is not None and not (
            self.view.defence_roll and faces["defence"] is None
        )

    def physical(self, _: ft.Event[Any]) -> None:
        """Record the attack with the faces tapped."""
        faces = self.faces
        if not self.faces_complete():
            self.screen.tell(say(self.words, "game.attack.faces_first"), error=True)
            return
        self.play(self.attack._replace(attack_roll=faces["attack"], defence_roll=faces["defence"]))

    def face_row(self, title: str, key: str) -> ft.Control:
        """Six die faces to tap, for dice rolled at the table."""
        buttons: list[ft.Container] = []

        def pick(face: int) -> None:
            self.faces[key] = face
            for number, button in enumerate(buttons, start=1):
                chosen = number == face
                button.bgcolor = ACCENT if chosen else ft.Colors.SURFACE_CONTAINER_HIGHEST
                button.border = ft.Border.all(2, "#101010" if chosen else ft.Colors.OUTLINE)
                assert isinstance(button.content, ft.Column), "a face's pips over its number"
                for text in button.content.controls:
                    assert isinstance(text, ft.Text), "a face is drawn in text"
                    text.color = "#101010" if chosen else ft.Colors.ON_SURFACE
            complete = self.faces_complete()
            self.with_faces.disabled = not complete
            assert isinstance(self.total.content, ft.Text), "the total is a line of text"
            self.total.content.value = (
                self.dice_total() if complete else say(self.words, "game.attack.faces_first")
            )
            self.screen.app.page.update()

        # Large faces, the pips over the number, in high contrast, readable at arm's length.
        for face in range(1, DIE_SIDES + 1):
            buttons.append(
                ft.Container(
                    width=FACE,
                    height=FACE,
                    border_radius=10,
                    alignment=ft.Alignment.CENTER,
                    bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                    border=ft.Border.all(2, ft.Colors.OUTLINE),
                    on_click=lambda _, f=face: pick(f),
                    content=ft.Column(
                        [
                            ft.Text(DIE_FACES[face - 1], size=30, color=ft.Colors.ON_SURFACE),
                            ft.Text(
                                str(face),
                                size=14,
                                weight=ft.FontWeight.BOLD,
                                color=ft.Colors.ON_SURFACE,
                            ),
                        ],
                        spacing=-6,
                        tight=True,
                        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    ),
                )
            )
        faces_row: list[ft.Control] = [
            ft.Semantics(
                label=say(self.words, "game.attack.face", die=title, face=face),
                button=True,
                container=True,
                content=button,
            )
            for face, button in enumerate(buttons, start=1)
        ]
        return ft.Column(
            [ft.Text(title, size=14), ft.Row(faces_row, wrap=True, spacing=4, run_spacing=4)],
            spacing=4,
        )

    def dice_total(self) -> str:
        """The attack with the faces tapped, as the engine would record it: each roll and its
        bonus, the total against the defence, and what follows."""
        faces = self.faces
        attack = self.attack._replace(attack_roll=faces["attack"], defence_roll=faces["defence"])
        return self.words.render(self.screen.session.state.sentence(attack))

    def play(self, attack: Attack) -> None:
        """Record the attack (the store rolls missing dice), then show the dice as they fell."""
        screen = self.screen
        outcome = screen.turns.record([attack], screen.shown_player)
        if not outcome.ok:
            screen.app.page.pop_dialog()
            screen.after(outcome)
            return
        logged = screen.session.saved.log[-1].command
        assert isinstance(logged, Attack), "the command just recorded is this attack"
        dialog = self.dialog
        words = self.words
        dialog.title = ft.Text(say(words, "game.attack.dice"), size=18)
        # Room kept for the result's lines: Continue below does not move when it shows.
        result = ft.Text("\n\n", size=16)
        dice = [(self.die_a, self.captions[0])]
        if logged.defence_roll is not None:
            dice.append((self.die_d, self.captions[1]))

        def skip(_: ft.Event[ft.Container]) -> None:
            self.skipped = True

        # A tap on the tumbling dice lands them at once (dice can be skipped).
        rolling = ft.Container(
            on_click=skip,
            tooltip=say(words, "game.attack.skip"),
            content=ft.Row(
                [
                    ft.Column(
                        [die, ft.Text(caption, size=13)],
                        spacing=2,
                        horizontal_alignment=ft.CrossAxisAlignment.CENTER,
                    )
                    for die, caption in dice
                ],
                spacing=24,
                alignment=ft.MainAxisAlignment.CENTER,
            ),
        )
        self.body.controls = [rolling, result]
        self.set_buttons(
            ft.FilledButton(say(words, "game.board.continue"), on_click=lambda _: self.done())
        )
        # Dice entered by hand are already known: they land at once.
        self.skipped = attack.attack_roll is not None
        screen.app.page.run_task(self.land, logged, rolling, result, outcome.text(words))

    async def land(
        self, logged: Attack, rolling: ft.Container, result: ft.Text, message: str
    ) -> None:
        """Tumble the dice for a moment, then land on the faces the logged command holds."""
        page = self.screen.app.page
        shown = [self.die_a, self.die_d] if logged.defence_roll is not None else [self.die_a]
        await tumble(page, shown, lambda: self.skipped)
        assert logged.attack_roll is not None, "a logged attack carries its dice"
        self.die_a.value = die_face(logged.attack_roll)
        if logged.defence_roll is not None:
            self.die_d.value = die_face(logged.defence_roll)
        # Landed: nothing left to skip.
        rolling.tooltip = None
        rolling.on_click = None
        result.value = message
        self.screen.render()
        page.update()

    def done(self) -> None:
        """Close the dice and go on (to the result, if the attack won the game)."""
        screen = self.screen
        screen.app.page.pop_dialog()
        if screen.session.state.is_terminal:
            screen.finished()
            return
        screen.show(None)
        screen.wake_bots()
