"""Serving the app: a desktop window, a packaged bundle, or a web server guarded at its edge.

Every page a process serves shares one `Service` (companion/play/service.py): the store, the
bus, the computer seats' leases and the shared table.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import flet as ft

from companion.app import flet_patches
from companion.app.collector import tune_for_serving
from companion.app.guard import (
    ASGIApp,
    OriginGuard,
    allowed_hosts,
    allowed_origins,
    public_address,
)
from companion.app.health import Health
from companion.app.http_edge import PER_ADDRESS, HttpLimits, guarded_http
from companion.app.main import App
from companion.app.reconnect import ReconnectNotice
from companion.app.shares import Share
from companion.app.theme import FONT, FONTS
from companion.app.warm_up import warm_up_once_listening
from companion.app.web_packing import PackedFiles
from companion.app.web_packs import PackStore, pack_in_background
from companion.app.web_page import OfflinePage
from companion.app.wire import WireGate
from companion.app.wire_link import WireLimits
from companion.play.bus import Bus, LocalBus
from companion.play.coach_work import CoachWork
from companion.play.searches import Searches
from companion.play.service import Service
from companion.play.sharing.hosting import Hosting
from companion.play.sharing.links import TableLinks, url_name
from companion.store.notices import PostgresBus
from companion.store.store import Store, open_store

ASSETS = Path(__file__).resolve().parent.parent.parent / "assets"
DEFAULT_PORT = 8550
# How long a page that lost its connection keeps its session on the server for it to come
# back to (Flet's default is an hour). A phone away longer starts a new session: let in by
# the code it kept, back on its seat by its device id (docs/sharing.md).
SESSION_TIMEOUT_S = 300
# On SIGTERM, how long the server waits for its pages to close before it stops anyway.
SHUTDOWN_S = 3
# How often a hosted server looks for idle tables, and tables nobody used, to remove.
SWEEP_S = 600.0

log = logging.getLogger("companion.app")


def sweep_idle_tables(hosting: Hosting, every_s: float = SWEEP_S) -> threading.Event:
    """Remove idle tables now and every `every_s` seconds, in a thread of its own, until the
    event returned is set. Several processes sweeping at once remove each table once."""
    stop = threading.Event()

    def sweep() -> None:
        while True:
            try:
                removed = hosting.remove_idle()
                if removed:
                    log.warning("removed %d idle tables", len(removed))
            except Exception:
                log.exception("could not remove idle tables")
            if stop.wait(every_s):
                return

    threading.Thread(target=sweep, name="idle-tables", daemon=True).start()
    return stop


def bus_for(store: Store) -> Bus:
    """The bus a server's pages announce changes on: through PostgreSQL when the games are
    there (other processes may share the database and must hear them), else in process."""
    url = store.shared_url
    return LocalBus() if url is None else PostgresBus(url)


def run_packaged() -> None:
    """Run inside a `flet build` bundle: Flet chooses the window; games go to the user data dir."""
    flet_patches.install()
    # A bundle's embedded interpreter cannot spawn another: the computers and the coach
    # work in threads.
    service = Service(
        open_store(), searches=Searches(processes=False), coach=CoachWork(processes=False)
    )
    ft.run(lambda page: App(page, service).start(), assets_dir=str(ASSETS))


def web_app(
    store: Store,
    host: str,
    port: int,
    table: TableLinks | None = None,
    *,
    trusted_proxies: Sequence[str] = (),
    session_timeout_s: int = SESSION_TIMEOUT_S,
    limits: WireLimits | None = None,
    hosting: Hosting | None = None,
) -> ASGIApp:
    """The app as an ASGI web app answering only its own pages (see companion/app/guard.py).

    Its websockets are held to what its pages send (companion/app/wire.py), its pages ask
    nothing of another host (companion/app/web_page.py), and a page that lost its
    connection keeps its session for `session_timeout_s`. A shared table also answers under
    the names its links use, and its pages say when they are reconnecting. Behind a reverse
    proxy, the client's address is read from X-Forwarded-For, and only when the connection
    comes from one of `trusted_proxies` (addresses or networks). A hosted server
    (`hosting`) serves many tables, each its own, and answers under its public
    address too.
    """
    from flet_web.fastapi import app as flet_web_app  # type: ignore[import-untyped]

    flet_patches.install()
    service = Service(store, table, bus=bus_for(store), hosting=hosting)
    app: ASGIApp = flet_web_app(
        lambda page: App(page, service).start(),
        assets_dir=str(ASSETS),
        no_cdn=True,
        session_timeout_seconds=session_timeout_s,
    )
    shared = table is not None or hosting is not None
    if limits is None:
        # A hosted server's strangers each get a fair share of a process; a table's own
        # server (or one device's) serves the people at it as fast as it can.
        limits = WireLimits(share=Share() if hosting is not None else None)
    app = OfflinePage(WireGate(app, limits, open_door=not shared), FONT, ASSETS / FONTS[FONT])
    names = None
    if table is not None:
        names = {urlsplit(table.base).hostname or "", urlsplit(table.host_base).hostname or ""}
        names = {url_name(name) for name in names if name}
    if shared:
        app = ReconnectNotice(app)
    # Outside every middleware that rewrites a page's body: they read it uncompressed.
    app = PackedFiles(app)
    app = Health(app, store.ping)
    hosts, origins = allowed_hosts(host, port, names), allowed_origins(host, port, names)
    if hosting is not None:
        public_hosts, public_origins = public_address(hosting.public_url)
        hosts, origins = hosts | public_hosts, origins | public_origins
    app = OriginGuard(app, hosts, origins)
    if trusted_proxies:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        forwarded = ProxyHeadersMiddleware(cast(Any, app), trusted_hosts=list(trusted_proxies))
        app = cast(ASGIApp, forwarded)
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = DEFAULT_PORT,
    db: str | None = None,
    web: bool = False,
    table: TableLinks | None = None,
    *,
    trusted_proxies: Sequence[str] = (),
    session_timeout_s: int = SESSION_TIMEOUT_S,
    store: Store | None = None,
    hosting: Hosting | None = None,
) -> None:
    """Run the app: a desktop window where there is a display, else a web server.

    A shared `table` is always served on the web. `store`: the games, if opened already.
    """
    store = store or open_store(db)
    flet_patches.install()
    has_display = sys.platform != "linux" or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if web or table is not None or hosting is not None or not has_display:
        import uvicorn

        if hosting is not None:
            sweep_idle_tables(hosting)
        warm_up_once_listening(host, port)
        pack_in_background(PackStore())
        # Flet's own web server cannot be given the guard, so the app is served here, the
        # way Flet serves it (the same websocket implementation), without access logs.
        app = web_app(
            store,
            host,
            port,
            table,
            trusted_proxies=trusted_proxies,
            session_timeout_s=session_timeout_s,
            hosting=hosting,
        )
        tune_for_serving()
        uvicorn.run(
            app,
            host=host,
            port=port,
            ws="websockets-sansio",
            # A request's headers late, or too many connections from one address: closed
            # (http_edge.py). Behind a proxy every connection is the proxy's: not counted.
            http=guarded_http(HttpLimits(per_address=None if trusted_proxies else PER_ADDRESS)),
            # The biggest frame a page sends (a game log file); the gate checks each again.
            ws_max_size=WireLimits().admitted_bytes,
            log_level="warning",
            # A forwarded address is believed only from the proxies named (web_app), never
            # from uvicorn's default (any connection from 127.0.0.1).
            proxy_headers=False,
            # SIGTERM stops the server within a few seconds, whatever its pages are doing.
            timeout_graceful_shutdown=SHUTDOWN_S,
        )
        return
    service = Service(store)
    ft.run(
        lambda page: App(page, service).start(),
        host=host,
        port=port,
        view=ft.AppView.FLET_APP,
        assets_dir=str(ASSETS),
        no_cdn=True,
    )
