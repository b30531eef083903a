"""The engine's lock: re-entrant like ``threading.RLock``, and cheap to take when no other thread holds it.

Why not ``RLock``: an engine takes its lock on every submission and phase end (a random
12-player werewolf game about 160 times), and on CPython 3.11 ``RLock.acquire`` parses its
(absent) arguments and takes an OS-level lock on every call: a round trip was about 4% of a
compiled game. Here the holder is a thread id and the lock itself a one-slot list:

- **take**, uncontended: read this thread's id; if it already holds the lock, count one level
  deeper (re-entrant: an extension point calling back still reaches the engine's
  ``ReentrantCall`` check); else pop the token from the list (``list.pop`` is one atomic step
  under the GIL, compiled or not) and write the holder.
- **give back**: one level less; at the last, clear the holder *before* the token goes back (so a
  thread that takes it next is never overwritten), then wake the longest sleeper, if any.
- **contended**: a thread that finds the list empty queues a private lock of its own, held, and
  tries the pop once more *after* queueing (a release in between then either left the token for
  this try or found the sleeper queued and woke it: no wake is lost), then sleeps on it. Every
  release with sleepers wakes one (first come, first woken), which tries again.

Interpreted, the opposite holds: ``EngineLock.acquire`` is a Python frame, dearer than the C
``RLock.acquire`` call (a pure game +1.4-1.9% instructions), so :func:`engine_lock` gives an
interpreted engine threading's C ``RLock``, which has the same methods and the same semantics
(re-entrant ``acquire``/``release``, a context manager); the concurrency tests run on both builds.

The lock is the kernel's own (not public): its holders always pair a take with a give-back
(``acquire`` / ``try`` / ``finally: release``, or ``with``), so a release from a thread that
does not hold it is not checked for (``RLock`` raises); it would hand the lock on.
"""

from __future__ import annotations

import _thread
from contextlib import suppress
from types import FunctionType
from typing import Final, cast

__all__ = ["EngineLock", "engine_lock"]

_IDENT: Final = _thread.get_ident
"""Read from a C static by compiled code (a module attribute is a lookup by name)."""
_NEW_LOCK: Final = _thread.allocate_lock
_RLOCK: Final = _thread.RLock


class EngineLock:
    """One engine's lock (see the module docstring)."""

    __slots__ = ("_depth", "_free", "_holder", "_sleepers")

    def __init__(self) -> None:
        self._free: list[bool] = [True]
        """The token while nobody holds the lock; empty while somebody does."""
        self._holder = 0
        """The holding thread's id (0: none); written only by the holder."""
        self._depth = 0
        """How many times the holder took the lock without giving it back."""
        self._sleepers: list[_thread.LockType] = []
        """Threads waiting for the lock, each asleep on a held lock of its own, first come first."""

    def acquire(self) -> None:
        """Take the lock, waiting while another thread holds it."""
        me: int = _IDENT()
        if self._holder == me:
            self._depth += 1
            return
        try:
            self._free.pop()
        except IndexError:
            self._wait()
        self._holder = me
        self._depth = 1

    def release(self) -> None:
        """Give one level back; at the last, hand the lock to the longest sleeper, if any."""
        depth = self._depth - 1
        if depth > 0:
            self._depth = depth
            return
        if depth < 0:
            raise RuntimeError("release of an engine lock that is not held")
        self._depth = 0
        self._holder = 0  # before the token: the next holder writes its own id after taking it
        self._free.append(True)
        if self._sleepers:
            self._wake()

    def __enter__(self) -> None:
        self.acquire()

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        self.release()

    def held(self) -> bool:
        """Whether the calling thread holds the lock (for checks and tests)."""
        return self._depth > 0 and self._holder == _IDENT()

    def _wait(self) -> None:
        """Sleep until the token is this thread's (the contended path; see the module docstring)."""
        while True:
            sleeper = _NEW_LOCK()
            sleeper.acquire()
            self._sleepers.append(sleeper)
            try:
                self._free.pop()  # once more, now that a release would find the sleeper
            except IndexError:
                try:
                    sleeper.acquire()  # until a release wakes it, then try again
                except BaseException:  # interrupted asleep: leave the queue without losing a wake
                    self._leave_queue(sleeper)
                    raise
                continue
            # A release may have taken it from the queue already: that wake was this thread's token.
            with suppress(ValueError):
                self._sleepers.remove(sleeper)
            return

    def _leave_queue(self, sleeper: _thread.LockType) -> None:
        """A sleeper gives up: out of the queue; if a release already woke it, that wake goes to the next."""
        try:
            self._sleepers.remove(sleeper)
        except ValueError:
            if self._free:
                self._wake()

    def _wake(self) -> None:
        """Wake the longest sleeper (it then tries for the token)."""
        try:
            sleeper = self._sleepers.pop(0)
        except IndexError:
            return  # another release woke the last one meanwhile
        sleeper.release()


def engine_lock() -> EngineLock:
    """A new engine's lock: an :class:`EngineLock` compiled; interpreted, threading's C ``RLock``
    (the same methods and semantics, and cheaper there: see the module docstring)."""
    if _INTERPRETED:
        return cast(EngineLock, _RLOCK())
    return EngineLock()


_INTERPRETED: Final = type(engine_lock) is FunctionType
"""Whether this module runs as Python source (a compiled module's functions are not Python functions)."""
