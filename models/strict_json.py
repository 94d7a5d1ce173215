"""JSON from outside the app, parsed strictly and within bounds.

Every reader of user input (the command line, the app's Import, board files) goes through
`loads`, so a hostile or careless file is refused in one sentence instead of being
half-accepted or taking the process down: a key given twice, nesting deeper than any of the
app's formats, a number with more digits than any of its fields, NaN or Infinity, more text
than any game could fill. Every check is one pass over the text (or json's own), so the time
taken grows with the input's size and no shape of input costs more.
"""

from __future__ import annotations

import io
import json
import re
from itertools import accumulate
from typing import Any, BinaryIO

from companion.language.message import Message, Value

# The deepest of the app's formats (a log's setup, its board, a territory's locations) is
# 6 levels; this leaves room without letting the parser recurse anywhere near its limit.
MAX_DEPTH = 32
# No field of any format needs a number this long: energies, rounds, revisions, coordinates.
MAX_NUMBER_CHARS = 32
# A whole game's log, exported with indentation, is about 60 kB; a board of the largest
# size allowed is about 100 kB. Reading stops here, whatever the source.
MAX_INPUT_BYTES = 4 * 1024 * 1024
_MIB = str(MAX_INPUT_BYTES // (1024 * 1024))

# A string, from its opening quote to its closing one or to the end of the text when it has
# none. Matching an unclosed string to the end (rather than failing) and the possessive
# quantifiers mean every character is looked at once: a failed match retried from each later
# quote is what made runs of `\"` quadratic.
_STRINGS = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"?', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]++")
_STEPS = {"[": 1, "{": 1, "]": -1, "}": -1}
# json's own words for what is malformed, said in any language; any other is kept as written.
_PARSER_SAYS = {
    "Expecting value": "input.json.expecting_value",
    "Expecting ',' delimiter": "input.json.expecting_comma",
    "Expecting ':' delimiter": "input.json.expecting_colon",
    "Expecting property name enclosed in double quotes": "input.json.expecting_key",
    "Unterminated string starting at": "input.json.unterminated",
    "Invalid \\uXXXX escape": "input.json.bad_unicode_escape",
    "Extra data": "input.json.extra_data",
}


class JSONInputError(ValueError):
    """Input that is not JSON the app accepts; `message` says why in one sentence.

    str() of it is the English sentence; `message` renders in any language.
    """

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


def read_bounded(stream: BinaryIO, what: Value, limit: int = MAX_INPUT_BYTES) -> str:
    """At most `limit` bytes of UTF-8 text from a stream; JSONInputError when there is more."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        mib = str(limit // (1024 * 1024))
        raise JSONInputError(Message("input.json.too_large", what=what, mib=mib))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise JSONInputError(
            Message("input.json.not_utf8", what=what, byte=str(error.start))
        ) from None


def loads_bytes(data: bytes, what: Value, limit: int = MAX_INPUT_BYTES) -> Any:
    """Parse JSON bytes strictly (UTF-8, at most `limit` bytes); JSONInputError names the
    problem."""
    return loads(read_bounded(io.BytesIO(data), what, limit), what)


def loads(text: str, what: Value) -> Any:
    """Parse JSON text strictly; JSONInputError names the first problem and where it is."""
    if len(text) > MAX_INPUT_BYTES:
        raise JSONInputError(Message("input.json.too_large", what=what, mib=_MIB))
    depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise JSONInputError(
            Message("input.json.too_deep", what=what, depth=str(depth), most=str(MAX_DEPTH))
        )
    try:
        return json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_int=_integer,
            parse_float=_real,
            parse_constant=_constant,
        )
    except json.JSONDecodeError as error:
        said = _PARSER_SAYS.get(error.msg)
        raise JSONInputError(
            Message(
                "input.json.malformed",
                what=what,
                problem=Message(said) if said else _as_written(error.msg),
                line=str(error.lineno),
                column=str(error.colno),
            )
        ) from None
    except JSONInputError as error:
        raise JSONInputError(Message("input.json.in", what=what, problem=error.message)) from None


def nesting_depth(text: str) -> int:
    """How deep arrays and objects nest in JSON text (brackets inside strings not counted)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    return max(accumulate(map(_STEPS.__getitem__, brackets)), default=0)


def _as_written(text: str) -> Message:
    return Message("problem.as_written", text=text)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise JSONInputError(Message("input.json.duplicate_key", key=repr(key)))
        result[key] = value
    return result


def _too_long(literal: str) -> JSONInputError:
    return JSONInputError(
        Message(
            "input.json.number_long",
            length=str(len(literal)),
            start=literal[:12],
            most=str(MAX_NUMBER_CHARS),
        )
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
        raise JSONInputError(Message("input.json.number_large", literal=literal))
    return value


def _constant(name: str) -> Any:
    raise JSONInputError(Message("input.json.constant", name=name))
