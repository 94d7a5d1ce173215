"""Screens imported on first use, and all of them warmed up in the background once a page
is shown: the server answers sooner, and the first screen waits only for what it shows."""

from __future__ import annotations

import importlib
import re
import socket
import threading
import time
from pathlib import Path
from types import ModuleType

import flet as ft

# Every screen but Home and the code screen, which the app imports at once.
SCREENS = (
    "new_game",
    "history",
    "board_editor",
    "table",
    "board",
    "reset",
    "log",
    "end",
    "review",
    "seat",
    "share",
    "watch",
)
# How the app's modules name Flet's controls and types: `ft.Container`, `ft.Colors`...
_FLET_NAME = re.compile(r"\bft\.([A-Z]\w*)")

_warming: threading.Thread | None = None


def screen_module(name: str) -> ModuleType:
    """A screen's module by name (see SCREENS), imported the first time it is asked for."""
    return importlib.import_module(f"companion.app.screens.{name}")


def warm_up() -> None:
    """Import every screen and the Flet controls the app uses, once, in the background."""
    global _warming
    if _warming is None:
        _warming = threading.Thread(target=_import_screens, name="warm-up", daemon=True)
        _warming.start()


def _import_screens() -> None:
    for name in SCREENS:
        screen_module(name)
    # Flet imports a control's module the first time its name (`ft.Container`) is read:
    # ~0.4 s for the app's ~60 names, which a first session would otherwise spend before
    # showing anything. The names are those the app's source uses.
    for path in Path(__file__).parent.rglob("*.py"):
        for name in _FLET_NAME.findall(path.read_text(encoding="utf-8")):
            getattr(ft, name, None)


def warm_up_once_listening(host: str, port: int, timeout: float = 60) -> None:
    """Warm up as soon as the web server takes connections, while a browser boots Flutter.

    Python holds one lock for imports: warming up while the server itself starts would only
    delay it. Between the server answering and a browser's first websocket (1.5-2 s of
    Flutter's boot) the server has nothing else to do.
    """
    address = ("127.0.0.1" if host in ("", "0.0.0.0", "::") else host, port)

    def wait_then_warm() -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                socket.create_connection(address, timeout=1).close()
            except OSError:
                time.sleep(0.05)
                continue
            warm_up()
            return

    threading.Thread(target=wait_then_warm, name="warm-up-wait", daemon=True).start()
