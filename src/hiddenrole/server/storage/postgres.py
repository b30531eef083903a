"""PostgreSQL by URL: several server processes share one database, and notices cross between them.

Connections come from a ``psycopg_pool`` pool (autocommit connections, each operation
in an explicit transaction). A write runs in READ COMMITTED: the compare-and-set's
``UPDATE ... WHERE seq = N - 1`` waits for a concurrent writer's row lock, then
re-reads the row, finds ``seq`` moved on and changes nothing, so the loser gets
:class:`Conflict`. A read runs in REPEATABLE READ so a table's row and its moves come
from one snapshot. Commits are durable before they return (PostgreSQL's default
``synchronous_commit``).

Notices: after a change commits, ``{"t": table, "s": seq}`` goes out on :data:`CHANNEL`
to every listening connection (every process, this one included). Not from inside
the change's own transaction: a transaction that notifies takes PostgreSQL's global
notify lock for the whole of its commit, WAL flush included, so notifying writers
commit one fsync at a time (the benchmark measured about 250 appends/s that way
against about 1000 without). Instead a sender thread, on its own connection, sends
every notice queued meanwhile with one ``pg_notify`` statement, a transaction that
writes no WAL and so holds that lock only briefly. A notice therefore never leaves
before its change is durable; a process that dies between the two loses the notice.
One listener thread per store holds a dedicated connection; if it drops, it
reconnects, and notices sent meanwhile are lost too. So notices are hints: a process
re-reads a table's ``seq`` when it needs the truth (a ``Conflict`` tells it anyway).

Group commit (on by default, :mod:`.committer`), as in SQLite: each move was a
transaction of its own (three round trips and a WAL flush per move); a committer thread
now commits every write waiting at that moment in one transaction on one connection.
"""

from __future__ import annotations

import functools
import json
import logging
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import psycopg
import psycopg_pool
from psycopg import errors as pg_errors

from hiddenrole.host.publisher import Changed

from .committer import MAX_BATCH, Committer, Done, Job, answer, run_batch
from .errors import StorageError
from .interface import Listener
from .migrations import SCHEMA_VERSION, Tx
from .sql import SqlStore

__all__ = [
    "ANSWER_TIMEOUT",
    "CHANNEL",
    "CONNECT_TIMEOUT",
    "LISTEN_POLL",
    "MAX_BATCH",
    "MAX_NOTICE_BATCH",
    "POOL_SIZE",
    "PostgresStore",
]

CHANNEL: Final = "hiddenrole_changes"
"""The LISTEN/NOTIFY channel."""
POOL_SIZE: Final = 8
"""Most connections one store opens for its operations (plus one for listening)."""
CONNECT_TIMEOUT: Final = 10.0
"""Seconds to wait for a connection (opening the store, taking one from the pool, starting to listen)."""
MAX_NOTICE_BATCH: Final = 1000
"""Most notices one ``pg_notify`` statement sends."""
LISTEN_POLL: Final = 0.2
"""Seconds the listener waits for a notice before checking whether the store is closing."""
ANSWER_TIMEOUT: Final = 3 * CONNECT_TIMEOUT
"""Seconds a caller waits for the committer's answer (it answers well before; this bounds a bug)."""
_MIGRATION_LOCK: Final = 0x6869646472
"""``pg_advisory_xact_lock`` key that serialises migrations across processes."""

_log = logging.getLogger("hiddenrole.server.storage")


def _pg_error(err: BaseException) -> BaseException:
    """Driver errors become :class:`StorageError`; a unique violation stays itself (the caller handles it)."""
    if isinstance(err, (psycopg.Error, psycopg_pool.PoolTimeout)) and not isinstance(err, pg_errors.UniqueViolation):
        return StorageError(f"PostgreSQL: {err}")
    return err


@functools.lru_cache(maxsize=256)
def _pg(sql: str) -> str:
    """The shared SQL is written with ``?`` placeholders; psycopg wants ``%s``."""
    return sql.replace("%", "%%").replace("?", "%s")


