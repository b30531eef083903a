"""SQLite specifics: WAL and fsync on every commit, and group commit keeping each caller's outcome its own."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from hiddenrole.server.storage import Conflict, InvalidRecord, SQLiteStore, StorageError, open_store

from .support import move, new_table


def test_every_connection_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "t.db")
    try:
        for conn in (store._wconn, store._rconn):
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL: fsync at every commit
    finally:
        store.close()


@pytest.mark.parametrize("url", ["sqlite:///{dir}/a.db", "{dir}/a.db"])
def test_sqlite_urls_and_paths_open_the_same_file(tmp_path: Path, url: str) -> None:
    store = open_store(url.format(dir=tmp_path))
    try:
        assert isinstance(store, SQLiteStore) and store.path == tmp_path / "a.db"
        assert store.url == f"sqlite:///{tmp_path}/a.db"
    finally:
        store.close()


@pytest.mark.parametrize("url", ["", ":memory:", "sqlite:///:memory:", "mysql://x/y"])
def test_urls_that_cannot_hold_a_log_are_refused(url: str) -> None:
    with pytest.raises(InvalidRecord):
        open_store(url)


def test_a_closed_store_refuses_work(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "t.db")
    new_table(store)
    store.close()
    store.close()
    with pytest.raises(StorageError):
        store.append_move("t1", 1, move(1))
    with pytest.raises(StorageError):
        store.table_info("t1")


def test_in_a_group_commit_each_callers_outcome_is_its_own(tmp_path: Path) -> None:
    """Many writers at once: the conflicting ones fail alone, the others commit, and nothing leaks across."""
    store = SQLiteStore(tmp_path / "t.db")
    tables = [f"t{i}" for i in range(8)]
    for t in tables:
        new_table(store, t)
    outcomes: dict[tuple[str, int, int], str] = {}
    start = threading.Barrier(len(tables) * 2)

    def writer(table: str, first: int) -> None:
        start.wait(timeout=10)
        for n in range(1, 11):
            try:
                store.append_move(table, first + n - 1, move(n))
                outcomes[(table, first, n)] = "ok"
            except Conflict:
                outcomes[(table, first, n)] = "conflict"

    # Per table: one writer appends 1..10; another keeps trying a number already taken or too high.
    threads = [threading.Thread(target=writer, args=(t, 1)) for t in tables]
    threads += [threading.Thread(target=writer, args=(t, 100)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    try:
        for t in tables:
            assert [m.move for m in store.load_table(t).moves] == [move(n) for n in range(1, 11)]
            assert all(outcomes[(t, 1, n)] == "ok" for n in range(1, 11))
            assert all(outcomes[(t, 100, n)] == "conflict" for n in range(1, 11))
    finally:
        store.close()


def test_a_failing_write_in_a_batch_leaves_no_trace(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "t.db")
    new_table(store)

    def half_done(tx: object) -> None:
        tx.run("UPDATE hr_tables SET status = 'finished' WHERE id = 't1'")  # type: ignore[attr-defined]
        raise sqlite3.OperationalError("disk trouble")

    with pytest.raises(StorageError):
        store._run_write(half_done)
    try:
        assert store.table_info("t1").status == "open"
        store.append_move("t1", 1, move(1))
        assert store.table_info("t1").seq == 1
    finally:
        store.close()


def test_a_batch_with_failing_writes_commits_the_others_and_undoes_the_failing_ones_alone(tmp_path: Path) -> None:
    """One group commit: the good writes commit, a half-done failing one and a conflict leave no trace."""
    from concurrent.futures import Future
    from typing import Any

    store = SQLiteStore(tmp_path / "t.db")
    for t in ("t1", "t2", "t3"):
        new_table(store, t)

    def half_done(tx: Any) -> None:
        tx.run("UPDATE hr_tables SET status = 'finished' WHERE id = 't3'")
        raise sqlite3.OperationalError("disk trouble")

    ops = [
        store._append_op("t1", 1, move(1), seat=None, client_move_id=None, status="playing", deadline=None),
        half_done,
        store._append_op("t2", 1, move(2), seat=None, client_move_id=None, status="playing", deadline=None),
        store._append_op("t1", 5, move(3), seat=None, client_move_id=None, status="playing", deadline=None),
    ]
    batch: list[Any] = [(op, Future(), "") for op in ops]
    try:
        store._commit_batch(batch)
        answers = [f.exception() or f.result() for _, f, _ in batch]
        assert [type(a).__name__ for a in answers] == ["Appended", "StorageError", "Appended", "Conflict"]
        assert [m.move for m in store.load_table("t1").moves] == [move(1)]
        assert [m.move for m in store.load_table("t2").moves] == [move(2)]
        assert store.table_info("t3").status == "open" and store.table_info("t1").status == "playing"
    finally:
        store.close()
