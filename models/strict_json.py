"""JSON from outside the app, parsed strictly and within bounds.

Every reader of user input (the command line, board files) goes through `loads`, so a
hostile or careless file is refused in one sentence instead of being half-accepted or
taking the process down: a key given twice, nesting deeper than any of the app's formats,
a number with more digits than any of its fields, NaN or Infinity, more text than any
game could fill.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any, BinaryIO

# The deepest of the app's formats (a log's setup, its board, a territory's locations) is
# 6 levels; this leaves room without letting the parser recurse anywhere near its limit.
MAX_DEPTH = 32
# No field of any format needs a number this long: energies, rounds, revisions, coordinates.
MAX_NUMBER_CHARS = 32
# A whole game's log, exported with indentation, is about 60 kB; a board of the largest
# size allowed is about 100 kB. Reading stops here, whatever the source.
MAX_INPUT_BYTES = 4 * 1024 * 1024

_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


class JSONInputError(ValueError):
    """Input that is not JSON the app accepts; the message says why in one sentence."""


def read_bounded(stream: BinaryIO, what: str, limit: int = MAX_INPUT_BYTES) -> str:
    """At most `limit` bytes of UTF-8 text from a stream; JSONInputError when there is more."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise JSONInputError(f"{what} is larger than {limit // (1024 * 1024)} MiB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise JSONInputError(f"{what} is not UTF-8 text (byte {error.start})") from None


def loads(text: str, what: str) -> Any:
    """Parse JSON text strictly; JSONInputError names the first problem and where it is."""
    if len(text) > MAX_INPUT_BYTES:
        raise JSONInputError(f"{what} is larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB")
    depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise JSONInputError(f"{what} is nested {depth} levels deep; at most {MAX_DEPTH} are read")
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_int=_integer,
            parse_float=_real,
            parse_constant=_constant,
        )
    except json.JSONDecodeError as error:
        raise JSONInputError(
            f"malformed JSON in {what}: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except JSONInputError as error:
        raise JSONInputError(f"{what}: {error}") from None


def nesting_depth(text: str) -> int:
    """How deep arrays and objects nest in JSON text (brackets inside strings not counted)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    return max(accumulate(1 if c in "[{" else -1 for c in brackets), default=0)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise JSONInputError(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result


def _too_long(literal: str) -> JSONInputError:
    return JSONInputError(
        f"a number of {len(literal)} characters ({literal[:12]}...); "
        f"none may be longer than {MAX_NUMBER_CHARS}"
    )


def _integer(literal: str) -> int:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _too_long(literal)
    return int(literal)


def _real(literal: str) -> float:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _too_long(literal)
    value = float(literal)
    if value in (float("inf"), float("-inf")):
        raise JSONInputError(f"the number {literal} is too large")
    return value


def _constant(name: str) -> Any:
    raise JSONInputError(f"{name} is not a JSON number")
