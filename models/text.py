"""Text typed by people: what may be stored, and how to show stored text on a terminal.

Control characters in a name or a reason would reach a terminal as escape sequences (or
forge a line of output with a newline); bidirectional overrides would show text in another
order than it is stored. Text made only of invisible characters looks empty but is not.
"""

from __future__ import annotations

import re
import unicodedata

from companion.language.message import Message
from models.problems import InvalidValue

# C0 and C1 controls and DEL (Unicode's category Cc), the line and paragraph separators,
# and the bidirectional embeddings, overrides and isolates that reorder what follows them
# on screen (the "Trojan Source" characters).
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# The same, less what JSON escapes in strings itself (below U+0020): a newline between
# tokens of indented JSON is layout, not text.
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def is_invisible(char: str) -> bool:
    """Whether a character shows nothing: spaces and format characters (zero-width ones)."""
    return char.isspace() or unicodedata.category(char) in ("Cf", "Zs", "Mn", "Me")


def check_typed_text(text: str, what: Message) -> str:
    """The text, if people could have typed and can read it; InvalidValue (a ValueError)
    naming the problem, `what` naming the text ("the board's name")."""
    unsafe = UNSAFE.search(text)
    if unsafe is not None:
        code = f"U+{ord(unsafe.group()):04X}"
        raise InvalidValue(Message("problem.text.control", what=what, code=code))
    if text and all(is_invisible(char) for char in text):
        raise InvalidValue(Message("problem.text.invisible", what=what))
    return text


def printable(text: str) -> str:
    """Text safe to print on a terminal: control and bidi characters shown as escapes."""
    return UNSAFE.sub(_escape, text)


def json_printable(text: str) -> str:
    """JSON text safe to print: the characters `printable` escapes, as JSON escapes."""
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
