"""New game: players and colours, the board, 6 or 7 rounds, the first turn order."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import flet as ft
from pydantic import ValidationError

from companion.app.language_setting import ENGLISH
from companion.app.theme import PLAYER_COLOURS, colour_name, colour_of
from companion.app.widgets import big_button, board_options, notify, player_chip, screen, section
from companion.boards import BoardError, shipped_board, shipped_board_ids
from companion.boards.user import board_from_counts, save_user_board, user_boards
from companion.language import Message
from companion.language.render import Language
from models.board import Board
from models.problems import problem as validation_problem
from models.rules import (
    DOMINATION_BONUS_RANGE,
    EXTENDED_ROUNDS,
    EXTENDED_ROUNDS_MIN_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STANDARD_ROUNDS,
)
from models.setup import (
    NAME_MAX_LENGTH,
    GameSetup,
    Mode,
    PlayerSetup,
    name_problem,
    same_name,
)
from models.text import looks_alike

if TYPE_CHECKING:
    from companion.app.main import App

DEFAULT_NAMES = ("Ragna", "Bjorn", "Sigrid", "Ulf")


@dataclass
class Draft:
    """The form as filled in so far."""

    names: list[str] = field(default_factory=lambda: list(DEFAULT_NAMES))
    colours: list[str] = field(default_factory=lambda: [c.id for c in PLAYER_COLOURS[:MAX_PLAYERS]])
    count: int = MIN_PLAYERS
    board_id: str = ""
    final_round: int = STANDARD_ROUNDS
    # Seats in the first round's order.
    order: list[int] = field(default_factory=lambda: list(range(MAX_PLAYERS)))
    territories: list[list] = field(default_factory=lambda: [["", 2, 3]])
    board_name: str = ""
    mode: Mode = Mode.TABLE
    # Per seat on the digital board: None for a person, else the bot's name.
    bots: list[str | None] = field(default_factory=lambda: [None] * MAX_PLAYERS)

    def seats(self) -> list[int]:
        """The seats in play, in the chosen first order."""
        return [seat for seat in self.order if seat < self.count]


# The width of a seat's counter and the gap after it.
SEAT_INDENT = 36
# Who can play a seat on the digital board: a person, or a computer opponent by its bot name
# (in English; `played_by` says it in a language).
SEAT_PLAYERS = (
    (None, "Person"),
    ("greedy", "Computer: quick"),
    ("mcts:easy", "Computer: easy"),
    ("mcts:normal", "Computer: normal"),
    ("mcts:hard", "Computer: hard"),
)
# The message naming each of them.
_SEAT_PLAYER_IDS: dict[str | None, str] = {
    None: "app.new.person",
    "greedy": "app.new.bot_quick",
    "mcts:easy": "app.new.bot_easy",
    "mcts:normal": "app.new.bot_normal",
    "mcts:hard": "app.new.bot_hard",
}


def played_by(bot: str | None, words: Language) -> str:
    """Who plays a seat, in a language: 'Person', 'Computer: easy' (another bot: its name)."""
    message = _SEAT_PLAYER_IDS.get(bot)
    if message is None:
        return bot or ""
    return words.render(Message(message))


# What models.setup.name_problem finds, by its kind, as the app says it; the last two name
# the character at fault.
_NAME_PROBLEMS = {"blank": "app.new.name_blank", "control": "app.new.name_control"}
_NAME_CHARACTERS = {"bidi": "input.new.name_bidi", "surrogate": "input.new.name_surrogate"}


def name_problems(names: list[str], words: Language = ENGLISH) -> list[str | None]:
    """Per seat, what is wrong with the name typed (a sentence naming the player), or None."""
    problems: list[str | None] = []
    for seat, name in enumerate(names):
        problem = name_problem(name)
        if problem is not None:
            if problem.kind == "long":
                said = Message("app.new.name_long", seat=seat + 1, most=NAME_MAX_LENGTH)
            elif problem.kind in _NAME_CHARACTERS:
                said = Message(_NAME_CHARACTERS[problem.kind], seat=seat + 1, code=problem.code)
            else:
                said = Message(_NAME_PROBLEMS[problem.kind], seat=seat + 1)
            problems.append(words.render(said))
            continue
        # Only names without a problem of their own: one is told once what is wrong with it.
        before = [other for other in names[:seat] if name_problem(other) is None]
        earlier = next((other for other in before if same_name(other, name)), None)
        alike = next((other for other in before if looks_alike(other, name)), None)
        if earlier is not None:
            said = Message("app.new.name_taken", seat=seat + 1, other=earlier.strip())
        elif alike is not None:
            said = Message("input.new.name_alike", seat=seat + 1, other=alike.strip())
        problems.append(None if earlier is None and alike is None else words.render(said))
    return problems


def _boards(count: int, mode: Mode = Mode.TABLE) -> list[Board]:
    shipped = [shipped_board(board_id) for board_id in shipped_board_ids()]
    fitting = [b for b in shipped if b.min_players <= count <= b.max_players]
    boards = fitting + [b for b in user_boards() if b.min_players <= count <= b.max_players]
    # The digital board needs paths and drawing positions; a table board may have neither.
    return [b for b in boards if b.playable_digitally] if mode is Mode.DIGITAL else boards


def build(app: App, draft: Draft | None = None, view: ft.View | None = None) -> ft.View:
    """The new game form; given the view it is on, drawn again in place."""
    draft = draft or Draft()
    page = app.page
    words = app.words
    boards = _boards(draft.count, draft.mode)
    if draft.mode is Mode.DIGITAL and draft.board_id == "enter":
        draft.board_id = ""
    if draft.board_id not in {b.id for b in boards} and draft.board_id != "enter":
        draft.board_id = boards[0].id if boards else "enter"
    view = view or screen("/new", spacing=12)

    def redraw() -> None:
        # Into the same view: the new controls' handlers must draw on the screen shown.
        build(app, draft, view)
        page.update()

    def set_count(count: int) -> None:
        draft.count = count
        if count < EXTENDED_ROUNDS_MIN_PLAYERS:
            draft.final_round = STANDARD_ROUNDS
        redraw()

    def set_name(seat: int, value: str) -> None:
        draft.names[seat] = value
        show_names()
        page.update()

    def set_colour(seat: int, value: str) -> None:
        draft.colours[seat] = value
        redraw()

    def move_up(position: int) -> None:
        seats = draft.seats()
        seats[position - 1], seats[position] = seats[position], seats[position - 1]
        draft.order = seats + [s for s in draft.order if s >= draft.count]
        redraw()

    def draw_order(_: ft.Event[Any]) -> None:
        seats = draft.seats()
        random.shuffle(seats)  # a draw for the table, not a rule: the engine takes the result
        draft.order = seats + [s for s in draft.order if s >= draft.count]
        redraw()

    def start(_: ft.Event[Any]) -> None:
        problem = next((p for p in name_problems(draft.names[: draft.count], words) if p), None)
        if problem is not None:
            notify(page, problem, error=True)
            return
        try:
            board = _chosen_board(draft, boards, words)
            setup = GameSetup(
                players=[
                    PlayerSetup(
                        id=draft.colours[s],
                        name=draft.names[s],
                        colour=draft.colours[s],
                        bot=draft.bots[s] if draft.mode is Mode.DIGITAL else None,
                    )
                    for s in range(draft.count)
                ],
                board=board if board.id.startswith("my-") else board.id,
                final_round=draft.final_round,
                turn_order=tuple(draft.colours[s] for s in draft.seats()),
                mode=draft.mode,
            )
            saved = app.store.new_game(setup)
        except BoardError as error:
            notify(page, words.render(error.message), error=True)
            return
        except ValidationError as error:
            notify(page, _setup_problem(error, words), error=True)
            return
        app.go(f"/game/{saved.id}")

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
        for seat, problem in enumerate(name_problems(draft.names[: draft.count], words)):
            name_fields[seat].border_color = ft.Colors.ERROR if problem else None
            name_notes[seat].value = f"⚠ {problem}" if problem else ""
            name_notes[seat].visible = problem is not None
            name_chips[seat].content = player_chip(
                _typed_name(draft, seat), draft.colours[seat], 36
            )
        for seat, (text, chip, arrow) in order_names.items():
            text.value = _shown_name(draft, seat, words)
            chip.content = player_chip(_typed_name(draft, seat), draft.colours[seat])
            arrow.tooltip = app.say("app.new.move_up", player=_shown_name(draft, seat, words))

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
                        ft.Semantics(
                            identifier=f"played-by-{seat + 1}",
                            label=app.say("app.new.played_by", seat=seat + 1),
                            expand=True,
                            content=ft.Dropdown(
                                value=draft.bots[seat] or "person",
                                label=app.say("app.new.played_by", seat=seat + 1),
                                expand=True,
                                options=[
                                    ft.DropdownOption(
                                        key=name or "person", text=played_by(name, words)
                                    )
                                    for name, _ in SEAT_PLAYERS
                                ],
                                on_select=lambda e, s=seat: draft.bots.__setitem__(
                                    s, None if e.control.value == "person" else e.control.value
                                ),
                            ),
                        ),
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
            [ft.DropdownOption(key="enter", text=app.say("app.new.enter_board"))]
            if draft.mode is Mode.TABLE
            else []
        ),
        on_select=pick_board,
    )
    board_controls: list[ft.Control] = [board_picker]
    if draft.board_id == "enter":
        board_controls.extend(_board_entry(app, draft, redraw))
    seven_allowed = draft.count >= EXTENDED_ROUNDS_MIN_PLAYERS

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


def _chosen_board(draft: Draft, boards: list[Board], words: Language) -> Board:
    if draft.board_id == "enter":
        raise BoardError(words.render(Message("app.new.save_board_first")))
    for board in boards:
        if board.id == draft.board_id:
            return board
    raise BoardError(words.render(Message("app.new.choose_board")))


def _typed_name(draft: Draft, seat: int) -> str:
    """A seat's name as typed, trimmed; empty while it shows nothing."""
    name = draft.names[seat]
    problem = name_problem(name)
    return "" if problem is not None and problem.kind == "blank" else name.strip()


