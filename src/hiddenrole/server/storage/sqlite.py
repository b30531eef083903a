"""The embedded default: one SQLite file in WAL mode, every commit fsync'd.

``synchronous=FULL`` makes each commit wait for the write-ahead log to reach the
disk, so a change is durable before the call that made it returns and before anyone
is told about it. Writes go through one connection, reads through another (WAL lets
readers go on while a commit waits for its fsync).

Group commit (on by default): SQLite has one writer and a commit costs one fsync
(5-10 ms on this machine's disk), which caps one-at-a-time commits near 150/s. So
callers hand their write to a committer thread that runs every write waiting at that
moment in one transaction, commits once, and only then answers each caller. A write
that raises is rolled back alone and its caller gets the exception: the batch then runs
again with each write under its own savepoint (the first run has none, which saves two
statements per write). Nothing waits on purpose to fill a batch, so a lone write costs
one fsync as before. ``benchmarks/storage_bench.py`` measures both ways.

Several store objects (or processes) on one file never both commit move N: writes
take SQLite's write lock (``BEGIN IMMEDIATE``, waiting up to :data:`BUSY_TIMEOUT`) and
the compare-and-set then sees the other's commit. Notices reach listeners of this
store object only: SQLite has no channel between processes (use PostgreSQL for
several servers).
"""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Final, TypeVar

from hiddenrole.host.publisher import Changed

from .errors import StorageError
from .migrations import SCHEMA_VERSION, Tx
from .records import KEEP, Appended, Keep
from .sql import SqlStore, _answer

__all__ = ["ANSWER_TIMEOUT", "BUSY_TIMEOUT", "MAX_BATCH", "SQLiteStore"]

BUSY_TIMEOUT: Final = 10.0
"""Seconds a write waits for another connection's write lock before failing with ``STORAGE_ERROR``."""
MAX_BATCH: Final = 256
"""Most writes one group commit carries."""
ANSWER_TIMEOUT: Final = 3 * BUSY_TIMEOUT
"""Seconds a caller waits for the committer's answer (it always answers well before; this bounds a bug)."""

_R = TypeVar("_R")
_Job = tuple[Callable[[Tx], Any], "Future[Any]"]
_Done = tuple["Future[Any]", Any, BaseException | None, list[Changed]]
"""A write's answer once its batch is committed: its result or its error, and its notices."""


class _SQLiteTx:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.notes: list[Changed] = []

    def run(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        return self._conn.execute(sql, params).fetchall()

    def count(self, sql: str, params: tuple[object, ...] = ()) -> int:
        return self._conn.execute(sql, params).rowcount

    def many(self, sql: str, rows: list[tuple[object, ...]]) -> None:
        self._conn.executemany(sql, rows)


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False)
    try:
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()
        if mode is None or str(mode[0]).lower() != "wal":
            raise StorageError(f"SQLite refused WAL mode for {str(path)!r}")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
    except BaseException:
        conn.close()
        raise
    return conn


def _storage_error(err: BaseException) -> BaseException:
    """Driver errors become :class:`StorageError`; a unique violation stays itself (the caller handles it)."""
    if isinstance(err, sqlite3.Error) and not isinstance(err, sqlite3.IntegrityError):
        return StorageError(f"SQLite: {err}")
    return err


