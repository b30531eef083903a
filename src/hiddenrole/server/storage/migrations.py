"""Versioned schema migrations, shared by both backends.

Each migration has a number and runs once, in order, inside the transaction that
records it in ``hr_schema``; a database already past the newest version this code
knows is refused rather than guessed at. The SQL is the common subset of SQLite and
PostgreSQL (``DOUBLE PRECISION`` has REAL affinity in SQLite, ``BOOLEAN`` numeric).
Tables are prefixed ``hr_`` so the store can share a database with other things.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Final, Protocol

__all__ = ["Tx", "MIGRATIONS", "SCHEMA_VERSION", "SCHEMA_TABLE"]

SCHEMA_TABLE: Final = "hr_schema"


class Tx(Protocol):
    """One open transaction, parameters written ``?`` whatever the backend."""

    def run(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        """Execute; the rows of a query (``[]`` for a statement without a result)."""
        ...

    def count(self, sql: str, params: tuple[object, ...] = ()) -> int:
        """Execute; the number of rows changed."""
        ...

    def many(self, sql: str, rows: list[tuple[object, ...]]) -> None:
        """Execute once per row of parameters."""
        ...


def _v1_tables_and_moves(tx: Tx) -> None:
    """Tables and their moves; (table, seq) is the primary key, so a seq is committed once."""
    tx.run(
        "CREATE TABLE hr_tables ("
        " id TEXT PRIMARY KEY,"
        " game TEXT NOT NULL,"
        " rules_version TEXT NOT NULL,"
        " header TEXT NOT NULL,"
        " status TEXT NOT NULL,"
        " deadline DOUBLE PRECISION,"
        " created DOUBLE PRECISION NOT NULL,"
        " seq BIGINT NOT NULL DEFAULT 0,"
        " host_token_hash TEXT NOT NULL)"
    )
    tx.run(
        "CREATE TABLE hr_moves ("
        " table_id TEXT NOT NULL REFERENCES hr_tables (id),"
        " seq BIGINT NOT NULL,"
        " move TEXT NOT NULL,"
        " seat TEXT NOT NULL DEFAULT '',"
        " client_move_id TEXT,"
        " PRIMARY KEY (table_id, seq))"
    )
    tx.run("CREATE UNIQUE INDEX hr_moves_client ON hr_moves (table_id, seat, client_move_id)")


def _v2_seats_and_settings(tx: Tx) -> None:
    """Seats (hashed tokens, bot flags), table settings, and lookups by status and deadline.

    Tables stored under version 1 get their seats from their header's ``seats`` list.
    """
    tx.run(
        "CREATE TABLE hr_seats ("
        " table_id TEXT NOT NULL REFERENCES hr_tables (id),"
        " seat TEXT NOT NULL,"
        " pos INTEGER NOT NULL,"
        " token_hash TEXT,"
        " bot BOOLEAN NOT NULL DEFAULT FALSE,"
        " PRIMARY KEY (table_id, seat))"
    )
    tx.run("ALTER TABLE hr_tables ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'")
    tx.run("CREATE INDEX hr_tables_status ON hr_tables (status, created)")
    tx.run("CREATE INDEX hr_tables_deadline ON hr_tables (deadline) WHERE deadline IS NOT NULL")
    rows: list[tuple[object, ...]] = []
    for table_id, header in tx.run("SELECT id, header FROM hr_tables ORDER BY id"):
        seats = json.loads(str(header)).get("seats", [])
        if isinstance(seats, list):
            rows += [(table_id, str(s), i) for i, s in enumerate(seats) if isinstance(s, str)]
    if rows:
        tx.many("INSERT INTO hr_seats (table_id, seat, pos) VALUES (?, ?, ?)", rows)


MIGRATIONS: Final[tuple[tuple[int, Callable[[Tx], None]], ...]] = (
    (1, _v1_tables_and_moves),
    (2, _v2_seats_and_settings),
)
"""Every migration, in order. Append new ones; never edit one that has shipped."""

SCHEMA_VERSION: Final = MIGRATIONS[-1][0]
"""The version this code writes and reads."""
