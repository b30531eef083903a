"""Tables: create, load, list by status, status/deadline/settings, deadlines to re-arm, bad input."""

from __future__ import annotations

import pytest

from hiddenrole.server.storage import (
    FINISHED,
    MAX_HEADER_BYTES,
    MAX_ID_LENGTH,
    OPEN,
    PAUSED,
    PLAYING,
    SCHEMA_VERSION,
    InvalidRecord,
    SeatRecord,
    Store,
    TableExists,
    TableNotFound,
)

from .support import SEATS, new_table


def test_a_new_table_loads_with_its_header_seats_and_no_moves(store: Store) -> None:
    new_table(store, settings={"spectators": True, "deadlines": {"DAY": 60}}, bots=("cy",), deadline=100.5)
    loaded = store.load_table("t1")
    assert loaded.header == {
        "table": "t1",
        "game": "race",
        "version": "1",
        "options": {},
        "seats": list(SEATS),
        "seed": 7,
    }
    assert loaded.moves == ()
    info = loaded.info
    assert (info.id, info.game, info.rules_version, info.status, info.seq) == ("t1", "race", "1", OPEN, 0)
    assert info.deadline == 100.5
    assert info.settings == {"spectators": True, "deadlines": {"DAY": 60}}
    assert loaded.seats == (
        SeatRecord("ann", taken=False, bot=False),
        SeatRecord("bob", taken=False, bot=False),
        SeatRecord("cy", taken=False, bot=True),
    )
    assert store.table_info("t1") == info
    assert store.schema_version == SCHEMA_VERSION


def test_seats_keep_the_order_they_were_given(store: Store) -> None:
    new_table(store, seats=("zed", "amy", "mo"))
    assert [s.seat for s in store.seats("t1")] == ["zed", "amy", "mo"]


def test_a_table_id_is_stored_once(store: Store) -> None:
    new_table(store)
    with pytest.raises(TableExists):
        new_table(store, seats=("x", "y"))
    assert [s.seat for s in store.seats("t1")] == list(SEATS)


def test_unknown_tables_raise_table_not_found(store: Store) -> None:
    for call in (
        lambda: store.load_table("nope"),
        lambda: store.table_info("nope"),
        lambda: store.moves("nope"),
        lambda: store.seats("nope"),
        lambda: store.set_status("nope", PAUSED),
        lambda: store.set_deadline("nope", 1.0),
        lambda: store.append_move("nope", 1, {"move": "say"}),
    ):
        with pytest.raises(TableNotFound) as caught:
            call()
        assert caught.value.code == "TABLE_NOT_FOUND"


def test_tables_are_listed_oldest_first_and_by_status(store: Store) -> None:
    for name in ("c", "a", "b"):
        new_table(store, name)
    store.set_status("a", PLAYING)
    store.set_status("b", FINISHED)
    assert [t.id for t in store.list_tables()] == ["c", "a", "b"]
    assert [t.id for t in store.list_tables(OPEN)] == ["c"]
    assert [t.id for t in store.list_tables(PLAYING)] == ["a"]
    assert [t.id for t in store.list_tables(FINISHED)] == ["b"]
    assert store.list_tables(PAUSED) == ()


def test_armed_deadlines_are_the_open_or_playing_tables_with_a_deadline_soonest_first(store: Store) -> None:
    for name in ("late", "soon", "paused", "over", "none"):
        new_table(store, name)
    store.set_deadline("late", 2000.0)
    store.set_deadline("soon", 1000.0)
    store.set_status("soon", PLAYING)
    store.set_deadline("paused", 10.0)
    store.set_status("paused", PAUSED)
    store.set_deadline("over", 10.0)
    store.set_status("over", FINISHED)
    assert [(t.id, t.deadline) for t in store.armed_deadlines()] == [("soon", 1000.0), ("late", 2000.0)]
    store.set_deadline("late", None)
    assert [t.id for t in store.armed_deadlines()] == ["soon"]


def test_setting_status_deadline_and_settings_returns_the_new_row(store: Store) -> None:
    new_table(store)
    assert store.set_status("t1", PAUSED).status == PAUSED
    assert store.set_deadline("t1", 12.25).deadline == 12.25
    assert store.set_settings("t1", {"spectators": False}).settings == {"spectators": False}
    assert store.table_info("t1").status == PAUSED


@pytest.mark.parametrize(
    "kwargs",
    [
        {"table_id": ""},
        {"table_id": "x" * (MAX_ID_LENGTH + 1)},
        {"table_id": "has space"},
        {"seats": ()},
        {"seats": ("a", "a")},
        {"seats": ("a", "b c")},
        {"seats": "abc"},
        {"bots": ("zz",)},
        {"status": "sleeping"},
        {"deadline": float("nan")},
        {"deadline": -1.0},
        {"settings": {"x": object()}},
        {"header": {"pad": "x" * MAX_HEADER_BYTES}},
        {"header": ["not", "an", "object"]},
    ],
)
def test_bad_tables_are_refused_with_invalid_record_and_nothing_is_stored(
    store: Store, kwargs: dict[str, object]
) -> None:
    args: dict[str, object] = {
        "table_id": "t1",
        "game": "race",
        "rules_version": "1",
        "header": {},
        "seats": ("a", "b"),
    }
    args.update(kwargs)
    with pytest.raises(InvalidRecord) as caught:
        store.create_table(**args)  # type: ignore[arg-type]
    assert caught.value.code == "INVALID_RECORD"
    assert store.list_tables() == ()


def test_bad_status_and_deadline_updates_are_refused(store: Store) -> None:
    new_table(store)
    with pytest.raises(InvalidRecord):
        store.set_status("t1", "gone")
    with pytest.raises(InvalidRecord):
        store.set_deadline("t1", float("inf"))
    with pytest.raises(InvalidRecord):
        store.list_tables("gone")
    assert store.table_info("t1").status == OPEN
