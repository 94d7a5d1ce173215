"""Home: resume or delete a game, start one, import one, or look back at finished ones."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import flet as ft
from babel.dates import format_date
from pydantic import ValidationError

from companion.app.board_device import went_on_key
from companion.app.language_setting import ENGLISH, LANGUAGE_NAMES
from companion.app.sharing.access import Role
from companion.app.sizes import TAP
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import big_button, notify, screen, section
from companion.boards import BoardError
from companion.engine import IllegalCommand
from companion.engine.names import board_term
from companion.language import Message
from companion.language.render import LANGUAGES, Language
from companion.store.errors import StoreError
from models.game_log import GameLog
from models.problems import problem, reason
from models.setup import Mode
from models.strict_json import JSONInputError, loads_bytes

if TYPE_CHECKING:
    from companion.app.main import App
    from companion.store.store import GameSummary, SavedGame, Store


def when(moment: datetime, words: Language = ENGLISH) -> str:
    """A saved time as people say it: 'just now', '5 min ago', '3 h ago', or the date."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    minutes = int((datetime.now(UTC) - moment).total_seconds() // 60)
    if minutes < 1:
        return words.render(Message("app.home.just_now"))
    if minutes < 60:
        return words.render(Message("app.home.minutes_ago", minutes=minutes))
    if minutes < 24 * 60:
        return words.render(Message("app.home.hours_ago", hours=minutes // 60))
    # '23 Nov 2026', '23 nov. 2026': the language's own month names.
    return format_date(moment.astimezone(), "d MMM y", locale=words.locale)


@dataclass(frozen=True)
class Standing:
    """Where an unfinished game stands, as its card on Home says it."""

    board: str
    round: str
    turn: str
    # Where Resume opens: the table, or straight on to Energy and Reset when it waits for it.
    route: str
    # A digital game whose newest record ended a round: that record's seq, and the round as
    # the game's screen shows it until someone there goes on (the Energy and Reset card's).
    reset_seq: int | None = None
    reset_round: str | None = None

    def on_device(self, went_on: object, words: Language = ENGLISH) -> tuple[str, str]:
        """(round, turn) as this device's game screen shows them: a digital game's Energy
        and Reset this device has not gone on from (`went_on`, the seq it went on from) is
        still being read there, in its round (issue 24: Home said 'Round 4/6 · Sigrid's
        turn' beside round 3's Energy and Reset card)."""
        if self.reset_seq is None or self.reset_round is None or went_on == self.reset_seq:
            return self.round, self.turn
        return self.reset_round, words.render(Message("app.home.reset_to_read"))


# Each game's standing at the revision it was read, per database: Home lists every unfinished
# game, and replaying them all on each visit would cost some 5 ms a game.
_standings: dict[tuple[str, str, str], tuple[int, Standing]] = {}
_standings_lock = threading.Lock()


def standing(store: Store, summary: GameSummary, words: Language = ENGLISH) -> Standing:
    """The game's board as players call it, 'Round 3/6', and whose turn it is."""
    key = (store.label, summary.id, words.code)
    with _standings_lock:
        known = _standings.get(key)
    if known is not None and known[0] == summary.revision:
        return known[1]
    saved = store.load(summary.id)
    player = saved.state.current_player
    turn = (
        Message("app.home.turn", player=saved.game.labels[player])
        if player
        else Message("app.home.energy_and_reset")
    )
    tally = saved.state.last_tally
    shown = tally.round if tally is not None else None
    read = saved.setup.mode is Mode.DIGITAL and bool(saved.log) and saved.log[-1].reset is not None
    found = Standing(
        board=words.value(board_term(saved.game.board, short=True), "nu"),
        round=words.render(
            Message("app.home.round", round=saved.state.round, final=saved.setup.final_round)
        ),
        # Only Energy and Reset is nobody's turn in a game still being played.
        turn=words.render(turn),
        route=f"/game/{summary.id}" + ("" if player else "/reset"),
        reset_seq=saved.log[-1].seq if read and shown is not None else None,
        reset_round=words.render(
            Message("app.home.round", round=shown, final=saved.setup.final_round)
        )
        if read and shown is not None
        else None,
    )
    with _standings_lock:
        _standings[key] = (saved.revision, found)
    return found


def players_of(labels: Sequence[str], words: Language = ENGLISH) -> str:
    """'Ragna and Bjorn', 'Ragna, Bjorn and Sigrid': whose game it is."""
    return words.value(tuple(labels))


def import_log_file(
    store: Store, data: bytes | None, words: Language = ENGLISH
) -> tuple[SavedGame | None, str]:
    """Save a game log file's bytes as a new game: the game and a note, or None and why not.

    The file is read as every input is (models/strict_json.py): a key given twice, a number
    longer than any field's, nesting deeper than any format's are refused in one sentence.
    """
    parsed = None
    try:
        parsed = loads_bytes(data or b"", Message("input.what.file"))
        log = GameLog.model_validate(parsed)
        saved = store.import_log(log)
    except JSONInputError as error:
        return None, words.render(_json_problem(error.message))
    except ValidationError as error:
        return None, words.render(
            Message("app.import.refused", problem=_log_problem(error, parsed))
        )
    except (IllegalCommand, StoreError, BoardError) as error:
        # Said in the device's language; a database's own error text stays as it came.
        return None, words.render(Message("app.import.refused", problem=error.message))
    players = tuple(player.label for player in saved.setup.players)
    if saved.state.is_terminal:
        return saved, words.render(Message("app.import.finished", players=players))
    return saved, words.render(Message("app.import.done", players=players))


def _json_problem(said: Message) -> Message:
    """Why a file's JSON is refused, as Import says it."""
    fields = said.fields
    if said.id == "input.json.not_utf8":
        return Message("app.import.not_text")
    if said.id == "input.json.malformed":
        return Message("app.import.bad_json", line=fields["line"], column=fields["column"])
    # A value inside the file: the file need not be named, Import is about it.
    inner = fields["problem"] if said.id == "input.json.in" else said
    return Message("app.import.refused", problem=inner)


def _log_problem(error: ValidationError, data: object) -> Message:
    """Why a file is not a game log this app imports, as a message in any language."""
    first = error.errors()[0]
    where = first["loc"]
    # Not an object, another format, no setup or keys a game log never has: some other file.
    if (
        not where
        or where[0] == "format"
        or (len(where) == 1 and first["type"] in ("missing", "extra_forbidden"))
    ):
        return Message("app.import.not_a_log")
    if where[0] == "version":
        # A newer log's version says so itself (models/game_log.py); any other, by its field.
        newer = reason(first)
        if newer is not None:
            return newer
    # Which field is wrong, said by models/problems.py.
    return Message("app.import.in_log", problem=problem(error, data))


def _resume_card(app: App, summary: GameSummary) -> ft.Control:
    words = app.words
    where = standing(app.store, summary, words)
    round_, turn = where.on_device(app.page.session.store.get(went_on_key(summary.id)), words)
    players = tuple(summary.labels)
    shown = players_of(players, words)
    digital = [app.say("app.home.digital")] if summary.mode == Mode.DIGITAL else []
    place = " · ".join([where.board, *digital, when(summary.updated, words)])
    # Two targets side by side, each its own node for screen readers: resume, and delete.
    resume = ft.Semantics(
        container=True,
        button=True,
        label=app.say("app.home.resume_game", players=players),
        expand=True,
        content=ft.Container(
            padding=ft.Padding.only(left=14, top=10, bottom=10),
            on_click=lambda _: app.go(where.route),
            content=ft.Row(
                [
                    ft.Icon(ft.Icons.PLAY_ARROW, color=ACCENT_TEXT),
                    ft.Column(
                        [
                            ft.Text(shown, size=17, weight=ft.FontWeight.BOLD),
                            ft.Text(f"{round_} · {turn}", size=15),
                            ft.Text(place, size=13),
                        ],
                        spacing=2,
                        expand=True,
                    ),
                ]
            ),
        ),
    )
    if app.delete_refusal(summary.id):
        # Only the host's device and the scorekeeper's delete a shared game.
        return ft.Container(
            border_radius=10,
            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
            padding=ft.Padding.only(right=4),
            content=ft.Row([resume], spacing=0),
        )
    delete = ft.Semantics(
        container=True,
        content=ft.IconButton(
            ft.Icons.DELETE_OUTLINE,
            tooltip=app.say("app.home.delete_game", players=players),
            width=TAP,
            height=TAP,
            on_click=lambda _: _confirm_delete(app, summary, where),
        ),
    )
    return ft.Container(
        border_radius=10,
        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGH,
        padding=ft.Padding.only(right=4),
        content=ft.Row([resume, delete], spacing=0),
    )


def _confirm_delete(app: App, summary: GameSummary, where: Standing) -> None:
    page = app.page
    players = tuple(summary.labels)
    said: list[tuple[str, bool]] = []

    def delete(_: ft.Event[Any]) -> None:
        try:
            refused = app.delete_game(summary.id)
        except StoreError as error:
            said.append((str(error), True))
        else:
            if refused:
                said.append((refused, True))
            else:
                said.append((app.say("app.home.deleted", players=players), False))
        page.pop_dialog()

    def closed(_: ft.Event) -> None:
        # Once the dialog has gone: a list drawn anew, or a message shown, while it is still
        # closing goes with it.
        if said:
            app.show()
            notify(page, said[0][0], error=said[0][1])

    page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(app.say("app.home.delete_title", players=players)),
            content=ft.Text(
                app.say(
                    "app.home.delete_note",
                    board=where.board,
                    round=where.round[:1].lower() + where.round[1:],
                    when=when(summary.updated, app.words),
                ),
                size=15,
            ),
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
            )
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
