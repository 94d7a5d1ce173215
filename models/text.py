"""Text that comes in from people and files: one check for all of it, and how to show text.

Every text that reaches a game (a player's name and colour, a correction's reason, a board's
and its territories' names, ids and description, a tally's player ids; typed in the app,
imported from a file or given on the command line) passes `check_typed_text`:

- it is valid Unicode: a lone surrogate (what a non-UTF-8 terminal's bytes or a JSON escape
  such as "\\ud800" become) cannot be written to a file, a database or a browser, so it
  would break every screen that shows it;
- it holds no control character (it would reach a terminal as an escape sequence, or forge
  a line of output with a newline) and no bidirectional control (embeddings, overrides,
  isolates and marks: they show text in another order than it is stored, the "Trojan
  Source" characters);
- it is not made only of invisible characters (it would look empty but not be): spaces,
  format characters and marks, and every character Unicode says a renderer may draw as
  nothing (its Default_Ignorable_Code_Point property: joiners, variation selectors, tags,
  Hangul fillers), with the Braille blank;
- it is kept in Unicode's composed form (NFC), so "é" typed as one character or as "e" and
  an accent is the same text.

Text read back from the store was saved by older versions that checked less: it is never
refused (a game must always open) but shown safely, each character the check refuses
replaced by U+FFFD, the replacement character the shipped font draws as a visible mark.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache

import regex
from pydantic import ValidationInfo

from companion.language.message import Message
from models.problems import InvalidValue

# Validation context for what is read back from the store: what it holds was accepted by the
# version that saved it, so it is shown safely instead of refused.
STORED = {"stored": True}
# Lone surrogates: halves of a UTF-16 pair, no character on their own.
_SURROGATES = "\ud800-\udfff"
# C0 and C1 controls and DEL (Unicode's category Cc), and the line and paragraph separators.
_CONTROLS = "\x00-\x1f\x7f-\x9f\u2028\u2029"
# The Arabic letter mark, left-to-right and right-to-left marks, and the embeddings,
# overrides and isolates that reorder what follows them on screen.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
UNSAFE = re.compile(f"[{_CONTROLS}{_BIDI}{_SURROGATES}]")
# The same, less what JSON escapes in strings itself (below U+0020): a newline between
# tokens of indented JSON is layout, not text.
_JSON_UNSAFE = re.compile(f"[\x7f-\x9f\u2028\u2029{_BIDI}{_SURROGATES}]")
_BIDI_CHARS = re.compile(f"[{_BIDI}]")
_SURROGATE_CHARS = re.compile(f"[{_SURROGATES}]")
REPLACEMENT = "\ufffd"
_SPACES = re.compile(r"\s+")
# What draws nothing whatever precedes it: Unicode's Default_Ignorable_Code_Point property
# (from the `regex` module: Python's unicodedata does not give it), which holds the
# zero-width joiners, variation selectors, tags, the combining grapheme joiner, Mongolian
# and Khmer fillers and the Hangul fillers, and the Braille blank (a letter of no dots,
# outside it). Names that differ by them are one name; a text made of them shows nothing.
_UNSEEN = regex.compile(r"[\p{Default_Ignorable_Code_Point}\u2800]")


def is_unseen(char: str) -> bool:
    """Whether a character draws nothing at all (see _UNSEEN): U+200D, U+FE0F, U+3164..."""
    return _UNSEEN.match(char) is not None


def without_unseen(text: str) -> str:
    """The text without the characters that draw nothing (`is_unseen`)."""
    return _UNSEEN.sub("", text)


def is_invisible(char: str) -> bool:
    """Whether a character shows nothing: spaces, format characters (zero-width ones),
    marks that only sit on a letter, and what draws nothing at all (`is_unseen`)."""
    return (
        char.isspace() or unicodedata.category(char) in ("Cf", "Zs", "Mn", "Me") or is_unseen(char)
    )


def text_problem(text: str, what: Message) -> Message | None:
    """What is wrong with a text coming in, `what` naming it ("the reason"), or None."""
    unsafe = UNSAFE.search(text)
    if unsafe is not None:
        char = unsafe.group()
        code = f"U+{ord(char):04X}"
        if _SURROGATE_CHARS.match(char):
            return Message("input.text.surrogate", what=what, code=code)
        if _BIDI_CHARS.match(char):
            return Message("input.text.bidi", what=what, code=code)
        return Message("problem.text.control", what=what, code=code)
    if text and all(is_invisible(char) for char in text):
        return Message("problem.text.invisible", what=what)
    return None


def check_typed_text(text: str, what: Message, *, normalise: bool = True) -> str:
    """The text in NFC, if people could have typed and can read it; InvalidValue (a
    ValueError) naming the problem otherwise, `what` naming the text ("the board's name").

    `normalise=False` keeps an id exactly as given: the commands of a saved game name
    locations by the ids their board had then.
    """
    said = text_problem(text, what)
    if said is not None:
        raise InvalidValue(said)
    return unicodedata.normalize("NFC", text) if normalise else text


def shown_safely(text: str) -> str:
    """Stored text as it can be shown anywhere: each unsafe character replaced by U+FFFD."""
    return unicodedata.normalize("NFC", UNSAFE.sub(REPLACEMENT, text))


def is_stored(info: ValidationInfo) -> bool:
    """Whether a validation reads back what the store holds (context STORED)."""
    return bool(info.context and info.context.get("stored"))


def typed_text(what: Message, *, normalise: bool = True) -> Callable[[str, ValidationInfo], str]:
    """A field validator: text coming in is checked (`check_typed_text`), stored text is
    shown safely (`shown_safely`)."""

    def validate(text: str, info: ValidationInfo) -> str:
        if is_stored(info):
            # An id stays as saved: the saved commands name places by it.
            return shown_safely(text) if normalise else text
        return check_typed_text(text, what, normalise=normalise)

    return validate


def name_key(name: str) -> str:
    """A name as players tell names apart: compatibility forms (full-width letters,
    ligatures), letter case, invisible characters and runs of spaces do not count."""
    # Format characters (zero-width space and joiners, say) and what draws nothing (a
    # variation selector, a Hangul filler) are invisible: two names that differ only by
    # them are one name to the players.
    return _SPACES.sub(" ", _drawn(_drawn(name).casefold()))


def looks_alike(first: str, second: str) -> bool:
    """Whether two names look the same though their letters come from different scripts:
    letter for letter equal or look-alikes (Latin "Bob", and "\\u0412\\u043eb" whose first
    two letters are Cyrillic)."""
    for one, other in ((first, second), (first.casefold(), second.casefold())):
        a, b = _drawn(one), _drawn(other)
        if a == b or len(a) != len(b) or _scripts(a) == _scripts(b):
            continue
        pairs = zip(a, b, strict=True)
        if all(x == y or y in _homoglyphs(x) or x in _homoglyphs(y) for x, y in pairs):
            return True
    return False


def _drawn(name: str) -> str:
    """A name as it is drawn: compatibility forms folded, invisible characters left out."""
    text = without_unseen(unicodedata.normalize("NFKC", name))
    return "".join(char for char in text if unicodedata.category(char) != "Cf").strip()


def _scripts(text: str) -> frozenset[str]:
    """The scripts a text's letters are in (digits, spaces and punctuation belong to none)."""
    from confusable_homoglyphs import categories

    return frozenset(categories.unique_aliases(text)) - {"COMMON"}


@cache
def _homoglyphs(char: str) -> frozenset[str]:
    """The single characters Unicode's confusables list says look like `char`."""
    # Loaded on first use: its tables take a moment, and only a new game's names need them.
    from confusable_homoglyphs import confusables

    found = confusables.is_confusable(char, greedy=True) or []
    return frozenset(
        glyph["c"] for entry in found for glyph in entry["homoglyphs"] if len(glyph["c"]) == 1
    )


def printable(text: str) -> str:
    """Text safe to print on a terminal: control and bidi characters and lone surrogates
    shown as escapes."""
    return UNSAFE.sub(_escape, text)


def json_printable(text: str) -> str:
    """JSON text safe to print: the characters `printable` escapes, as JSON escapes."""
    return _JSON_UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
