"""Flet's internals, patched in one place (companion/app/flet_patches): each patch goes in
with the Flet it was written for, and Flet stays as it ships otherwise; what the app uses of
Flet's privates has a way on without them. The walk and the encoder's check are compared
with stock Flet's output in tests/test_diff_walk.py and tests/test_dataclass_check.py."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import flet as ft
import msgpack  # type: ignore[import-untyped]
import pytest
from flet.controls.object_patch import DiffBuilder
from flet.messaging import protocol
from flet.messaging.protocol import Message, MessageAction
from flet.messaging.session import Session
from flet.messaging.session_store import SessionStore
from flet.pubsub.pubsub_hub import PubSubHub
from flet_web.fastapi.flet_app_manager import FletAppManager  # type: ignore[import-untyped]

from companion.app import flet_patches, wire_frames
from companion.app.flet_patches import diff_walk, errors, messages, privates, sessions

ALL = {"diff_walk", "dataclass_check", "messages", "sessions", "errors"}


@pytest.fixture(autouse=True)
def stock() -> Iterator[None]:
    """Flet as it ships before each test, and after it."""
    flet_patches.restore()
    yield
    flet_patches.restore()


def _is_stock() -> bool:
    return (
        DiffBuilder._configure_dataclass is diff_walk._FLETS_OWN
        and protocol.is_dataclass is dataclasses.is_dataclass
        and Message.__repr__ is messages._FLETS_OWN
        and "disconnect_session" not in vars(sessions.app_manager())
    )


def test_every_patch_fits_the_flet_installed(caplog: pytest.LogCaptureFixture) -> None:
    assert _is_stock()
    assert flet_patches.install() == ALL
    assert not _is_stock() and not caplog.text
    assert privates.missing() == []
    flet_patches.restore()
    assert _is_stock()


def test_another_flet_version_leaves_flet_stock(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(flet_patches, "installed_version", lambda _: "1.0.6")
    # What leans only on Flet's methods stays: they are all still there.
    assert flet_patches.install() == {"sessions", "errors"}
    assert DiffBuilder._configure_dataclass is diff_walk._FLETS_OWN
    assert protocol.is_dataclass is dataclasses.is_dataclass
    assert Message.__repr__ is messages._FLETS_OWN
    for name in ("diff_walk", "dataclass_check", "messages"):
        line = f"Flet patch {name} left off: written for flet 1.0.5, flet 1.0.6 is installed"
        assert line in caplog.text
    assert flet_patches.install() == {"sessions", "errors"}  # once: no second line
    assert caplog.text.count("left off") == 3


def test_a_message_reads_as_the_action_stock_flet_names_without_its_body() -> None:
    message = Message(MessageAction.PATCH_CONTROL, {"controls": [ft.Text("x" * 500)]})
    own = repr(message)
    messages.install()
    assert own.startswith(f"Message(action={message.action!r}, body=") and len(own) > 500
    assert repr(message) == f"Message({message.action!r})"


@dataclasses.dataclass
class _Session:
    """What flet-web's manager reads of a session at a disconnect."""

    store: SessionStore = dataclasses.field(default_factory=SessionStore)
    disconnected: bool = False

    async def disconnect(self, session_timeout_seconds: int) -> None:
        self.disconnected = True


def _kept_after_disconnect(patched: bool) -> set[str]:
    manager = FletAppManager()
    if patched:
        sessions.install(manager)

    async def run() -> set[str]:
        for name, keep in (("stranger", False), ("player", True), ("unsaid", None)):
            session = _Session()
            if keep is not None:
                session.store.set(sessions.KEEP, keep)
            await manager.add_session(name, session)
            await manager.disconnect_session(name, 300)
            assert session.disconnected
        kept = {"stranger", "player", "unsaid"}
        return {name for name in kept if await manager.get_session(name) is not None}

    return asyncio.run(run())


def test_a_session_said_unkept_is_dropped_at_its_disconnect_others_kept_as_stock() -> None:
    assert _kept_after_disconnect(patched=False) == {"stranger", "player", "unsaid"}
    assert _kept_after_disconnect(patched=True) == {"player", "unsaid"}


def test_without_the_managers_methods_sessions_wait_out_their_timeout() -> None:
    manager = SimpleNamespace(disconnect_session=None, get_session=None)
    assert sessions.why_not(manager) == (
        "flet-web's app manager has no disconnect_session, get_session, delete_session"
    )


def _session() -> tuple[Session, list[Any]]:
    sent: list[Any] = []
    connection = SimpleNamespace(pubsubhub=PubSubHub(), send_message=sent.append, dispose=None)
    return Session(connection), sent


def test_a_pages_failure_goes_to_the_app_not_to_the_browser() -> None:
    session, sent = _session()
    session.error("Traceback ...")
    assert [m.action for m in sent] == [MessageAction.SESSION_CRASHED]  # stock Flet
    flet_patches.install()
    session, sent = _session()
    told: list[str] = []
    errors.on_failure(session.page, told.append)
    session.error("Traceback ...")
    errors.fail(session.page)  # background work failing, told as Flet tells a handler's
    assert (told, sent) == (["Traceback ...", ""], [])


def test_without_session_error_flet_shows_its_own(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delattr(Session, "error")
    assert "errors" not in flet_patches.install()
    assert "Flet patch errors left off: Flet's Session has no error method" in caplog.text
    session, _ = _session()
    errors.on_failure(session.page, print)
    assert "error" not in vars(session)


def test_the_gates_functions_are_flets_own() -> None:
    from flet.controls.control_event import get_event_field_type
    from flet.utils.from_dict import from_dict

    assert privates.decode_ext is protocol.decode_ext_from_msgpack
    assert privates.event_field_type is get_event_field_type
    assert privates.from_dict is from_dict


def test_without_flets_decoders_the_gate_reads_frames_and_leaves_event_data_to_flet(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    for name in ("decode_ext", "event_field_type", "from_dict"):
        monkeypatch.setattr(privates, name, None)
    flet_patches.install()
    for name in ("decode_ext_from_msgpack", "get_event_field_type", "from_dict"):
        assert f"Flet's {name} is gone" in caplog.text
    when = msgpack.ExtType(1, b"2026-11-28T15:00:00")
    frame = b"\x00" + msgpack.packb([3, {"target": 1, "name": "click", "data": when}])
    assert wire_frames.read_frame(frame) == (
        3,
        {"target": 1, "name": "click", "data": when},
    )
    drag = ft.GestureDetector(on_pan_update=print)
    assert wire_frames.check_event(drag, "pan_update", {})  # Flet checks it, not the gate
