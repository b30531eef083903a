"""Notices: ``Changed(table, seq)`` after each commit, in order, to listeners (across processes on PostgreSQL)."""

from __future__ import annotations

import asyncio
import queue
from collections.abc import Callable

import pytest

from hiddenrole.host.publisher import Changed
from hiddenrole.server.storage import Changes, Conflict, Store

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
    store.set_status("t1", "paused")
    notes = _drain(inbox, 5)
    assert notes == [Changed("t1", 0), Changed("t1", 1), Changed("t1", 2), Changed("t1", 3), Changed("t1", 3)]
    assert all(type(n) is Changed and len(n) == 2 for n in notes)
    stop()


def test_refused_and_duplicate_appends_notice_nothing(store: Store) -> None:
    new_table(store)
    store.append_move("t1", 1, move(1), client_move_id="x")
    inbox, stop = _inbox(store)
    with pytest.raises(Conflict):
        store.append_move("t1", 1, move(1))
    assert store.append_move("t1", 2, move(1), client_move_id="x").duplicate
    store.append_move("t1", 2, move(2))  # a marker: the next notice must be this one
    assert _drain(inbox, 1) == [Changed("t1", 2)]
    stop()


def test_a_stopped_listener_hears_nothing_more(store: Store) -> None:
    new_table(store)
    first, stop_first = _inbox(store)
    second, stop_second = _inbox(store)
    store.append_move("t1", 1, move(1))
    assert _drain(first, 1) == _drain(second, 1) == [Changed("t1", 1)]
    stop_first()
    store.append_move("t1", 2, move(2))
    assert _drain(second, 1) == [Changed("t1", 2)]
    assert first.empty()
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
        assert _drain(inbox, 1) == [Changed("t1", 2)]
    stop()
