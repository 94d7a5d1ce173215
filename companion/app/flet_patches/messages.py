"""A Flet protocol message read as its action alone.

Flet's web server logs each message it sends with an f-string (`flet_web`'s
`FletApp.send_message`): built at every send whatever the log level, it wrote out the whole
screen's controls. Profiled under a hosted server's load, that was a tenth of a busy
server's event loop. What is sent is the same: only the message's text changes.
"""

from __future__ import annotations

import dataclasses

from flet.messaging.protocol import Message

_FLETS_OWN = Message.__repr__


def action_only(message: Message) -> str:
    """A message's text: its action, not its body."""
    return f"Message({message.action!r})"


def why_not() -> str | None:
    """Why this patch does not fit the Flet installed, or None if it does."""
    if "action" not in {field.name for field in dataclasses.fields(Message)}:
        return "Flet's protocol Message has no action field"
    return None


def install() -> None:
    """Have every protocol message read as its action."""
    Message.__repr__ = action_only  # type: ignore[method-assign,assignment]


def undo() -> None:
    """Have protocol messages read as Flet writes them."""
    Message.__repr__ = _FLETS_OWN  # type: ignore[method-assign]
