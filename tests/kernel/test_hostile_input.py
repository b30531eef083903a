"""Issue 8, kernel side: what a hostile seat, log or snapshot can no longer do.

Submission limits and target counts are in ``test_who_may_act.py``; here: replay and
restore check like live play, events and audiences are typed, empty named-actor lists
survive every visit, handlers see events in log order, and one strict JSON reader.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Sequence
from typing import Any

import pytest

import hiddenrole as hr

from .conftest import game, phase, step

A, B = "A", "B"


def _two_phase_engine() -> tuple[hr.Engine, hr.Rules]:
    cfg = hr.Config(A, {A: phase(step("", "ACT"), next_phase=B), B: phase(step("", "ACT"), next_phase=hr.END)})
    engine, _ = game(cfg, {"p1": "villager", "p2": "villager"})
    return engine, engine.rules


def _log_with(engine: hr.Engine, *extra: object) -> hr.GameLog:
    log = engine.log()
    return hr.GameLog(log.rules_name, log.rules_version, (*log.effects, *extra))  # type: ignore[arg-type]


# ---------------------------------------------------------------- replay validates like live play


@pytest.mark.parametrize(
    "bad",
    [
        hr.detour("ghost", B),  # unseated player
        hr.detour("p1", "NOWHERE"),  # unknown phase
        hr.detour("p1", ""),  # no phase
        pytest.param(None, marks=pytest.mark.pure_only),  # a log object of non-Effects: pure kernel's promise
        pytest.param("SET_ALIVE", marks=pytest.mark.pure_only),
        hr.Effect("NOTE", source=["p1"]),  # type: ignore[arg-type]
        hr.Effect("NOTE", data={"k": 1}),  # type: ignore[dict-item]
        hr.Effect("NOTE", scope="game"),  # type: ignore[arg-type]
        hr.Effect(hr.PHASE_CHANGED, phase=["B"]),  # type: ignore[arg-type]
    ],
    ids=[
        "detour-ghost",
        "detour-unknown-phase",
        "detour-no-phase",
        "none",
        "str",
        "list-source",
        "int-data",
        "str-scope",
        "list-phase",
    ],
)
def test_a_log_live_play_could_not_write_is_invalid(bad: object) -> None:
    engine, rules = _two_phase_engine()
    log = _log_with(engine, bad)
    with pytest.raises(hr.InvalidLog):
        hr.Engine.replay(rules, log)
    if isinstance(bad, hr.Effect):  # the same through JSON (where it can be encoded)
        try:
            data = log.to_json()
        except (TypeError, ValueError, AttributeError):
            return
        with pytest.raises(hr.InvalidLog):
            hr.Engine.replay(rules, data)


def test_live_play_cancels_what_replay_refuses() -> None:
    engine, rules = _two_phase_engine()
    out = engine.apply(hr.detour("ghost", B), hr.detour("p1", "NOWHERE"))
    assert [e.canceled for e in out] == [True, True]
    replayed = hr.Engine.replay(rules, engine.log())
    assert replayed.readiness() == engine.readiness()
    replayed.end_phase()  # no KeyError: the cancelled detours are not owed


@pytest.mark.pure_only
def test_replay_of_a_log_holding_none_is_invalid_log_not_attribute_error() -> None:
    _, rules = _two_phase_engine()
    with pytest.raises(hr.InvalidLog):
        hr.Engine.replay(rules, hr.GameLog(rules.name, rules.version, (None,)))  # type: ignore[arg-type]


def _snapshot_with(engine: hr.Engine, **changes: Any) -> hr.Snapshot:
    import dataclasses

    return dataclasses.replace(engine.snapshot(), **changes)


@pytest.mark.parametrize(
    "changes",
    [
        {"actors": {A: ("ghost",)}},
        {"actors": {A: ("p2", "p1")}},
        {"detours": (hr.Detour("ghost", B),)},
        {"detours": (hr.Detour("p1", "NOWHERE"),)},
        {"turns": ("ghost",)},
        {"delayed": ("ghost",)},
        {"winners": ("b", "a")},
    ],
    ids=["actor-ghost", "actors-unsorted", "detour-ghost", "detour-phase", "turn-ghost", "delayed-ghost", "winners"],
)
def test_unverified_restore_still_refuses_a_board_that_names_the_unseated(changes: dict[str, Any]) -> None:
    engine, rules = _two_phase_engine()
    snap = _snapshot_with(engine, **changes)
    with pytest.raises(hr.InvalidSnapshot):
        hr.Engine.restore(rules, snap, verify=False)
    with pytest.raises(hr.InvalidSnapshot):
        hr.Engine.restore(rules, snap.to_json(), verify=False)


def test_readers_raise_no_untyped_key_error_after_a_restore() -> None:
    engine, rules = _two_phase_engine()
    engine.apply(hr.set_actors(A, "p1"))
    eng = hr.Engine.restore(rules, engine.snapshot(), verify=False)
    eng.readiness()
    eng.phase_info()
    eng.end_phase()


# ---------------------------------------------------------------- typed events, named actors


@pytest.mark.parametrize(
    "event",
    [
        hr.Event("NOTE", source=["p1"]),  # type: ignore[arg-type]
        hr.Event("NOTE", target={"p1"}),  # type: ignore[arg-type]
        hr.Event("NOTE", data=[("k", "v")]),  # type: ignore[arg-type]
        hr.Event("NOTE", data={"k": 1}),  # type: ignore[dict-item]
        hr.Event("NOTE", canceled="no"),  # type: ignore[arg-type]
        hr.Event("NOTE", reason=3),  # type: ignore[arg-type]
        hr.Event(""),
        hr.Effect("NOTE", source=["p1"]),  # type: ignore[arg-type]
    ],
)
def test_audience_of_a_malformed_event_is_invalid_argument(event: Any) -> None:
    cfg = hr.Config(A, {A: phase(step("", "ACT"), next_phase=hr.END)})
    engine, _ = game(cfg, {"p1": "villager"}, audience=lambda ev, view: [ev.source] if view.player(ev.source) else [])
    with pytest.raises(hr.InvalidArgument):
        engine.audience_of(event)
    assert engine.audience_of(hr.Event("NOTE", source="p1")) == ("p1",)


def test_an_empty_actor_list_named_for_the_next_visit_holds_on_every_visit() -> None:
    """The old check compared identities, and every empty tuple is the same object."""
    loop = "LOOP"
    cfg = hr.Config(
        loop,
        {
            loop: hr.PhaseConfig(
                steps=(hr.PhaseStep("", "ACT"),),
                next_phase=loop,
                on_enter=(hr.CLEAR_ROUND_VARS,),
                on_exit=(hr.ADVANCE_ROUND,),
            )
        },
    )

    def nobody(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
        return [hr.set_actors(loop)]

    rules = hr.Rules(cfg, name="nobody", resolvers={loop: nobody})
    engine = hr.Engine(rules)
    engine.add_player("a", "R")
    engine.start()
    assert engine.allowed_skills("a") == ("ACT",)
    for _ in range(4):
        engine.end_phase()
        assert engine.allowed_skills("a") == ()
        assert engine.readiness().optional == ()
    replayed = hr.Engine.replay(rules, engine.log().to_json())
    assert replayed.allowed_skills("a") == ()


def test_handlers_receive_events_in_log_order_under_concurrency() -> None:
    loop = "LOOP"
    cfg = hr.Config(
        loop,
        {
            loop: hr.PhaseConfig(
                steps=(hr.PhaseStep("", "ACT"),),
                next_phase=loop,
                on_enter=(hr.CLEAR_ROUND_VARS,),
                on_exit=(hr.ADVANCE_ROUND,),
            )
        },
    )
    counter = iter(range(1_000_000))

    def note(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
        return [hr.Effect("NOTE", data={"n": str(next(counter))})]

    engine = hr.Engine(hr.Rules(cfg, name="order", resolvers={loop: note}))
    engine.add_player("a", "R")
    engine.start()
    seen: list[int] = []
    switch = threading.Event()

    def handler(ev: hr.Event) -> None:
        if ev.type == "NOTE":
            if not switch.is_set():
                switch.set()
                # Hold the first event: the other threads log (and try to deliver) theirs meanwhile.
                for _ in range(200):
                    threading.Event().wait(0.0005)
            seen.append(int(ev.data["n"]))

    engine.on_event(handler)

    def worker() -> None:
        for _ in range(50):
            engine.end_phase()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    logged = [int(e.data["n"]) for e in engine.log().effects if e.type == "NOTE"]
    assert seen == logged == list(range(200))


# ---------------------------------------------------------------- one strict JSON reader


@pytest.mark.parametrize(
    "text",
    ['{"a":1,"a":2}', '{"x":{"b":1,"b":1}}', "NaN", '{"a":Infinity}', "[-Infinity]", b"\xff", "{", 5],
    ids=["dup", "nested-dup", "nan", "inf", "-inf", "not-utf8", "malformed", "not-text"],
)
def test_read_json_refuses_what_the_standard_reader_lets_through(text: Any) -> None:
    with pytest.raises(hr.InvalidLog):
        hr.read_json(text, hr.InvalidLog)
    with pytest.raises(hr.InvalidArgument):
        hr.read_json(text)


def test_read_json_reads_json() -> None:
    assert hr.read_json(b'{"a":[1,"x",null,true,1.5]}') == {"a": [1, "x", None, True, 1.5]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a":[{"b":{"c":1,"d":[{"e":2,"e":2}]}}]}', "duplicate key 'e'"),
        ('{"a":1,"b":{},"a":1}', "duplicate key 'a'"),
        ("[1,2,NaN]", "NaN is not JSON"),
        ('{"a":{"b":-Infinity}}', "-Infinity is not JSON"),
        ("1" * 5000, "Exceeds the limit (4300 digits)"),
        ("[" * 100_000, "maximum recursion depth exceeded"),
        ('{"a":1} x', "Extra data"),
    ],
    ids=["deep-dup", "dup-apart", "nan-in-array", "inf-deep", "huge-int", "too-deep", "trailing"],
)
def test_read_json_names_the_fault_with_the_callers_error(text: str, message: str) -> None:
    with pytest.raises(hr.InvalidLog) as caught:
        hr.read_json(text.encode(), hr.InvalidLog)
    assert caught.value.code == "INVALID_EFFECT_LOG"
    assert caught.value.message.startswith("malformed JSON: " + message)


@pytest.mark.parametrize(
    ("text", "proved"),
    [
        ('{"a":1,"a":2}', False),
        ('{"a":"x","b":{"c":"y","c":"y"}}', False),
        ('[{"k":"v"},{"k":"v","k":"v"}]', False),
        ('{"a":"\\"","a":"x"}', False),  # an escaped quote does not hide the repeated key
        ('{"a":{"b":["c","d"]},"a":{}}', False),
        ('{"a":"\\"","b":"x"}', False),  # no key repeated, but an escaped quote: not proved
        ('{"a":["x",{"y":"z"}],"b":true,"c":null,"d":[],"e":{}}', True),
        ('{"a\\u0041":"b"}', True),
        ("[]", True),
    ],
)
def test_the_quote_count_proves_no_key_is_repeated(text: str, proved: bool) -> None:
    """A compiled kernel reads JSON without the duplicate-key hook when the quotes of the text
    are twice the strings of the value read (a repeated key drops at least its own string)."""
    from hiddenrole import persistence

    value = persistence._PLAIN.decode(text)
    assert persistence._no_repeated_key(text, 0, len(text), value) is proved
    raw = _two_phase_engine()[0].snapshot().to_json().decode()
    assert persistence._no_repeated_key(raw, 0, len(raw), json.loads(raw))


def test_read_json_answers_as_the_strict_reader_at_any_depth() -> None:
    """Near the recursion limit too: the compiled kernel's proof walks the value it read."""

    from hiddenrole import persistence

    def outcome(read: Any, text: str) -> Any:
        try:
            return read(text)
        except hr.InvalidArgument as exc:
            return exc.message.removeprefix("malformed JSON: ")
        except (ValueError, RecursionError) as exc:
            return str(exc)

    limit = sys.getrecursionlimit()
    for depth in range(limit - 60, limit + 20, 3):
        text = '{"a":' * depth + '"x"' + "}" * depth
        assert outcome(hr.read_json, text) == outcome(persistence._STRICT.decode, text)


