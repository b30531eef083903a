"""Moves: the compare-and-set on the sequence number, idempotent retries, order, concurrent writers."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable

import pytest

from hiddenrole.server.storage import (
    FINISHED,
    KEEP,
    MAX_MOVE_BYTES,
    PLAYING,
    Conflict,
    InvalidRecord,
    Store,
)

from .support import move, new_table


def test_moves_come_back_in_sequence_order_with_their_seat_and_client_id(store: Store) -> None:
    new_table(store)
    for n in range(1, 6):
        appended = store.append_move("t1", n, move(n), seat="ann", client_move_id=f"c{n}")
        assert (appended.seq, appended.duplicate, appended.move) == (n, False, move(n))
    store.append_move("t1", 6, {"move": "end-phase"})
    loaded = store.load_table("t1")
    assert [m.seq for m in loaded.moves] == [1, 2, 3, 4, 5, 6]
    assert [m.move for m in loaded.moves] == [*(move(n) for n in range(1, 6)), {"move": "end-phase"}]
    assert loaded.moves[0].seat == "ann" and loaded.moves[0].client_move_id == "c1"
    assert loaded.moves[5].seat is None and loaded.moves[5].client_move_id is None
    assert loaded.info.seq == 6
    assert [m.seq for m in store.moves("t1", after=4)] == [5, 6]
    assert store.moves("t1", after=6) == ()


def test_key_order_of_a_move_is_kept(store: Store) -> None:
    new_table(store)
    store.append_move("t1", 1, {"z": 1, "a": 2, "m": [3, {"y": 1, "b": 2}]})
    assert list(store.load_table("t1").moves[0].move) == ["z", "a", "m"]
    assert list(store.load_table("t1").moves[0].move["m"][1]) == ["y", "b"]


@pytest.mark.parametrize(("seq", "current"), [(1, 2), (2, 2), (4, 2), (10, 2)])
def test_appending_any_number_but_the_next_is_a_conflict_carrying_the_current_seq(
    store: Store, seq: int, current: int
) -> None:
    new_table(store)
    store.append_move("t1", 1, move(1))
    store.append_move("t1", 2, move(2))
    with pytest.raises(Conflict) as caught:
        store.append_move("t1", seq, {"move": "say", "text": "late"})
    assert (caught.value.code, caught.value.current, caught.value.seq, caught.value.table) == (
        "SEQ_CONFLICT",
        current,
        seq,
        "t1",
    )
    assert [m.move for m in store.load_table("t1").moves] == [move(1), move(2)]


def test_a_retried_client_move_id_returns_the_first_result_and_stores_nothing(store: Store) -> None:
    new_table(store)
    first = store.append_move("t1", 1, move(1), seat="ann", client_move_id="m-1")
    store.append_move("t1", 2, move(2, "bob"), seat="bob")
    # The retry may come with the number it first tried, or the next free one, or a different payload.
    for seq in (1, 3):
        again = store.append_move("t1", seq, {"move": "say", "text": "other"}, seat="ann", client_move_id="m-1")
        assert (again.seq, again.duplicate, again.move) == (first.seq, True, first.move)
    assert [m.seq for m in store.load_table("t1").moves] == [1, 2]


def test_a_client_move_id_is_per_seat(store: Store) -> None:
    new_table(store)
    store.append_move("t1", 1, move(1), seat="ann", client_move_id="same")
    other = store.append_move("t1", 2, move(2, "bob"), seat="bob", client_move_id="same")
    host = store.append_move("t1", 3, {"move": "end-phase"}, client_move_id="same")
    host_again = store.append_move("t1", 4, {"move": "end-phase"}, client_move_id="same")
    assert (other.seq, other.duplicate, host.seq, host.duplicate) == (2, False, 3, False)
    assert (host_again.seq, host_again.duplicate) == (3, True)


def test_status_and_deadline_change_with_the_move(store: Store) -> None:
    new_table(store)
    store.append_move("t1", 1, move(1), status=PLAYING, deadline=50.0)
    info = store.table_info("t1")
    assert (info.status, info.deadline) == (PLAYING, 50.0)
    store.append_move("t1", 2, move(2), status=KEEP, deadline=None)
    info = store.table_info("t1")
    assert (info.status, info.deadline) == (PLAYING, None)
    with pytest.raises(Conflict):
        store.append_move("t1", 2, move(2), status=FINISHED, deadline=9.0)
    info = store.table_info("t1")
    assert (info.status, info.deadline, info.seq) == (PLAYING, None, 2)


@pytest.mark.parametrize(
    ("seq", "body", "kwargs"),
    [
        (0, {"move": "say"}, {}),
        (-1, {"move": "say"}, {}),
        (True, {"move": "say"}, {}),
        (1, {"text": "x" * MAX_MOVE_BYTES}, {}),
        (1, {"f": float("nan")}, {}),
        (1, ["not an object"], {}),
        (1, {"move": "say"}, {"seat": "no spaces"}),
        (1, {"move": "say"}, {"client_move_id": ""}),
        (1, {"move": "say"}, {"client_move_id": "x" * 65}),
        (1, {"move": "say"}, {"client_move_id": "tab\there"}),
        (1, {"move": "say"}, {"status": "asleep"}),
        (1, {"move": "say"}, {"deadline": float("inf")}),
    ],
)
def test_bad_moves_are_refused_before_anything_is_written(
    store: Store, seq: object, body: object, kwargs: dict[str, object]
) -> None:
    new_table(store)
    with pytest.raises(InvalidRecord):
        store.append_move("t1", seq, body, **kwargs)  # type: ignore[arg-type]
    assert store.load_table("t1").moves == ()
    assert store.table_info("t1").seq == 0


WRITERS = 4
ROUNDS = 25


def _race(stores: list[Store], table: str) -> list[list[int]]:
    """Each writer tries every number in turn, rebuilding on a conflict; returns the numbers each won."""
    won: list[list[int]] = [[] for _ in stores]
    start = threading.Barrier(len(stores))

    def writer(i: int) -> None:
        start.wait(timeout=10)
        for seq in range(1, ROUNDS + 1):
            try:
                stores[i].append_move(table, seq, {"move": "say", "text": f"w{i} s{seq}"}, seat=f"w{i}")
            except Conflict as err:
                assert err.current >= seq
            else:
                won[i].append(seq)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    return won


def _check_one_winner_each(store: Store, table: str, won: list[list[int]]) -> None:
    counts = Counter(seq for numbers in won for seq in numbers)
    assert sorted(counts) == list(range(1, ROUNDS + 1))
    assert set(counts.values()) == {1}, "two writers committed the same number"
    moves = store.load_table(table).moves
    assert [m.seq for m in moves] == list(range(1, ROUNDS + 1))
    for m in moves:  # the stored move is the winner's
        winner = next(i for i, numbers in enumerate(won) if m.seq in numbers)
        assert m.move == {"move": "say", "text": f"w{winner} s{m.seq}"}


def test_concurrent_writers_on_one_store_never_both_commit_a_number(store: Store) -> None:
    new_table(store)
    won = _race([store] * WRITERS, "t1")
    _check_one_winner_each(store, "t1", won)


def test_concurrent_writers_on_separate_connections_never_both_commit_a_number(
    store: Store, open_new: Callable[[], Store]
) -> None:
    new_table(store)
    stores = [store, *(open_new() for _ in range(WRITERS - 1))]
    won = _race(stores, "t1")
    _check_one_winner_each(store, "t1", won)


def test_concurrent_retries_of_one_client_move_id_store_it_once(store: Store, open_new: Callable[[], Store]) -> None:
    new_table(store)
    stores = [store, open_new()]
    results: list[object] = []
    start = threading.Barrier(len(stores) * 2)

    def retry(s: Store) -> None:
        start.wait(timeout=10)
        try:
            results.append(s.append_move("t1", 1, move(1), seat="ann", client_move_id="once").seq)
        except Conflict as err:
            results.append(err)

    threads = [threading.Thread(target=retry, args=(s,)) for s in stores for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert results == [1, 1, 1, 1]
    assert [m.seq for m in store.load_table("t1").moves] == [1]


def test_a_write_handed_straight_to_the_committer_answers_as_append_move_would(store: Store, backend: str) -> None:
    """``append_move_future``: a store with group commit (SQLite, PostgreSQL) takes the write on its
    committer thread; one without says so (``None``: the caller uses ``append_move`` on a thread)."""
    new_table(store)
    submit = store.append_move_future  # type: ignore[attr-defined]
    first = submit("t1", 1, move(1), seat="ann", client_move_id="m-1")
    if backend.endswith("-single"):
        assert first is None
        return
    appended = first.result(timeout=30)
    assert (appended.seq, appended.duplicate, appended.move) == (1, False, move(1))
    again = submit("t1", 2, move(2), seat="ann", client_move_id="m-1").result(timeout=30)
    assert (again.seq, again.duplicate) == (1, True)
    with pytest.raises(Conflict) as caught:
        submit("t1", 5, move(5)).result(timeout=30)
    assert caught.value.current == 1
    with pytest.raises(InvalidRecord):  # bad input is refused before it is queued
        submit("t1", 2, {"x": "y" * (MAX_MOVE_BYTES + 1)})
    assert [m.seq for m in store.load_table("t1").moves] == [1]


def test_a_caller_that_gave_up_on_its_write_does_not_stop_the_committer(store: Store, backend: str) -> None:
    """A write whose future was cancelled (its caller timed out) is still answered safely: later writes
    commit (the one committer, storage/committer.py, serves both backends)."""
    committer = store._committer  # type: ignore[attr-defined]
    if backend.endswith("-single"):
        assert committer is None
        return
    new_table(store)
    inside, release = threading.Event(), threading.Event()

    def slow(tx: object) -> None:
        inside.set()
        release.wait(10)

    try:
        gave_up = committer.submit(slow, "t1")
        assert inside.wait(10)
        assert gave_up.cancel()  # the caller stops waiting while the committer runs its write
        release.set()
        later = store.append_move_future("t1", 1, move(1), seat=None, client_move_id=None)  # type: ignore[attr-defined]
        assert later is not None
        assert later.result(timeout=10).seq == 1
    finally:
        release.set()