class SQLiteStore(SqlStore):
    """A :class:`~.interface.Store` in one SQLite file (created if missing)."""

    unique_errors = (sqlite3.IntegrityError,)

    def __init__(self, path: str | Path, *, schema: int = SCHEMA_VERSION, group_commit: bool = True) -> None:
        """Open (and migrate up to ``schema``, normally the newest) the database at ``path``."""
        super().__init__("hiddenrole-sqlite-notices")
        self._path = Path(path)
        self._wlock = threading.Lock()
        self._rlock = threading.Lock()
        self._closed = False
        try:
            self._wconn = _connect(self._path)
            self._rconn = _connect(self._path)
        except sqlite3.Error as err:
            raise StorageError(f"cannot open the SQLite database {str(self._path)!r}: {err}") from None
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._committer: threading.Thread | None = None
        try:
            self._migrate(schema)
        except BaseException:
            self._wconn.close()
            self._rconn.close()
            raise
        if group_commit:
            self._committer = threading.Thread(target=self._commit_loop, name="hiddenrole-sqlite-commit", daemon=True)
            self._committer.start()

    @property
    def url(self) -> str:
        return f"sqlite:///{self._path}"

    @property
    def path(self) -> Path:
        return self._path

    # ---- one transaction at a time

    @contextmanager
    def _transaction(self, conn: sqlite3.Connection, lock: threading.Lock, begin: str) -> Iterator[_SQLiteTx]:
        with lock:
            if self._closed:
                raise StorageError("the store is closed")
            tx = _SQLiteTx(conn)
            try:
                conn.execute(begin)
                try:
                    yield tx
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
            except sqlite3.Error as err:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise _storage_error(err) from None
            # Published while still holding the write lock, so notices leave in commit order.
            for note in tx.notes:
                self._notifier.publish(note)

    def _write(self) -> AbstractContextManager[Tx]:
        return self._transaction(self._wconn, self._wlock, "BEGIN IMMEDIATE")

    def _read(self) -> AbstractContextManager[Tx]:
        return self._transaction(self._rconn, self._rlock, "BEGIN")

    def _lock_schema(self, tx: Tx) -> None:
        """``BEGIN IMMEDIATE`` already holds SQLite's single write lock."""

    def _announce(self, tx: Tx, note: Changed) -> None:
        assert isinstance(tx, _SQLiteTx)
        tx.notes.append(note)

    # ---- group commit

    def _run_write(self, op: Callable[[Tx], _R], table: str = "") -> _R:
        if self._committer is None:
            return super()._run_write(op, table)
        return self._submit(op).result(timeout=ANSWER_TIMEOUT)

    def _submit(self, op: Callable[[Tx], _R]) -> Future[_R]:
        """Queue ``op`` for the committer thread; its future is answered after the batch's commit."""
        if self._closed:
            raise StorageError("the store is closed")
        answer: Future[_R] = Future()
        self._jobs.put((op, answer))
        return answer

    def append_move_future(
        self,
        table_id: str,
        seq: int,
        move: Mapping[str, Any],
        *,
        seat: str | None = None,
        client_move_id: str | None = None,
        status: str | Keep = KEEP,
        deadline: float | Keep | None = KEEP,
    ) -> Future[Appended] | None:
        if self._committer is None:
            return None
        if self._closed:
            raise StorageError("the store is closed")
        op = self._append_op(
            table_id, seq, move, seat=seat, client_move_id=client_move_id, status=status, deadline=deadline
        )
        return self._submit(op)

    def _commit_loop(self) -> None:
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
            self._commit_batch(batch)
            if stop:
                return

    def _commit_batch(self, batch: list[_Job]) -> None:
        """Run ``batch`` in one transaction, commit once, then answer each caller.

        First without a savepoint per write (two statements fewer each, about a fifth of the
        committer's time): if a write raises, that transaction is rolled back and the batch runs
        again with every write under its own savepoint, so that the failing one is undone alone
        (the writes are functions of the database alone, so running one again is harmless).
        """
        conn = self._wconn
        with self._wlock:
            try:
                done = self._run_batch(conn, batch, alone=False)
                if done is None:
                    done = self._run_batch(conn, batch, alone=True)
                assert done is not None
                conn.execute("COMMIT")
            except sqlite3.Error as err:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                failure = StorageError(f"SQLite: {err}")
                for _, answer in batch:
                    _answer(answer, None, failure)
                return
            for _, _, _, notes in done:
                for note in notes:
                    self._notifier.publish(note)
        for answer, result, error, _ in done:
            _answer(answer, result, error)

    def _run_batch(self, conn: sqlite3.Connection, batch: list[_Job], *, alone: bool) -> list[_Done] | None:
        """Begin and run every write of ``batch``, each under its own savepoint if ``alone``.

        Without savepoints, the first write that raises rolls the whole transaction back: ``None``.
        """
        conn.execute("BEGIN IMMEDIATE")
        done: list[_Done] = []
        for op, answer in batch:
            tx = _SQLiteTx(conn)
            if alone:
                conn.execute("SAVEPOINT hr_op")
            try:
                result = op(tx)
            except BaseException as err:
                if not alone:
                    conn.execute("ROLLBACK")
                    return None
                conn.execute("ROLLBACK TO hr_op")
                conn.execute("RELEASE hr_op")
                done.append((answer, None, _storage_error(err), []))
            else:
                if alone:
                    conn.execute("RELEASE hr_op")
                done.append((answer, result, None, tx.notes))
        return done

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._committer is not None:
            self._jobs.put(None)
            self._committer.join(ANSWER_TIMEOUT)
            while True:  # writes queued after the stop: refuse them
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is not None:
                    _answer(job[1], None, StorageError("the store is closed"))
        with self._wlock, self._rlock:
            self._wconn.close()
            self._rconn.close()
        self._notifier.close()
