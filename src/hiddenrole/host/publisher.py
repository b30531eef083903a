"""Host-level change notifications that carry identifiers only.

A publisher tells subscribers "table T changed to sequence N" and nothing else: no
state, no event, no view. It is for the host (storage, a moderator, a process that
relays changes): N counts every move, hidden ones included, so it must never reach
a seat. Seats are pushed their own notices by :meth:`~hiddenrole.host.Table.subscribe`.

Delivery is serialised and in order: whichever thread publishes while nobody is
delivering drains the queue; a notification published meanwhile (from another
thread, or from inside a subscriber) is queued and delivered by that same drain.
A notification older than one already delivered for its table is dropped, since
the newer one already told subscribers to re-read.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

import hiddenrole as hr

__all__ = ["Changed", "Subscriber", "Publisher"]

_log = logging.getLogger("hiddenrole.host")


class Changed(NamedTuple):
    """Table ``table`` is now at sequence number ``seq``."""

    table: str
    seq: int


Subscriber = Callable[[Changed], object]


class Publisher:
    """Fan-out of :class:`Changed` notes to subscribers, optionally filtered by table."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: list[tuple[Subscriber, str | None]] = []
        self._queue: deque[Changed] = deque()
        self._draining = False
        self._delivered: dict[str, int] = {}

    def subscribe(self, callback: Subscriber, table: str | None = None) -> Callable[[], None]:
        """Call ``callback(note)`` for each change (of ``table`` only, if given). Returns an unsubscribe function."""
        if not callable(callback):
            raise hr.InvalidArgument("a subscriber must be callable")
        entry = (callback, table)
        with self._lock:
            self._subscribers.append(entry)

        def unsubscribe() -> None:
            with self._lock:
                if entry in self._subscribers:
                    self._subscribers.remove(entry)

        return unsubscribe

    def publish(self, table: str, seq: int) -> None:
        """Announce that ``table`` reached ``seq``. Subscriber errors are logged and do not stop the others."""
        with self._lock:
            self._queue.append(Changed(table, seq))
            if self._draining:
                return
            self._draining = True
        try:
            self._drain()
        except BaseException:
            with self._lock:
                self._draining = False
            raise

    def _drain(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    self._draining = False
                    return
                note = self._queue.popleft()
                if note.seq <= self._delivered.get(note.table, -1):
                    continue
                self._delivered[note.table] = note.seq
                targets = [cb for cb, t in self._subscribers if t is None or t == note.table]
            for cb in targets:
                try:
                    cb(note)
                except Exception:
                    _log.exception("a subscriber raised; the others are still told")
