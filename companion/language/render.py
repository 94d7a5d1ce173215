"""Messages rendered in a language, from the gettext catalogs in `catalogs/` (read with Babel).

Each catalog maps a message id to its text, a Python format string naming the message's
values: `{player} starts on {before}`. A plural entry (msgid_plural) is chosen by the
value `count`, with the language's plural rule from the catalog header (French: n > 1).
A spec after a value's name asks French grammar for a form of a name: `{territory:de}`
gives "des Falaises du Nord", "du Creux des Runes", "de l'Étendue", "d'Alice"; see
`companion.language.grammar`. Numbers come out in the language's format (Babel).
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from io import BytesIO
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, get_minus_sign_symbol
from babel.support import Translations

from companion.language.grammar import GRAMMARS, Grammar
from companion.language.message import Message, Term, Value

# The languages the catalogs cover, English first (the source, and the fallback).
LANGUAGES: tuple[str, ...] = ("en", "fr")
DEFAULT_LANGUAGE = "en"
# A locale's language part: 'fr' in 'fr', 'FR', 'fr_FR.UTF-8' or 'fr-CA'.
_TAG = re.compile(r"^([A-Za-z]{2,3})(?:[-_.@].*)?$")
# A plural entry's text is chosen by this value.
COUNT = "count"
# How many rendered messages a language keeps (a screen says the same sentences to every
# device: a hundred pages coming back at once render each once).
KEPT_RENDERINGS = 4096
# A list's last two items are joined by this message, the others by a comma.
LIST_LAST = "list.last"


# An arrow between two numbers ('5 → 10') stays on their line; any other never starts one.
_NUMBER_ARROW = re.compile(r"(\d) → (?=[-+]?\d)")
_ARROW = re.compile(r" → ")


def kept_together(text: str) -> str:
    """No-break spaces where a line break would part what belongs together."""
    return _ARROW.sub("\u00a0→ ", _NUMBER_ARROW.sub("\\1\u00a0→\u00a0", text))


class UnknownLanguage(ValueError):
    """A language code no catalog covers; the message names the ones there are."""

    def __init__(self, code: str) -> None:
        super().__init__(f"no language {code!r}: choose {' or '.join(LANGUAGES)}")
        self.code = code


def language_for(tag: str) -> str | None:
    """The catalogs' language a language code or locale names ('fr-CA' is 'fr'), if any."""
    match = _TAG.match(tag.strip())
    code = match.group(1).lower() if match else None
    return code if code in LANGUAGES else None


def catalog_texts(code: str) -> list[tuple[str, bytes]]:
    """A language's .po files as shipped with the package, by name: `<code>.po` (the
    engine's) first, then each part of the app's, `<code>-<part>.po`."""
    folder = resources.files("companion.language") / "catalogs"
    parts = sorted(entry.name for entry in folder.iterdir() if entry.name.startswith(f"{code}-"))
    return [(name, (folder / name).read_bytes()) for name in [f"{code}.po", *parts]]


@cache
def catalog(code: str) -> Catalog:
    """A language's catalog as Babel reads it, its files in one (for checks and plurals).

    An id in two files is a mistake: ValueError names it.
    """
    if code not in LANGUAGES:
        raise UnknownLanguage(code)
    (_, first), *rest = catalog_texts(code)
    merged = read_po(BytesIO(first), locale=code)
    for name, text in rest:
        for entry in read_po(BytesIO(text), locale=code):
            if not entry.id:
                continue  # a part's own header
            if merged.get(entry.id, context=entry.context) is not None:
                raise ValueError(f"{name}: {entry.id!r} is already in another catalog file")
            merged[entry.id] = entry
    return merged


