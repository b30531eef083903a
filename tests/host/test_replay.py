"""The log is the truth: replaying it rebuilds the same table, seat by seat; verify checks the end."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole import host
from hiddenrole.host import InvalidTableLog, LogMismatch, Table, TableLog, verify
from hiddenrole.host.catalog import get

from .support import BRAWL_DEF, POKE, SPIES_DEF, every_view, play_out, random_move

RACE = get("race")
REDBLUE = get("redblue")


@pytest.mark.parametrize(
    ("definition", "seats", "options", "seed", "rates"),
    [
        (RACE, 4, {"target": 30}, 1, {"undo_rate": 0.3, "say_rate": 0.1}),
        (RACE, 2, {"target": 25, "track": "long"}, 2, {"undo_rate": 0.2}),
        (REDBLUE, 6, {}, 3, {"undo_rate": 0.25, "say_rate": 0.2}),
        (REDBLUE, 5, {"split": "lone-red"}, 4, {"say_rate": 0.1}),
        (SPIES_DEF, 5, {}, 5, {"undo_rate": 0.3, "say_rate": 0.3, "end_rate": 0.05}),
    ],
)
def test_replay_from_the_log_gives_identical_views_for_every_seat(
    definition: host.GameDefinition, seats: int, options: dict[str, Any], seed: int, rates: dict[str, float]
) -> None:
    live = Table.open(definition, seats, options, seed=seed)
    checkpoints = 0
    for step in range(6):
        play_out_some(live, seed * 100 + step, rates)
        again = Table.replay(definition, live.log().to_json())
        assert every_view(again) == every_view(live)
        assert again.log().to_json() == live.log().to_json()
        checkpoints += 1
        if live.over:
            break
    play_out(live, seed, **rates)  # type: ignore[arg-type]
    again = Table.replay(definition, live.log().to_json())
    assert every_view(again) == every_view(live)
    assert again.outcome == live.outcome and live.outcome is not None
    assert checkpoints >= 1


def play_out_some(table: Table, seed: int, rates: dict[str, float]) -> None:
    rng = random.Random(seed)
    end_rate = rates.get("end_rate", 0.0)
    moves = {k: v for k, v in rates.items() if k != "end_rate"}
    for _ in range(5):
        if table.over:
            return
        if rng.random() < end_rate or not random_move(table, rng, **moves):
            table.end_phase()


def test_the_log_holds_header_and_numbered_moves() -> None:
    t = Table.open(RACE, ["ann", "bob"], {"target": 12}, seed=9, table_id="t-1")
    t.act("ann", "ROLL")
    t.say("bob", "good luck")
    t.act("bob", "TAUNT", ["ann"])
    raw = json.loads(t.log().to_json())
    assert raw["format"] == host.LOG_FORMAT
    assert raw["header"] == {
        "table": "t-1",
        "game": "race",
        "version": RACE.version,
        "options": {"target": 12, "track": "short"},
        "seats": ["ann", "bob"],
        "seed": 9,
    }
    assert raw["moves"] == [
        {"seq": 1, "move": "act", "seat": "ann", "skill": "ROLL", "draws": 1},
        {"seq": 2, "move": "say", "seat": "bob", "text": "good luck"},
        {"seq": 3, "move": "act", "seat": "bob", "skill": "TAUNT", "targets": ["ann"]},
    ]
    assert raw["end"]["seq"] == 3 and raw["end"]["outcome"] is None and len(raw["end"]["digest"]) == 64


def test_log_json_round_trips_to_the_same_bytes() -> None:
    t = Table.open(SPIES_DEF, 4, seed=8)
    play_out(t, 8, say_rate=0.3, undo_rate=0.2, end_rate=0.1)
    data = t.log().to_json()
    assert TableLog.from_json(data).to_json() == data
    assert TableLog.from_json(data.decode()) == t.log()


def test_a_log_written_under_another_rules_version_is_refused() -> None:
    t = Table.open(RACE, 2, seed=1)
    raw = json.loads(t.log().to_json())
    raw["header"]["version"] = "0"
    with pytest.raises(hr.RulesMismatch, match="version '0'") as info:
        Table.replay(RACE, json.dumps(raw))
    assert info.value.code == "RULES_MISMATCH"
    with pytest.raises(hr.RulesMismatch, match="not 'race'"):
        Table.replay(RACE, Table.open(REDBLUE, 3, seed=1).log())


def test_verify_replays_and_checks_the_recorded_end() -> None:
    t = Table.open(RACE, 3, {"target": 15}, seed=4)
    play_out(t, 4, undo_rate=0.2)
    again = verify(t.log().to_json())  # looked up in the catalog by game name
    assert again.outcome == t.outcome
    assert verify(t.log(), RACE).seq == t.seq


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda raw: raw["end"].update(seq=raw["end"]["seq"] + 1), "end at move"),
        (lambda raw: raw["end"].update(digest="0" * 64), "replayed board differs"),
        (lambda raw: raw["end"]["outcome"].update(ending="draw"), "outcome"),
        (lambda raw: raw["end"]["outcome"]["table"].update(rounds=99), "outcome"),
        (lambda raw: raw["header"].update(seed=raw["header"]["seed"] + 1), None),
    ],
)
def test_verify_refuses_a_log_that_does_not_reach_its_recorded_end(tamper: Any, message: str | None) -> None:
    t = Table.open(RACE, 2, {"target": 10}, seed=6)
    play_out(t, 6)
    raw = json.loads(t.log().to_json())
    tamper(raw)
    with pytest.raises(InvalidTableLog, match=message) as info:
        verify(json.dumps(raw))
    if message:
        assert isinstance(info.value, LogMismatch) and info.value.code == "LOG_MISMATCH"


def test_verify_needs_a_recorded_end() -> None:
    raw = json.loads(Table.open(RACE, 2, seed=1).log().to_json())
    raw["end"] = None
    with pytest.raises(InvalidTableLog, match="no end"):
        verify(json.dumps(raw))
    assert Table.replay(RACE, json.dumps(raw)).seq == 0  # replay alone does not need one


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda raw: raw.update(format=2), "format"),
        (lambda raw: raw.pop("header"), "missing field 'header'"),
        (lambda raw: raw.update(extra=1), "unknown field 'extra'"),
        (lambda raw: raw["header"].update(seed="1"), "seed: expected a whole number"),
        (lambda raw: raw["header"]["options"].update(target=[1]), "options.target"),
        (lambda raw: raw["moves"][0].update(move="fly"), "unknown move 'fly'"),
        (lambda raw: raw["moves"][0].update(seq=5), "sequence number 5"),
        (lambda raw: raw["moves"][0].update(draws=-1), "negative"),
        (lambda raw: raw["moves"][0].update(draws=0), "recorded 0 random draws"),
        (lambda raw: raw["moves"][0].update(seat="p2"), "cannot be replayed"),
        (lambda raw: raw["moves"][0].update(targets="p2"), "expected an array"),
        (lambda raw: raw["moves"].append({"seq": 2, "move": "undo", "seat": "p1"}), "drew at random"),
        (lambda raw: raw["moves"].insert(0, {"seq": 1, "move": "undo"}), "no move to take back"),
    ],
)
def test_a_malformed_or_impossible_log_is_refused_naming_the_problem(tamper: Any, message: str) -> None:
    t = Table.open(RACE, 2, seed=1)
    t.act("p1", "ROLL")
    raw = json.loads(t.log().to_json())
    raw["end"] = None
    tamper(raw)
    if raw.get("moves") and raw["moves"][0].get("move") == "undo":
        for i, m in enumerate(raw["moves"]):
            m["seq"] = i + 1
    with pytest.raises(InvalidTableLog, match=message):
        Table.replay(RACE, json.dumps(raw))


@pytest.mark.parametrize("data", [b"\xff", b"{", "[]", 3])
def test_garbage_is_an_invalid_table_log(data: Any) -> None:
    with pytest.raises(InvalidTableLog):
        Table.replay(RACE, data)


def test_a_move_after_the_end_is_refused_on_replay() -> None:
    t = Table.open(SPIES_DEF, 3, seed=1)
    t.end_phase()
    raw = json.loads(t.log().to_json())
    raw["end"] = None
    raw["moves"].append({"seq": 2, "move": "end-phase"})
    with pytest.raises(InvalidTableLog, match="after the end"):
        Table.replay(SPIES_DEF, json.dumps(raw))


def test_undo_in_a_game_without_undo_is_refused_on_replay() -> None:
    t = Table.open(BRAWL_DEF, ["f1", "s1"], seed=1)
    t.act("f1", "HIT", ["s1"])
    raw = json.loads(t.log().to_json())
    raw["end"] = None
    raw["moves"].append({"seq": 2, "move": "undo"})
    with pytest.raises(InvalidTableLog, match="does not allow"):
        Table.replay(BRAWL_DEF, json.dumps(raw))


def test_replayed_chance_is_exact() -> None:
    t = Table.open(SPIES_DEF, 3, seed=12)
    for _ in range(5):
        t.act("p1", POKE, ["p2"])
    coins = [e.data["coin"] for e in t.view("p3").events if e.type == "POKED"]
    again = Table.replay(SPIES_DEF, t.log().to_json())
    assert [e.data["coin"] for e in again.view("p3").events if e.type == "POKED"] == coins
