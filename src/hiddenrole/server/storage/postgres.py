"""PostgreSQL by URL: several server processes share one database, and notices cross between them.

Connections come from a ``psycopg_pool`` pool (autocommit connections, each operation
in an explicit transaction). A write runs in READ COMMITTED: the compare-and-set's
``UPDATE ... WHERE seq = N - 1`` waits for a concurrent writer's row lock, then
re-reads the row, finds ``seq`` moved on and changes nothing, so the loser gets
:class:`Conflict`. A read runs in REPEATABLE READ so a table's row and its moves come
from one snapshot. Commits are durable before they return (PostgreSQL's default
``synchronous_commit``).

Notices: every change runs ``pg_notify`` on :data:`CHANNEL` with ``{"t": table, "s":
seq}`` inside its transaction, so it is delivered to every listening connection
(every process, this one included) if and only if the change commits, in commit
order. One listener thread per store holds a dedicated connection; if that
connection drops it reconnects, and notices sent meanwhile are lost, so a process
must treat notices as hints and re-read a table's seq when it needs the truth.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import psycopg
import psycopg_pool
from psycopg import errors as pg_errors

from hiddenrole.host.publisher import Changed

from .errors import StorageError
from .interface import Listener
from .migrations import SCHEMA_VERSION, Tx
from .sql import SqlStore

__all__ = ["CHANNEL", "POOL_SIZE", "CONNECT_TIMEOUT", "LISTEN_POLL", "PostgresStore"]

CHANNEL: Final = "hiddenrole_changes"
"""The LISTEN/NOTIFY channel."""
POOL_SIZE: Final = 8
"""Most connections one store opens for its operations (plus one for listening)."""
CONNECT_TIMEOUT: Final = 10.0
"""Seconds to wait for a connection (opening the store, taking one from the pool, starting to listen)."""
LISTEN_POLL: Final = 0.2
"""Seconds the listener waits for a notice before checking whether the store is closing."""
_MIGRATION_LOCK: Final = 0x6869646472
"""``pg_advisory_xact_lock`` key that serialises migrations across processes."""

_log = logging.getLogger("hiddenrole.server.storage")


@functools.lru_cache(maxsize=256)
def _pg(sql: str) -> str:
    """The shared SQL is written with ``?`` placeholders; psycopg wants ``%s``."""
    return sql.replace("%", "%%").replace("?", "%s")


class _PgTx:
    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self._cur = cursor

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

    _unique_errors = (pg_errors.UniqueViolation,)

    def __init__(self, url: str, *, schema: int = SCHEMA_VERSION, pool_size: int = POOL_SIZE) -> None:
        """Connect, and migrate up to ``schema`` (normally the newest)."""
        super().__init__("hiddenrole-postgres-notices")
        self._conninfo = url
        self._url = _without_password(url)
        self._closed = False
        self._stopping = threading.Event()
        self._listening = threading.Event()
        self._listener: threading.Thread | None = None
        self._listen_lock = threading.Lock()
        self._pool: psycopg_pool.ConnectionPool[psycopg.Connection[Any]] = psycopg_pool.ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True, "connect_timeout": int(CONNECT_TIMEOUT)},
            open=False,
            timeout=CONNECT_TIMEOUT,
            name="hiddenrole-storage",
        )
        try:
            self._pool.open(wait=True, timeout=CONNECT_TIMEOUT)
            self._migrate(schema)
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
                yield _PgTx(cur)
        except pg_errors.UniqueViolation:
            raise
        except (psycopg.Error, psycopg_pool.PoolTimeout) as err:
            raise StorageError(f"PostgreSQL: {err}") from None

    def _write(self) -> AbstractContextManager[Tx]:
        return self._transaction(read_only=False)

    def _read(self) -> AbstractContextManager[Tx]:
        return self._transaction(read_only=True)

    def _lock_schema(self, tx: Tx) -> None:
        tx.run("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))

    def _announce(self, tx: Tx, note: Changed) -> None:
        payload = json.dumps({"t": note.table, "s": note.seq}, separators=(",", ":"))
        tx.run("SELECT pg_notify(?, ?)", (CHANNEL, payload))

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
        self._stopping.set()
        listener = self._listener
        if listener is not None:
            listener.join(CONNECT_TIMEOUT)
        self._notifier.close()
        self._pool.close(timeout=CONNECT_TIMEOUT)
