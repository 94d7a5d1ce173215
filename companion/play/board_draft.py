"""A board being edited for the digital board, and its undo history: plain Python, no Flet.

`BoardDraft` holds the edits (free to be invalid until saved); `models.board.Board` decides
whether it is a valid isle. `DraftHistory` keeps a copy of the draft before each change,
so every change can be undone and redone. The editor's screen is `screens/board_editor.py`.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field

from companion.boards import BoardError, parse_board
from companion.boards.user import board_name, slug, user_board_id
from companion.engine.names import board_term, territory_term
from companion.language import Message, Term
from companion.language.render import Language
from companion.play.board_layout import Point
from companion.play.game_words import board_place_terms, english, say
from models.board import Board, Location, Territory
from models.rules import MAX_PLAYERS, MIN_PLAYERS

DEFAULT_BONUS = 2
# A laid-out territory's spaces sit on a circle this share of its cell's size.
RING = 0.28


@dataclass
class TerritoryDraft:
    """A territory being edited: its spaces may still be none."""

    id: str
    name: str
    bonus: int
    locations: list[str] = field(default_factory=list)


@dataclass
class BoardDraft:
    """A board being edited: free to be invalid until it is saved."""

    name: str
    territories: list[TerritoryDraft]
    positions: dict[str, Point]
    paths: set[tuple[str, str]]
    min_players: int = MIN_PLAYERS
    max_players: int = MAX_PLAYERS
    description: str = ""
    # The board it was started from, or last saved as: what Start from shows.
    source: str = ""

    @classmethod
    def from_board(cls, board: Board, words: Language | None = None) -> BoardDraft:
        """A draft of a board; a shipped layout's copy gets a name of its own.

        A shipped layout's names are copied as `words`' language says them (default
        English): the copy is the user's own board, named as they would name it.
        """
        words = words or english()
        shipped = not board.id.startswith("my-")
        if shipped:
            name = say(words, "game.editor.my_board", board=board_term(board, short=True))
        else:
            name = board.name
        positions = {location.id: (location.x, location.y) for location in board.locations}
        return cls(
            name=name,
            territories=[
                TerritoryDraft(
                    t.id,
                    words.value(territory_term(board, t), "nu") if shipped else t.label,
                    t.bonus,
                    list(t.locations),
                )
                for t in board.territories
            ],
            positions=positions or laid_out(board),
            paths={_pair(a, b) for a, b in board.paths},
            min_players=board.min_players,
            max_players=board.max_players,
            description=board.description,
            source=board.id,
        )

    def copy(self) -> BoardDraft:
        """A copy sharing nothing with this draft: a snapshot for undo."""
        return copy.deepcopy(self)

    @property
    def board_id(self) -> str:
        """The id the board is saved under: always a user board's, never a shipped one's."""
        return user_board_id(self.name)

    def sketch(self) -> Board:
        """The draft as a board for drawing, unchecked: it may not be a valid isle yet."""
        return Board.model_construct(
            id=self.board_id,
            name=self.name,
            territories=tuple(
                Territory.model_construct(
                    id=t.id, name=t.name, bonus=t.bonus, locations=tuple(t.locations)
                )
                for t in self.territories
            ),
            locations=tuple(
                Location.model_construct(id=name, x=x, y=y)
                for name, (x, y) in self.positions.items()
            ),
            paths=tuple(sorted(self.paths)),
            min_players=self.min_players,
            max_players=self.max_players,
            description=self.description,
        )

    def board(self) -> Board:
        """The draft as a valid board for digital play; BoardError says what is wrong."""
        said = self.own_problem()
        if said is not None:
            raise BoardError(said)
        try:
            board = parse_board(self.sketch().model_dump())
        except BoardError as error:
            raise BoardError(_on_screen(error)) from None
        if not board.paths:
            raise BoardError(Message("game.editor.no_paths"))
        return board

    def own_problem(self) -> Message | None:
        """What the editor itself finds wrong before the board's check: a territory
        without spaces (a board's name is checked first, by its own rule)."""
        board_name(self.name)
        for territory in self.territories:
            if not territory.locations:
                return Message("game.editor.no_spaces", territory=territory.name)
        return None

    def problem(self) -> Message | None:
        """What keeps the draft from being a playable board, as a sentence, or None.

        The board's own checks (`models.board`, `companion.boards`) are messages too.
        """
        try:
            said = self.own_problem()
            if said is not None:
                return said
            board = parse_board(self.sketch().model_dump())
        except BoardError as error:
            return Message("game.editor.check", problem=_on_screen(error))
        if not board.paths:
            return Message("game.editor.no_paths")
        return None

    def territory(self, territory_id: str) -> TerritoryDraft:
        """A territory of the draft by id."""
        for territory in self.territories:
            if territory.id == territory_id:
                return territory
        raise KeyError(territory_id)

    def add_territory(self, name: str, bonus: int = DEFAULT_BONUS) -> str:
        """A new territory without spaces; its id."""
        base = slug(name)
        taken = {t.id for t in self.territories}
        key = base
        n = 2
        while key in taken:
            key, n = f"{base}-{n}", n + 1
        self.territories.append(TerritoryDraft(key, name, bonus))
        return key

    def remove_territory(self, territory_id: str) -> None:
        """Remove a territory with all its spaces and their paths."""
        for location in list(self.territory(territory_id).locations):
            self.remove_location(location)
        self.territories = [t for t in self.territories if t.id != territory_id]

    def add_location(self, territory_id: str, point: Point) -> str:
        """A new space of a territory at a board point; its id."""
        territory = self.territory(territory_id)
        n = 1
        while f"{territory.id}-{n}" in self.positions:
            n += 1
        location = f"{territory.id}-{n}"
        territory.locations.append(location)
        self.positions[location] = point
        return location

    def remove_location(self, location: str) -> None:
        """Remove a space and every path to it."""
        for territory in self.territories:
            if location in territory.locations:
                territory.locations.remove(location)
        self.positions.pop(location, None)
        self.paths = {path for path in self.paths if location not in path}

    def move_location(self, location: str, point: Point) -> None:
        """Put a space at another board point."""
        self.positions[location] = point

    def toggle_path(self, a: str, b: str) -> bool:
        """Join two spaces, or part them if joined; whether they are joined now."""
        path = _pair(a, b)
        if path in self.paths:
            self.paths.discard(path)
            return False
        self.paths.add(path)
        return True


@dataclass
class Step:
    """One change to the draft: what it did, and the draft as it was on the other side of it."""

    label: Message
    draft: BoardDraft


class DraftHistory:
    """The draft being edited, with undo and redo of every change to it.

    Each change keeps a snapshot of the draft before it. A change made of many events (a drag,
    typing a name) passes the same `merge` key each time and is one step until `settle`.
    """

    def __init__(self, draft: BoardDraft, words: Language | None = None) -> None:
        self.draft = draft
        # The language new territories are named in.
        self.words = words or english()
        self.undos: list[Step] = []
        self.redos: list[Step] = []
        # The merge key of the change still going on, if any.
        self.merging: str | None = None

    @property
    def undo_label(self) -> str | None:
        """What Undo takes back (in English), or None if nothing."""
        return str(self.undos[-1].label) if self.undos else None

    @property
    def redo_label(self) -> str | None:
        """What Redo brings back (in English), or None if nothing."""
        return str(self.redos[-1].label) if self.redos else None

    @property
    def undo_message(self) -> Message | None:
        """What Undo takes back, or None if nothing."""
        return self.undos[-1].label if self.undos else None

    @property
    def redo_message(self) -> Message | None:
        """What Redo brings back, or None if nothing."""
        return self.redos[-1].label if self.redos else None

    def record(self, label: Message, merge: str | None = None) -> BoardDraft:
        """Keep the draft as it is before a change; the draft to change. Redo is cleared."""
        if merge is None or merge != self.merging:
            self.undos.append(Step(label, self.draft.copy()))
            self.redos.clear()
        self.merging = merge
        return self.draft

    def settle(self) -> None:
        """The change going on is over: the next event starts a step of its own."""
        self.merging = None

    def undo(self) -> str | None:
        """Take back the newest change; what it was (in English), or None if there was none."""
        return self._swap(self.undos, self.redos)

    def redo(self) -> str | None:
        """Bring back the newest change undone; what it was, or None if there was none."""
        return self._swap(self.redos, self.undos)

    def _swap(self, source: list[Step], target: list[Step]) -> str | None:
        self.settle()
        if not source:
            return None
        step = source.pop()
        target.append(Step(step.label, self.draft))
        self.draft = step.draft
        return str(step.label)

    # --- the changes, each one step -------------------------------------------------------

    def start_from(self, board: Board) -> None:
        """Begin again from another board."""
        self.record(Message("game.editor.step.start", board=board_term(board)))
        self.draft = BoardDraft.from_board(board, self.words)

    def add_location(self, territory_id: str, point: Point) -> str:
        """A new space of a territory at a board point; its id."""
        name = self.draft.territory(territory_id).name
        said = Message("game.editor.step.add_space", territory=name)
        return self.record(said).add_location(territory_id, point)

    def space(self, location: str) -> Term:
        """A space as the editor's isle names it: its territory's name and its number there."""
        return board_place_terms(self.draft.sketch()).get(location, Term(location))

    def remove_location(self, location: str) -> None:
        """Remove a space and every path to it."""
        said = Message("game.editor.step.remove", what=self.space(location))
        self.record(said).remove_location(location)

    def drag(self, location: str, point: Point) -> None:
        """Move a space while it is dragged: the whole drag is one step, until `settle`."""
        said = Message("game.editor.step.move", what=self.space(location))
        self.record(said, merge=f"move {location}").move_location(location, point)

    def toggle_path(self, a: str, b: str) -> bool:
        """Join two spaces, or part them if joined; whether they are joined now."""
        joined = _pair(a, b) in self.draft.paths
        step = "game.editor.step.part" if joined else "game.editor.step.join"
        said = Message(step, a=self.space(a), b=self.space(b))
        return self.record(said).toggle_path(a, b)

    def add_territory(self, name: str) -> str:
        """A new territory without spaces; its id."""
        return self.record(Message("game.editor.step.add", what=name)).add_territory(name)

    def remove_territory(self, territory_id: str) -> None:
        """Remove a territory with its spaces; a draft left without one gets a new one."""
        name = self.draft.territory(territory_id).name
        draft = self.record(Message("game.editor.step.remove", what=name))
        draft.remove_territory(territory_id)
        if not draft.territories:
            # New spaces always need a territory to go to.
            draft.add_territory(self.territory_name(1))

    def territory_name(self, number: int) -> str:
        """A new territory's name until the user gives it one: 'Territory 2'."""
        return say(self.words, "game.editor.territory_n", number=number)

    def rename_territory(self, territory_id: str, name: str) -> None:
        """Rename a territory: typing one name is one step, until `settle`."""
        territory = self.draft.territory(territory_id)
        if name != territory.name:
            said = Message("game.editor.step.rename", what=territory.name)
            self.record(said, merge=f"rename {territory_id}")
            territory.name = name

    def set_bonus(self, territory_id: str, bonus: int) -> None:
        """Set a territory's bonus."""
        territory = self.draft.territory(territory_id)
        if bonus != territory.bonus:
            self.record(Message("game.editor.step.bonus", territory=territory.name, bonus=bonus))
            territory.bonus = bonus

    def rename(self, name: str) -> None:
        """Rename the board: typing one name is one step, until `settle`."""
        if name != self.draft.name:
            said = Message("game.editor.step.rename_board")
            self.record(said, merge="rename the board").name = name


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def laid_out(board: Board) -> dict[str, Point]:
    """Drawing positions for a board entered without them: territories in a grid of cells."""
    count = len(board.territories)
    columns = math.ceil(math.sqrt(count))
    rows = math.ceil(count / columns)
    width, height = 100 / columns, 100 / rows
    positions: dict[str, Point] = {}
    for t, territory in enumerate(board.territories):
        cx = width * (t % columns + 0.5)
        cy = height * (t // columns + 0.5)
        spaces = territory.locations
        ring = min(width, height) * RING if len(spaces) > 1 else 0
        for i, location in enumerate(spaces):
            angle = 2 * math.pi * i / len(spaces) - math.pi / 2
            positions[location] = (
                round(cx + ring * math.cos(angle), 1),
                round(cy + ring * math.sin(angle), 1),
            )
    return positions


def _on_screen(error: BoardError) -> Message:
    """A board check's message, said of the board on screen: "board: " is only noise there."""
    said = error.message
    inner = said.fields.get("problem") if said.id == "problem.board.invalid" else None
    return inner if isinstance(inner, Message) else said
