"""PostgreSQL's group commit, on the real embedded server: each caller's outcome is its own,
a failing write is undone alone, and two stores (two processes' worth) never deadlock."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import psycopg
import pytest

from hiddenrole.server.storage import KEEP, Conflict, StorageError
from hiddenrole.server.storage.embedded import EmbeddedPostgres
from hiddenrole.server.storage.postgres import PostgresStore

from .support import move, new_table

_count = iter(range(1, 10**6))


@pytest.fixture
def url(postgres_server: EmbeddedPostgres) -> str:
    return postgres_server.create_schema(f"batch_{next(_count)}")


@pytest.fixture
def store(url: str) -> Iterator[PostgresStore]:
    s = PostgresStore(url)
    yield s
    s.close()


def test_a_batch_with_failing_writes_commits_the_others_and_undoes_the_failing_ones_alone(
    store: PostgresStore,
) -> None:
    """One transaction: the good writes commit; a half-done write that fails in the driver and a
    conflict leave no trace, and each caller gets its own answer."""
    for t in ("t1", "t2", "t3"):
        new_table(store, t)

    def half_done(tx: Any) -> None:
        tx.run("UPDATE hr_tables SET status = 'finished' WHERE id = 't3'")
        tx.run("SELECT 1 / 0")  # the driver's error aborts the (sub)transaction

    ops = [
        (store._append_op("t1", 1, move(1), seat=None, client_move_id=None, status="playing", deadline=None), "t1"),
        (half_done, "t3"),
        (store._append_op("t2", 1, move(2), seat=None, client_move_id=None, status="playing", deadline=None), "t2"),
        (store._append_op("t1", 5, move(3), seat=None, client_move_id=None, status="playing", deadline=None), "t1"),
    ]
    batch: list[Any] = [(op, Future(), table) for op, table in ops]
    store._commit_batch(batch)
    answers = [f.exception(timeout=10) or f.result() for _, f, _ in batch]
    assert [type(a).__name__ for a in answers] == ["Appended", "StorageError", "Appended", "Conflict"]
    assert [m.move for m in store.load_table("t1").moves] == [move(1)]
    assert [m.move for m in store.load_table("t2").moves] == [move(2)]
    assert store.table_info("t3").status == "open" and store.table_info("t1").status == "playing"


def test_a_batch_keeps_one_tables_writes_in_order(store: PostgresStore) -> None:
    """The batch is sorted by table for the row locks, stably: move 2 still follows move 1."""
    for t in ("b", "a"):
        new_table(store, t)
    jobs = [("b", 1), ("a", 1), ("b", 2), ("a", 2), ("b", 3)]
    batch: list[Any] = [
        (store._append_op(t, n, move(n), seat=None, client_move_id=None, status="playing", deadline=None), Future(), t)
        for t, n in jobs
    ]
    store._commit_batch(batch)
    assert all(f.result().seq == n for (_, f, _), (_, n) in zip(batch, jobs, strict=True))
    assert [m.seq for m in store.load_table("b").moves] == [1, 2, 3]
    assert [m.seq for m in store.load_table("a").moves] == [1, 2]


def test_a_batch_is_one_commit(url: str, store: PostgresStore) -> None:
    """Many moves, one transaction: PostgreSQL's commit counter moves by one for the batch."""
    tables = [f"t{i}" for i in range(20)]
    for t in tables:
        new_table(store, t)

    def commits() -> int:
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()").fetchone()
            assert row is not None
            return int(row[0])

    store._commit_batch([])  # (nothing: no transaction)
    batch: list[Any] = [
        (store._append_op(t, 1, move(1), seat=None, client_move_id=None, status="playing", deadline=None), Future(), t)
        for t in tables
    ]
    before = commits()
    store._commit_batch(batch)
    assert all(f.result().seq == 1 for _, f, _ in batch)
    # (pg_stat counters are flushed lazily; the batch's own commit is at most one of those counted)
    assert commits() - before <= 3