@dataclass(frozen=True, slots=True)
class Language:
    """One language's texts, plural rule, number format and grammar."""

    code: str
    translations: Translations
    plural_ids: frozenset[str]
    locale: Locale
    grammar: Grammar
    # On a screen, no line starts with an arrow or parts '5 → 10' (never in the CLI's
    # output, which scripts read).
    on_screen: bool = False
    # Messages rendered before (a message is immutable: its rendering never changes).
    _rendered: dict[Message, str] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    _numbers: dict[int, str] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def render(self, message: Message) -> str:
        """The message in this language."""
        try:
            rendered = self._rendered.get(message)
        except TypeError:  # a value that is not hashable: rendered each time
            return self._render(message)
        if rendered is None:
            if len(self._rendered) >= KEPT_RENDERINGS:
                self._rendered.clear()
            rendered = self._rendered[message] = self._render(message)
        return rendered

    def _render(self, message: Message) -> str:
        values = message.fields
        if message.id in self.plural_ids:
            count = values[COUNT]
            assert isinstance(count, int), f"{message.id}: a plural message counts a number"
            text = str(self.translations.ngettext(message.id, message.id, count))
        else:
            text = str(self.translations.gettext(message.id))
        shown = _Formatter(self).vformat(self.grammar.typeset(text), (), values)
        return kept_together(shown) if self.on_screen else shown

    def value(self, value: Value, spec: str = "") -> str:
        """One value of a message in this language, in the form `spec` asks for."""
        if isinstance(value, Message):
            # A message names something as a name does: it takes the same forms ("du joueur 2").
            return self.grammar.form(self.render(value), spec)
        if isinstance(value, tuple):
            return self.items([self.value(item, spec) for item in value])
        if isinstance(value, bool):
            raise TypeError("a message shows numbers and words, not True or False")
        if isinstance(value, int):
            return self.number(value, signed=spec == "+")
        if isinstance(value, Term):
            text = value.text
            if value.context is not None:
                text = str(self.translations.pgettext(value.context, value.text))
            shown = self.grammar.form(text, spec)
            return shown if value.number is None else f"{shown} {self.number(value.number)}"
        return self.grammar.form(value, spec)

    def number(self, value: int, signed: bool = False) -> str:
        """A whole number in the language's format; `signed` shows + before a positive one."""
        text = self._numbers.get(abs(value))
        if text is None:
            if len(self._numbers) >= KEPT_RENDERINGS:
                self._numbers.clear()
            text = self._numbers[abs(value)] = format_decimal(abs(value), locale=self.locale)
        if value < 0:
            return get_minus_sign_symbol(locale=self.locale) + text
        return f"+{text}" if signed else text

    def items(self, shown: Sequence[str]) -> str:
        """Words as a list: 'A', 'A and B', 'A, B and C' (French: 'A, B et C')."""
        if len(shown) <= 1:
            return "".join(shown)
        return self.render(Message(LIST_LAST, head=", ".join(shown[:-1]), last=shown[-1]))


class _Formatter(string.Formatter):
    """str.format where each value is shown by the language (forms, numbers, lists)."""

    def __init__(self, language: Language) -> None:
        super().__init__()
        self.language = language

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        """A named value of the message (templates never use positions)."""
        return kwargs[str(key)]

    def format_field(self, value: Any, format_spec: str) -> str:
        """The value in the language, in the form the spec names."""
        return self.language.value(value, format_spec)


@cache
def language(code: str) -> Language:
    """A language by its code ('en' or 'fr'); UnknownLanguage for any other."""
    source = catalog(code)
    compiled = BytesIO()
    # Compiled in memory from the .po in the repo: nothing to build, nothing to go stale.
    write_mo(compiled, source)
    compiled.seek(0)
    translations = Translations(compiled, domain="messages")
    if code != DEFAULT_LANGUAGE:
        translations.add_fallback(language(DEFAULT_LANGUAGE).translations)
    plural_ids = frozenset(
        str(entry.id[0]) for entry in source if entry.id and isinstance(entry.id, tuple)
    )
    return Language(code, translations, plural_ids, Locale.parse(code), GRAMMARS[code])


@cache
def screen_language(code: str) -> Language:
    """A language as the app shows it on screen: `language(code)` that keeps '5 → 10' and
    an arrow's left side on one line."""
    return replace(language(code), on_screen=True)


def render(message: Message, code: str = DEFAULT_LANGUAGE) -> str:
    """A message in a language ('en' or 'fr')."""
    return language(code).render(message)


def render_value(value: Value, code: str = DEFAULT_LANGUAGE) -> str:
    """One value (a name, number, list or message) in a language."""
    return language(code).value(value)


def format_number(value: int, code: str = DEFAULT_LANGUAGE) -> str:
    """A whole number in a language's format: 1,000 in English, 1 000 in French."""
    return language(code).number(value)
