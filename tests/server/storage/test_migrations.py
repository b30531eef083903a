"""Migrations: numbered, applied once each, in order; a version-1 database upgrades with its data."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from hiddenrole.server.storage import SCHEMA_VERSION, StorageError, Store, hash_token, open_store
from hiddenrole.server.storage.migrations import MIGRATIONS

from .support import move, new_table


def _open_at(url: str, schema: int) -> Store:
    if url.startswith("postgresql://"):
        from hiddenrole.server.storage.postgres import PostgresStore

        return PostgresStore(url, schema=schema)
    from hiddenrole.server.storage import SQLiteStore

    return SQLiteStore(url, schema=schema)


def _sql(store: Store, statement: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Raw SQL through the store's own transaction (tests only)."""
    with store._write() as tx:  # type: ignore[attr-defined]
        return tx.run(statement, params)  # type: ignore[no-any-return]


def test_the_migrations_are_numbered_one_by_one() -> None:
    assert [n for n, _ in MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1))
    assert SCHEMA_VERSION >= 2


def test_a_version_1_database_upgrades_and_keeps_its_tables_and_moves(store_url: str) -> None:
    old = _open_at(store_url, 1)
    assert old.schema_version == 1
    header = {"table": "old", "game": "race", "version": "1", "seats": ["ann", "bob"], "seed": 3}
    _sql(
        old,
        "INSERT INTO hr_tables (id, game, rules_version, header, status, deadline, created, seq, host_token_hash)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ("old", "race", "1", json.dumps(header), "playing", 99.0, 1.0, 2, hash_token("host-secret")),
    )
    for n in (1, 2):
        _sql(
            old,
            "INSERT INTO hr_moves (table_id, seq, move, seat) VALUES (?, ?, ?, ?)",
            ("old", n, json.dumps(move(n)), "ann"),
        )
    assert [r[0] for r in _sql(old, "SELECT version FROM hr_schema ORDER BY version")] == [1]
    old.close()

    store = open_store(store_url)
    try:
        assert store.schema_version == SCHEMA_VERSION
        loaded = store.load_table("old")
        assert loaded.header == header and loaded.info.settings == {} and loaded.info.deadline == 99.0
        assert [(m.seq, m.move) for m in loaded.moves] == [(1, move(1)), (2, move(2))]
        assert [s.seat for s in loaded.seats] == ["ann", "bob"]  # seats filled from the header
        assert store.check_host_token("old", "host-secret")
        assert store.claim_seat("old")[0] == "ann"
        store.append_move("old", 3, move(3))
        assert [t.id for t in store.armed_deadlines()] == ["old"]
        versions = [r[0] for r in _sql(store, "SELECT version FROM hr_schema ORDER BY version")]
        assert versions == list(range(1, SCHEMA_VERSION + 1))
    finally:
        store.close()


def test_reopening_applies_no_migration_twice(store_url: str, open_new: Callable[[], Store]) -> None:
    first = open_new()
    new_table(first)
    first.append_move("t1", 1, move(1))
    second = open_new()
    third = open_new()
    assert second.schema_version == third.schema_version == SCHEMA_VERSION
    rows = _sql(third, "SELECT version FROM hr_schema ORDER BY version")
    assert [r[0] for r in rows] == list(range(1, SCHEMA_VERSION + 1))
    assert [m.seq for m in third.load_table("t1").moves] == [1]


def test_a_database_newer_than_the_code_is_refused(store_url: str, open_new: Callable[[], Store]) -> None:
    store = open_new()
    _sql(store, "INSERT INTO hr_schema (version, applied) VALUES (?, ?)", (SCHEMA_VERSION + 1, 0.0))
    with pytest.raises(StorageError, match="schema"):
        open_store(store_url)
