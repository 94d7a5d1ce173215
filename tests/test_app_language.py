"""The app's language setting: per device, from the locale, switched and kept.

And the app's texts: every `say("app....")` in the screens names an id of the catalogs
with the values its English text names.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.app.kept import Kept
from companion.app.main import App
from companion.language.render import LANGUAGES
from companion.play.language_setting import (
    LANGUAGE_NAMES,
    STORED_LANGUAGE,
    device_language,
    locale_tag,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("kept", "locales", "code"),
    [
        ("", ["fr-CA"], "fr"),
        ("", ["de-DE", "fr-FR", "en-GB"], "fr"),  # the first the app speaks
        ("", ["en-US", "fr-FR"], "en"),
        ("", ["de-DE"], "en"),
        ("", [], "en"),
        ("en", ["fr-FR"], "en"),  # a choice made on Home wins over the locale
        ("fr", ["en-US"], "fr"),
        ("xx", ["fr-BE"], "fr"),  # something kept that is no language: the locale's
    ],
)
def test_the_language_is_the_kept_choice_else_the_locales(kept, locales, code):
    assert device_language(kept, locales) == code


def test_a_locale_tag_and_the_languages_named_in_their_own_words():
    assert locale_tag("fr", "CA") == "fr-CA"
    assert locale_tag("fr") == "fr"
    assert LANGUAGE_NAMES == {"en": "English", "fr": "Français"}
    assert set(LANGUAGE_NAMES) == set(LANGUAGES)


class Prefs:
    """A browser's SharedPreferences: what it keeps, by key."""

    def __init__(self, kept: dict[str, str] | None = None) -> None:
        self.kept = dict(kept or {})

    async def get(self, key: str) -> str | None:
        return self.kept.get(key)

    async def set(self, key: str, value: str) -> bool:
        self.kept[key] = value
        return True


def device(prefs: Prefs, *locales: tuple[str, str | None]) -> App:
    """An App on a fake page whose browser reports `locales` and keeps `prefs`."""

    async def get_device_info():
        return SimpleNamespace(
            locales=[SimpleNamespace(language_code=lang, country_code=c) for lang, c in locales]
        )

    tasks: list = []
    page = SimpleNamespace(
        get_device_info=get_device_info,
        run_task=lambda handler, *args: tasks.append(handler(*args)),
        locale_configuration=None,
    )
    app = App(page, service=None)  # type: ignore[arg-type]
    app.browser = Kept(prefs)  # type: ignore[arg-type]
    app.tasks = tasks  # type: ignore[attr-defined]
    return app


def test_a_device_opens_in_its_locales_language_until_one_is_chosen():
    app = device(Prefs(), ("fr", "CA"))
    assert app.words.code == "en"  # until the browser says
    asyncio.run(app.find_language())
    assert app.words.code == "fr"
    assert app.say("app.home.new_game") == "Nouvelle partie"
    assert app.page.locale_configuration.current_locale.language_code == "fr"


def test_a_choice_made_on_the_device_is_kept_and_wins_over_the_locale(monkeypatch):
    prefs = Prefs()
    app = device(prefs, ("fr", "FR"))
    asyncio.run(app.find_language())
    shown: list[str] = []
    monkeypatch.setattr(app, "show", lambda: shown.append(app.words.code))
    app.set_language("en")
    for task in app.tasks:
        asyncio.run(task)
    assert shown == ["en"], "the screen is built again in the new language at once"
    assert prefs.kept == {STORED_LANGUAGE: "en"}
    # The same browser opened again: English, whatever its locale says.
    again = device(prefs, ("fr", "FR"))
    asyncio.run(again.find_language())
    assert again.words.code == "en"
    # Another device, another choice: each keeps its own.
    other = device(Prefs(), ("fr", "FR"))
    asyncio.run(other.find_language())
    assert other.words.code == "fr"


def test_a_browser_that_never_answers_gets_english(monkeypatch):
    monkeypatch.setattr("companion.app.page_language.LANGUAGE_TIMEOUT_S", 0.05)

    class Silent(Prefs):
        async def get(self, key: str) -> str | None:
            await asyncio.sleep(10)
            return None

    app = device(Silent())

    async def never():
        await asyncio.sleep(10)

    app.page.get_device_info = never
    asyncio.run(app.find_language())
    assert app.words.code == "en"
