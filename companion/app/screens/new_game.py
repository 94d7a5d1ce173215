"""New game: players and colours, the board, 6 or 7 rounds, the first turn order."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import flet as ft

from companion.app.theme import PLAYER_COLOURS, colour_name, colour_of
from companion.app.widgets import big_button, board_options, notify, player_chip, screen, section
from companion.boards import BoardError
from companion.language import Message
from companion.play.new_game import ENTER, SEAT_PLAYERS, NewGameForm, TerritoryEntry
from models.board import MAX_NAME_CHARS
from models.rules import (
    DOMINATION_BONUS_RANGE,
    EXTENDED_ROUNDS,
    EXTENDED_ROUNDS_MIN_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STANDARD_ROUNDS,
)
from models.setup import NAME_MAX_LENGTH, Mode

if TYPE_CHECKING:
    from companion.app.main import App

# The width of a seat's counter and the gap after it.
SEAT_INDENT = 36


def build(app: App, draft: NewGameForm | None = None, view: ft.View | None = None) -> ft.View:
    """The new game form; given the view it is on, drawn again in place."""
    draft = draft or NewGameForm(shelf=app.visit.boards)
    page = app.page
    words = app.words
    boards = draft.boards()
    view = view or screen("/new", spacing=12)

    def redraw() -> None:
        # Into the same view: the new controls' handlers must draw on the screen shown.
        build(app, draft, view)
        page.update()

    def set_count(count: int) -> None:
        draft.set_count(count)
        redraw()

    def set_name(seat: int, value: str) -> None:
        draft.names[seat] = value
        show_names()
        page.update()

    def set_colour(seat: int, value: str) -> None:
        draft.colours[seat] = value
        redraw()

    def move_up(position: int) -> None:
        draft.move_up(position)
        redraw()

    def draw_order(_: ft.Event[Any]) -> None:
        draft.draw_order(random.shuffle)  # a draw for the table: the engine takes the result
        redraw()

    def start(_: ft.Event[Any]) -> None:
        started = draft.start(app.store)
        if isinstance(started, Message):
            notify(page, words.render(started), error=True)
            return
        app.go(f"/game/{started.id}")

    count_picker = ft.SegmentedButton(
        segments=[
            ft.Segment(
                value=str(n),
                label=ft.Text(f"{n}", semantics_label=app.say("app.new.players_count", count=n)),
            )
            for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
        ],
        selected=[str(draft.count)],
        on_change=lambda e: set_count(int(e.control.selected[0])),
    )

    def pick_mode(event: ft.Event[ft.SegmentedButton]) -> None:
        draft.mode = Mode(event.control.selected[0])
        redraw()

    mode_picker = ft.SegmentedButton(
        segments=[
            ft.Segment(value=Mode.TABLE.value, label=ft.Text(app.say("app.new.at_table"))),
            ft.Segment(value=Mode.DIGITAL.value, label=ft.Text(app.say("app.new.digital"))),
        ],
        selected=[draft.mode.value],
        on_change=pick_mode,
        expand=True,
    )
    mode_note = ft.Text(
        app.say("app.new.at_table_note")
        if draft.mode is Mode.TABLE
        else app.say("app.new.digital_note"),
        size=13,
    )
    # What shows a seat's name, changed in place as it is typed: a redraw would take the
    # keyboard away from the field.
    name_fields: list[ft.TextField] = []
    name_notes: list[ft.Text] = []
    name_chips: list[ft.Container] = []
    order_names: dict[int, tuple[ft.Text, ft.Container, ft.IconButton]] = {}

    def show_names() -> None:
        for seat, problem in enumerate(draft.name_problems()):
            name_fields[seat].border_color = ft.Colors.ERROR if problem else None
            name_notes[seat].value = f"⚠ {words.render(problem)}" if problem else ""
            name_notes[seat].visible = problem is not None
            name_chips[seat].content = player_chip(draft.typed_name(seat), draft.colours[seat], 36)
        for seat, (text, chip, arrow) in order_names.items():
            shown = draft.typed_name(seat) or app.say("app.new.player", seat=seat + 1)
            text.value = shown
            chip.content = player_chip(draft.typed_name(seat), draft.colours[seat])
            arrow.tooltip = app.say("app.new.move_up", player=shown)

    player_rows: list[ft.Control] = []
    for seat in range(draft.count):
        colour = colour_of(draft.colours[seat])
        # Level with the name's box, which has its counter below it.
        name_chips.append(ft.Container(padding=ft.Padding.only(top=6)))
        name_fields.append(
            ft.TextField(
                value=draft.names[seat],
                label=app.say("app.new.player", seat=seat + 1),
                max_length=NAME_MAX_LENGTH,
                expand=True,
                # A refusal names the player it clashes with: wrapped, never cut.
                error_max_lines=3,
                on_change=lambda e, s=seat: set_name(s, e.control.value),
            )
        )
        name_notes.append(ft.Text(size=13, color=ft.Colors.ERROR, visible=False))
        player_rows.append(
            ft.Row(
                [
                    name_chips[seat],
                    name_fields[seat],
                    ft.Dropdown(
                        value=colour.id,
                        # Room for '◆ Yellow' on a phone: a little wider, less padding.
                        width=146,
                        content_padding=ft.Padding.only(left=10, right=4),
                        label=app.say("app.new.colour"),
                        options=[
                            ft.DropdownOption(key=c.id, text=f"{c.mark} {colour_name(c.id, words)}")
                            for c in PLAYER_COLOURS
                        ],
                        on_select=lambda e, s=seat: set_colour(s, e.control.value),
                    ),
                ],
                # The name's counter sits under its field: the row lines up at the top.
                vertical_alignment=ft.CrossAxisAlignment.START,
            )
        )
        player_rows.append(name_notes[seat])
        if draft.mode is Mode.DIGITAL:
            player_rows.append(
                ft.Row(
                    [
                        # Lined up under the seat's name, across the rest of the row.
                        ft.Container(width=SEAT_INDENT),
                        played_by_choice(app, draft, seat),
                    ]
                )
            )

    def pick_board(event: ft.Event[ft.Dropdown]) -> None:
        # A selection always carries its option's key; only a cleared field has none.
        if event.control.value is not None:
            draft.board_id = event.control.value
        redraw()

    board_picker = ft.Dropdown(
        value=draft.board_id,
        label=app.say("app.new.board"),
        expand=True,
        options=board_options(boards, words)
        + (
            [ft.DropdownOption(key=ENTER, text=app.say("app.new.enter_board"))]
            if draft.mode is Mode.TABLE
            else []
        ),
        on_select=pick_board,
    )
    board_controls: list[ft.Control] = [board_picker]
    if draft.board_id == ENTER:
        board_controls.extend(_board_entry(app, draft, redraw))
    seven_allowed = EXTENDED_ROUNDS in draft.rounds()

    def pick_rounds(event: ft.Event[ft.SegmentedButton]) -> None:
        draft.final_round = int(event.control.selected[0])
        redraw()

    rounds = ft.SegmentedButton(
        segments=[
            ft.Segment(
                value=str(STANDARD_ROUNDS),
                label=ft.Text(
                    f"{STANDARD_ROUNDS}",
                    semantics_label=app.say("app.new.rounds_count", count=STANDARD_ROUNDS),
                ),
            ),
            ft.Segment(
                value=str(EXTENDED_ROUNDS),
                label=ft.Text(
                    f"{EXTENDED_ROUNDS}",
                    semantics_label=app.say("app.new.rounds_count", count=EXTENDED_ROUNDS),
                ),
                disabled=not seven_allowed,
            ),
        ],
        selected=[str(draft.final_round)],
        on_change=pick_rounds,
    )
    rounds_note = ft.Text(
        app.say("app.new.seventh_note", round=EXTENDED_ROUNDS)
        if seven_allowed
        else app.say(
            "app.new.seventh_for",
            round=EXTENDED_ROUNDS,
            low=EXTENDED_ROUNDS_MIN_PLAYERS,
            high=MAX_PLAYERS,
        ),
        size=13,
    )
    order_rows = []
    for position, seat in enumerate(draft.seats()):
        order_names[seat] = (
            ft.Text(size=16, expand=True),
            ft.Container(),
            ft.IconButton(
                ft.Icons.ARROW_UPWARD,
                disabled=position == 0,
                on_click=lambda _, p=position: move_up(p),
            ),
        )
        name, chip, arrow = order_names[seat]
        order_rows.append(
            ft.Row([ft.Text(f"{position + 1}.", size=16, width=26), chip, name, arrow])
        )
    show_names()
    view.appbar = ft.AppBar(
        title=ft.Text(app.say("app.home.new_game")),
        leading=ft.IconButton(
            ft.Icons.HOME, tooltip=app.say("app.home"), on_click=lambda _: app.go("/")
        ),
    )
    view.controls = [
        # Across the whole card, each half is wide enough for its label whatever the font
        # measured when the screen was first drawn (the shipped one may still be loading).
        section(app.say("app.new.play"), ft.Row([mode_picker]), mode_note),
        section(app.say("app.new.players"), count_picker, *player_rows),
        section(app.say("app.new.board"), *board_controls),
        section(app.say("app.new.rounds"), rounds, rounds_note),
        section(
            app.say("app.new.first_order"),
            *order_rows,
            ft.OutlinedButton(app.say("app.new.draw"), icon=ft.Icons.CASINO, on_click=draw_order),
        ),
        big_button(app.say("app.new.start"), start, icon=ft.Icons.PLAY_ARROW),
    ]
    return view


def played_by_choice(app: App, draft: NewGameForm, seat: int) -> ft.Control:
    """Who plays a seat on the digital board: a person or a computer level. A screen reader
    reads the choice made with the question, not the question alone."""
    names = {name: app.words.render(Message(said)) for name, said in SEAT_PLAYERS.items()}
    asked = app.say("app.new.played_by", seat=seat + 1)
    semantics = ft.Semantics(
        identifier=f"played-by-{seat + 1}",
        label=asked,
        value=names.get(draft.bots[seat], draft.bots[seat] or ""),
        expand=True,
    )

    def picked(event: ft.Event[ft.Dropdown]) -> None:
        bot = None if event.control.value == "person" else event.control.value
        draft.bots[seat] = bot
        semantics.value = names.get(bot, bot or "")
        semantics.update()

    semantics.content = ft.Dropdown(
        value=draft.bots[seat] or "person",
        label=asked,
        expand=True,
        options=[
            ft.DropdownOption(key=name or "person", text=text) for name, text in names.items()
        ],
        on_select=picked,
    )
    return semantics


def _board_entry(app: App, draft: NewGameForm, redraw) -> list[ft.Control]:  # noqa: ANN001
    """The 'my board' form: territories with a name, a bonus and how many locations."""
    low, high = DOMINATION_BONUS_RANGE
    say = app.say

    def save(_: ft.Event[Any]) -> None:
        try:
            board = draft.save_board()
        except BoardError as error:
            notify(app.page, app.words.render(error.message), error=True)
            return
        notify(app.page, say("app.new.board_saved", board=board.name))
        redraw()

    def add_territory() -> None:
        draft.territories.append(TerritoryEntry())
        redraw()

    rows: list[ft.Control] = [
        ft.TextField(
            label=say("app.new.board_name"),
            value=draft.board_name,
            max_length=MAX_NAME_CHARS,
            on_change=lambda e: setattr(draft, "board_name", e.control.value),
        )
    ]
    for index, territory in enumerate(draft.territories):
        rows.append(
            ft.TextField(
                label=say("app.new.territory", number=index + 1),
                value=territory.name,
                on_change=lambda e, t=territory: setattr(t, "name", e.control.value),
            )
        )
        rows.append(
            ft.Row(
                [
                    ft.Dropdown(
                        label=say("app.new.bonus"),
                        expand=True,
                        value=str(territory.bonus),
                        options=[ft.DropdownOption(key=str(b)) for b in range(low, high + 1)],
                        on_select=lambda e, t=territory: setattr(t, "bonus", int(e.control.value)),
                    ),
                    ft.Dropdown(
                        label=say("app.new.places"),
                        expand=True,
                        value=str(territory.places),
                        options=[ft.DropdownOption(key=str(n)) for n in range(1, 9)],
                        on_select=lambda e, t=territory: setattr(t, "places", int(e.control.value)),
                    ),
                ]
            )
        )
    rows.append(
        ft.Row(
            [
                ft.OutlinedButton(
                    say("app.new.add_territory"),
                    icon=ft.Icons.ADD,
                    on_click=lambda _: add_territory(),
                ),
                ft.OutlinedButton(
                    say("app.new.remove_last"),
                    icon=ft.Icons.REMOVE,
                    disabled=len(draft.territories) < 2,
                    on_click=lambda _: (draft.territories.pop(), redraw()),
                ),
            ],
            wrap=True,
        )
    )
    rows.append(ft.FilledButton(say("app.new.save_board"), icon=ft.Icons.SAVE, on_click=save))
    return rows
