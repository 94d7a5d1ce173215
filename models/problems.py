"""Validation errors as one sentence a player can act on, in the app's words, not pydantic's.

Every reader of outside input (a game log, a setup, a board, a tally request, a command)
turns pydantic's first error into a sentence here, so no reader shows raw validation
phrasing ("Input should be a valid integer") and each names what is wrong by the game's
own names: Player 2, territory 'north', location 'n3', command 7.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from models.rules import MAX_PLAYERS, MIN_PLAYERS

# Steps of an error's location that are no place in the input: the board's union branches.
# (A game log's `setup` is one, but its fields are known by their own names: it is not shown.)
_BRANCHES = {"shipped", "inline"}
_ORDINALS = {1: "st", 2: "nd", 3: "rd"}
_PLAYER_ID_RULE = "must be 1 to 24 letters, digits, '-' or '_'"


def problem(error: ValidationError, data: Any = None, *, subject: str = "the input") -> str:
    """The first problem in `error` as one sentence; `data` (the input) lets it name entries.

    `subject` names the input itself, for a problem with the whole of it (an option's value).
    """
    details = error.errors()[0]
    return _sentence(details, _path(details["loc"], data), subject)


class _Step(NamedTuple):
    text: str
    # An entry of a list, named ("Player 2", "territory 'north'"), rather than a field.
    entry: bool


def _path(loc: Sequence[int | str], data: Any) -> list[_Step]:
    """Each step of an error's location, entries named as the input names them."""
    steps: list[_Step] = []
    node = data
    for step in loc:
        if step in _BRANCHES:
            continue
        child = _step_into(node, step)
        if isinstance(step, int):
            collection = steps.pop().text if steps else None
            steps.append(_Step(_entry(collection, step, child), entry=True))
        elif step != "setup":
            steps.append(_Step(step, entry=False))
        node = child
    return steps


def _place(path: Sequence[_Step]) -> str:
    """'Player 2's id', 'bonus of territory 'north'', 'energy.red': where a problem is."""
    entries = [index for index, step in enumerate(path) if step.entry]
    if not entries:
        return ".".join(step.text for step in path)
    last = entries[-1]
    owner = path[last].text + "".join(f" of {path[index].text}" for index in entries[-2::-1])
    fields = ".".join(step.text for step in path[last + 1 :])
    if not fields:
        return owner
    return f"{owner}'s {fields}" if owner.startswith("Player ") else f"{fields} of {owner}"


def _step_into(node: Any, step: int | str) -> Any:
    if isinstance(node, dict) and isinstance(step, str):
        return node.get(step)
    if isinstance(node, list | tuple) and isinstance(step, int) and 0 <= step < len(node):
        return node[step]
    return None


def _entry(collection: str | None, index: int, entry: Any) -> str:
    """An entry of a list, by the name the user gave it where it has one."""
    named = entry.get("id") if isinstance(entry, dict) else None
    named = named if isinstance(named, str) and named else None
    if collection == "players":
        return f"Player {index + 1}"
    if collection == "territories":
        return f"territory {named!r}" if named else f"the {_ordinal(index + 1)} territory"
    if collection == "locations":
        if isinstance(entry, str):
            return f"location {entry!r}"
        return f"location {named!r}" if named else f"the {_ordinal(index + 1)} location"
    if collection == "paths":
        return f"path {index + 1}"
    if collection == "commands":
        return f"command {index}"
    if collection == "turn_order":
        return f"turn_order entry {index + 1}"
    return f"entry {index + 1} of {collection}" if collection else f"entry {index + 1}"


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else _ORDINALS.get(number % 10, "th")
    return f"{number}{suffix}"


def _sentence(details: ErrorDetails, path: list[_Step], subject: str) -> str:
    kind = details["type"]
    context = details.get("ctx") or {}
    place = _place(path)
    if kind == "player_name":
        return f"{place} {context['problem']}"
    if place == "players" and kind in ("too_short", "too_long"):
        return f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {context['actual_length']}"
    if kind == "extra_forbidden" and path:
        owner = _place(path[:-1]) or subject
        if owner.startswith("Player ") and "'" not in owner:
            owner += "'s entry"
        return f"{owner} has a field this app does not know: {path[-1].text}"
    if place.startswith("Player ") and place.endswith("'s id") and kind != "missing":
        return f"{place} {_PLAYER_ID_RULE}"
    if kind == "too_short" and context.get("min_length") == 1 and path and not path[-1].entry:
        owner = _place(path[:-1])
        if owner:
            return f"{owner} has no {path[-1].text}"
    template = _TEMPLATES.get(kind)
    if template is not None:
        return _joined(place or subject, template(context, details.get("input")))
    if kind in ("value_error", "assertion_error"):
        # A sentence the app wrote itself, in a model's own check.
        message = details["msg"].removeprefix("Value error, ").removeprefix("Assertion failed, ")
        return f"{place}: {message}" if place else message
    return _joined(place or subject, "is not valid here")


def _joined(place: str, message: str) -> str:
    return f"{place} {message}"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value[:40] + "…") if len(value) > 40 else repr(value)
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "a list"
    return str(value)