def test_two_stores_writing_the_same_tables_at_once_neither_deadlock_nor_lose_a_move(url: str) -> None:
    """Two group committers (two processes' worth) on the same tables in opposite orders: every move
    number is taken exactly once, the losers get ``Conflict``, and nothing waits for a deadlock timeout."""
    a, b = PostgresStore(url), PostgresStore(url)
    try:
        tables = [f"t{i}" for i in range(10)]
        for t in tables:
            new_table(a, t)
        won: dict[tuple[str, int], list[str]] = {}
        lock = threading.Lock()
        errors: list[BaseException] = []
        start = threading.Barrier(2 * len(tables))

        def writer(store: PostgresStore, name: str, table: str) -> None:
            start.wait(timeout=30)
            n = 1
            while n <= 15:
                try:
                    got = store.append_move(table, n, move(n, "ann"), seat="ann", client_move_id=f"{name}-{n}")
                except Conflict as err:
                    n = err.current + 1
                    continue
                except StorageError as err:  # (a deadlock would surface here)
                    errors.append(err)
                    return
                with lock:
                    won.setdefault((table, got.seq), []).append(name)
                n = got.seq + 1

        threads = [threading.Thread(target=writer, args=(a, "a", t)) for t in tables]
        threads += [threading.Thread(target=writer, args=(b, "b", t)) for t in reversed(tables)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert not errors
        for t in tables:
            seqs = [m.seq for m in a.load_table(t).moves]
            assert seqs == list(range(1, 16))
            assert all(len(won[(t, n)]) == 1 for n in seqs)
    finally:
        a.close()
        b.close()


def test_two_batches_taking_the_same_rows_in_opposite_orders_do_not_deadlock(url: str) -> None:
    """Each store's batch holds its first table's row lock, then wants the other's: ordered by table,
    the second batch waits for the first instead (unordered, PostgreSQL would abort one as a deadlock)."""
    a, b = PostgresStore(url), PostgresStore(url)
    try:
        new_table(a, "x")
        new_table(a, "y")
        both = threading.Barrier(2)
        deadlocks: list[BaseException] = []

        def op(store: PostgresStore, table: str, hold: bool) -> Any:
            append = store._append_op(table, 1, move(1), seat=None, client_move_id=None, status=KEEP, deadline=KEEP)

            def run(tx: Any) -> Any:
                try:
                    got = append(tx)
                except psycopg.errors.DeadlockDetected as err:  # (the batch would then run again)
                    deadlocks.append(err)
                    raise
                if hold:  # both batches now hold a row lock (unless one waits for the other's)
                    with contextlib.suppress(threading.BrokenBarrierError):
                        both.wait(timeout=1.5)
                return got

            return run

        batches: list[list[Any]] = [
            [(op(a, "x", True), Future(), "x"), (op(a, "y", False), Future(), "y")],
            [(op(b, "y", True), Future(), "y"), (op(b, "x", False), Future(), "x")],
        ]
        threads = [
            threading.Thread(target=s._commit_batch, args=(batch,)) for s, batch in zip((a, b), batches, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        answers = [f.exception(timeout=10) or f.result() for batch in batches for _, f, _ in batch]
        assert not deadlocks
        assert sorted(type(x).__name__ for x in answers) == ["Appended", "Appended", "Conflict", "Conflict"]
        assert [m.seq for m in a.load_table("x").moves] == [1] and [m.seq for m in a.load_table("y").moves] == [1]
    finally:
        a.close()
        b.close()


def test_writes_queued_before_close_are_committed_and_later_ones_refused(url: str) -> None:
    store = PostgresStore(url)
    new_table(store)
    pending = [store.append_move_future("t1", n, move(n)) for n in range(1, 6)]
    store.close()
    assert [f.result(timeout=10).seq for f in pending if f is not None] == [1, 2, 3, 4, 5]
    with pytest.raises(StorageError):
        store.append_move_future("t1", 6, move(6))
    again = PostgresStore(url)
    try:
        assert again.table_info("t1").seq == 5
    finally:
        again.close()
