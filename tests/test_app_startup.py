"""The server's warm-up: what a first browser would otherwise wait for is done while it boots."""

from __future__ import annotations

import re
import socket
import threading
from pathlib import Path

import flet as ft

from companion.app import warm_up as main

APP = Path(main.__file__).parent


def test_warming_up_loads_every_flet_control_the_app_names():
    main._import_screens()
    named = {
        name
        for path in APP.rglob("*.py")
        for name in re.findall(r"\bft\.([A-Z]\w*)", path.read_text(encoding="utf-8"))
    }
    assert {"Container", "View", "Theme"} <= named
    # Flet caches a lazily imported name in its module's namespace once it is loaded.
    assert named <= set(vars(ft))


def test_the_warm_up_starts_once_the_server_takes_connections(monkeypatch):
    warmed = threading.Event()
    monkeypatch.setattr(main, "warm_up", warmed.set)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        main.warm_up_once_listening("0.0.0.0", port, timeout=5)
        # Nobody listens yet: no warm-up while the server would still be starting.
        assert not warmed.wait(0.3)
        probe.listen()
        assert warmed.wait(5)
