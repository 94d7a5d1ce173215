"""Sentences as messages (an id and its values) and their rendering in English or French.

The engine builds `Message`s; whoever shows one picks the language: `render(message, "fr")`,
or `str(message)` for English. `message.py` is pure (the engine imports it); `render.py`
reads the gettext catalogs in `catalogs/` with Babel.
"""

from companion.language.message import (
    Message,
    Term,
    Value,
    by_arrows,
    by_commas,
    by_semicolons,
    by_spaces,
    quoted,
)

__all__ = [
    "Message",
    "Term",
    "Value",
    "by_arrows",
    "by_commas",
    "by_semicolons",
    "by_spaces",
    "quoted",
]