def test_read_json_reads_any_valid_spelling_as_the_canonical_one() -> None:
    engine, rules = _two_phase_engine()
    raw = engine.snapshot().to_json()
    spaced = json.dumps(json.loads(raw), indent=1, ensure_ascii=False).encode()
    assert spaced != raw
    assert hr.read_json(b" \n" + spaced + b"\t ") == hr.read_json(raw) == json.loads(raw)
    assert hr.Engine.restore(rules, spaced).snapshot().to_json() == raw
    assert hr.read_json(r'{"k":"\u00e9\ud800","n":[-0,1E2,0.50]}') == {"k": "\u00e9\ud800", "n": [0, 100.0, 0.5]}


def test_a_log_with_a_duplicate_key_is_refused_everywhere() -> None:
    engine, rules = _two_phase_engine()
    data = engine.log().to_json()
    forged = data.replace(b'"version":1,', b'"version":1,"version":1,', 1)
    assert json.loads(forged) == json.loads(data)  # the standard reader would accept it
    with pytest.raises(hr.InvalidLog):
        hr.Engine.replay(rules, forged)
    snap = engine.snapshot().to_json()
    with pytest.raises(hr.InvalidSnapshot):
        hr.Engine.restore(rules, snap.replace(b'"round":1,', b'"round":1,"round":1,', 1))


def test_value_or_json_takes_the_value_or_its_json() -> None:
    engine, _ = _two_phase_engine()
    log = engine.log()
    assert hr.value_or_json(log, hr.GameLog, hr.GameLog.from_json, hr.InvalidLog) is log
    assert hr.value_or_json(log.to_json(), hr.GameLog, hr.GameLog.from_json, hr.InvalidLog) == log
    assert hr.value_or_json(bytearray(log.to_json()), hr.GameLog, hr.GameLog.from_json, hr.InvalidLog) == log
    for bad in (None, 5, [log]):
        with pytest.raises(hr.InvalidLog):
            hr.value_or_json(bad, hr.GameLog, hr.GameLog.from_json, hr.InvalidLog)
