"""Group commit, one piece for both backends: a thread commits every waiting write at once.

A durable commit costs one flush (SQLite's fsync, PostgreSQL's WAL flush) however many
writes it carries. So callers hand their write to a :class:`Committer`, whose thread takes
every write waiting at that moment (at most :data:`MAX_BATCH`), runs them in one
transaction, commits once, and only then answers each caller. Nothing waits on purpose to
fill a batch, so a lone write costs one flush as before.

A batch first runs with no savepoint per write (two statements fewer each). If a write
raises, that transaction is rolled back and the batch runs again with every write under
its own savepoint, so the failing write is undone alone and its caller gets the error
(the writes are functions of the database alone, so running one again is harmless). The
batch is ordered by table id, stably (one table's writes keep their order), so two
processes' batches take the tables' row locks in one order and cannot deadlock.

The backend supplies how a batch meets its database (:meth:`Committer.__init__`'s
``commit``), usually a connection, :func:`run_batch`, a commit, and publishing the notices.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future, InvalidStateError
from typing import Any, Final, Protocol, TypeVar

from hiddenrole.host.publisher import Changed

from .errors import StorageError
from .migrations import Tx

__all__ = ["MAX_BATCH", "Committer", "Done", "Job", "answer", "run_batch"]

MAX_BATCH: Final = 256
"""Most writes one group commit carries."""

_R = TypeVar("_R")

Job = tuple[Callable[[Tx], Any], "Future[Any]", str]
"""A queued write: the operation, its caller's future, and the table it writes (the batch's order)."""
Done = tuple["Future[Any]", Any, BaseException | None, list[Changed]]
"""A write's answer once its batch is committed: its result or its error, and its notices."""


class NotedTx(Tx, Protocol):
    """A backend's transaction handle, which collects the notices its writes announce."""

    notes: list[Changed]


def answer(future: Future[Any], result: Any, error: BaseException | None) -> None:
    """Answer a write's caller; one that cancelled its future (it stopped waiting) is not answered.

    Setting a cancelled future raises ``InvalidStateError``, which would end the committer
    thread and leave every later write unanswered.
    """
    try:
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)
    except InvalidStateError:
        pass  # (cancelled: the write itself stands or falls with its batch, as any other)


def run_batch(
    execute: Callable[[str], object],
    begin: str,
    new_tx: Callable[[], NotedTx],
    error: Callable[[BaseException], BaseException],
    batch: list[Job],
    *,
    alone: bool,
) -> list[Done] | None:
    """Begin and run every write of ``batch``, each under its own savepoint if ``alone``.

    ``execute`` runs one statement, ``begin`` opens the transaction, ``new_tx`` makes each
    write's handle and ``error`` maps a write's exception to the one its caller gets.
    Without savepoints, the first write that raises rolls the whole transaction back: ``None``.
    The writes run in table order (stable), the one lock order every process keeps.
    """
    execute(begin)
    done: list[Done] = []
    for op, future, _ in sorted(batch, key=_table_of):
        tx = new_tx()
        if alone:
            execute("SAVEPOINT hr_op")
        try:
            result = op(tx)
        except BaseException as err:
            if not alone:
                execute("ROLLBACK")
                return None
            execute("ROLLBACK TO SAVEPOINT hr_op")
            execute("RELEASE SAVEPOINT hr_op")
            done.append((future, None, error(err), []))
        else:
            if alone:
                execute("RELEASE SAVEPOINT hr_op")
            done.append((future, result, None, tx.notes))
    return done


class Committer:
    """The committer thread and its queue; ``commit`` runs one batch and answers it."""

    def __init__(self, name: str, commit: Callable[[list[Job]], None], answer_timeout: float) -> None:
        self.answer_timeout = answer_timeout
        """Seconds a caller waits for its answer (the committer answers well before; this bounds a bug)."""
        self._commit = commit
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def submit(self, op: Callable[[Tx], _R], table: str) -> Future[_R]:
        """Queue ``op`` (which writes ``table``); its future is answered after its batch's commit."""
        if self._closed:
            raise StorageError("the store is closed")
        future: Future[_R] = Future()
        self._jobs.put((op, future, table))
        return future

    def run(self, op: Callable[[Tx], _R], table: str) -> _R:
        """:meth:`submit` and wait for the answer."""
        return self.submit(op, table).result(timeout=self.answer_timeout)

    def close(self) -> None:
        """Commit the writes already queued, then refuse any queued after."""
        self._closed = True
        self._jobs.put(None)
        self._thread.join(self.answer_timeout)
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                return
            if job is not None:
                answer(job[1], None, StorageError("the store is closed"))

    def _loop(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            batch = [job]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    more = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return


def _table_of(job: Job) -> str:
    return job[2]
