"""How long a page's session outlives its connection.

Flet keeps a page's session after its websocket closes, so a page that reconnects (a reload, a
phone waking) finds its screen as it left it: for an hour by default, which `web_app` cuts to
minutes (`--session-timeout`). A page of a shared table without the code has nothing to come
back to but the code screen, so its session is dropped as soon as it disconnects: a stranger
who connects and leaves again and again holds no memory on the server.
"""

from __future__ import annotations

from typing import Any

import flet as ft

# What a page's session keeps (Flet's `Session.store`): whether to keep it after a disconnect.
KEEP = "companion.keep-after-disconnect"


def keep_after_disconnect(page: ft.Page, keep: bool) -> None:
    """Say whether this page's session waits for it after its connection closes."""
    page.session.store.set(KEEP, keep)


def drop_unkept_sessions() -> None:
    """Have Flet drop a session at its disconnect when its page said it need not be kept."""
    from flet_web.fastapi.flet_app_manager import (  # type: ignore[import-untyped]
        app_manager,
    )

    if getattr(app_manager, "_companion_drops", False):
        return
    disconnect = app_manager.disconnect_session

    async def disconnect_session(session_id: str, session_timeout_seconds: int) -> None:
        await disconnect(session_id, session_timeout_seconds)
        session: Any = await app_manager.get_session(session_id)
        if session is not None and session.store.get(KEEP) is False:
            await app_manager.delete_session(session_id)

    # Flet's websocket handler calls the manager's `disconnect_session` when a page's
    # connection ends: the one place every disconnect passes.
    app_manager.disconnect_session = disconnect_session
    app_manager._companion_drops = True
