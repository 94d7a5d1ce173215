"""Text typed by people: what may be stored, and how to show stored text on a terminal.

Control characters in a name or a reason would reach a terminal as escape sequences (or
forge a line of output with a newline); bidirectional overrides would show text in another
order than it is stored. Text made only of invisible characters looks empty but is not.
"""

from __future__ import annotations

import unicodedata

# Right-to-left and left-to-right embeddings, overrides and isolates: they reorder what
# follows them on screen (the "Trojan Source" characters).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_unsafe(char: str) -> bool:
    """Whether a character must never be stored in a name or reason: controls, bidi overrides."""
    # Cc: C0 and C1 controls and DEL; Zl and Zp: line and paragraph separators.
    return unicodedata.category(char) in ("Cc", "Zl", "Zp") or char in BIDI_CONTROLS


def is_invisible(char: str) -> bool:
    """Whether a character shows nothing: spaces and format characters (zero-width ones)."""
    return char.isspace() or unicodedata.category(char) in ("Cf", "Zs", "Mn", "Me")


def check_typed_text(text: str, what: str) -> str:
    """The text, if people could have typed and can read it; ValueError naming the problem."""
    unsafe = next((char for char in text if is_unsafe(char)), None)
    if unsafe is not None:
        raise ValueError(f"{what} may not contain the control character U+{ord(unsafe):04X}")
    if text and all(is_invisible(char) for char in text):
        raise ValueError(f"{what} has no visible character")
    return text


def printable(text: str) -> str:
    """Text safe to print on a terminal: control and bidi characters shown as escapes."""
    if not any(is_unsafe(char) for char in text):
        return text
    return "".join(_escape(char) if is_unsafe(char) else char for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
