"""Notices: ``Changed(table, seq)`` after each commit, in order, to listeners (across processes on PostgreSQL)."""

from __future__ import annotations

import asyncio
import queue
import time
from collections.abc import Callable

import pytest

from hiddenrole.host.publisher import Changed
from hiddenrole.server.storage import Changes, Conflict, Store
from hiddenrole.server.storage.embedded import EmbeddedPostgres
from hiddenrole.server.storage.postgres import PostgresStore

from .support import move, new_table

WAIT = 10.0


def _inbox(store: Store) -> tuple[queue.Queue[Changed], Callable[[], None]]:
    inbox: queue.Queue[Changed] = queue.Queue()
    return inbox, store.listen(inbox.put)


def _drain(inbox: queue.Queue[Changed], count: int) -> list[Changed]:
    return [inbox.get(timeout=WAIT) for _ in range(count)]


def test_every_committed_change_is_noticed_in_order_carrying_only_table_and_seq(store: Store) -> None:
    inbox, stop = _inbox(store)
    new_table(store)
    for n in range(1, 4):
        store.append_move("t1", n, move(n))
    notes = _drain(inbox, 4)
    assert notes == [Changed("t1", 0), Changed("t1", 1), Changed("t1", 2), Changed("t1", 3)]
    store.set_status("t1", "paused")  # a change without a move is noticed too, at the same seq
    notes += _drain(inbox, 1)
    assert notes[-1] == Changed("t1", 3)
    assert all(type(n) is Changed and len(n) == 2 for n in notes)
    stop()


def test_refused_and_duplicate_appends_notice_nothing(store: Store) -> None:
    inbox, stop = _inbox(store)
    new_table(store)
    store.append_move("t1", 1, move(1), client_move_id="x")
    assert _drain(inbox, 2) == [Changed("t1", 0), Changed("t1", 1)]
    with pytest.raises(Conflict):
        store.append_move("t1", 1, move(1))
    assert store.append_move("t1", 2, move(1), client_move_id="x").duplicate
    store.append_move("t1", 2, move(2))  # a marker: the next notice must be this one
    assert _drain(inbox, 1) == [Changed("t1", 2)]
    stop()


def test_a_stopped_listener_hears_nothing_more(store: Store) -> None:
    first, stop_first = _inbox(store)
    second, stop_second = _inbox(store)
    new_table(store)
    store.append_move("t1", 1, move(1))
    assert _drain(first, 2) == _drain(second, 2) == [Changed("t1", 0), Changed("t1", 1)]
    stop_first()
    store.append_move("t1", 2, move(2))
    assert _drain(second, 1) == [Changed("t1", 2)]
    assert first.empty()  # the same notice thread delivered to both, so it would be there by now
    stop_second()


def test_a_failing_listener_does_not_stop_the_others(store: Store) -> None:
    def boom(note: Changed) -> None:
        raise RuntimeError("listener bug")

    store.listen(boom)
    inbox, stop = _inbox(store)
    new_table(store)
    store.append_move("t1", 1, move(1))
    assert _drain(inbox, 2) == [Changed("t1", 0), Changed("t1", 1)]
    stop()


def test_notices_reach_an_asyncio_consumer(store: Store) -> None:
    async def main() -> list[Changed]:
        async with Changes(store) as notes:
            await asyncio.to_thread(new_table, store)
            await asyncio.to_thread(store.append_move, "t1", 1, move(1))
            return [await asyncio.wait_for(anext(notes), WAIT) for _ in range(2)]

    assert asyncio.run(main()) == [Changed("t1", 0), Changed("t1", 1)]


def test_a_notice_older_than_one_delivered_for_its_table_is_dropped(store: Store) -> None:
    notifier = store._notifier  # type: ignore[attr-defined]
    inbox, stop = _inbox(store)
    for note in (Changed("a", 2), Changed("a", 1), Changed("b", 1), Changed("a", 2), Changed("a", 3)):
        notifier.publish(note)
    assert _drain(inbox, 4) == [Changed("a", 2), Changed("b", 1), Changed("a", 2), Changed("a", 3)]
    stop()


def test_notices_cross_connections_only_where_the_backend_shares_them(
    store_url: str, open_new: Callable[[], Store]
) -> None:
    """PostgreSQL: a change committed through one connection is heard on another (another process's).
    SQLite serves one process: each store object hears its own changes."""
    writer, reader = open_new(), open_new()
    inbox, stop = _inbox(reader)
    new_table(writer)
    writer.append_move("t1", 1, move(1))
    if store_url.startswith("postgresql://"):
        assert _drain(inbox, 2) == [Changed("t1", 0), Changed("t1", 1)]
    else:
        reader.append_move("t1", 2, move(2))
        assert _drain(inbox, 1) == [Changed("t1", 2)]  # not the writer's 0 and 1
    stop()


def test_a_notice_never_arrives_before_its_change_is_committed(store: Store, open_new: Callable[[], Store]) -> None:
    """Whoever hears ``Changed(t, n)`` and reads the table, on any connection, finds it at n or later."""
    reader = open_new()
    seen: queue.Queue[tuple[Changed, int]] = queue.Queue()
    stop = store.listen(lambda note: seen.put((note, reader.table_info(note.table).seq)))
    new_table(store)
    for n in range(1, 21):
        store.append_move("t1", n, move(n))
    got = [seen.get(timeout=WAIT) for _ in range(21)]
    assert [note.seq for note, _ in got] == list(range(21))
    assert all(read >= note.seq for note, read in got)
    stop()


def test_the_store_implements_the_interface(store: Store) -> None:
    assert isinstance(store, Store)


def _terminate(url: str, query_prefix: str) -> int:
    """Kill the PostgreSQL backends whose last query starts with ``query_prefix``; how many."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE %s AND pid <> pg_backend_pid()",
            (query_prefix + "%",),
        ).fetchall()
    return len(rows)


def _until_heard(store: Store, inbox: queue.Queue[Changed], first_seq: int) -> Changed:
    """Append moves until one of them is heard (a notice in flight when a connection died may be lost)."""
    deadline = time.monotonic() + WAIT
    seq = first_seq
    while time.monotonic() < deadline:
        store.append_move("t1", seq, move(seq))
        try:
            return inbox.get(timeout=0.5)
        except queue.Empty:
            seq += 1
    raise AssertionError("no notice after the connection was lost")


@pytest.mark.parametrize("which", ["LISTEN", "SELECT pg_notify"])
def test_postgres_notices_resume_after_a_connection_is_killed(postgres_server: EmbeddedPostgres, which: str) -> None:
    """PostgreSQL only (SQLite has no listener or sender connection to lose)."""
    url = postgres_server.create_schema(f"killed_{which.split()[-1].lower()}")
    store = PostgresStore(url)
    try:
        inbox, stop = _inbox(store)
        new_table(store)
        assert _drain(inbox, 1) == [Changed("t1", 0)]
        assert _terminate(url, which) >= 1
        assert _until_heard(store, inbox, 1).table == "t1"
        stop()
    finally:
        store.close()
