"""Home: resume or delete a game, start one, import one, or look back at finished ones."""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import flet as ft
from pydantic import ValidationError

from companion.app.sharing.access import Role
from companion.app.sizes import TAP
from companion.app.theme import ACCENT_TEXT
from companion.app.widgets import big_button, notify, screen, section
from companion.boards import BoardError
from companion.engine import IllegalCommand
from companion.store.errors import StoreError
from models.game_log import GameLog
from models.problems import problem
from models.setup import Mode

if TYPE_CHECKING:
    from companion.app.main import App
    from companion.store.store import GameSummary, SavedGame, Store


def when(moment: datetime) -> str:
    """A saved time as people say it: 'just now', '5 min ago', '3 h ago', or the date."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    minutes = int((datetime.now(UTC) - moment).total_seconds() // 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes} min ago"
    if minutes < 24 * 60:
        return f"{minutes // 60} h ago"
    return moment.astimezone().strftime("%d %b %Y")


@dataclass(frozen=True)
class Standing:
    """Where an unfinished game stands, as its card on Home says it."""

    board: str
    round: str
    turn: str
    # Where Resume opens: the table, or straight on to Energy and Reset when it waits for it.
    route: str


# Each game's standing at the revision it was read, per database: Home lists every unfinished
# game, and replaying them all on each visit would cost some 5 ms a game.
_standings: dict[tuple[str, str], tuple[int, Standing]] = {}
_standings_lock = threading.Lock()


def standing(store: Store, summary: GameSummary) -> Standing:
    """The game's board as players call it, 'Round 3/6', and whose turn it is."""
    key = (store.label, summary.id)
    with _standings_lock:
        known = _standings.get(key)
    if known is not None and known[0] == summary.revision:
        return known[1]
    saved = store.load(summary.id)
    player = saved.state.current_player
    found = Standing(
        board=saved.game.board.short_name,
        round=f"Round {saved.state.round}/{saved.setup.final_round}",
        # Only Energy and Reset is nobody's turn in a game still being played.
        turn=f"{saved.game.labels[player]}'s turn" if player else "Energy and Reset",
        route=f"/game/{summary.id}" + ("" if player else "/reset"),
    )
    with _standings_lock:
        _standings[key] = (saved.revision, found)
    return found


def players_of(labels: Sequence[str]) -> str:
    """'Ragna and Bjorn', 'Ragna, Bjorn and Sigrid': whose game it is."""
    *others, last = labels
    return f"{', '.join(others)} and {last}" if others else last


def import_log_file(store: Store, data: bytes | None) -> tuple[SavedGame | None, str]:
    """Save a game log file's bytes as a new game: the game and a note, or None and why not."""
    parsed = None
    try:
        parsed = json.loads((data or b"").decode("utf-8"))
        log = GameLog.model_validate(parsed)
        saved = store.import_log(log)
    except UnicodeDecodeError:
        return None, "Not imported: that file is not a game log (it is not text)."
    except json.JSONDecodeError as error:
        return None, (
            f"Not imported: that file is not a game log (its JSON breaks at line {error.lineno}, "
            f"column {error.colno})."
        )
    except ValidationError as error:
        return None, f"Not imported: {_log_problem(error, parsed)}."
    except (StoreError, BoardError, IllegalCommand) as error:
        return None, f"Not imported: {error}."
    players = players_of([player.label for player in saved.setup.players])
    return saved, f"Imported {players}'s {'finished ' if saved.state.is_terminal else ''}game."


def _log_problem(error: ValidationError, data: object) -> str:
    first = error.errors()[0]
    where = first["loc"]
    # Not an object, another format, no setup or keys a game log never has: some other file.
    if (
        not where
        or where[0] == "format"
        or (len(where) == 1 and first["type"] in ("missing", "extra_forbidden"))
    ):
        return "that file is not a Summoner's Isle game log"
    if where[0] == "version":
        return first["msg"].removeprefix("Value error, ")
    return f"in this game log, {problem(error, data)}"


