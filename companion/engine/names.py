"""How the engine names things inside messages: creature kinds, territories and locations.

Each is a `Term`: the English (or as entered) text, and the catalog context that may
translate it. A shipped board's territories are looked up under 'board <id>'; a board
the user entered has no entries there, so its names stay as typed.
"""

from __future__ import annotations

from companion.engine.isle import Isle
from companion.language import Term
from models.board import Board, Territory
from models.rules import CreatureKind

# Catalog contexts of the creature kinds' names, one and several.
CREATURE = "creature"
CREATURES = "creatures"


def kind_term(kind: CreatureKind) -> Term:
    """A creature kind, one of it: 'Troll' (French 'le Troll')."""
    return Term(kind.title, CREATURE)


def kinds_term(kind: CreatureKind) -> Term:
    """A creature kind, several of it: 'Trolls' (French 'les Trolls')."""
    return Term(kind.plural, CREATURES)


def board_context(board: Board) -> str:
    """The catalog context of a board's own names."""
    return f"board {board.id}"


def board_term(board: Board, short: bool = False) -> Term:
    """A board's name (`short`: without its closing note in brackets, 'Duel Isle')."""
    return Term(board.short_name if short else board.name, board_context(board))


def territory_term(board: Board, territory: Territory) -> Term:
    """A territory by its name (or id, when it has none)."""
    return Term(territory.label, board_context(board))


def location_term(isle: Isle, index: int) -> Term:
    """A location as players call it: its territory's name and its number there."""
    board = isle.board
    territory = board.territories[isle.territory_of[index]]
    if len(territory.locations) == 1:
        return territory_term(board, territory)
    number = territory.locations.index(isle.location_ids[index]) + 1
    return Term(territory.label, board_context(board), number)
