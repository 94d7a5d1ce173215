"""Home: resume or delete a game, start one, import one, or look back at finished ones."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.aid_dialog import open_aid
from companion.app.sizes import TAP
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import big_button, notify, screen, section
from companion.language.render import LANGUAGES
from companion.play.board_device import went_on_key
from companion.play.home import Deletion, import_log_file, resume_card
from companion.play.language_setting import LANGUAGE_NAMES
from companion.play.sharing.access import Role
from companion.store.errors import StoreError

if TYPE_CHECKING:
    from companion.app.main import App
    from companion.store.store import GameSummary


def _resume_card(app: App, summary: GameSummary) -> ft.Control:
    went_on = app.page.session.store.get(went_on_key(summary.id))
    card = resume_card(app.service.standings, app.store, summary, went_on, app.words)
    # Two targets side by side, each its own node for screen readers: resume, and delete.
    resume = ft.Semantics(
        container=True,
        button=True,
        label=card.label,
        expand=True,
        content=ft.Container(
            padding=ft.Padding.only(left=14, top=10, bottom=10),
            on_click=lambda _: app.go(card.route),
            content=ft.Row(
                [
                    ft.Icon(ft.Icons.PLAY_ARROW, color=ACCENT_TEXT),
                    ft.Column(
                        [
                            ft.Text(card.players, size=17, weight=ft.FontWeight.BOLD),
                            ft.Text(card.where, size=15),
                            ft.Text(card.place, size=13),
                        ],
                        spacing=2,
                        expand=True,
                    ),
                ]
            ),
        ),
    )
    targets: list[ft.Control] = [resume]
    deletion = card.deletion
    # Only the host's device and the scorekeeper's delete a shared game.
    if deletion is not None and app.delete_refusal(summary.id) is None:
        targets.append(
            ft.Semantics(
                container=True,
                content=ft.IconButton(
                    ft.Icons.DELETE_OUTLINE,
                    tooltip=deletion.button,
                    width=TAP,
                    height=TAP,
                    on_click=lambda _: _confirm_delete(app, card.game_id, deletion),
                ),
            )
        )
    return ft.Container(
        border_radius=10,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
        padding=ft.Padding.only(right=4),
        content=ft.Row(targets, spacing=0),
    )


def _confirm_delete(app: App, game_id: str, deletion: Deletion) -> None:
    page = app.page
    said: list[tuple[str, bool]] = []

    def delete(_: ft.Event[Any]) -> None:
        try:
            refused = app.delete_game(game_id)
        except StoreError as error:
            said.append((str(error), True))
        else:
            said.append((refused, True) if refused else (deletion.done, False))
        page.pop_dialog()

    def closed(_: ft.Event) -> None:
        # Once the dialog has gone: a list drawn anew, or a message shown, while it is still
        # closing goes with it.
        if said:
            app.show()
            notify(page, said[0][0], error=said[0][1])

    page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(deletion.title),
            content=ft.Text(deletion.note, size=15),
            actions=[
                ft.TextButton(app.say("app.home.keep"), on_click=lambda _: page.pop_dialog()),
                ft.FilledButton(
                    app.say("app.home.delete"), icon=ft.Icons.DELETE_FOREVER, on_click=delete
                ),
            ],
            on_dismiss=closed,
        )
    )


def build(app: App) -> ft.View:
    """The home screen."""
    unfinished = app.store.unfinished()
    resume = [_resume_card(app, summary) for summary in unfinished] or [
        ft.Text(app.say("app.home.nothing_to_resume"), size=15)
    ]

    def imported(event: ft.FilePickerResultEvent) -> None:
        if not event.files:
            return
        saved, message = import_log_file(app.store, event.files[0].bytes, app.words)
        if saved is None:
            notify(app.page, message, error=True)
        else:
            app.go(f"/game/{saved.id}{'/end' if saved.state.is_terminal else ''}", message)

    # A browser opens its file dialog only within the tap itself, so the client opens it
    # (the button's action, which also keeps the picker alive) and the file comes back here.
    picker = ft.FilePicker(on_result=imported)
    view = screen("/", spacing=14)
    view.appbar = ft.AppBar(
        title=ft.Text(app.say("app.home.title")),
        actions=[
            ft.IconButton(
                ft.Icons.BRIGHTNESS_6,
                tooltip=app.say("app.home.theme"),
                on_click=lambda _: app.toggle_theme(),
            ),
        ],
    )
    share = []
    if app.role is Role.HOST:
        share = [
            big_button(app.say("app.home.share"), lambda _: app.go("/share"), icon=ft.Icons.QR_CODE)
        ]
    view.controls = [
        ft.Text(app.say("app.home.tagline"), size=16, color=ACCENT_TEXT),
        *share,
        big_button(app.say("app.home.new_game"), lambda _: app.go("/new"), icon=ft.Icons.ADD),
        section(app.say("app.home.resume"), *resume),
        big_button(
            app.say("app.home.history"),
            lambda _: app.go("/history"),
            icon=ft.Icons.BAR_CHART,
            primary=False,
        ),
        big_button(
            app.say("app.home.board_editor"),
            lambda _: app.go("/board-editor"),
            icon=ft.Icons.MAP,
            primary=False,
        ),
        # Named in words here, where a new player looks first; a game's bar has its icon.
        big_button(
            app.say("aid.app.title"),
            lambda _: open_aid(app),
            icon=ft.Icons.MENU_BOOK,
            primary=False,
        ),
        big_button(
            app.say("app.home.import"),
            None,
            icon=ft.Icons.UPLOAD_FILE,
            primary=False,
            action=ft.PickFiles(
                picker,
                file_type=ft.FilePickerFileType.CUSTOM,
                allowed_extensions=["json"],
                with_data=True,
            ),
        ),
        language_picker(app),
    ]
    return view


def language_picker(app: App) -> ft.Control:
    """The device's language: one button per language, each named in its own words."""
    buttons: list[ft.Control] = []
    for code in LANGUAGES:
        chosen = code == app.words.code
        name = LANGUAGE_NAMES[code]
        maker = ft.FilledButton if chosen else ft.OutlinedButton
        buttons.append(
            ft.Semantics(
                identifier=f"language-{code}",
                selected=chosen,
                expand=True,
                content=maker(
                    content=name,
                    icon=ft.Icons.CHECK if chosen else None,
                    height=TAP,
                    expand=True,
                    on_click=lambda _, c=code: app.set_language(c),
                ),
            )
        )
    # Titled in both languages: whoever cannot read the one shown still finds the setting.
    return ft.Container(
        padding=ft.Padding.only(top=8),
        content=ft.Column(
            [
                ft.Row(
                    [
                        ft.Icon(ft.Icons.TRANSLATE, color=ACCENT_TEXT, size=20),
                        ft.Text("Language · Langue", size=14, weight=ft.FontWeight.BOLD),
                    ],
                    spacing=8,
                ),
                ft.Row(buttons, spacing=10),
            ],
            spacing=8,
        ),
    )
