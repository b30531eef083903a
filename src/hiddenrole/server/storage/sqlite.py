"""The embedded default: one SQLite file in WAL mode, every commit fsync'd.

``synchronous=FULL`` makes each commit wait for the write-ahead log to reach the
disk, so a move is durable before :meth:`append_move` returns and before anyone is
told about it. One connection per store, used under a lock: SQLite has a single
writer anyway, and a read takes microseconds. Several store objects (or processes)
on one file still never both commit move N: writes take SQLite's write lock
(``BEGIN IMMEDIATE``, waiting up to :data:`BUSY_TIMEOUT`) and the compare-and-set
then sees the other's commit. Notices reach listeners of this store object only:
SQLite has no channel between processes (use PostgreSQL for several servers).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Final

from hiddenrole.host.publisher import Changed

from .errors import StorageError
from .migrations import SCHEMA_VERSION, Tx
from .sql import SqlStore

__all__ = ["BUSY_TIMEOUT", "SQLiteStore"]

BUSY_TIMEOUT: Final = 10.0
"""Seconds a write waits for another connection's write lock before failing with ``STORAGE_ERROR``."""


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


class SQLiteStore(SqlStore):
    """A :class:`~.interface.Store` in one SQLite file (created if missing)."""

    _unique_errors = (sqlite3.IntegrityError,)

    def __init__(self, path: str | Path, *, schema: int = SCHEMA_VERSION) -> None:
        """Open (and migrate up to ``schema``, normally the newest) the database at ``path``."""
        super().__init__("hiddenrole-sqlite-notices")
        self._path = Path(path)
        self._lock = threading.RLock()
        try:
            self._conn = sqlite3.connect(
                self._path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
            )
            mode = self._conn.execute("PRAGMA journal_mode=WAL").fetchone()
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as err:
            raise StorageError(f"cannot open the SQLite database {str(self._path)!r}: {err}") from None
        if mode is None or str(mode[0]).lower() != "wal":
            self._conn.close()
            raise StorageError(f"SQLite refused WAL mode for {str(self._path)!r}")
        self._closed = False
        self._migrate(schema)

    @property
    def url(self) -> str:
        return f"sqlite:///{self._path}"

    @property
    def path(self) -> Path:
        return self._path

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[_SQLiteTx]:
        with self._lock:
            if self._closed:
                raise StorageError("the store is closed")
            tx = _SQLiteTx(self._conn)
            try:
                self._conn.execute(begin)
                try:
                    yield tx
                except BaseException:
                    self._conn.execute("ROLLBACK")
                    raise
                self._conn.execute("COMMIT")
            except sqlite3.IntegrityError:
                raise
            except sqlite3.Error as err:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise StorageError(f"SQLite: {err}") from None
            # Published while still holding the lock, so notices leave in commit order.
            for note in tx.notes:
                self._notifier.publish(note)

    def _write(self) -> AbstractContextManager[Tx]:
        return self._transaction("BEGIN IMMEDIATE")

    def _read(self) -> AbstractContextManager[Tx]:
        return self._transaction("BEGIN")

    def _lock_schema(self, tx: Tx) -> None:
        """``BEGIN IMMEDIATE`` already holds SQLite's single write lock."""

    def _announce(self, tx: Tx, note: Changed) -> None:
        assert isinstance(tx, _SQLiteTx)
        tx.notes.append(note)

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._conn.close()
        self._notifier.close()
