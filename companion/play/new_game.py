"""The New game form as filled in so far, and what it makes: the screen draws it and sends
each change here. Every check is the models' (names, rounds, the setup itself); what is
refused comes back as a message for the screen to say.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import ValidationError

from companion.boards import BoardError, shipped_board, shipped_board_ids
from companion.boards.user import FolderShelf, Shelf, board_from_counts
from companion.language import Message
from companion.store.errors import StoreError
from companion.store.store import SavedGame, Store
from models.board import Board
from models.problems import problem as validation_problem
from models.rules import MAX_PLAYERS, MIN_PLAYERS, STANDARD_ROUNDS, rounds_for
from models.setup import (
    NAME_MAX_LENGTH,
    SEAT_COLOURS,
    GameSetup,
    Mode,
    PlayerSetup,
    name_problem,
    same_name,
)
from models.text import looks_alike

DEFAULT_NAMES = ("Ragna", "Bjorn", "Sigrid", "Ulf")
# The board choice that opens the form's own board entry (a table game's board typed in).
ENTER = "enter"
# Who can play a seat on the digital board: a person (None), or a computer by its bot name,
# each with the message naming it.
SEAT_PLAYERS: dict[str | None, str] = {
    None: "app.new.person",
    "greedy": "app.new.bot_quick",
    "mcts:easy": "app.new.bot_easy",
    "mcts:normal": "app.new.bot_normal",
    "mcts:hard": "app.new.bot_hard",
}
# What models.setup.name_problem finds, by its kind, as the form says it; the last two name
# the character at fault.
_NAME_PROBLEMS = {"blank": "app.new.name_blank", "control": "app.new.name_control"}
_NAME_CHARACTERS = {"bidi": "input.new.name_bidi", "surrogate": "input.new.name_surrogate"}


def played_by(bot: str | None) -> Message | None:
    """Who plays a seat: 'Person', 'Computer: easy'; None for a bot the form does not offer."""
    message = SEAT_PLAYERS.get(bot)
    return None if message is None else Message(message)


def name_problems(names: list[str]) -> list[Message | None]:
    """Per seat, what is wrong with the name typed (a sentence naming the seat), or None."""
    problems: list[Message | None] = []
    for seat, name in enumerate(names):
        problem = name_problem(name)
        if problem is not None:
            if problem.kind == "long":
                said = Message("app.new.name_long", seat=seat + 1, most=NAME_MAX_LENGTH)
            elif problem.kind in _NAME_CHARACTERS:
                said = Message(_NAME_CHARACTERS[problem.kind], seat=seat + 1, code=problem.code)
            else:
                said = Message(_NAME_PROBLEMS[problem.kind], seat=seat + 1)
            problems.append(said)
            continue
        # Only names without a problem of their own: one is told once what is wrong with it.
        before = [other for other in names[:seat] if name_problem(other) is None]
        earlier = next((other for other in before if same_name(other, name)), None)
        alike = next((other for other in before if looks_alike(other, name)), None)
        if earlier is not None:
            problems.append(Message("app.new.name_taken", seat=seat + 1, other=earlier.strip()))
        elif alike is not None:
            problems.append(Message("input.new.name_alike", seat=seat + 1, other=alike.strip()))
        else:
            problems.append(None)
    return problems


def boards_for(count: int, mode: Mode = Mode.TABLE, shelf: Shelf | None = None) -> list[Board]:
    """The boards a game of `count` players can be played on: shipped ones, then those of
    `shelf` (the page's own; default this device's folder); the digital board needs paths
    and drawing positions, which a table board may lack."""
    shipped = [shipped_board(board_id) for board_id in shipped_board_ids()]
    own = (shelf or FolderShelf()).boards()
    boards = [b for b in shipped + own if b.min_players <= count <= b.max_players]
    return [b for b in boards if b.playable_digitally] if mode is Mode.DIGITAL else boards


@dataclass
class TerritoryEntry:
    """A territory of a board typed in on the form: its name, bonus and number of places."""

    name: str = ""
    bonus: int = 2
    places: int = 3


@dataclass
class NewGameForm:
    """The form as filled in so far: seats by number, each with a name, colour and player."""

    names: list[str] = field(default_factory=lambda: list(DEFAULT_NAMES))
    colours: list[str] = field(default_factory=lambda: list(SEAT_COLOURS[:MAX_PLAYERS]))
    count: int = MIN_PLAYERS
    board_id: str = ""
    final_round: int = STANDARD_ROUNDS
    # Seats in the first round's order.
    order: list[int] = field(default_factory=lambda: list(range(MAX_PLAYERS)))
    mode: Mode = Mode.TABLE
    # Per seat on the digital board: None for a person, else the bot's name.
    bots: list[str | None] = field(default_factory=lambda: [None] * MAX_PLAYERS)
    # A table game's own board as typed in: its name and territories.
    board_name: str = ""
    territories: list[TerritoryEntry] = field(default_factory=lambda: [TerritoryEntry()])
    # Where the boards typed in are kept and the page's own are listed from: this device's
    # folder, or a hosted table's rows.
    shelf: Shelf = field(default_factory=FolderShelf)

    def seats(self) -> list[int]:
        """The seats in play, in the chosen first order."""
        return [seat for seat in self.order if seat < self.count]

    def rounds(self) -> tuple[int, ...]:
        """The game lengths the rules allow for this many players."""
        return rounds_for(self.count)

    def set_count(self, count: int) -> None:
        """Play with `count` players: a length they may not play falls back to the standard."""
        self.count = count
        if self.final_round not in self.rounds():
            self.final_round = STANDARD_ROUNDS

    def move_up(self, position: int) -> None:
        """Swap the seat at `position` of the first order with the one before it."""
        seats = self.seats()
        seats[position - 1], seats[position] = seats[position], seats[position - 1]
        self._reorder(seats)

    def draw_order(self, shuffle: Callable[[list[int]], None]) -> None:
        """A first order drawn by `shuffle` (the table's draw: the form takes its result)."""
        seats = self.seats()
        shuffle(seats)
        self._reorder(seats)

    def _reorder(self, seats: list[int]) -> None:
        self.order = seats + [seat for seat in self.order if seat >= self.count]

    def boards(self) -> list[Board]:
        """The boards this game may be played on; the choice kept valid among them."""
        boards = boards_for(self.count, self.mode, self.shelf)
        if self.mode is Mode.DIGITAL and self.board_id == ENTER:
            self.board_id = ""
        if self.board_id not in {b.id for b in boards} and self.board_id != ENTER:
            self.board_id = boards[0].id if boards else ENTER
        return boards

    def typed_board(self) -> Board:
        """The board typed in on the form (a BoardError says what is wrong with it)."""
        return board_from_counts(
            self.board_name, [(t.name, t.bonus, t.places) for t in self.territories]
        )

    def save_board(self) -> Board:
        """Keep the board typed in on the form and choose it (a BoardError says why not)."""
        board = self.typed_board()
        self.shelf.save(board)
        self.board_id = board.id
        return board

    def name_problems(self) -> list[Message | None]:
        """Per seat in play, what is wrong with its name, or None."""
        return name_problems(self.names[: self.count])

    def typed_name(self, seat: int) -> str:
        """A seat's name as typed, trimmed; empty while it shows nothing."""
        name = self.names[seat]
        problem = name_problem(name)
        return "" if problem is not None and problem.kind == "blank" else name.strip()

    def setup(self, boards: list[Board]) -> GameSetup | Message:
        """The game the form describes, or what is wrong with it."""
        problem = next((p for p in self.name_problems() if p is not None), None)
        if problem is not None:
            return problem
        if self.board_id == ENTER:
            return Message("app.new.save_board_first")
        board = next((b for b in boards if b.id == self.board_id), None)
        if board is None:
            return Message("app.new.choose_board")
        try:
            return GameSetup(
                players=[
                    PlayerSetup(
                        id=self.colours[seat],
                        name=self.names[seat],
                        colour=self.colours[seat],
                        bot=self.bots[seat] if self.mode is Mode.DIGITAL else None,
                    )
                    for seat in range(self.count)
                ],
                board=board if board.id.startswith("my-") else board.id,
                final_round=self.final_round,
                turn_order=tuple(self.colours[seat] for seat in self.seats()),
                mode=self.mode,
            )
        except ValidationError as error:
            message = validation_problem(error)
            # Seats go by their colour's id in this form.
            if message.id == "problem.setup.shared_id":
                return Message("app.new.same_colour")
            return message

    def start(self, store: Store) -> SavedGame | Message:
        """Save the new game, or say what keeps it from starting."""
        made = self.setup(self.boards())
        if isinstance(made, Message):
            return made
        try:
            return store.new_game(made)
        except (BoardError, StoreError) as error:
            return error.message
