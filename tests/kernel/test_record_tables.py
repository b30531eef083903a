"""Issue 11: the snapshot and log codecs are compiled from one table per record type.

These tests walk a rich snapshot's JSON and damage every field of every record in
turn, so a table (or the code compiled from it) that stops checking one field goes
red here, with the path of the field in the error. They also pin the encoded-effects
cache for a log older than the last save, and seating out of id order.
"""

from __future__ import annotations

import dataclasses
import json
import types
from collections.abc import Iterator
from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole.games import redblue

from .small_games import KILL, finished_mini, mini_rules, rich_engine, snap_bytes, started_mini

Path = tuple[str | int, ...]

RECORDS = frozenset(
    {
        (),
        ("log",),
        ("log", "rules"),
        ("log", "effects", "*"),
        ("players", "*"),
        ("round_context",),
        ("round_context", "detours", "*"),
        ("pending", "*"),
        ("turns",),
    }
)
"""JSON objects that are records (fixed keys); every other object is a map (vars, data, actors)."""
SPARSE = ("log", "effects", "*")
"""Effects leave out the fields at their default: only their type is required."""


def shape(path: Path) -> Path:
    return tuple("*" if isinstance(p, int) else p for p in path)


def leaves(node: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every scalar, array and object of the document, with its path (the root excluded)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        yield (*path, k), v
        yield from leaves(v, (*path, k))


def text(path: Path) -> str:
    """The location the decoder reports: ``snapshot.players[0].vars.camp``."""
    out = "snapshot"
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def wrong(value: Any) -> Any:
    """A JSON value of another type, that no field of that place accepts."""
    if isinstance(value, bool):
        return "true"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return {}
    if isinstance(value, dict):
        return []
    return 5  # null (winners of a running game)


def edited(doc: Any, path: Path, change: Any) -> bytes:
    copy = json.loads(json.dumps(doc))
    node = copy
    for p in path[:-1]:
        node = node[p]
    change(node, path[-1])
    return json.dumps(copy, separators=(",", ":")).encode()


@pytest.fixture(scope="module")
def doc() -> Any:
    return json.loads(snap_bytes(rich_engine()))


def test_the_rich_snapshot_holds_every_record_type(doc: Any) -> None:
    seen = {shape(p) for p, v in leaves(doc) if isinstance(v, dict)} | {()}
    assert seen >= RECORDS, sorted(RECORDS - seen, key=str)


def test_every_field_of_every_record_is_type_checked_and_named(doc: Any) -> None:
    checked = 0
    for path, value in leaves(doc):
        bad = edited(doc, path, lambda node, key, v=value: node.__setitem__(key, wrong(v)))
        with pytest.raises(hr.InvalidSnapshot) as info:
            hr.Snapshot.from_json(bad)
        assert text(path) in info.value.message, (path, info.value.message)
        checked += 1
    assert checked > 150


def test_every_record_refuses_an_unknown_field_and_a_missing_one(doc: Any) -> None:
    records = [((), doc)] + [(p, v) for p, v in leaves(doc) if isinstance(v, dict) and shape(p) in RECORDS]
    for path, record in records:
        bad = edited(doc, (*path, "zz_unexpected"), lambda node, k: node.__setitem__(k, "1"))
        with pytest.raises(hr.InvalidSnapshot, match="unknown field"):
            hr.Snapshot.from_json(bad)
        required = ["type"] if shape(path) == SPARSE else list(record)
        for key in required:
            bad = edited(doc, (*path, key), lambda node, k: node.pop(k))
            with pytest.raises(hr.InvalidSnapshot):
                hr.Snapshot.from_json(bad)


def test_decoding_then_encoding_gives_the_same_bytes_and_restores(doc: Any) -> None:
    raw = json.dumps(doc, separators=(",", ":")).encode()
    snap = hr.Snapshot.from_json(raw)
    assert snap.to_json() == raw
    assert hr.Snapshot.from_dict(snap.to_dict()) == snap
    assert hr.Engine.restore(mini_rules(), raw).snapshot().to_json() == raw


def test_a_log_older_than_the_last_save_encodes_its_own_effects() -> None:
    """The cache encodes each save's new effects together: a log whose end falls inside
    such a batch still gets exactly its own bytes."""
    engine = redblue.new_game(3, 3)
    engine.start()
    early = engine.log()  # not encoded yet
    for pid in engine.alive_player_ids():
        engine.submit(pid, redblue.VOTE, [next(p for p in engine.alive_player_ids() if p != pid)])
    engine.end_phase()
    later = engine.log()
    assert len(later.effects) > len(early.effects)
    later_bytes = later.to_json()  # one batch, past the end of `early`
    plain = hr.GameLog(early.rules_name, early.rules_version, early.effects)
    assert early.to_json() == plain.to_json()
    assert later.to_json() == later_bytes == hr.GameLog(later.rules_name, later.rules_version, later.effects).to_json()
    assert hr.GameLog.from_json(early.to_json()).effects == early.effects


def test_players_seated_out_of_id_order_are_listed_and_seen_in_id_order() -> None:
    engine = hr.Engine(redblue.rules())
    for pid, role in (("r2", redblue.RED), ("b1", redblue.BLUE), ("r1", redblue.RED), ("a0", redblue.BLUE)):
        engine.add_player(pid, role)
    assert engine.player_ids() == ("a0", "b1", "r1", "r2")
    view = engine.player_view("r1")
    assert [p.id for p in view.players] == ["a0", "b1", "r1", "r2"]
    assert {p.id: p.role for p in view.players if p.role}["r1"] == redblue.RED
    engine.start()
    replayed = hr.Engine.replay(engine.rules, engine.log().to_json())
    assert replayed.player_ids() == engine.player_ids()
    assert replayed.player_view("r1") == engine.player_view("r1")


def test_effects_read_alike_in_any_key_order_and_past_the_compiled_orders(
    doc: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each key order of an effect gets a reader compiled on first sight, up to a bound; an
    order past the bound is read field by field. Both ways give the same values and refuse
    the same damage, so hostile input can neither grow the table nor slip past its checks."""
    from hiddenrole import persistence

    log = doc["log"]
    want = hr.GameLog.from_dict(log).effects
    flipped = {**log, "effects": [dict(reversed(e.items())) for e in log["effects"]]}
    assert [list(e) for e in flipped["effects"]] != [list(e) for e in log["effects"]]
    assert hr.GameLog.from_dict(flipped).effects == want
    monkeypatch.setattr(persistence, "_KEY_ORDERS", 0)  # nothing more is compiled
    compiled = dict(persistence._EFFECT._by_order)
    shuffled = {**log, "effects": [dict(sorted(e.items())) for e in log["effects"]]}
    assert hr.GameLog.from_dict(shuffled).effects == want
    assert persistence._EFFECT._by_order == compiled
    for n, e in enumerate(shuffled["effects"]):
        bad = {**shuffled, "effects": [*shuffled["effects"][:n], {**e, "type": 7}, *shuffled["effects"][n + 1 :]]}
        with pytest.raises(hr.InvalidLog, match=rf"log\.effects\[{n}\]\.type: expected a string"):
            hr.GameLog.from_dict(bad)


def test_an_effect_is_written_as_the_encoder_writes_its_object() -> None:
    """Effects are written as text field by field, not through the encoder: the bytes must
    be the encoder's, and a value the string writer refuses falls back to the encoder."""
    log = rich_engine().log()
    compact = json.JSONEncoder(separators=(",", ":"))
    fresh = hr.GameLog(log.rules_name, log.rules_version, log.effects)
    assert fresh.to_json() == compact.encode(fresh.to_dict()).encode() == log.to_json()
    odd = hr.GameLog("r", "1", (hr.Effect("X", source=5, target='é\\"x'),))  # type: ignore[arg-type]
    assert odd.to_json() == compact.encode(odd.to_dict()).encode()


def test_the_native_effect_writer_writes_what_the_generated_one_does() -> None:
    """A compiled kernel writes effects with ``_SparseRecord.native_into`` (a native loop), the
    pure one with the generated writer: both give the same text and refuse the same values."""
    from hiddenrole import persistence

    rec = persistence._EFFECT

    def native_text(e: hr.Effect) -> str:
        out: list[str] = []
        rec.native_into(out, e)
        return "".join(out)

    effects = [
        *rich_engine().log().effects,
        hr.Effect("X", "a", "b", {"k": "v", "z": "\u00e9"}, True, "why", "P", True, hr.ROUND.of("p"), "k", "v"),
        hr.set_var(hr.GAME, "k", ""),
        hr.set_actors("P", "b", "a"),
        hr.Effect("X", canceled=1),  # type: ignore[arg-type]
    ]
    for e in effects:
        assert native_text(e) == rec.text(e)
    for bad in (hr.Effect("X", source=5), hr.Effect("X", data=7), hr.Effect("X", scope="game")):  # type: ignore[arg-type]
        with pytest.raises((TypeError, AttributeError)):
            rec.text(bad)
        with pytest.raises((TypeError, AttributeError)):
            native_text(bad)


def test_the_native_record_writer_writes_what_the_generated_one_does() -> None:
    """A compiled kernel writes players, detours and submissions with ``_flat_into`` (a native
    loop over the record's table), the pure one with the generated writer: same text, same refusals."""
    from hiddenrole import persistence

    def flat_text(plan: Any, v: Any) -> str:
        out: list[str] = []
        persistence._flat_into(out, plan, v)
        return "".join(out)

    snap = rich_engine().snapshot()
    for record, values in (
        (persistence._PLAYER, snap.players),
        (persistence._DETOUR, (*snap.detours, hr.Detour("p\u00e9", "P"))),
        (persistence._SKILL_USE, snap.pending),
    ):
        plan = record.plan()
        generated = persistence._dense_text_writer(record._layout, ())
        assert values
        for v in values:
            assert flat_text(plan, v) == generated(v)
            # a value of another class is read by attribute, as the generated writer reads it
            other = types.SimpleNamespace(**v._asdict())
            assert flat_text(plan, other) == generated(other) == generated(v)
        first: tuple[Any, ...] = values[0]
        bad = tuple.__new__(type(first), (5, *first[1:]))  # its first field (a string) an int
        for write in (generated, lambda v, plan=plan: flat_text(plan, v)):
            with pytest.raises((TypeError, AttributeError)):
                write(bad)


@pytest.mark.parametrize("name", ["detour", "finished", "pending"])
def test_the_native_writer_of_records_with_groups_writes_what_the_generated_one_does(name: str) -> None:
    """A compiled kernel writes a snapshot's board (and a log's head) with ``_flat_into`` too, its
    groups (``round_context``, ``turns``, ``rules``) and lists of records (players) inline, read by
    attribute from the snapshot or by index from the tuple of its fields: the generated writer's text."""
    from hiddenrole import persistence

    engine = {"detour": rich_engine, "finished": finished_mini, "pending": started_mini}[name]()
    if name == "pending":
        engine.submit("w1", KILL, ["v1"])
    snap = engine.snapshot()
    for record, value, without in (
        (persistence._SNAPSHOT, snap, persistence._HEAD),
        (persistence._SNAPSHOT, snap, ()),
        (persistence._LOG, snap.log, persistence._EFFECTS),
    ):
        plan = persistence._flat_plan(record._layout, without, *record._by_index)
        assert plan.text(value) == persistence._dense_text_writer(record._layout, without)(value)
    fields = tuple(getattr(snap, f) for f in persistence._SNAPSHOT_FIELDS)
    plan = persistence._SNAPSHOT.plan(persistence._HEAD)
    assert (
        plan.text(fields)
        == plan.text(snap)
        == persistence._dense_text_writer(persistence._SNAPSHOT._layout, persistence._HEAD)(snap)
    )
    bad = dataclasses.replace(snap, players=(*snap.players[:-1], snap.players[-1]._replace(id=5)))  # type: ignore[arg-type]
    with pytest.raises((TypeError, AttributeError)):
        plan.text(bad)
    assert persistence._SNAPSHOT.text(bad, persistence._HEAD) == persistence._encode(
        persistence._SNAPSHOT.write(bad, persistence._HEAD)
    )


def test_kept_escapes_are_the_escapers_own() -> None:
    """``_quoted`` (what a compiled kernel writes strings with) answers as the encoder's escaper,
    twice, for short and long strings, and raises as it does for anything else; it keeps only
    short strings, and a bounded number of them."""
    from hiddenrole import persistence

    for text in ("p1", "", 'a"b\\c', "\u00e9\u4e2d\U0001f600", "\n\x00", "x" * 500, hr.SYSTEM):
        for _ in range(2):
            assert persistence._quoted(text) == persistence._esc(text)
    assert "x" * 500 not in persistence._QUOTED
    for bad in (5, None, b"p1", ["p1"]):
        with pytest.raises(TypeError):
            persistence._quoted(bad)
    for n in range(persistence._QUOTED_KEPT + 10):
        assert persistence._quoted(f"k{n}") == f'"k{n}"'
    assert len(persistence._QUOTED) <= persistence._QUOTED_KEPT
