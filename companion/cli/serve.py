"""`python -m companion app`: serve the companion, in a window, on the web, shared or hosted."""

from __future__ import annotations

import errno
import ipaddress
import socket
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from companion.cli.io import UserError, fail, unicode_argument
from companion.store.errors import StoreError

if TYPE_CHECKING:
    from companion.play.sharing.links import TableLinks
    from companion.store.store import Store

MIN_PORT, MAX_PORT = 1, 65535
MAX_SESSION_TIMEOUT_S = 86_400


def app_command(
    web: Annotated[bool, typer.Option("--web", help="Serve in the browser, not a window.")] = False,
    host: Annotated[
        str | None,
        typer.Option(
            help="Address to serve on (default 127.0.0.1; with --share, every address, "
            "linked by this machine's address on the network).",
            callback=unicode_argument,
        ),
    ] = None,
    port: Annotated[int, typer.Option(min=MIN_PORT, max=MAX_PORT, help="Port to serve on.")] = 8550,
    db: Annotated[str | None, typer.Option(help="Database URL or file.")] = None,
    share: Annotated[
        bool,
        typer.Option(
            "--share",
            help="Let the phones at the table in with a code: prints Join and Watch links "
            "and a QR code (docs/sharing.md). Serves on the web.",
        ),
    ] = False,
    hosted: Annotated[
        bool,
        typer.Option(
            "--hosted",
            help="Host many tables on one public address: anyone who opens it may start a "
            "table of their own (docs/hosting.md). Needs --public-url; serves on the web.",
        ),
    ] = False,
    public_url: Annotated[
        str | None,
        typer.Option(
            "--public-url",
            help="With --hosted: the address people open (e.g. https://isle.example.org), "
            "which the links and QR codes carry.",
            callback=unicode_argument,
        ),
    ] = None,
    idle_days: Annotated[
        float,
        typer.Option(
            "--idle-days",
            min=0.01,
            max=3650,
            help="With --hosted: a table nobody used for this many days is removed, games and all.",
        ),
    ] = 30.0,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            "--trusted-proxy",
            help="A reverse proxy's address or network (repeatable): the client's address is "
            "read from its X-Forwarded-For, never from anyone else's (docs/security.md).",
        ),
    ] = None,
    session_timeout: Annotated[
        int,
        typer.Option(
            min=1,
            max=MAX_SESSION_TIMEOUT_S,
            help="Seconds a page that lost its connection keeps its session on the server.",
        ),
    ] = 300,
) -> None:
    """Start the companion app (a window where there is a display, else http://HOST:PORT)."""
    bind = host or ("0.0.0.0" if share else "127.0.0.1")
    if hosted and share:
        fail("--hosted and --share cannot go together: a hosted server's every table is shared")
    if hosted and not public_url:
        fail("--hosted needs --public-url: the address people open, e.g. https://isle.example.org")
    if public_url and not hosted:
        fail("--public-url goes with --hosted")
    try:
        if public_url:
            public_url = checked_public_url(public_url)
        check_port(bind, port)
        proxies = [proxy_network(proxy) for proxy in trusted_proxy or []]
    except UserError as error:
        fail(str(error))
    from companion.app.server import serve
    from companion.store.store import open_store

    try:
        store = open_store(db)
    except StoreError as error:
        fail(str(error))
    table = None
    hosting = None
    if share:
        table = share_table(bind, port, store)
    elif hosted and public_url:
        from companion.play.sharing.hosting import HostedLimits, Hosting

        hosting = Hosting(store.tables, public_url, HostedLimits(idle_days=idle_days))
        typer.echo(f"Summoner's Isle Companion, hosted at {public_url} (serving {bind}:{port})")
    else:
        if bind not in ("127.0.0.1", "localhost", "::1"):
            typer.echo(
                f"warning: serving on {bind}: anyone who can reach this machine on port {port} "
                "can open and change your games",
                err=True,
            )
        typer.echo(f"Summoner's Isle Companion: http://{bind}:{port}", err=True)
    try:
        serve(
            host=bind,
            port=port,
            db=db,
            web=web,
            table=table,
            store=store,
            hosting=hosting,
            trusted_proxies=proxies,
            session_timeout_s=session_timeout,
        )
    except StoreError as error:
        fail(str(error))


def share_table(bind: str, port: int, store: Store) -> TableLinks:
    """Make a shared table's codes and print its links: Join (with its QR code), Watch, host."""
    from companion.play.sharing.access import TableAccess
    from companion.play.sharing.links import TableLinks, lan_address, terminal_qr

    wildcard = bind in ("0.0.0.0", "::", "")
    name = lan_address() if wildcard else bind
    table = TableLinks.serving(
        TableAccess(store.tables), name, port, "127.0.0.1" if wildcard else bind
    )
    typer.echo(f"Join: {table.join}")
    typer.echo(terminal_qr(table.join), nl=False)
    typer.echo(f"Watch: {table.watch}")
    typer.echo(f"Host: {table.host}  (this machine only: the Share panel; keep it to yourself)")
    typer.echo(
        "Sharing on the local network over plain HTTP: anyone with the code gets in "
        "(docs/sharing.md). Stop with Ctrl-C.",
        err=True,
    )
    sys.stdout.flush()
    return table


def checked_public_url(text: str) -> str:
    """A hosted server's public address as given: http(s)://name[:port], no path (UserError)."""
    from urllib.parse import urlsplit

    text = text.strip().rstrip("/")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (a port out of range raises here)
    except ValueError:
        raise UserError(f"--public-url {text!r} is not an address") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query:
        raise UserError(
            f"--public-url {text!r} is not an address like https://isle.example.org "
            "(http or https, a host name, no path)"
        )
    return text


def proxy_network(text: str) -> str:
    """A trusted proxy as given: an address or a network, never a wildcard (UserError)."""
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        raise UserError(
            f"--trusted-proxy {text!r} is not an address or a network (e.g. 127.0.0.1, 10.0.0.0/8)"
        ) from None


def check_port(host: str, port: int) -> None:
    """Bind every address of host:port once and let go; UserError says why one cannot be."""
    # The server (uvicorn inside Flet) reports a failed bind as a traceback and then never
    # exits, so the port is tried here first. Another program could still take it in the
    # moment between, which the server would then report its own way.
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise UserError(f"cannot serve on {host}: {error.strerror}") from None
    for family, kind, protocol, _, address in addresses:
        try:
            with socket.socket(family, kind, protocol) as probe:
                # As the server does: a port left in TIME_WAIT by a previous run is free to use.
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                raise UserError(f"port {port} on {host} is already in use") from None
            raise UserError(f"cannot serve on {host}:{port}: {error.strerror or error}") from None
