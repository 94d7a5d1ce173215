"""Validation errors as one sentence a player can act on, in the app's words, not pydantic's.

Every reader of outside input (a game log, a setup, a board, a tally request, a command)
turns pydantic's first error into a sentence here, so no reader shows raw validation
phrasing ("Input should be a valid integer") and each names what is wrong by the game's
own names: Player 2, territory 'north', location 'n3', command 7.

The sentence is a `Message` (ids `problem.*`, in catalogs/<code>-problems.po): str() of
it is English, and any language renders it. JSON field names and the values quoted from
the input stay as the input has them, in every language: they are the file's own words.
A model's own check raises `InvalidValue` with its message, so it is said in any
language too; a plain ValueError's text is kept as it is (English).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from companion.language.message import Message, Value
from models.rules import MAX_PLAYERS, MIN_PLAYERS

# A lone surrogate (models/text.py says why no text may hold one).
SURROGATE = re.compile("[\ud800-\udfff]")

# Steps of an error's location that are no place in the input: the board's union branches.
# (A game log's `setup` is one, but its fields are known by their own names: it is not shown.)
_BRANCHES = {"shipped", "inline"}
_ORDINALS = {1: "problem.ordinal.st", 2: "problem.ordinal.nd", 3: "problem.ordinal.rd"}
# The input as a whole, when no field of it is at fault.
THE_INPUT = Message("problem.subject.input")


class InvalidValue(ValueError):
    """A model's own check refusing a value; `message` says why, in any language.

    str() of it is the English sentence. Raised in a validator, pydantic keeps it in the
    error's context, and `problem` says its message after the place it is about.
    """

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


def as_message(said: str | Message) -> Message:
    """A sentence as a message: a plain string (English, as written) is kept as it is."""
    return said if isinstance(said, Message) else Message("problem.as_written", text=said)


class SaidError(Exception):
    """A problem to show the user as one line.

    Raised with a `Message`, it is said in any language (`error.message`); raised with a
    string, that English string is its message in every language. str() is English.
    """

    @property
    def message(self) -> Message:
        """Why, as a message to render in the user's language."""
        said = self.args[0] if len(self.args) == 1 else str(self)
        return as_message(said if isinstance(said, Message) else str(said))

    def __str__(self) -> str:
        if len(self.args) == 1 and isinstance(self.args[0], Message):
            return str(self.args[0])
        return super().__str__()


def problem(error: ValidationError, data: Any = None, *, subject: Value = THE_INPUT) -> Message:
    """The first problem in `error` as one sentence; `data` (the input) lets it name entries.

    `subject` names the input itself, for a problem with the whole of it (an option's value).
    """
    details = error.errors()[0]
    return _sentence(details, _path(details["loc"], data), subject)


def reason(details: ErrorDetails) -> Message | None:
    """The message of a model's own check (`InvalidValue`) behind one error, if that is it."""
    cause = (details.get("ctx") or {}).get("error")
    return cause.message if isinstance(cause, InvalidValue) else None


class _Step(NamedTuple):
    # The field's name, or the entry as the input names it ("Player 2", "territory 'north'").
    text: Value
    # An entry of a list, named, rather than a field: the list it is in ("players"...).
    entry: str | None = None


def _path(loc: Sequence[int | str], data: Any) -> list[_Step]:
    """Each step of an error's location, entries named as the input names them."""
    steps: list[_Step] = []
    node = data
    for step in loc:
        if step in _BRANCHES:
            continue
        child = _step_into(node, step)
        if isinstance(step, int):
            collection = steps.pop() if steps else None
            steps.append(_entry(collection, step, child))
        elif step != "setup":
            steps.append(_Step(step))
        node = child
    return steps


def _fields(path: Sequence[_Step]) -> str:
    return ".".join(str(step.text) for step in path)


def _is_player(path: Sequence[_Step]) -> bool:
    """Whether the path ends at a player's entry (its fields are "Player 2's ...")."""
    return bool(path) and path[-1].entry == "players"


def _owner(path: Sequence[_Step]) -> tuple[Value | None, int]:
    """The entries of a path as one name, innermost first ("location 'n3' of territory
    'north'"), and where the last of them is; None and -1 if there is none."""
    entries = [index for index, step in enumerate(path) if step.entry is not None]
    if not entries:
        return None, -1
    owner = path[entries[0]].text
    for index in entries[1:]:
        owner = Message("problem.place.within", entry=path[index].text, owner=owner)
    return owner, entries[-1]


def _place(path: Sequence[_Step]) -> Value | None:
    """'Player 2's id', 'bonus of territory 'north'', 'energy.red': where a problem is."""
    owner, last = _owner(path)
    if owner is None:
        fields = _fields(path)
        return Message("problem.place.field", field=fields) if fields else None
    fields = _fields(path[last + 1 :])
    if not fields:
        return owner
    if _is_player(path[: last + 1]):
        return Message("problem.place.players", owner=owner, field=fields)
    return Message("problem.place.of", owner=owner, field=fields)


