"""Per-reader push: each subscriber hears only about its own reader's view.

A table hands this fan-out the notices of each accepted move while it holds its
lock, so they queue in move order; they are delivered after the lock is released.
Delivery is serialised: whichever thread finds nobody delivering drains the queue,
and a notice queued meanwhile (by another thread, or by a subscriber that makes a
move) is delivered by that same drain, after the ones before it, never nested.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

import hiddenrole as hr

from .views import HostNotice, Notice

__all__ = ["NoticeCallback", "HostCallback", "Fanout", "HOST"]

_log = logging.getLogger("hiddenrole.host")

NoticeCallback = Callable[[Notice], object]
"""``callback(notice)``: one reader's new version, events and chat."""
HostCallback = Callable[[HostNotice], object]
"""``callback(host_notice)``: every accepted move, for the host only."""


class _Host:
    """The key under which host subscribers are filed (distinct from every seat and from ``None``)."""

    def __repr__(self) -> str:
        return "HOST"


HOST: Any = _Host()


class Fanout:
    """Subscribers by reader (a seat, ``None`` for spectators, :data:`HOST`), and the delivery queue."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: dict[object, list[Callable[[Any], object]]] = {}
        self._queue: deque[tuple[object, Notice | HostNotice]] = deque()
        self._draining = False
        self._listening: frozenset[object] | None = None
        """:meth:`listeners`, kept until someone subscribes or unsubscribes."""
        self._targets: dict[object, tuple[Callable[[Any], object], ...]] = {}
        """Each reader's live callbacks, kept (like ``_listening``) until someone subscribes or unsubscribes."""

    def subscribe(self, reader: object, callback: Callable[[Any], object]) -> Callable[[], None]:
        if not callable(callback):
            raise hr.InvalidArgument("a subscriber must be callable")
        entry = [callback]  # a fresh object, so the same callback may subscribe twice
        with self._lock:
            self._subs.setdefault(reader, []).append(entry[0])
            self._listening = None
            self._targets.clear()
            token = len(self._subs[reader]) - 1
            subs = self._subs[reader]

        def unsubscribe() -> None:
            with self._lock:
                if token < len(subs) and subs[token] is entry[0]:
                    subs[token] = _gone
                    entry[0] = _gone
                    self._listening = None
                    self._targets.clear()

        return unsubscribe

    def listening(self, reader: object) -> bool:
        """Whether anyone subscribed to ``reader`` (a table builds no notice for nobody)."""
        with self._lock:
            return any(cb is not _gone for cb in self._subs.get(reader, ()))

    def listeners(self) -> frozenset[object]:
        """Every reader someone listens to now (one look for a whole move, not one per reader)."""
        with self._lock:
            got = self._listening
            if got is None:
                got = frozenset(r for r, subs in self._subs.items() if any(cb is not _gone for cb in subs))
                self._listening = got
            return got

    def post(self, notices: list[tuple[object, Notice | HostNotice]]) -> None:
        """Queue one move's notices, each with its reader (the table calls this under its own lock, in move order)."""
        with self._lock:
            self._queue.extend(notices)

    def drain(self) -> None:
        """Deliver every queued notice, unless another thread (or an outer frame) already is."""
        with self._lock:
            if self._draining or not self._queue:
                return
            self._draining = True
        try:
            while True:
                with self._lock:
                    if not self._queue:
                        self._draining = False
                        return
                    reader, notice = self._queue.popleft()
                    targets = self._targets.get(reader)
                    if targets is None:
                        targets = self._targets[reader] = tuple(
                            cb for cb in self._subs.get(reader, ()) if cb is not _gone
                        )
                for cb in targets:
                    try:
                        cb(notice)
                    except Exception:
                        _log.exception("a notice subscriber raised; the others are still told")
        except BaseException:
            with self._lock:
                self._draining = False
            raise


def _gone(notice: object) -> None:
    """Stands in for an unsubscribed callback (keeps the others' positions)."""
