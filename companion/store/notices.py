"""The bus across processes: changes announced through PostgreSQL's LISTEN/NOTIFY.

Several server processes on one PostgreSQL database each hold one `PostgresBus`. A change
published in one (a game's new revision, a seat, a deleted game) is heard at once by the
publisher's own pages but the publisher, and sent with NOTIFY on one channel; every other
process hears it on its listening connection and tells its own pages. A notice carries which
change happened (a topic and a small value), never the change: the store holds that.

The bus is the play layer's `Bus` (companion/play/bus.py) in shape; its pages in one
process are `Subscribers`, which the play layer's LocalBus is made of too.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections.abc import Callable
from typing import Any

from sqlalchemy.engine import make_url

log = logging.getLogger("companion.store")

# The one channel every process listens on; a notice names its topic inside.
CHANNEL = "summoners_isle"
# PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; a notice is far smaller.
MOST_BYTES = 7900
# How often the listener looks up from waiting, to stop when asked.
WAKE_S = 0.5
# After a lost connection, the listener tries again after this long (doubling, to the most).
RETRY_S = (0.5, 8.0)

Handler = Callable[[str, object], None]


class Subscribers:
    """The pages of one process that follow topics: who hears what, and telling them.

    Handlers are called in the publisher's thread, in turn; one that wants its own thread or
    event loop (a page's screen) schedules itself there, and one that fails is logged while
    the others still hear.
    """

    def __init__(self) -> None:
        self._subscriptions: dict[str, dict[int, tuple[object, Handler]]] = {}
        # The topics each subscriber follows (by its id: a subscription holds the subscriber,
        # so the id is its own while it has one), so that leaving them does not look through
        # every page's subscriptions: 200 pages coming back each left their screen's.
        self._topics_of: dict[int, set[str]] = {}
        self._lock = threading.Lock()

    def subscribe(self, topic: str, subscriber: object, handler: Handler) -> None:
        """Call `handler(topic, value)` for each publication on `topic` by anyone else."""
        with self._lock:
            self._subscriptions.setdefault(topic, {})[id(handler)] = (subscriber, handler)
            self._topics_of.setdefault(id(subscriber), set()).add(topic)

    def unsubscribe_all(self, subscriber: object) -> None:
        """Forget every subscription `subscriber` holds."""
        with self._lock:
            for topic in self._topics_of.pop(id(subscriber), ()):
                handlers = self._subscriptions.get(topic, {})
                kept = {key: held for key, held in handlers.items() if held[0] is not subscriber}
                if kept:
                    self._subscriptions[topic] = kept
                else:
                    self._subscriptions.pop(topic, None)

    def deliver(self, topic: str, value: object, sender: object | None = None) -> None:
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

    def count(self, topic: str) -> int:
        """How many subscriptions `topic` has."""
        with self._lock:
            return len(self._subscriptions.get(topic, {}))


def conninfo(url: str) -> str:
    """A SQLAlchemy URL (postgresql+psycopg://...) as psycopg's connection string."""
    parsed = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


class PostgresBus:
    """Announces changes to this process's pages and, through PostgreSQL, to other
    processes' pages; `close()` stops listening."""

    def __init__(self, url: str, connect: Callable[..., Any] | None = None) -> None:
        if connect is None:
            import psycopg

            connect = psycopg.connect
        self._connect = connect
        self._conninfo = conninfo(url)
        # This process's notices come back to it from the server: it knows them by this.
        self.origin = secrets.token_hex(8)
        self._here = Subscribers()
        self._stop = threading.Event()
        self._listening = threading.Event()
        self._sender = connect(self._conninfo, autocommit=True)
        self._send_lock = threading.Lock()
        self._listener = threading.Thread(target=self._listen, name="bus-listen", daemon=True)
        self._listener.start()

    def wait_until_listening(self, timeout: float = 10) -> bool:
        """Whether the listening connection is up (within `timeout` seconds)."""
        return self._listening.wait(timeout)

    def publish(self, topic: str, value: object, sender: object | None = None) -> None:
        """Tell every subscriber of `topic`, except `sender`, here and in other processes."""
        payload = json.dumps({"origin": self.origin, "topic": topic, "value": value})
        if len(payload.encode()) > MOST_BYTES:
            raise ValueError(f"a notice on {topic} is too long for PostgreSQL's NOTIFY")
        self._here.deliver(topic, value, sender)
        try:
            with self._send_lock:
                self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
        except Exception:
            # The pages of this process heard it; the others see it at their next read.
            log.exception("could not announce %s to the other processes", topic)
            self._reconnect_sender()

    def subscribe(self, topic: str, subscriber: object, handler: Handler) -> None:
        """Call `handler(topic, value)` for each publication on `topic` by anyone else."""
        self._here.subscribe(topic, subscriber, handler)

    def unsubscribe_all(self, subscriber: object) -> None:
        """Forget every subscription `subscriber` holds."""
        self._here.unsubscribe_all(subscriber)

    def close(self) -> None:
        """Stop listening and close both connections."""
        self._stop.set()
        self._listener.join(timeout=WAKE_S * 4)
        with self._send_lock:
            self._sender.close()

    def _reconnect_sender(self) -> None:
        with self._send_lock:
            try:
                self._sender.close()
                self._sender = self._connect(self._conninfo, autocommit=True)
            except Exception:
                log.exception("could not reconnect to announce changes")

    def _listen(self) -> None:
        """Hear other processes' notices until stopped, connecting again when the line drops."""
        wait = RETRY_S[0]
        while not self._stop.is_set():
            try:
                with self._connect(self._conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    wait = RETRY_S[0]
                    while not self._stop.is_set():
                        for notice in connection.notifies(timeout=WAKE_S):
                            self._heard(notice.payload)
            except Exception:
                self._listening.clear()
                if self._stop.is_set():
                    return
                log.warning("the bus lost its database connection; trying again in %.1f s", wait)
                self._stop.wait(wait)
                wait = min(wait * 2, RETRY_S[1])

    def _heard(self, payload: str) -> None:
        try:
            notice = json.loads(payload)
            origin, topic, value = notice["origin"], notice["topic"], notice["value"]
        except (ValueError, KeyError, TypeError):
            log.warning("a notice on the bus's channel that is not the app's was ignored")
            return
        if origin != self.origin and isinstance(topic, str):
            self._here.deliver(topic, value)
