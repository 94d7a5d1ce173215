"""The game screens' words: their catalog ids rendered in a device's language.

Screens of a game say things through `say(words, "game.…", ...)` (or `App.say`); plain
Python modules below the screens take the `Language` to render in, so they are tested in
French without a browser. Player names stay as typed; shipped names are the engine's terms.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.engine.isle import Isle
from companion.engine.names import board_context, location_term, territory_term
from companion.language import Message, Term
from companion.language.message import Value, by_arrows
from companion.language.render import DEFAULT_LANGUAGE, Language, language
from models.board import Board
from models.rules import CreatureKind


def say(words: Language, message_id: str, /, **values: Value) -> str:
    """A message of the game screens' catalogs in `words`' language."""
    return words.render(Message(message_id, **values))


def order_of(names: Iterable[str]) -> Value:
    """Players' names in turn order, joined by arrows (a value for a message)."""
    shown: tuple[str, ...] = tuple(names)
    return by_arrows(shown) if shown else ""


def english() -> Language:
    """English, the language of callers that name none."""
    return language(DEFAULT_LANGUAGE)


# A count of one kind of creature ('1 Troll', '2 Trolls'), by kind.
COUNT_OF_KIND: dict[CreatureKind, str] = {
    CreatureKind.WYRM: "game.count.wyrm",
    CreatureKind.TROLL: "game.count.troll",
    CreatureKind.SPRITE: "count.sprite",
}


def counted_kind(kind: CreatureKind, count: int) -> Message:
    """So many creatures of a kind: '1 Troll', '2 Trolls' (French '2 Trolls')."""
    return Message(COUNT_OF_KIND[kind], count=count)


def place_terms(isle: Isle) -> dict[str, Term]:
    """Each location's name as players call it ('North Cliffs 4'), as a term to translate."""
    return {location: location_term(isle, index) for location, index in isle.index.items()}


def board_place_terms(board: Board) -> dict[str, Term]:
    """`place_terms` for a board not (yet) played on, such as the editor's draft."""
    context = board_context(board)
    return {
        location: Term(territory.label, context, None if len(territory.locations) == 1 else n)
        for territory in board.territories
        for n, location in enumerate(territory.locations, start=1)
    }


def territory_names(board: Board, words: Language) -> dict[str, str]:
    """Each territory's name as drawn on the isle, without an article ('Falaises du Nord')."""
    return {t.id: words.value(territory_term(board, t), "nu") for t in board.territories}
