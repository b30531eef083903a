"""Table options and player preferences: checked at opening, at replay and at every view."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hiddenrole import host
from hiddenrole.host import InvalidOptions, InvalidPreferences, Table
from hiddenrole.host.catalog import get

RACE = get("race")


def test_defaults_fill_in_and_are_recorded_in_the_header() -> None:
    t = Table.open(RACE, 2, seed=1)
    assert dict(t.options) == {"target": 20, "track": "short"}
    assert dict(t.log().header.options) == {"target": 20, "track": "short"}
    t2 = Table.open(RACE, 2, {"target": 55, "track": "long"}, seed=1)
    assert t2.options.number("target") == 55 and t2.options.text("track") == "long"


@pytest.mark.parametrize(
    ("options", "name", "message"),
    [
        ({"speed": 3}, "speed", "unknown option 'speed'"),
        ({"target": 9}, "target", "outside 10..100"),
        ({"target": 101}, "target", "outside 10..100"),
        ({"target": "20"}, "target", "whole number"),
        ({"target": True}, "target", "whole number"),
        ({"target": 20.0}, "target", "whole number"),
        ({"track": "medium"}, "track", "one of short, long"),
        ({"track": 1}, "track", "one of short, long"),
    ],
)
def test_bad_options_are_refused_when_a_table_opens_naming_the_option(
    options: dict[str, Any], name: str, message: str
) -> None:
    with pytest.raises(InvalidOptions, match=message) as info:
        Table.open(RACE, 2, options, seed=1)
    assert info.value.option == name
    assert name in info.value.message
    assert info.value.code == "INVALID_OPTIONS"


def test_options_must_be_a_mapping() -> None:
    with pytest.raises(InvalidOptions, match="mapping"):
        Table.open(RACE, 2, [("target", 20)], seed=1)  # type: ignore[arg-type]


def test_bad_options_are_refused_when_a_log_is_replayed() -> None:
    t = Table.open(RACE, 2, seed=1)
    raw = json.loads(t.log().to_json())
    raw["header"]["options"]["target"] = 500
    with pytest.raises(InvalidOptions, match="'target'") as info:
        Table.replay(RACE, json.dumps(raw))
    assert info.value.option == "target"
    raw["header"]["options"] = {"target": 20, "track": "short", "turbo": True}
    with pytest.raises(InvalidOptions, match="unknown option 'turbo'"):
        Table.replay(RACE, json.dumps(raw))


def test_options_given_as_text_are_parsed_by_kind() -> None:
    settings = RACE.parse_options({"target": "30", "track": "long"})
    assert dict(settings) == {"target": 30, "track": "long"}
    with pytest.raises(InvalidOptions, match="'target'"):
        RACE.parse_options({"target": "thirty"})
    with pytest.raises(InvalidOptions, match="unknown option 'colour'"):
        RACE.parse_options({"colour": "red"})


@pytest.mark.parametrize(
    ("prefs", "name"),
    [({"leader-first": "yes"}, "leader-first"), ({"leader_first": True}, "leader_first"), ({"zoom": 2}, "zoom")],
)
def test_bad_preferences_are_refused_naming_the_preference(prefs: dict[str, Any], name: str) -> None:
    t = Table.open(RACE, 2, seed=1)
    with pytest.raises(InvalidPreferences, match=name) as info:
        t.view("p1", prefs)
    assert info.value.option == name
    assert info.value.code == "INVALID_PREFERENCES"
    assert isinstance(info.value, InvalidOptions)


def _race_to_spread(t: Table) -> None:
    while t.seq < 6:
        t.act(t.view().turn, "ROLL")


def test_preferences_change_how_a_seat_sees_never_what_it_sees() -> None:
    t = Table.open(RACE, 4, {"target": 100}, seed=3)
    _race_to_spread(t)
    plain = t.view("p2")
    leader = t.view("p2", {"leader-first": True})
    assert plain.data["positions"] != leader.data["positions"]  # the order differs ...
    key = lambda p: p["seat"]  # noqa: E731
    assert sorted(plain.data["positions"], key=key) == sorted(leader.data["positions"], key=key)  # ... the facts do not
    positions = [p["position"] for p in leader.data["positions"]]
    assert positions == sorted(positions, reverse=True)
    assert dataclasses_equal_except_data(plain, leader)


def dataclasses_equal_except_data(a: host.TableView, b: host.TableView) -> bool:
    import dataclasses

    return dataclasses.replace(a, data={}) == dataclasses.replace(b, data={})


def test_preferences_never_reach_the_log() -> None:
    t = Table.open(RACE, 2, seed=3)
    before = t.log().to_json()
    t.view("p1", {"leader-first": True})
    assert t.log().to_json() == before
    t.act("p1", "ROLL")
    assert b"leader" not in t.log().to_json()


def test_spectators_use_preferences_too() -> None:
    t = Table.open(RACE, 3, {"target": 100}, seed=5)
    _race_to_spread(t)
    positions = [p["position"] for p in t.view(None, {"leader-first": True}).data["positions"]]
    assert positions == sorted(positions, reverse=True)
