"""Change notices: ``Changed(table, seq)`` fanned out to listeners on one thread, in order.

A notice carries a table id and a sequence number and nothing else, so no secret can
travel on it; whoever receives one re-reads what it is entitled to. Listeners run on
a dedicated thread so a slow listener never holds up a commit, and in the order the
notices were published (commit order), so a listener never sees seq 7 before seq 6.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from typing import Final

from hiddenrole.host.publisher import Changed

from .interface import Listener, Store

__all__ = ["JOIN_TIMEOUT", "Notifier", "Changes"]

JOIN_TIMEOUT: Final = 5.0
"""Seconds ``close`` waits for the notice thread to finish."""

_log = logging.getLogger("hiddenrole.server.storage")
_STOP: Final = object()


class Notifier:
    """Listeners and the thread that calls them."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        self._queue: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False

    def add(self, listener: Listener) -> Callable[[], None]:
        if not callable(listener):
            raise TypeError("a listener must be callable")
        with self._lock:
            if self._closed:
                raise RuntimeError("the store is closed")
            self._listeners.append(listener)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()

        def remove() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return remove

    @property
    def active(self) -> bool:
        with self._lock:
            return bool(self._listeners)

    def publish(self, note: Changed) -> None:
        """Queue a notice (cheap: safe to call while holding the store's write lock)."""
        if self._thread is not None:
            self._queue.put(note)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            assert isinstance(item, Changed)
            with self._lock:
                listeners = list(self._listeners)
            for listener in listeners:
                try:
                    listener(item)
                except Exception:
                    _log.exception("a storage listener failed on %s", item)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._listeners.clear()
            thread = self._thread
        if thread is not None:
            self._queue.put(_STOP)
            if thread is not threading.current_thread():
                thread.join(JOIN_TIMEOUT)


class Changes:
    """The store's notices on the running asyncio loop: ``async with Changes(store) as notes: async for n in notes``.

    The subscription is live once the ``async with`` has entered, and stops when it exits.
    """

    def __init__(self, store: Store) -> None:
        self._store = store
        self._inbox: asyncio.Queue[Changed] = asyncio.Queue()
        self._stop: Callable[[], None] | None = None

    async def __aenter__(self) -> Changes:
        loop = asyncio.get_running_loop()

        def forward(note: Changed) -> None:
            loop.call_soon_threadsafe(self._inbox.put_nowait, note)

        self._stop = await asyncio.to_thread(self._store.listen, forward)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._stop is not None:
            self._stop()
            self._stop = None

    def __aiter__(self) -> Changes:
        return self

    async def __anext__(self) -> Changed:
        return await self._inbox.get()
