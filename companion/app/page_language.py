"""The language one page shows the app in: the one its browser kept, else its locale's
(companion/play/language_setting.py decides); a choice made on Home is kept by the browser
and wins over a later change of locale."""

from __future__ import annotations

import asyncio

import flet as ft

from companion.app.kept import Kept
from companion.language.render import DEFAULT_LANGUAGE, LANGUAGES, Language, screen_language
from companion.play.language_setting import STORED_LANGUAGE, device_language, locale_tag

# How long the first screen waits for the device to say its language: past it, English.
LANGUAGE_TIMEOUT_S = 3


class PageLanguage:
    """A page's language (`words`), and Flutter's own texts set to follow it."""

    def __init__(self, page: ft.Page) -> None:
        self.page = page
        self.words: Language = screen_language(DEFAULT_LANGUAGE)
        # Whether this device's user picked it on Home (then a change of locale leaves it be).
        self.chosen = False

    async def find(self, browser: Kept) -> None:
        """Take the language this browser kept, else its locale's."""
        kept = await browser.get(STORED_LANGUAGE, LANGUAGE_TIMEOUT_S)
        self.chosen = bool(kept)
        locales: list[str] = []
        if not kept:
            try:
                info = await asyncio.wait_for(self.page.get_device_info(), LANGUAGE_TIMEOUT_S)
            except Exception:
                info = None  # a client that cannot say: English
            if info is not None:
                locales = [locale_tag(x.language_code, x.country_code) for x in info.locales]
        self.use(device_language(kept, locales))

    def choose(self, code: str, browser: Kept) -> None:
        """Show the app in `code` on this device from now on, and have the browser keep it."""
        self.chosen = True
        self.use(code)
        self.page.run_task(browser.set, STORED_LANGUAGE, code)

    def use(self, code: str) -> None:
        """Show the app in `code` (Flutter's own texts, a text field's menu, follow too)."""
        self.words = screen_language(code)
        self.page.locale_configuration = ft.LocaleConfiguration(
            supported_locales=[ft.Locale(name) for name in LANGUAGES],
            current_locale=ft.Locale(code),
        )

    def locale_changed(self, event: ft.LocaleChangeEvent) -> bool:
        """Follow the device's new locale unless a language was chosen: whether it changed."""
        if self.chosen:
            return False
        tags = [locale_tag(x.language_code, x.country_code) for x in event.locales]
        code = device_language("", tags)
        if code == self.words.code:
            return False
        self.use(code)
        return True
