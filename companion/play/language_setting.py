"""The device's language: the one chosen on Home and kept in the browser, else the locale's.

A display setting like the theme: each device has its own, and no game or log holds it.
Plain Python (no Flet), so the choice is tested without a browser.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.language.render import DEFAULT_LANGUAGE, LANGUAGES, Language, language, language_for

# Where a device keeps its choice (beside the shared table's keys in main.py).
STORED_LANGUAGE = "summoners-isle.language"
# Each language named in its own words: someone who cannot read the one shown finds theirs.
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "fr": "Français"}
# What plain-Python helpers of the app speak when no device's language is given.
ENGLISH: Language = language(DEFAULT_LANGUAGE)


def device_language(kept: str, locales: Iterable[str] = ()) -> str:
    """The language to show: the kept choice if it is one the app has, else the first of the
    device's locales ('fr-CA', most wanted first) that has a catalog, else English."""
    if kept in LANGUAGES:
        return kept
    for tag in locales:
        code = language_for(tag)
        if code is not None:
            return code
    return DEFAULT_LANGUAGE


def accepted_languages(header: str) -> list[str]:
    """The language tags of an HTTP Accept-Language header, most wanted first ('*' left out)."""
    weighted: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, number = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(number)
                except ValueError:
                    quality = 0.0
        if tag.strip() and tag.strip() != "*" and quality > 0:
            weighted.append((-quality, position, tag.strip()))
    return [tag for *_, tag in sorted(weighted)]


def locale_tag(language_code: str, country_code: str | None = None) -> str:
    """A Flet locale's parts as one tag: ('fr', 'CA') is 'fr-CA'."""
    return f"{language_code}-{country_code}" if country_code else language_code
