"""One lock per table, optimistic concurrency on each seat's own version, pushed notices, the host's publisher."""

from __future__ import annotations

import threading

import pytest

import hiddenrole as hr
from hiddenrole.host import Changed, Notice, Publisher, StaleMove, Table
from hiddenrole.host.catalog import get

RACE = get("race")


def test_a_stale_move_is_refused() -> None:
    t = Table.open(RACE, 2, seed=1)
    seen = t.view("p2").version
    assert seen == 1
    assert t.act("p1", "ROLL", against=t.view("p1").version) == 2  # p1's new version
    with pytest.raises(StaleMove, match="against 1, your view is at version 2") as info:
        t.act("p2", "ROLL", against=seen)  # p2 saw the roll: its view moved on
    assert (info.value.expected, info.value.current, info.value.code) == (1, 2, "STALE_MOVE")
    assert t.act("p2", "ROLL", against=2) == 3
    with pytest.raises(StaleMove, match="the table is at sequence 2"):
        t.end_phase(against=0)  # a host move is checked against the table's own sequence number


def _race_two_clients(t: Table) -> list[object]:
    """Two threads make the same seat's move against the same sequence number at once."""
    seen = t.version("p1")
    barrier = threading.Barrier(2)
    results: list[object] = []
    lock = threading.Lock()

    def client() -> None:
        barrier.wait()
        try:
            got: object = t.act("p1", "ROLL", against=seen)
        except hr.GameError as exc:
            got = exc
        with lock:
            results.append(got)

    threads = [threading.Thread(target=client) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return results


def test_stale_move_refusal_under_two_threads() -> None:
    """Two clients of the same seat decide on the same view; exactly one move lands."""
    for seed in range(20):
        t = Table.open(RACE, 2, seed=seed)
        results = _race_two_clients(t)
        assert sorted(type(r).__name__ for r in results) == ["StaleMove", "int"]
        assert 2 in results
        assert t.seq == 1 and len(t.moves()) == 1


def test_moves_from_many_threads_are_serialised_by_the_table_lock() -> None:
    t = Table.open(RACE, 4, {"target": 100}, seed=3)
    errors: list[BaseException] = []

    def taunter(seat: str) -> None:
        try:
            for _ in range(25):
                t.act(seat, "TAUNT", ["p1" if seat != "p1" else "p2"])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=taunter, args=(s,)) for s in t.seats]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors
    assert t.seq == 100 and [m.seq for m in t.moves()] == list(range(1, 101))
    assert Table.replay(RACE, t.log().to_json()).view("p1") == t.view("p1")


def test_the_publisher_says_which_table_changed_and_nothing_else() -> None:
    pub = Publisher()
    notes: list[object] = []
    pub.subscribe(notes.append)
    t = Table.open(RACE, 2, seed=1, table_id="t1", publisher=pub)
    t.act("p1", "TAUNT", ["p2"])
    t.say("p2", "rude")
    assert notes == [Changed("t1", 1), Changed("t1", 2)]
    assert all(type(n) is Changed and set(n._asdict()) == {"table", "seq"} for n in notes)
    with pytest.raises(hr.NotYourTurn):
        t.act("p2", "ROLL")
    assert len(notes) == 2  # a refused move publishes nothing


def test_each_seat_is_pushed_its_own_version_and_lines() -> None:
    t = Table.open(RACE, 2, seed=1)
    got: dict[str, list[Notice]] = {"p1": [], "p2": []}
    for seat in got:
        t.subscribe(seat, got[seat].append)
    t.act("p1", "ROLL")
    t.act("p2", "ROLL")
    for seat, notices in got.items():
        assert [n.version for n in notices] == [2, 3]
        assert all(n.seat == seat and n.table == t.id for n in notices)
        assert [e.type for n in notices for e in n.events] == ["ROLLED", "ROLLED"]
        assert all(e.at == n.version for n in notices for e in n.events)
        assert t.view(seat).version == 3 and t.updates(seat, 1).events == tuple(e for n in notices for e in n.events)


def test_subscription_filter_unsubscribe_and_faulty_subscribers() -> None:
    pub = Publisher()
    got: list[Changed] = []

    def boom(note: Changed) -> None:
        raise RuntimeError("subscriber bug")

    pub.subscribe(boom)
    stop = pub.subscribe(got.append, table="a")
    pub.publish("b", 1)
    pub.publish("a", 1)
    stop()
    pub.publish("a", 2)
    assert got == [Changed("a", 1)]
    with pytest.raises(hr.InvalidArgument):
        pub.subscribe("not callable")  # type: ignore[arg-type]


def test_notes_arrive_in_order_even_when_a_subscriber_moves() -> None:
    """A bot that moves from inside its notification does not reorder or nest deliveries."""
    pub = Publisher()
    t = Table.open(RACE, 2, {"target": 100}, seed=1, publisher=pub)
    order: list[int] = []
    depth = [0]

    def bot(note: Changed) -> None:
        depth[0] += 1
        assert depth[0] == 1, "deliveries must not nest"
        order.append(note.seq)
        if note.seq < 5:
            t.act("p2", "TAUNT", ["p1"])
        depth[0] -= 1

    pub.subscribe(bot)
    t.act("p1", "TAUNT", ["p2"])
    assert order == [1, 2, 3, 4, 5]


def test_an_older_note_than_one_delivered_is_dropped() -> None:
    pub = Publisher()
    got: list[Changed] = []
    pub.subscribe(got.append)
    pub.publish("t", 3)
    pub.publish("t", 2)
    pub.publish("t", 4)
    assert got == [Changed("t", 3), Changed("t", 4)]
