"""The embedded default: one SQLite file in WAL mode, every commit fsync'd.

``synchronous=FULL`` makes each commit wait for the write-ahead log to reach the
disk, so a change is durable before the call that made it returns and before anyone
is told about it. Writes go through one connection, reads through another (WAL lets
readers go on while a commit waits for its fsync).

Group commit (on by default, :mod:`.committer`): SQLite has one writer and a commit costs
one fsync (5-10 ms on this machine's disk), which caps one-at-a-time commits near 150/s;
a committer thread commits every write waiting at that moment at once.
``benchmarks/storage_bench.py`` measures both ways.

Several store objects (or processes) on one file never both commit move N: writes
take SQLite's write lock (``BEGIN IMMEDIATE``, waiting up to :data:`BUSY_TIMEOUT`) and
the compare-and-set then sees the other's commit. Notices reach listeners of this
store object only: SQLite has no channel between processes (use PostgreSQL for
several servers).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Final

from hiddenrole.host.publisher import Changed

from .committer import MAX_BATCH, Committer, Done, Job, answer, run_batch
from .errors import StorageError
from .migrations import SCHEMA_VERSION, Tx
from .sql import SqlStore

__all__ = ["ANSWER_TIMEOUT", "BUSY_TIMEOUT", "MAX_BATCH", "SQLiteStore"]  # MAX_BATCH: see committer.py

BUSY_TIMEOUT: Final = 10.0
"""Seconds a write waits for another connection's write lock before failing with ``STORAGE_ERROR``."""
ANSWER_TIMEOUT: Final = 3 * BUSY_TIMEOUT
"""Seconds a caller waits for the committer's answer (it always answers well before; this bounds a bug)."""


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
        try:
            self._migrate(schema)
        except BaseException:
            self._wconn.close()
            self._rconn.close()
            raise
        if group_commit:
            self._committer = Committer("hiddenrole-sqlite-commit", self._commit_batch, ANSWER_TIMEOUT)

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

    # ---- group commit (committer.py)

    def _commit_batch(self, batch: list[Job]) -> None:
        """Run ``batch`` in one transaction, commit once, publish its notices, then answer each caller."""
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
                for _, future, _ in batch:
                    answer(future, None, failure)
                return
            for _, _, _, notes in done:
                for note in notes:
                    self._notifier.publish(note)
        for future, result, error, _ in done:
            answer(future, result, error)

    def _run_batch(self, conn: sqlite3.Connection, batch: list[Job], *, alone: bool) -> list[Done] | None:
        return run_batch(conn.execute, "BEGIN IMMEDIATE", lambda: _SQLiteTx(conn), _storage_error, batch, alone=alone)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._committer is not None:
            self._committer.close()
        with self._wlock, self._rlock:
            self._wconn.close()
            self._rconn.close()
        self._notifier.close()