class _PgTx:
    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self._cur = cursor
        self.notes: list[Changed] = []

    def run(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        self._cur.execute(_pg(sql), params)
        return self._cur.fetchall() if self._cur.description is not None else []

    def count(self, sql: str, params: tuple[object, ...] = ()) -> int:
        self._cur.execute(_pg(sql), params)
        return self._cur.rowcount

    def many(self, sql: str, rows: list[tuple[object, ...]]) -> None:
        self._cur.executemany(_pg(sql), rows)


def _without_password(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}@{host}" if user else host))


class PostgresStore(SqlStore):
    """A :class:`~.interface.Store` on a PostgreSQL database (``postgresql://user@host/db``)."""

    unique_errors = (pg_errors.UniqueViolation,)

    def __init__(
        self,
        url: str,
        *,
        schema: int = SCHEMA_VERSION,
        pool_size: int = POOL_SIZE,
        pool_min: int = 1,
        group_commit: bool = True,
    ) -> None:
        """Connect (keeping ``pool_min`` to ``pool_size`` connections), and migrate up to ``schema``.

        ``group_commit``: writes go through one committer thread (see the module); else each
        write is its own transaction on a pool connection.
        """
        super().__init__("hiddenrole-postgres-notices")
        self._conninfo = url
        self._url = _without_password(url)
        self._closed = False
        self._stopping = threading.Event()
        self._listening = threading.Event()
        self._listener: threading.Thread | None = None
        self._listen_lock = threading.Lock()
        self._outbox: queue.SimpleQueue[Changed | None] = queue.SimpleQueue()
        self._sender = threading.Thread(target=self._send_loop, name="hiddenrole-postgres-notify", daemon=True)
        self._pool: psycopg_pool.ConnectionPool[psycopg.Connection[Any]] = psycopg_pool.ConnectionPool(
            url,
            min_size=max(1, min(pool_min, pool_size)),
            max_size=pool_size,
            # prepare_threshold=0: the store's statements are few and fixed, so each is prepared at first use.
            kwargs={"autocommit": True, "connect_timeout": int(CONNECT_TIMEOUT), "prepare_threshold": 0},
            open=False,
            timeout=CONNECT_TIMEOUT,
            name="hiddenrole-storage",
        )
        try:
            self._pool.open(wait=True, timeout=CONNECT_TIMEOUT)
            self._migrate(schema)
            self._sender.start()
            if group_commit:
                self._committer = Committer("hiddenrole-postgres-commit", self._commit_batch, ANSWER_TIMEOUT)
        except (psycopg.Error, psycopg_pool.PoolTimeout) as err:
            self._pool.close()
            raise StorageError(f"cannot open the PostgreSQL database {self._url!r}: {err}") from None
        except BaseException:
            self._pool.close()
            raise

    @property
    def url(self) -> str:
        return self._url

    @contextmanager
    def _transaction(self, read_only: bool) -> Iterator[_PgTx]:
        if self._closed:
            raise StorageError("the store is closed")
        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                if read_only:
                    cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                tx = _PgTx(cur)
                yield tx
        except pg_errors.UniqueViolation:
            raise
        except (psycopg.Error, psycopg_pool.PoolTimeout) as err:
            raise StorageError(f"PostgreSQL: {err}") from None
        for note in tx.notes:  # committed: now it may be told
            self._outbox.put(note)

    def _write(self) -> AbstractContextManager[Tx]:
        return self._transaction(read_only=False)

    def _read(self) -> AbstractContextManager[Tx]:
        return self._transaction(read_only=True)

    # ---- group commit (committer.py)

    def _commit_batch(self, batch: list[Job]) -> None:
        """Run ``batch`` in one transaction, commit once, queue its notices, then answer each caller."""
        try:
            with self._pool.connection() as conn:
                try:
                    with conn.cursor() as cur:
                        done = self._run_batch(cur, batch, alone=False)
                        if done is None:
                            done = self._run_batch(cur, batch, alone=True)
                        assert done is not None
                        cur.execute("COMMIT")
                except BaseException:
                    if not conn.closed and conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                        conn.rollback()
                    raise
        except Exception as err:
            failure = _pg_error(err)
            if not isinstance(failure, StorageError):
                failure = StorageError(f"PostgreSQL: {err}")
            for _, future, _ in batch:
                answer(future, None, failure)
            return
        for _, _, _, notes in done:  # committed: now they may be told (the sender keeps their order)
            for note in notes:
                self._outbox.put(note)
        for future, result, error, _ in done:
            answer(future, result, error)

    def _run_batch(self, cur: psycopg.Cursor[Any], batch: list[Job], *, alone: bool) -> list[Done] | None:
        return run_batch(cur.execute, "BEGIN", lambda: _PgTx(cur), _pg_error, batch, alone=alone)

    _cas_checks_client_id = True

    def _cas_insert(self, tx: Tx, sets: str, where: tuple[object, ...], row: tuple[int, str, str, str | None]) -> bool:
        """The same compare-and-set in one statement (one round trip instead of three).

        The row update is also refused when the client move id is already stored; a
        concurrent first attempt that commits meanwhile still moves ``seq`` on (so this
        changes nothing) or trips the unique index (which the caller handles).
        """
        seq, text, seat, client_move_id = row
        changed = tx.count(
            f"WITH bump AS (UPDATE hr_tables SET {sets} WHERE id = ? AND seq = ?"
            " AND NOT EXISTS (SELECT 1 FROM hr_moves WHERE table_id = ? AND seat = ? AND client_move_id = ?)"
            " RETURNING id)"
            " INSERT INTO hr_moves (table_id, seq, move, seat, client_move_id) SELECT id, ?, ?, ?, ? FROM bump",
            (*where, where[-2], seat, client_move_id, seq, text, seat, client_move_id),
        )
        return changed == 1

    def _lock_schema(self, tx: Tx) -> None:
        tx.run("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))

    def _announce(self, tx: Tx, note: Changed) -> None:
        assert isinstance(tx, _PgTx)
        tx.notes.append(note)

    def _send_loop(self) -> None:
        """Send queued notices, all those waiting in one statement, until ``close`` queues ``None``."""
        conn: psycopg.Connection[Any] | None = None
        stop = False
        while not stop:
            first = self._outbox.get()
            batch: list[Changed] = []
            item: Changed | None = first
            while item is not None:
                batch.append(item)
                if len(batch) >= MAX_NOTICE_BATCH:
                    break
                try:
                    item = self._outbox.get_nowait()
                except queue.Empty:
                    break
            stop = item is None
            if not batch:
                continue
            payloads = [json.dumps({"t": n.table, "s": n.seq}, separators=(",", ":")) for n in batch]
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(self._conninfo, autocommit=True, connect_timeout=int(CONNECT_TIMEOUT))
                conn.execute(
                    "SELECT pg_notify(%s, p) FROM unnest(%s::text[]) WITH ORDINALITY AS n (p, i) ORDER BY i",
                    (CHANNEL, payloads),
                )
            except psycopg.Error as err:
                _log.warning("storage lost %d notices (%s)", len(batch), type(err).__name__)
                if conn is not None:
                    conn.close()
                conn = None
        if conn is not None:
            conn.close()

    # ---- listening

    def listen(self, listener: Listener) -> Callable[[], None]:
        remove = self._notifier.add(listener)
        with self._listen_lock:
            if self._listener is None:
                self._listener = threading.Thread(
                    target=self._listen_loop, name="hiddenrole-postgres-listen", daemon=True
                )
                self._listener.start()
        if not self._listening.wait(CONNECT_TIMEOUT):
            remove()
            raise StorageError(f"could not LISTEN on {self._url!r} within {CONNECT_TIMEOUT} s")
        return remove

    def _listen_loop(self) -> None:
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True, connect_timeout=int(CONNECT_TIMEOUT)) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    while not self._stopping.is_set():
                        for notice in conn.notifies(timeout=LISTEN_POLL):
                            note = self._parse(notice.payload)
                            if note is not None:
                                self._notifier.publish(note)
            except psycopg.Error as err:
                if self._stopping.is_set():
                    return
                _log.warning("storage listener lost its connection (%s); reconnecting", type(err).__name__)
                self._stopping.wait(LISTEN_POLL)

    @staticmethod
    def _parse(payload: str) -> Changed | None:
        try:
            data = json.loads(payload)
            return Changed(str(data["t"]), int(data["s"]))
        except (ValueError, KeyError, TypeError):
            _log.warning("ignored a malformed notice on %s", CHANNEL)
            return None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._committer is not None:
            self._committer.close()  # after the writes already queued, which it still commits
        if self._sender.is_alive():
            self._outbox.put(None)  # after the notices already queued, which it still sends
            self._sender.join(CONNECT_TIMEOUT)
        self._stopping.set()
        listener = self._listener
        if listener is not None:
            listener.join(CONNECT_TIMEOUT)
        self._notifier.close()
        self._pool.close(timeout=CONNECT_TIMEOUT)