def _resume_card(app: App, summary: GameSummary) -> ft.Control:
    where = standing(app.store, summary)
    players = players_of(summary.labels)
    mode = "digital board · " if summary.mode == Mode.DIGITAL else ""
    # Two targets side by side, each its own node for screen readers: resume, and delete.
    resume = ft.Semantics(
        container=True,
        button=True,
        label=f"Resume {players}'s game",
        expand=True,
        content=ft.Container(
            padding=ft.Padding.only(left=14, top=10, bottom=10),
            on_click=lambda _: app.go(where.route),
            content=ft.Row(
                [
                    ft.Icon(ft.Icons.PLAY_ARROW, color=ACCENT_TEXT),
                    ft.Column(
                        [
                            ft.Text(players, size=17, weight=ft.FontWeight.BOLD),
                            ft.Text(f"{where.round} · {where.turn}", size=15),
                            ft.Text(f"{where.board} · {mode}{when(summary.updated)}", size=13),
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
            tooltip=f"Delete {players}'s game",
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
    players = players_of(summary.labels)
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
                said.append((f"Deleted {players}'s game.", False))
        page.pop_dialog()

    def closed(_: ft.Event) -> None:
        # Once the dialog has gone: a list drawn anew, or a message shown, while it is still
        # closing goes with it.
        if said:
            app.show()
            notify(page, said[0][0], error=said[0][1])

    page.show_dialog(
        ft.AlertDialog(
            title=ft.Text(f"Delete {players}'s game?"),
            content=ft.Text(
                f"{where.board}, {where.round.lower()}, {when(summary.updated)}. "
                "It goes for good, with its log: undo cannot bring it back.",
                size=15,
            ),
            actions=[
                ft.TextButton("Keep it", on_click=lambda _: page.pop_dialog()),
                ft.FilledButton("Delete", icon=ft.Icons.DELETE_FOREVER, on_click=delete),
            ],
            on_dismiss=closed,
        )
    )


def build(app: App) -> ft.View:
    """The home screen."""
    unfinished = app.store.unfinished()
    resume = [_resume_card(app, summary) for summary in unfinished] or [
        ft.Text("No game in progress. Start one and it is saved as you play.", size=15)
    ]

    def imported(event: ft.FilePickerResultEvent) -> None:
        if not event.files:
            return
        saved, message = import_log_file(app.store, event.files[0].bytes)
        if saved is None:
            notify(app.page, message, error=True)
        else:
            app.go(f"/game/{saved.id}{'/end' if saved.state.is_terminal else ''}", message)

    # A browser opens its file dialog only within the tap itself, so the client opens it
    # (the button's action, which also keeps the picker alive) and the file comes back here.
    picker = ft.FilePicker(on_result=imported)
    view = screen("/", spacing=14)
    view.appbar = ft.AppBar(
        title=ft.Text("Summoner's Isle"),
        actions=[
            ft.IconButton(
                ft.Icons.BRIGHTNESS_6,
                tooltip="Light or dark theme",
                on_click=lambda _: app.toggle_theme(),
            )
        ],
    )
    share = []
    if app.role is Role.HOST:
        share = [big_button("Share this table", lambda _: app.go("/share"), icon=ft.Icons.QR_CODE)]
    view.controls = [
        ft.Text("Companion for the table", size=16, color=ACCENT_TEXT),
        *share,
        big_button("New game", lambda _: app.go("/new"), icon=ft.Icons.ADD),
        section("Resume", *resume),
        big_button("History", lambda _: app.go("/history"), icon=ft.Icons.BAR_CHART, primary=False),
        big_button(
            "Board editor", lambda _: app.go("/board-editor"), icon=ft.Icons.MAP, primary=False
        ),
        big_button(
            "Import a game",
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
    ]
    return view
