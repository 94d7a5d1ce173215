"""The bus: how every change a device makes is announced to the devices that follow it.

A record in a game, a change to its Energy and Reset draft, a seat taken or freed, a game
deleted, the table's codes renewed: each is published on a topic, and every subscriber of
that topic but the publisher hears it. The bus carries which change happened (a revision, a
version, a game id), never the change itself: the store holds that, and a device that hears
of it reads it there.

`LocalBus` links the pages of one server process; `PostgresBus` (companion/store/notices.py)
links the processes that share one PostgreSQL database, through LISTEN/NOTIFY.
"""

from __future__ import annotations

from typing import Protocol

from companion.store.notices import Handler, Subscribers

__all__ = [
    "DELETED",
    "PRESENCE",
    "RENEWED",
    "SEATS",
    "Bus",
    "Handler",
    "LocalBus",
    "draft_topic",
    "game_topic",
]

# The table's topics: its codes renewed, a seat taken or freed, a game deleted.
RENEWED = "table/renewed"
SEATS = "table/seats"
DELETED = "table/deleted"
# What SEATS carries when a device's page opened or closed: no seat changed (else the game's id).
PRESENCE = ""


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


class LocalBus:
    """The pages of one process: a publication is heard by this process's subscribers only."""

    def __init__(self) -> None:
        self._here = Subscribers()

    def publish(self, topic: str, value: object, sender: object | None = None) -> None:
        """Tell every subscriber of `topic`, except `sender`, that `value`."""
        self._here.deliver(topic, value, sender)

    def subscribe(self, topic: str, subscriber: object, handler: Handler) -> None:
        """Call `handler(topic, value)` for each publication on `topic` by anyone else."""
        self._here.subscribe(topic, subscriber, handler)

    def unsubscribe_all(self, subscriber: object) -> None:
        """Forget every subscription `subscriber` holds."""
        self._here.unsubscribe_all(subscriber)

    def subscribers(self, topic: str) -> int:
        """How many subscriptions `topic` has (for tests and the server's health)."""
        return self._here.count(topic)
