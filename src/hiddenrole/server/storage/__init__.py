"""Durable storage for the server: tables and their move logs, behind one small interface.

``open_store(url)`` picks the backend: a path or ``sqlite:///path`` opens the embedded
SQLite default; ``postgresql://...`` opens PostgreSQL, which several server processes
can share (notices cross processes by LISTEN/NOTIFY). docs/SERVER.md describes the
schema, the compare-and-set on move numbers and the durability promise.
"""

from __future__ import annotations

from pathlib import Path

from .errors import Conflict, InvalidRecord, SeatUnavailable, StorageError, TableExists, TableNotFound
from .interface import Listener, Store
from .migrations import SCHEMA_VERSION
from .notices import Changes
from .records import (
    ARMED_STATUSES,
    FINISHED,
    KEEP,
    MAX_HEADER_BYTES,
    MAX_ID_LENGTH,
    MAX_MOVE_BYTES,
    MAX_SEATS,
    MAX_SETTINGS_BYTES,
    MAX_TOKEN_LENGTH,
    OPEN,
    PAUSED,
    PLAYING,
    STATUSES,
    Appended,
    Keep,
    SeatRecord,
    StoredMove,
    StoredTable,
    TableInfo,
)
from .sqlite import SQLiteStore
from .tokens import hash_token

__all__ = [
    "ARMED_STATUSES",
    "FINISHED",
    "KEEP",
    "MAX_HEADER_BYTES",
    "MAX_ID_LENGTH",
    "MAX_MOVE_BYTES",
    "MAX_SEATS",
    "MAX_SETTINGS_BYTES",
    "MAX_TOKEN_LENGTH",
    "OPEN",
    "PAUSED",
    "PLAYING",
    "SCHEMA_VERSION",
    "STATUSES",
    "Appended",
    "Changes",
    "Conflict",
    "InvalidRecord",
    "Keep",
    "Listener",
    "SQLiteStore",
    "SeatRecord",
    "SeatUnavailable",
    "Store",
    "StorageError",
    "StoredMove",
    "StoredTable",
    "TableExists",
    "TableInfo",
    "TableNotFound",
    "hash_token",
    "open_store",
]

_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def open_store(url: str | Path) -> Store:
    """Open the store ``url`` names: ``postgresql://...`` (or ``postgres://``), else an SQLite path.

    ``sqlite:///relative/or/absolute`` and a plain path both open SQLite; ``:memory:``
    is refused because a server's log must survive it.
    """
    text = str(url)
    if text.startswith(_POSTGRES_SCHEMES):
        from .postgres import PostgresStore  # psycopg is imported only when PostgreSQL is used

        return PostgresStore(text)
    path = text.removeprefix("sqlite:///").removeprefix("sqlite://")
    if not path or path == ":memory:" or "://" in path:
        raise InvalidRecord(f"not a storage URL: {text!r} (a file path, sqlite:///path or postgresql://...)")
    return SQLiteStore(path)
