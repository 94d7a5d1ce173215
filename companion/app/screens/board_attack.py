"""The attack panel of the digital board: the engine's breakdown and chance, then the dice.

The odds and what they mean come from the engine (`GameState.attack_view`); *Roll* records
the attack without dice (the store rolls them from the game's seeded dice) and *Enter my
dice* records the faces of real ones. The dice then tumble and land on the logged faces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.screens.board_motion import DIE_FACES, die_face, tumble
from companion.app.sizes import TAP
from companion.app.theme import ACCENT, ACCENT_TEXT
from companion.app.widgets import notify
from models.commands import Attack
from models.rules import DIE_SIDES

if TYPE_CHECKING:
    from companion.app.screens.board import BoardScreen


class AttackPanel:
    """One attack's dialog, from the odds to the dice as they fell."""

    def __init__(self, screen: BoardScreen, attack: Attack) -> None:
        self.screen = screen
        self.attack = attack
        state = screen.session.state
        self.view = state.attack_view(attack)
        labels = state.game.labels
        view = self.view
        self.captions = (
            f"{labels[view.attacker]}'s {view.attacker_kind.title}",
            f"{labels[view.defender]}'s {view.defender_kind.title}",
        )
        self.faces: dict[str, int | None] = {"attack": None, "defence": None}
        self.die_a = ft.Text("", size=44)
        self.die_d = ft.Text("", size=44)
        # Set by a tap on the tumbling dice: they land at once.
        self.skipped = False
        self.explain = ft.Text(view.explain(), size=15)
        chance = view.chance
        self.chance = ft.Text(
            f"Chance: {chance.numerator} in {chance.denominator} · {float(chance):.0%}",
            size=20,
            weight=ft.FontWeight.BOLD,
            color=ACCENT_TEXT,
        )
        self.body = ft.Column([self.explain, self.chance], tight=True, spacing=10)
        self.dialog = ft.AlertDialog(
            title=ft.Text(state.describe(attack), size=18), content=self.body
        )
        self.dialog.actions = [
            ft.TextButton("Cancel", on_click=lambda _: screen.app.page.pop_dialog()),
            ft.OutlinedButton("Enter my dice", icon=ft.Icons.EDIT, on_click=self.enter_faces),
            ft.FilledButton("Roll", icon=ft.Icons.CASINO, on_click=self.roll),
        ]

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
        rows: list[ft.Control] = [self.explain, self.chance, self.face_row("Your die", "attack")]
        if self.view.defence_roll:
            rows.append(self.face_row("The Sprite's die", "defence"))
        self.body.controls = rows
        self.dialog.actions = [
            ft.TextButton("Cancel", on_click=lambda _: page.pop_dialog()),
            ft.FilledButton("Attack with these dice", on_click=self.physical),
        ]
        page.update()

    def physical(self, _: ft.Event[Any]) -> None:
        """Record the attack with the faces tapped."""
        faces = self.faces
        if faces["attack"] is None or (self.view.defence_roll and faces["defence"] is None):
            notify(self.screen.app.page, "Tap the face each die shows first.", error=True)
            return
        self.play(self.attack._replace(attack_roll=faces["attack"], defence_roll=faces["defence"]))

    def face_row(self, title: str, key: str) -> ft.Control:
        """Six die faces to tap, for dice rolled at the table."""
        buttons: list[ft.Container] = []

        def pick(face: int) -> None:
            self.faces[key] = face
            for number, button in enumerate(buttons, start=1):
                button.bgcolor = ACCENT if number == face else ft.Colors.SURFACE_CONTAINER_HIGHEST
            self.screen.app.page.update()

        for face in range(1, DIE_SIDES + 1):
            buttons.append(
                ft.Container(
                    width=TAP,
                    height=TAP,
                    border_radius=8,
                    alignment=ft.Alignment.CENTER,
                    bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
                    on_click=lambda _, f=face: pick(f),
                    content=ft.Text(f"{DIE_FACES[face - 1]}", size=30),
                )
            )
        faces_row: list[ft.Control] = [
            ft.Semantics(label=f"{title}: {face}", button=True, container=True, content=button)
            for face, button in enumerate(buttons, start=1)
        ]
        return ft.Column(
            [ft.Text(title, size=14), ft.Row(faces_row, wrap=True, spacing=4, run_spacing=4)],
            spacing=4,
        )

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
        dialog.title = ft.Text("The dice", size=18)
        result = ft.Text("", size=16)
        dice = [(self.die_a, self.captions[0])]
        if logged.defence_roll is not None:
            dice.append((self.die_d, self.captions[1]))

        def skip(_: ft.Event[ft.Container]) -> None:
            self.skipped = True

        # A tap on the tumbling dice lands them at once (issue 11: dice can be skipped).
        rolling = ft.Container(
            on_click=skip,
            tooltip="Tap to see the dice at once",
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
        dialog.content = ft.Column(
            [rolling, result],
            tight=True,
            spacing=12,
        )
        dialog.actions = [ft.FilledButton("Continue", on_click=lambda _: self.done())]
        screen.app.page.run_task(self.land, logged, result, outcome.message)

    async def land(self, logged: Attack, result: ft.Text, message: str) -> None:
        """Tumble the dice for a moment, then land on the faces the logged command holds."""
        page = self.screen.app.page
        await tumble(page, [self.die_a, self.die_d], lambda: self.skipped)
        assert logged.attack_roll is not None, "a logged attack carries its dice"
        self.die_a.value = die_face(logged.attack_roll)
        if logged.defence_roll is not None:
            self.die_d.value = die_face(logged.defence_roll)
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
