"""The engine's own lock (``hiddenrole.locking.EngineLock``): mutual exclusion, re-entry, and no lost wake.

Every wait here is bounded: a lock that loses a wake fails the test with a timeout instead of
freezing the suite. The orderings a GIL switch can produce (a release between a waiter's failed
try and its queueing; a new holder writing its id while the old one is still leaving) are played
deterministically with spies on the lock's two lists, which only pure Python calls through.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, SupportsIndex

import pytest

from hiddenrole.locking import EngineLock

TIMEOUT = 5.0


def in_thread(fn: Callable[[], Any]) -> threading.Thread:
    t = threading.Thread(target=fn, daemon=True)
    t.start()
    return t


def joined(t: threading.Thread) -> bool:
    t.join(TIMEOUT)
    return not t.is_alive()


def test_re_entrant_for_its_holder_and_exclusive_for_others() -> None:
    lock = EngineLock()
    got = threading.Event()

    def other() -> None:
        assert not lock.held()
        with lock:
            got.set()

    def holder() -> None:
        lock.acquire()
        lock.acquire()  # the holder again: one level deeper, not a deadlock
        assert lock.held()
        t = in_thread(other)
        lock.release()
        assert not got.wait(0.2), "another thread took the lock while its holder was one level in"
        lock.release()
        assert got.wait(TIMEOUT) and joined(t)
        assert not lock.held()
        done.set()

    done = threading.Event()
    assert joined(in_thread(holder)) and done.is_set(), "the holder waited for itself"


def test_release_of_a_lock_nobody_holds_is_refused() -> None:
    lock = EngineLock()
    with pytest.raises(RuntimeError, match="not held"):
        lock.release()
    with lock:
        pass
    with pytest.raises(RuntimeError, match="not held"):
        lock.release()


def test_an_exception_inside_with_gives_the_lock_back() -> None:
    lock = EngineLock()
    with pytest.raises(KeyError), lock:
        raise KeyError("x")
    t = in_thread(lambda: lock.__enter__())
    assert joined(t)


def test_threads_never_interleave_inside_it() -> None:
    """A read-switch-write counter under the lock: every increment counted, every thread done."""
    lock = EngineLock()
    box = {"n": 0}
    threads_n, rounds = 8, 300

    def work() -> None:
        for i in range(rounds):
            lock.acquire()
            try:
                n = box["n"]
                if i % 7 == 0:
                    time.sleep(0)  # hand the GIL over while holding the lock
                box["n"] = n + 1
            finally:
                lock.release()

    ts = [in_thread(work) for _ in range(threads_n)]
    assert all(joined(t) for t in ts), "a thread never got the lock: a wake was lost"
    assert box["n"] == threads_n * rounds


class _Hooked(list[Any]):
    """A list that runs ``hook`` once, at the first ``method`` call it sees (before the call, or
    ``after`` it), then behaves as a list."""

    def __init__(self, items: list[Any], method: str, hook: Callable[[], None], after: bool = False) -> None:
        super().__init__(items)
        self._method, self._after = method, after
        self._hook: Callable[[], None] | None = hook

    def append(self, item: Any) -> None:
        self._fire("append", False)
        super().append(item)
        self._fire("append", True)

    def pop(self, index: SupportsIndex = -1) -> Any:
        self._fire("pop", False)
        got = super().pop(index)
        self._fire("pop", True)
        return got

    def _fire(self, method: str, after: bool) -> None:
        hook = self._hook
        if hook is not None and method == self._method and after == self._after:
            self._hook = None
            hook()


@pytest.mark.pure_only  # spies on the lock's lists: compiled code calls the list operations directly
def test_a_release_between_a_failed_try_and_queueing_still_hands_the_lock_over() -> None:
    """The waiter tries once more after queueing: the release in between found no sleeper to wake."""
    lock = EngineLock()
    lock.acquire()
    go, left, got = threading.Event(), threading.Event(), threading.Event()

    def hook() -> None:  # the waiter failed its try and is about to queue: the holder leaves now
        go.set()
        assert left.wait(TIMEOUT)

    def waiter() -> None:
        with lock:
            got.set()

    lock._sleepers = _Hooked([], "append", hook)
    t = in_thread(waiter)
    assert go.wait(TIMEOUT)
    lock.release()  # the token goes back; no sleeper is queued yet, so nobody is woken
    left.set()
    assert got.wait(TIMEOUT) and joined(t), "the waiter slept through the release (a lost wake)"


@pytest.mark.pure_only  # spies on the lock's lists: compiled code calls the list operations directly
def test_the_old_holder_never_overwrites_the_next_holder() -> None:
    """A thread that takes the token the moment it is back writes its id; the leaving one is done writing."""
    lock = EngineLock()
    lock.acquire()
    took, left, again = threading.Event(), threading.Event(), threading.Event()

    def next_holder() -> None:
        lock.acquire()
        took.set()
        assert left.wait(TIMEOUT)
        lock.acquire()  # re-entry: needs its own id to be the holder's
        again.set()
        lock.release()
        lock.release()

    threads: list[threading.Thread] = []

    def hook() -> None:  # the token is back: the next holder takes it before the release returns
        threads.append(in_thread(next_holder))
        assert took.wait(TIMEOUT)

    lock._free = _Hooked([], "append", hook, after=True)
    lock.release()
    left.set()
    assert again.wait(TIMEOUT), "the next holder's id was overwritten: its re-entry waited for itself"
    assert joined(threads[0])


@pytest.mark.pure_only  # replaces the module's lock factory, which compiled code reads from a C static
def test_a_sleeper_interrupted_passes_its_wake_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A waiter whose sleep raises after a release woke it hands that wake to the next sleeper."""
    import hiddenrole.locking as locking

    lock = EngineLock()
    lock.acquire()

    class _Interrupted(Exception):
        pass

    woken = threading.Event()

    class _Sleeper:
        """The first waiter's sleeper: its sleep raises once the release has woken it."""

        def __init__(self) -> None:
            self._held = False

        def acquire(self) -> bool:
            if not self._held:
                self._held = True
                return True
            assert woken.wait(TIMEOUT)
            raise _Interrupted

        def release(self) -> None:
            woken.set()

    made: list[Any] = []

    def factory() -> Any:
        s: Any = _Sleeper() if not made else threading.Lock()
        made.append(s)
        return s

    monkeypatch.setattr(locking, "_NEW_LOCK", factory)
    errors: list[BaseException] = []

    def first() -> None:
        try:
            lock.acquire()
        except _Interrupted as exc:
            errors.append(exc)

    got = threading.Event()

    def second() -> None:
        with lock:
            got.set()

    t1 = in_thread(first)
    deadline = time.monotonic() + TIMEOUT
    while len(lock._sleepers) < 1 and time.monotonic() < deadline:
        time.sleep(0.001)
    t2 = in_thread(second)
    while len(lock._sleepers) < 2 and time.monotonic() < deadline:
        time.sleep(0.001)
    assert len(lock._sleepers) == 2
    lock.release()  # wakes the first sleeper, whose sleep then raises
    assert joined(t1) and len(errors) == 1
    assert got.wait(TIMEOUT) and joined(t2), "the interrupted sleeper's wake was lost"


def test_a_compiled_kernel_takes_the_engine_lock_an_interpreted_one_the_c_rlock() -> None:
    """Each build gets the lock that is cheaper for it (see locking.py); an engine holds that one."""
    import hiddenrole as hr
    import hiddenrole.locking as locking
    from hiddenrole.locking import engine_lock

    from .small_games import counter_game

    compiled = not (locking.__file__ or "").endswith(".py")
    assert isinstance(engine_lock(), EngineLock) is compiled
    assert type(counter_game()._lock) is type(engine_lock())
    assert isinstance(counter_game(), hr.Engine)
