"""A sentence as data: a message id and its values, rendered later in any language.

Pure: no catalog is read here, so the engine can build messages without Babel or I/O.
Values are plain text as entered (a player's name), whole numbers, `Term`s (a name
that may have a translation, such as a shipped territory), nested messages, or tuples
of any of these (a list, joined the language's way).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True, slots=True)
class Term:
    """A name in a sentence: as entered, or a shipped name the catalogs translate.

    `context` names the catalog entries that may translate it ('creature', or
    'board duel-isle' for a shipped board's territories); None keeps it as entered.
    `number` follows the name: a location is its territory's name and its number.
    """

    text: str
    context: str | None = None
    number: int | None = None

    def __str__(self) -> str:
        return self.text if self.number is None else f"{self.text} {self.number}"


Value: TypeAlias = "str | int | Term | Message | tuple[Value, ...]"


@dataclass(frozen=True, slots=True, init=False)
class Message:
    """A sentence to show: its catalog id and the values its text refers to by name.

    >>> Message("count.action", count=2)
    Message('count.action', count=2)
    >>> str(Message("count.action", count=1))
    '1 action'
    """

    id: str
    # Sorted (name, value) pairs: a message is immutable and hashable like its values.
    values: tuple[tuple[str, Value], ...]

    def __init__(self, id: str, /, **values: Value) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "values", tuple(sorted(values.items())))

    @property
    def fields(self) -> Mapping[str, Value]:
        """The values by name."""
        return dict(self.values)

    def __str__(self) -> str:
        # English is the default wherever a plain string is wanted (logs, old callers).
        from companion.language.render import render

        return render(self, "en")

    def __repr__(self) -> str:
        values = "".join(f", {name}={value!r}" for name, value in self.values)
        return f"Message({self.id!r}{values})"


# --- several values in a row, each pair joined by a message (its language's punctuation) ---


def _chain(items: Sequence[Value], join: Callable[[Value, Value], Message]) -> Value:
    """Items joined pairwise from the right: join(a, join(b, c))."""
    if not items:
        raise ValueError("nothing to join")
    result = items[-1]
    for item in reversed(items[:-1]):
        result = join(item, result)
    return result


def by_semicolons(items: Sequence[Value]) -> Value:
    """Clauses of one sentence: 'a; b; c' (French 'a ; b ; c')."""
    return _chain(items, lambda first, rest: Message("join.semicolon", first=first, rest=rest))


def by_commas(items: Sequence[Value]) -> Value:
    """Items in a row: 'a, b, c'."""
    return _chain(items, lambda first, rest: Message("join.comma", first=first, rest=rest))


def by_spaces(items: Sequence[Value]) -> Value:
    """Sentences one after another: 'A. B.'."""
    return _chain(items, lambda first, rest: Message("join.space", first=first, rest=rest))


def quoted(text: str) -> Message:
    """An id or a name quoted from the input: 'duel-isle' (French « duel-isle »)."""
    return Message("join.quote", text=text)


def by_arrows(items: Sequence[Value]) -> Value:
    """An order of play: 'a → b → c'."""
    return _chain(items, lambda first, rest: Message("join.arrow", first=first, rest=rest))
