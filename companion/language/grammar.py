"""The forms a name takes in a sentence: French articles, contractions and elision.

A French catalog gives a shipped name with its article ("les Falaises du Nord",
"le Troll", "l'Étendue des Braises"); a name as entered (a player's) has none. A
template asks for a form with a spec: `{place:de}`, `{place:à}`, `{place:dans}` ("dans
les Falaises du Nord", but "à Frostholm": a bare name is a place like a town), `{place:nu}`
(no article), `{place}` or `{place:le}` (as given). A capital spec (`De`, `À`, `Le`) starts
the form with a capital, and `^` capitalises any value as it is, for one that opens a
sentence. English has no forms.
"""

from __future__ import annotations

import re
from typing import Protocol

# French articles a translated name may start with, and the forms "de" and "à" make of them.
_ARTICLES = {
    "les ": ("des ", "aux "),
    "le ": ("du ", "au "),
    "la ": ("de la ", "à la "),
    "l'": ("de l'", "à l'"),
}
# Before these, "de" becomes "d'" (a name with no article: "d'Alice", "d'Éloïse"). A name
# starting with h keeps "de": whether its h is silent is not for a program to guess.
_VOWELS = frozenset("aeiouàâäéèêëîïôöùûüœæ")
FORMS = ("", "le", "nu", "de", "à", "dans")
CAPITAL = "^"
# French sets a narrow no-break space before these (typed as a plain space in the catalog).
_HIGH_PUNCTUATION = re.compile(r" ([;:!?])")
# Guillemets hold their quotation with the same narrow no-break space inside.
_OPENING = re.compile(r"«\s*")
_CLOSING = re.compile(r"\s*»")


class Grammar(Protocol):
    """How a language shows a name in the form a template asks for."""

    def form(self, text: str, spec: str) -> str:
        """The name as the spec asks."""
        ...

    def typeset(self, template: str) -> str:
        """A catalog text with the language's spacing (before values are put in)."""
        ...


class English:
    """English names take no forms: a spec only capitalises."""

    def form(self, text: str, spec: str) -> str:
        """The name as it is."""
        _check(spec)
        return capitalised(text) if spec == CAPITAL or spec[:1].isupper() else text

    def typeset(self, template: str) -> str:
        """English spacing is as typed."""
        return template


class French:
    """French articles, their contractions (du, des, au, aux) and elision (de l', d')."""

    def form(self, text: str, spec: str) -> str:
        """The name with the article or preposition the spec names."""
        _check(spec)
        kind = spec.lower()
        article, bare = split_article(text)
        if kind == "nu":
            shown = bare
        elif kind in ("de", "à"):
            shown = _preposition(article, bare, kind) + bare
        elif kind == "dans":
            shown = f"à {bare}" if article is None else f"dans {text}"
        else:
            shown = text
        return capitalised(shown) if spec == CAPITAL or spec[:1].isupper() else shown

    def typeset(self, template: str) -> str:
        """French spacing: a narrow no-break space before ; : ! and ?, and inside « »."""
        spaced = _HIGH_PUNCTUATION.sub("\u202f\\1", template)
        spaced = _OPENING.sub("«\u202f", spaced)
        return _CLOSING.sub("\u202f»", spaced)


def split_article(text: str) -> tuple[str | None, str]:
    """A French name's article (as written, with its space or apostrophe) and the rest."""
    lowered = text.lower()
    for article in _ARTICLES:
        if lowered.startswith(article) and len(text) > len(article):
            return article, text[len(article) :]
    return None, text


def _preposition(article: str | None, bare: str, kind: str) -> str:
    if article is None:
        if kind == "à":
            return "à "
        return "d'" if elides(bare) else "de "
    of, to = _ARTICLES[article.lower()]
    return of if kind == "de" else to


def elides(word: str) -> bool:
    """Whether French drops the e of "de" before the word: a vowel sound, so "d'Yvette" but
    "de Yann" (a y before a vowel sounds like a consonant)."""
    first = word[:1].lower()
    if first == "y":
        return len(word) > 1 and word[1].lower() not in _VOWELS
    return first in _VOWELS


def _check(spec: str) -> None:
    if spec != CAPITAL and spec.lower() not in FORMS:
        raise ValueError(f"no form {spec!r} of a name (forms: {', '.join(FORMS[1:])})")


def capitalised(text: str) -> str:
    """The text with a capital first letter."""
    return text[:1].upper() + text[1:]


GRAMMARS: dict[str, Grammar] = {"en": English(), "fr": French()}