def _items(count: object) -> str:
    return "1 entry" if count == 1 else f"{count} entries"


Template = Callable[[dict[str, Any], Any], str]
_TEMPLATES: dict[str, Template] = {
    "missing": lambda ctx, given: "is missing",
    "extra_forbidden": lambda ctx, given: "is a field this app does not know",
    "int_type": lambda ctx, given: f"must be a whole number, not {_shown(given)}",
    "int_parsing": lambda ctx, given: f"must be a whole number, not {_shown(given)}",
    "int_from_float": lambda ctx, given: f"must be a whole number, not {_shown(given)}",
    "float_type": lambda ctx, given: f"must be a number, not {_shown(given)}",
    "float_parsing": lambda ctx, given: f"must be a number, not {_shown(given)}",
    "bool_type": lambda ctx, given: f"must be true or false, not {_shown(given)}",
    "bool_parsing": lambda ctx, given: f"must be true or false, not {_shown(given)}",
    "string_type": lambda ctx, given: f"must be text, not {_shown(given)}",
    "dict_type": lambda ctx, given: f"must be an object, not {_shown(given)}",
    "model_type": lambda ctx, given: f"must be an object, not {_shown(given)}",
    "model_attributes_type": lambda ctx, given: f"must be an object, not {_shown(given)}",
    "list_type": lambda ctx, given: f"must be a list, not {_shown(given)}",
    "tuple_type": lambda ctx, given: f"must be a list, not {_shown(given)}",
    "too_short": lambda ctx, given: (
        "is empty"
        if ctx.get("min_length") == 1
        else f"needs at least {_items(ctx.get('min_length'))}, not {ctx.get('actual_length')}"
    ),
    "too_long": lambda ctx, given: (
        f"has {_items(ctx.get('actual_length'))}; at most {ctx.get('max_length')} are allowed"
    ),
    "string_too_short": lambda ctx, given: (
        "is empty"
        if ctx.get("min_length") == 1
        else f"must be at least {ctx.get('min_length')} characters"
    ),
    "string_too_long": lambda ctx, given: f"is longer than {ctx.get('max_length')} characters",
    "string_pattern_mismatch": lambda ctx, given: (
        f"may hold only letters, digits, '-' and '_', not {_shown(given)}"
    ),
    "greater_than_equal": lambda ctx, given: f"must be at least {ctx.get('ge')}, not {given}",
    "less_than_equal": lambda ctx, given: f"must be at most {ctx.get('le')}, not {given}",
    "greater_than": lambda ctx, given: f"must be more than {ctx.get('gt')}, not {given}",
    "less_than": lambda ctx, given: f"must be less than {ctx.get('lt')}, not {given}",
    "literal_error": lambda ctx, given: f"must be {ctx.get('expected')}, not {_shown(given)}",
    "enum": lambda ctx, given: f"must be one of {ctx.get('expected')}, not {_shown(given)}",
    "finite_number": lambda ctx, given: "must be a finite number",
}
