"""Every change the app makes to Flet's internals, and every private name of Flet's it uses.

Three patches make serving faster and were written for one version of Flet each: they go in
only with that version, and only if the code they stand in for is the one they were checked
against; otherwise Flet stays as it ships.

- `diff_walk`: a new screen's set-up walk visits only what can hold a control;
- `dataclass_check`: the encoder's `is_dataclass` is answered once per type;
- `messages`: a protocol message reads as its action alone, not the whole screen.

Two more lean on Flet's methods rather than on their code, so they go in with any version
that has those methods; without them the app still works, less well:

- `sessions`: a session dropped at its disconnect when its page said so (else it waits out
  the session timeout);
- `errors`: a page's failure shown by the app as one sentence (else Flet shows its own).

`privates` holds the private functions the websocket gate reads frames with (each None where
Flet has none, and the gate then checks less). `install()` puts everything in once, and logs
one line for each part left off and why. docs/app.md says how to upgrade Flet.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from importlib import metadata

from companion.app.flet_patches import (
    dataclass_check,
    diff_walk,
    errors,
    messages,
    privates,
    sessions,
)

log = logging.getLogger("companion.app")


@dataclass(frozen=True)
class Patch:
    """One change to Flet: what it needs of the Flet installed, and how it goes in and out."""

    name: str
    why_not: Callable[[], str | None]
    install: Callable[[], None]
    undo: Callable[[], None]
    # The distribution and exact version it was written for; None: any with what it uses.
    written_for: tuple[str, str] | None = None


PATCHES = (
    Patch("diff_walk", diff_walk.why_not, diff_walk.install, diff_walk.undo, ("flet", "1.0.5")),
    Patch(
        "dataclass_check",
        dataclass_check.why_not,
        dataclass_check.install,
        dataclass_check.undo,
        ("flet", "1.0.5"),
    ),
    Patch("messages", messages.why_not, messages.install, messages.undo, ("flet", "1.0.5")),
    Patch("sessions", sessions.why_not, sessions.install, sessions.undo),
    Patch("errors", errors.why_not, errors.install, errors.undo),
)

_installed: frozenset[str] | None = None


def installed_version(distribution: str) -> str | None:
    """The version of `distribution` installed, or None if it is not."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def left_off(patch: Patch) -> str | None:
    """Why `patch` does not fit the Flet installed, or None if it does."""
    if patch.written_for is not None:
        distribution, version = patch.written_for
        found = installed_version(distribution)
        if found != version:
            return f"written for {distribution} {version}, {distribution} {found} is installed"
    return patch.why_not()


def install() -> frozenset[str]:
    """Put in every patch that fits the Flet installed, once; the names of those put in."""
    global _installed
    if _installed is None:
        put_in = set()
        for patch in PATCHES:
            why = left_off(patch)
            if why is None:
                patch.install()
                put_in.add(patch.name)
            else:
                log.warning("Flet patch %s left off: %s", patch.name, why)
        for name in privates.missing():
            log.warning("Flet's %s is gone: the websocket gate checks frames less", name)
        _installed = frozenset(put_in)
    return _installed


def restore() -> None:
    """Leave Flet as it ships (the tests compare the two)."""
    global _installed
    for patch in PATCHES:
        patch.undo()
    _installed = None
