"""The addresses a shared table is opened by, and the QR code that carries the Join link."""

from __future__ import annotations

import io
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import quote

import segno

from companion.play.sharing.access import TableAccess

CODE_PARAMETER = "code"


def url_name(host: str) -> str:
    """A host as written in a URL: lower case, an IPv6 address in brackets."""
    host = host.strip().lower()
    try:
        if ipaddress.ip_address(host).version == 6:
            return f"[{host}]"
    except ValueError:
        pass
    return host


def lan_address() -> str:
    """This machine's address on the local network: the interface traffic would leave by.

    No packet is sent (a UDP socket only picks a route); with no network, loopback.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def link(base: str, code: str) -> str:
    """The app's address with a code in it: opening it lets a device in."""
    return f"{base}/?{CODE_PARAMETER}={quote(code, safe='')}"


@dataclass(frozen=True)
class TableLinks:
    """The Join, Watch and host links of a table served at `base` (e.g. http://10.0.0.7:8550)."""

    base: str
    host_base: str
    access: TableAccess

    @classmethod
    def serving(cls, access: TableAccess, name: str, port: int, host_name: str) -> TableLinks:
        """The links of a table served on `name:port`; the host's own link under `host_name`."""
        return cls(
            f"http://{url_name(name)}:{port}", f"http://{url_name(host_name)}:{port}", access
        )

    @property
    def join(self) -> str:
        """The link that lets a device take a seat."""
        return link(self.base, self.access.join_code)

    @property
    def watch(self) -> str:
        """The link that lets a device watch."""
        return link(self.base, self.access.watch_code)

    @property
    def host(self) -> str:
        """The host's own link: the Share panel and everything a player has."""
        return link(self.host_base, self.access.host_key)


def terminal_qr(text: str) -> str:
    """A QR code of `text` drawn with block characters, for a terminal."""
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def png_qr(text: str, scale: int = 8) -> bytes:
    """A QR code of `text` as PNG bytes, dark on light, with the quiet zone it needs."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()
