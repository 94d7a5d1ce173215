"""How long a page's session outlives its connection.

Flet keeps a page's session after its websocket closes, so a page that reconnects (a reload, a
phone waking) finds its screen as it left it: for an hour by default, which `web_app` cuts to
minutes (`--session-timeout`). A page of a shared table without the code has nothing to come
back to but the code screen, so its session is dropped as soon as it disconnects: a stranger
who connects and leaves again and again holds no memory on the server.

This wraps flet-web's app manager (`disconnect_session`, `get_session`, `delete_session`):
without them, every session waits out the timeout, as Flet keeps it.
"""

from __future__ import annotations

from typing import Any

import flet as ft

# What a page's session keeps (Flet's `Session.store`): whether to keep it after a disconnect.
KEEP = "companion.keep-after-disconnect"
# The manager's methods this uses.
USED = ("disconnect_session", "get_session", "delete_session")


def keep_after_disconnect(page: ft.Page, keep: bool) -> None:
    """Say whether this page's session waits for it after its connection closes."""
    page.session.store.set(KEEP, keep)


def app_manager() -> Any:
    """flet-web's one manager of the sessions of the pages it serves."""
    from flet_web.fastapi.flet_app_manager import (  # type: ignore[import-untyped]
        app_manager,
    )

    return app_manager


def why_not(manager: Any = None) -> str | None:
    """Why sessions cannot be dropped at their disconnect here, or None if they can."""
    if manager is None:
        try:
            manager = app_manager()
        except ImportError:
            return "flet-web is not installed"
    missing = [name for name in USED if not callable(getattr(manager, name, None))]
    if missing:
        return f"flet-web's app manager has no {', '.join(missing)}"
    return None


def install(manager: Any = None) -> None:
    """Have Flet drop a session at its disconnect when its page said it need not be kept."""
    manager = manager or app_manager()
    if "disconnect_session" in vars(manager):
        return
    disconnect = manager.disconnect_session

    async def disconnect_session(session_id: str, session_timeout_seconds: int) -> None:
        await disconnect(session_id, session_timeout_seconds)
        session: Any = await manager.get_session(session_id)
        if session is not None and session.store.get(KEEP) is False:
            await manager.delete_session(session_id)

    # Flet's websocket handler calls the manager's `disconnect_session` when a page's
    # connection ends: the one place every disconnect passes.
    manager.disconnect_session = disconnect_session


def undo(manager: Any = None) -> None:
    """Have Flet keep every session until its timeout again."""
    manager = manager or app_manager()
    vars(manager).pop("disconnect_session", None)
