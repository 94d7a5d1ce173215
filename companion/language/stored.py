"""A message as JSON data, so a log keeps its sentences in no language at all.

The store writes each record's sentence this way (its id and values) and renders it in
whatever language a reader asks for. Pure, like `message.py`: no catalog is read here.

>>> data = message_to_json(Message("count.action", count=2))
>>> data
{'m': 'count.action', 'v': {'count': 2}}
>>> message_from_json(data) == Message("count.action", count=2)
True
"""

from __future__ import annotations

from typing import Any

from companion.language.message import Message, Term, Value


class NotAMessage(ValueError):
    """Data that is not a message written by `message_to_json` (an older log's English)."""


def message_to_json(message: Message) -> dict[str, Any]:
    """The message as JSON-ready data: {'m': id, 'v': {name: value}}."""
    return {"m": message.id, "v": {name: _value_to_json(value) for name, value in message.values}}


def message_from_json(data: object) -> Message:
    """The message `message_to_json` wrote; NotAMessage for anything else."""
    if not isinstance(data, dict) or set(data) != {"m", "v"}:
        raise NotAMessage("not a stored message")
    ident, values = data["m"], data["v"]
    if not isinstance(ident, str) or not isinstance(values, dict):
        raise NotAMessage("not a stored message")
    return Message(ident, **{str(name): _value_from_json(value) for name, value in values.items()})


def _value_to_json(value: Value) -> Any:
    if isinstance(value, Message):
        return message_to_json(value)
    if isinstance(value, Term):
        return {"t": value.text, "c": value.context, "n": value.number}
    if isinstance(value, tuple):
        return [_value_to_json(item) for item in value]
    return value


def _value_from_json(data: object) -> Value:
    if isinstance(data, bool):
        raise NotAMessage("a stored message holds no true or false")
    if isinstance(data, str | int):
        return data
    if isinstance(data, list):
        return tuple(_value_from_json(item) for item in data)
    if isinstance(data, dict) and set(data) == {"t", "c", "n"}:
        text, context, number = data["t"], data["c"], data["n"]
        if (
            isinstance(text, str)
            and (context is None or isinstance(context, str))
            and (number is None or (isinstance(number, int) and not isinstance(number, bool)))
        ):
            return Term(text, context, number)
        raise NotAMessage("not a stored name")
    return message_from_json(data)
