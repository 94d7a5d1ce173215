"""What a browser keeps for this app (its language, a shared table's code, its device id),
read and written with a time limit: a browser that never answers keeps nothing."""

from __future__ import annotations

import asyncio
import contextlib

import flet as ft

# What a shared table's device keeps in its browser: the code it came in with, and its id.
STORED_CODE = "summoners-isle.table-code"
STORED_DEVICE = "summoners-isle.device"
# How long a browser is given to say what it keeps.
KEPT_TIMEOUT_S = 10


class Kept:
    """A page's browser storage (Flet's SharedPreferences), never waited on for long."""

    def __init__(self, prefs: ft.SharedPreferences) -> None:
        self.prefs = prefs

    async def get(self, key: str, timeout: float = KEPT_TIMEOUT_S) -> str:
        """A value this browser keeps; empty if it has none or cannot say in time."""
        try:
            value = await asyncio.wait_for(self.prefs.get(key), timeout)
        except Exception:
            # A browser that keeps nothing (or never answers) is a device without a code.
            return ""
        return str(value or "")

    async def set(self, key: str, value: str) -> None:
        """Have this browser keep a value, if it can and answers in time."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.prefs.set(key, value), KEPT_TIMEOUT_S)