def _shown_name(draft: Draft, seat: int, words: Language = ENGLISH) -> str:
    """A seat's name as typed, or 'Player 2' while it is blank."""
    return _typed_name(draft, seat) or words.render(Message("app.new.player", seat=seat + 1))


def _setup_problem(error: ValidationError, words: Language) -> str:
    message = validation_problem(error)
    # Seats go by their colour's id in this form.
    if message.id == "problem.setup.shared_id":
        return words.render(Message("app.new.same_colour"))
    return words.render(message)


def _board_entry(app: App, draft: Draft, redraw) -> list[ft.Control]:  # noqa: ANN001
    """The 'my board' form: territories with a name, a bonus and how many locations."""
    low, high = DOMINATION_BONUS_RANGE
    say = app.say

    def save(_: ft.Event[Any]) -> None:
        try:
            board = board_from_counts(
                draft.board_name, [(t[0], int(t[1]), int(t[2])) for t in draft.territories]
            )
            save_user_board(board)
        except BoardError as error:
            notify(app.page, app.words.render(error.message), error=True)
            return
        except ValueError as error:
            notify(app.page, str(error), error=True)
            return
        draft.board_id = board.id
        notify(app.page, say("app.new.board_saved", board=board.name))
        redraw()

    def add_territory() -> None:
        draft.territories.append(["", 2, 3])
        redraw()

    rows: list[ft.Control] = [
        ft.TextField(
            label=say("app.new.board_name"),
            value=draft.board_name,
            on_change=lambda e: setattr(draft, "board_name", e.control.value),
        )
    ]
    for index, territory in enumerate(draft.territories):
        rows.append(
            ft.TextField(
                label=say("app.new.territory", number=index + 1),
                value=territory[0],
                on_change=lambda e, t=territory: t.__setitem__(0, e.control.value),
            )
        )
        rows.append(
            ft.Row(
                [
                    ft.Dropdown(
                        label=say("app.new.bonus"),
                        expand=True,
                        value=str(territory[1]),
                        options=[ft.DropdownOption(key=str(b)) for b in range(low, high + 1)],
                        on_select=lambda e, t=territory: t.__setitem__(1, int(e.control.value)),
                    ),
                    ft.Dropdown(
                        label=say("app.new.places"),
                        expand=True,
                        value=str(territory[2]),
                        options=[ft.DropdownOption(key=str(n)) for n in range(1, 9)],
                        on_select=lambda e, t=territory: t.__setitem__(2, int(e.control.value)),
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