def _step_into(node: Any, step: int | str) -> Any:
    if isinstance(node, dict) and isinstance(step, str):
        return node.get(step)
    if isinstance(node, list | tuple) and isinstance(step, int) and 0 <= step < len(node):
        return node[step]
    return None


def _entry(collection: _Step | None, index: int, entry: Any) -> _Step:
    """An entry of a list, by the name the user gave it where it has one."""
    named = entry.get("id") if isinstance(entry, dict) else None
    named = named if isinstance(named, str) and named else None
    number = str(index + 1)
    field = collection.text if collection is not None and collection.entry is None else None
    if field == "players":
        return _Step(Message("problem.entry.player", number=number), "players")
    if field == "territories":
        if named:
            return _Step(Message("problem.entry.territory", name=repr(named)), "territories")
        return _Step(Message("problem.entry.nth_territory", nth=_ordinal(index + 1)), "territories")
    if field == "locations":
        if isinstance(entry, str):
            return _Step(Message("problem.entry.location", name=repr(entry)), "locations")
        if named:
            return _Step(Message("problem.entry.location", name=repr(named)), "locations")
        return _Step(Message("problem.entry.nth_location", nth=_ordinal(index + 1)), "locations")
    if field == "paths":
        return _Step(Message("problem.entry.path", number=number), "paths")
    if field == "commands":
        return _Step(Message("problem.entry.command", number=str(index)), "commands")
    if field == "turn_order":
        return _Step(Message("problem.entry.turn_order", number=number), "turn_order")
    if collection is not None:
        return _Step(Message("problem.entry.of", number=number, list=collection.text), "")
    return _Step(Message("problem.entry", number=number), "")


def _ordinal(number: int) -> Message:
    """1st, 2nd, 11th, 23rd (French 1er, 2e, 11e, 23e)."""
    if number == 1:
        return Message("problem.ordinal.first")
    kind = "problem.ordinal.th" if 10 <= number % 100 <= 20 else _ORDINALS.get(number % 10)
    if kind == "problem.ordinal.st":
        return Message("problem.ordinal.st", number=str(number))
    if kind == "problem.ordinal.nd":
        return Message("problem.ordinal.nd", number=str(number))
    if kind == "problem.ordinal.rd":
        return Message("problem.ordinal.rd", number=str(number))
    return Message("problem.ordinal.th", number=str(number))


# What a player's name may not be (models.setup.name_problem), by the kind its check gives.
_NAME_PROBLEMS: dict[str, Callable[[Value, dict[str, Any]], Message]] = {
    "control": lambda place, ctx: Message("problem.name.control", place=place),
    "surrogate": lambda place, ctx: Message(
        "input.name.surrogate", place=place, code=str(ctx.get("code"))
    ),
    "bidi": lambda place, ctx: Message("input.name.bidi", place=place, code=str(ctx.get("code"))),
    "blank": lambda place, ctx: Message("problem.name.blank", place=place),
    "long": lambda place, ctx: Message(
        "problem.string_too_long", place=place, most=str(ctx.get("most"))
    ),
}


