"""The bus: how every change a device makes is announced to the devices that follow it.

A record in a game, a change to its Energy and Reset draft, a seat taken or freed, a game
deleted, the table's codes renewed: each is published on a topic, and every subscriber of
that topic but the publisher hears it. The bus carries which change happened (a revision, a
version, a game id), never the change itself: the store holds that, and a device that hears
of it reads it there.

`LocalBus` links the pages of one server process. A bus for several processes (the hosted
service over PostgreSQL's LISTEN/NOTIFY) implements the same `Bus` protocol.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

log = logging.getLogger("companion.play")

# The table's topics: its codes renewed, a seat taken or freed, a game deleted.
RENEWED = "table/renewed"
SEATS = "table/seats"
DELETED = "table/deleted"

# What a subscriber is called with: the topic, then the value published.
Handler = Callable[[str, object], None]


def game_topic(game_id: str) -> str:
    """The topic of a game's new revisions."""
    return f"game/{game_id}"


def draft_topic(game_id: str) -> str:
    """The topic of a game's Energy and Reset draft's new versions."""
    return f"draft/{game_id}"


class Bus(Protocol):
    """Announces changes on topics; every subscriber but the publisher hears each."""

    def publish(self, topic: str, value: object, sender: object | None = None) -> None:
        """Tell every subscriber of `topic`, except those `sender` holds, that `value`."""
        ...

    def subscribe(self, topic: str, subscriber: object, handler: Handler) -> None:
        """Call `handler(topic, value)` for each publication on `topic` by anyone else."""
        ...

    def unsubscribe_all(self, subscriber: object) -> None:
        """Forget every subscription `subscriber` holds."""
        ...


@dataclass
class LocalBus:
    """The pages of one process: handlers are called in the publisher's thread, in turn.

    A handler that wants its own thread or event loop (a page's screen) schedules itself
    there; one that fails is logged and the others still hear.
    """

    _subscriptions: dict[str, dict[int, tuple[object, Handler]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def publish(self, topic: str, value: object, sender: object | None = None) -> None:
        """Tell every subscriber of `topic`, except `sender`, that `value`."""
        with self._lock:
            heard = [
                handler
                for owner, handler in self._subscriptions.get(topic, {}).values()
                if sender is None or owner is not sender
            ]
        for handler in heard:
            try:
                handler(topic, value)
            except Exception:
                log.exception("a subscriber of %s failed", topic)

    def subscribe(self, topic: str, subscriber: object, handler: Handler) -> None:
        """Call `handler(topic, value)` for each publication on `topic` by anyone else."""
        with self._lock:
            self._subscriptions.setdefault(topic, {})[id(handler)] = (subscriber, handler)

    def unsubscribe_all(self, subscriber: object) -> None:
        """Forget every subscription `subscriber` holds."""
        with self._lock:
            for topic, handlers in list(self._subscriptions.items()):
                kept = {key: held for key, held in handlers.items() if held[0] is not subscriber}
                if kept:
                    self._subscriptions[topic] = kept
                else:
                    del self._subscriptions[topic]

    def subscribers(self, topic: str) -> int:
        """How many subscriptions `topic` has (for tests and the server's health)."""
        with self._lock:
            return len(self._subscriptions.get(topic, {}))