def _sentence(details: ErrorDetails, path: list[_Step], subject: Value) -> Message:
    kind = details["type"]
    context = details.get("ctx") or {}
    place = _place(path)
    shown = place if place is not None else subject
    if kind == "player_name":
        owner, last = _owner(path)
        if (
            owner is not None
            and _is_player(path[: last + 1])
            and path[last + 1 :] == [_Step("name")]
        ):
            # "le nom du joueur 2" rather than "le champ name du joueur 2": as the app says it.
            shown = Message("problem.place.player_name", owner=owner)
        return _NAME_PROBLEMS[context["kind"]](shown, context)
    if path == [_Step("players")] and kind in ("too_short", "too_long"):
        return Message(
            "problem.players_count",
            least=str(MIN_PLAYERS),
            most=str(MAX_PLAYERS),
            actual=str(context["actual_length"]),
        )
    if kind == "extra_forbidden" and path:
        owner = _place(path[:-1])
        if owner is None:
            owner = subject
        elif _is_player(path[:-1]):
            owner = Message("problem.place.player_entry", owner=owner)
        return Message("problem.unknown_field", owner=owner, field=str(path[-1].text))
    owner_path, last = _owner(path)
    if (
        owner_path is not None
        and _is_player(path[: last + 1])
        and _fields(path[last + 1 :]) == "id"
        and kind != "missing"
    ):
        return Message("problem.player_id", place=shown)
    if kind == "too_short" and context.get("min_length") == 1 and path and path[-1].entry is None:
        owner = _place(path[:-1])
        if owner is not None:
            return Message("problem.has_no", owner=owner, field=str(path[-1].text))
    template = _TEMPLATES.get(kind)
    if template is not None:
        return template(shown, context, details.get("input"))
    if kind in ("value_error", "assertion_error"):
        # A sentence the app wrote itself, in a model's own check.
        said: Message | str | None = reason(details)
        if said is None:
            said = details["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
        if place is None:
            return said if isinstance(said, Message) else as_message(said)
        return Message("problem.at", place=place, problem=said)
    return Message("problem.not_valid", place=shown)


def _shown(value: Any) -> Value:
    """A value from the input as the sentence quotes it: JSON's words, a short repr."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value[:40] + "…") if len(value) > 40 else repr(value)
    if isinstance(value, dict):
        return Message("problem.given.object")
    if isinstance(value, list | tuple):
        return Message("problem.given.list")
    return str(value)


def _expected(ctx: dict[str, Any]) -> Value:
    """pydantic's 'expected' ('a', 'b' or 'c'), its values as they are, 'or' in the language."""
    expected = str(ctx.get("expected"))
    if " or " not in expected:
        return expected
    head, last = expected.rsplit(" or ", 1)
    return Message("problem.or", head=head, last=last)


def _count(ctx: dict[str, Any], key: str) -> int:
    value = ctx.get(key)
    return value if isinstance(value, int) else 0


Template = Callable[[Value, dict[str, Any], Any], Message]
_TEMPLATES: dict[str, Template] = {
    "missing": lambda place, ctx, given: Message("problem.missing", place=place),
    "extra_forbidden": lambda place, ctx, given: Message("problem.extra", place=place),
    "int_type": lambda place, ctx, given: Message("problem.int", place=place, given=_shown(given)),
    "int_parsing": lambda place, ctx, given: Message(
        "problem.int", place=place, given=_shown(given)
    ),
    "int_from_float": lambda place, ctx, given: Message(
        "problem.int", place=place, given=_shown(given)
    ),
    "float_type": lambda place, ctx, given: Message(
        "problem.float", place=place, given=_shown(given)
    ),
    "float_parsing": lambda place, ctx, given: Message(
        "problem.float", place=place, given=_shown(given)
    ),
    "bool_type": lambda place, ctx, given: Message(
        "problem.bool", place=place, given=_shown(given)
    ),
    "bool_parsing": lambda place, ctx, given: Message(
        "problem.bool", place=place, given=_shown(given)
    ),
    "string_type": lambda place, ctx, given: Message(
        "problem.string", place=place, given=_shown(given)
    ),
    "dict_type": lambda place, ctx, given: Message(
        "problem.object", place=place, given=_shown(given)
    ),
    "model_type": lambda place, ctx, given: Message(
        "problem.object", place=place, given=_shown(given)
    ),
    "model_attributes_type": lambda place, ctx, given: Message(
        "problem.object", place=place, given=_shown(given)
    ),
    "list_type": lambda place, ctx, given: Message(
        "problem.list", place=place, given=_shown(given)
    ),
    "tuple_type": lambda place, ctx, given: Message(
        "problem.list", place=place, given=_shown(given)
    ),
    "too_short": lambda place, ctx, given: (
        Message("problem.empty", place=place)
        if ctx.get("min_length") == 1
        else Message(
            "problem.too_short",
            place=place,
            count=_count(ctx, "min_length"),
            least=str(ctx.get("min_length")),
            actual=str(ctx.get("actual_length")),
        )
    ),
    "too_long": lambda place, ctx, given: Message(
        "problem.too_long",
        place=place,
        count=_count(ctx, "actual_length"),
        actual=str(ctx.get("actual_length")),
        most=str(ctx.get("max_length")),
    ),
    "string_too_short": lambda place, ctx, given: (
        Message("problem.empty", place=place)
        if ctx.get("min_length") == 1
        else Message("problem.string_too_short", place=place, least=str(ctx.get("min_length")))
    ),
    "string_too_long": lambda place, ctx, given: Message(
        "problem.string_too_long", place=place, most=str(ctx.get("max_length"))
    ),
    "string_pattern_mismatch": lambda place, ctx, given: Message(
        "problem.pattern", place=place, given=_shown(given)
    ),
    "greater_than_equal": lambda place, ctx, given: Message(
        "problem.at_least", place=place, bound=str(ctx.get("ge")), given=str(given)
    ),
    "less_than_equal": lambda place, ctx, given: Message(
        "problem.at_most", place=place, bound=str(ctx.get("le")), given=str(given)
    ),
    "greater_than": lambda place, ctx, given: Message(
        "problem.more_than", place=place, bound=str(ctx.get("gt")), given=str(given)
    ),
    "less_than": lambda place, ctx, given: Message(
        "problem.less_than", place=place, bound=str(ctx.get("lt")), given=str(given)
    ),
    "literal_error": lambda place, ctx, given: Message(
        "problem.literal", place=place, expected=_expected(ctx), given=_shown(given)
    ),
    "enum": lambda place, ctx, given: Message(
        "problem.one_of", place=place, expected=_expected(ctx), given=_shown(given)
    ),
    "finite_number": lambda place, ctx, given: Message("problem.finite", place=place),
    # A field held to a length is refused by pydantic itself when it holds a lone surrogate.
    "string_unicode": lambda place, ctx, given: Message(
        "input.text.surrogate", what=place, code=_surrogate(given)
    ),
}


def _surrogate(text: Any) -> str:
    """The first lone surrogate in a text, as 'U+D800'."""
    found = SURROGATE.search(text) if isinstance(text, str) else None
    return f"U+{ord(found.group()):04X}" if found else "U+D800"
