"""GameDefinition: what holds together is accepted, everything else is InvalidGame."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole import host
from hiddenrole.host import Deal, GameDefinition, InvalidGame, Option, Statistic

from .support import SPIES_DEF


def _setup(options: host.Settings, seats: tuple[str, ...], rng: random.Random) -> Deal:
    raise AssertionError("not called")


def make(**kw: Any) -> GameDefinition:
    base: dict[str, Any] = {"name": "demo", "version": "1", "setup": _setup}
    base.update(kw)
    return GameDefinition(**base)


def test_a_definition_that_holds_together_is_accepted() -> None:
    d = make(
        name="my-game_two",
        min_seats=1,
        max_seats=64,
        options=(Option.boolean("fast"), Option.integer("size", 3, 1, 5), Option.choice("mode", "a", ("a", "b"))),
        preferences=(Option.boolean("dark"),),
        statistics=(Statistic.table("rounds"), Statistic.seat("score")),
        undo=True,
    )
    assert d.statistic_scope("rounds") is host.StatScope.TABLE
    assert d.statistic_scope("score") is host.StatScope.SEAT
    assert d.statistic_scope("nope") is None
    desc = d.describe()
    assert desc["seats"] == {"min": 1, "max": 64}
    assert desc["options"][1] == {"name": "size", "kind": "integer", "default": 3, "minimum": 1, "maximum": 5}
    assert desc["options"][2]["choices"] == ["a", "b"]


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"name": "Demo"}, "lowercase words"),
        ({"name": "two  words"}, "lowercase words"),
        ({"name": "trailing-"}, "lowercase words"),
        ({"name": ""}, "lowercase words"),
        ({"version": ""}, "version"),
        ({"version": 1}, "version"),
        ({"min_seats": 0}, "min_seats"),
        ({"max_seats": 65}, "max_seats"),
        ({"min_seats": True}, "min_seats"),
        ({"min_seats": 5, "max_seats": 4}, "above max_seats"),
        ({"options": (Option.boolean("x"), Option.integer("x", 1, 0, 2))}, "two options are named 'x'"),
        ({"preferences": (Option.boolean("p"), Option.boolean("p"))}, "two preferences"),
        ({"statistics": (Statistic.table("n"), Statistic.seat("n"))}, "two statistics are named 'n'"),
        ({"options": ("x",)}, "Option values"),
        ({"statistics": (Option.boolean("x"),)}, "Statistic values"),
        ({"options": "abc"}, "sequence"),
        ({"undo": "yes"}, "undo"),
        ({"auto_advance": 1}, "auto_advance"),
        ({"setup": None}, "setup"),
        ({"draws": 3}, "draws"),
        ({"outcome": "x"}, "outcome"),
        ({"arrange": 1}, "arrange"),
    ],
)
def test_a_definition_that_does_not_hold_together_is_invalid_game(kw: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidGame, match=message) as info:
        make(**kw)
    assert info.value.code == "INVALID_GAME"
    assert isinstance(info.value, hr.GameError)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Option.integer("n", 3, 5, 1), "minimum 5 is above maximum 1"),
        (lambda: Option.integer("n", 9, 1, 5), "default 9 is invalid"),
        (lambda: Option.integer("n", True, 0, 5), "default True is invalid"),
        (lambda: Option.integer("n", 1, 0.5, 5), "bounds"),  # type: ignore[arg-type]
        (lambda: Option.choice("c", "z", ("a", "b")), "default 'z'"),
        (lambda: Option.choice("c", "a", ()), "at least one"),
        (lambda: Option.choice("c", "a", ("a", "a")), "listed twice"),
        (lambda: Option.choice("c", "a", ("a", "")), "non-empty"),
        (lambda: Option.boolean("b", 1), "default 1 is invalid"),  # type: ignore[arg-type]
        (lambda: Option.boolean("Bad"), "lowercase words"),
        (lambda: Option("k", "colour", 1), "unknown kind"),  # type: ignore[arg-type]
        (lambda: Statistic("s", "global"), "scope"),  # type: ignore[arg-type]
        (lambda: Statistic.seat("Score"), "lowercase words"),
    ],
)
def test_declared_options_and_statistics_are_checked(build: Any, message: str) -> None:
    with pytest.raises(InvalidGame, match=message):
        build()


def test_option_parse_reads_typed_text_strictly() -> None:
    assert Option.boolean("b").parse("yes") is True
    assert Option.boolean("b").parse("OFF") is False
    assert Option.integer("n", 3, 1, 5).parse(" 4 ") == 4
    assert Option.choice("c", "a", ("a", "b")).parse("b") == "b"
    with pytest.raises(host.InvalidOptions, match="'n'") as info:
        Option.integer("n", 3, 1, 5).parse("6")
    assert info.value.option == "n"
    with pytest.raises(host.InvalidOptions):
        Option.boolean("b").parse("maybe")


def test_settings_readers_blame_the_game_for_undeclared_or_wrong_kind_reads() -> None:
    d = make(options=(Option.integer("size", 3, 1, 5), Option.boolean("fast")))
    s = d.resolve_options({})
    assert s.number("size") == 3 and s.flag("fast") is False
    with pytest.raises(InvalidGame, match="size"):
        s.flag("size")
    with pytest.raises(InvalidGame, match="colour"):
        s.text("colour")


def test_outcome_statistics_undeclared_wrong_scope_or_foreign_seat_are_invalid_game() -> None:
    d = SPIES_DEF
    seats = ("a", "b")
    ok = host.Outcome(("a",), "done", {"pokes": 1}, {"a": {"won": 1}})
    assert d.check_outcome(ok, seats) is ok
    bad = [
        (host.Outcome((), "done", {"rounds": 1}), "'rounds' is not declared"),
        (host.Outcome((), "done", {"won": 1}), "declared per seat"),
        (host.Outcome((), "done", {}, {"a": {"pokes": 2}}), "declared per table"),
        (host.Outcome((), "done", {}, {"zed": {"won": 1}}), "not at this table"),
        (host.Outcome(("zed",), "done"), "winner 'zed'"),
        ("won", "not an Outcome"),
    ]
    for outcome, message in bad:
        with pytest.raises(InvalidGame, match=message):
            d.check_outcome(outcome, seats)


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"ending": ""}, "word for the ending"),
        ({"table": {"n": 1.5}}, "whole number"),
        ({"table": {"n": True}}, "whole number"),
        ({"seats": {"a": 3}}, "mapping"),
        ({"winners": "ab"}, "sequence of seat names"),
    ],
)
def test_malformed_outcomes_are_invalid_game(kw: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {"winners": (), "ending": "done"}
    args.update(kw)
    with pytest.raises(InvalidGame, match=message):
        host.Outcome(**args)


def test_outcome_reads_missing_statistics_as_none() -> None:
    o = host.Outcome(("b", "a", "a"), "done", {"n": 2}, {"a": {"s": 1}})
    assert o.winners == ("a", "b")
    assert o.stat("n") == 2 and o.stat("m") is None
    assert o.seat_stat("a", "s") == 1 and o.seat_stat("b", "s") is None


@pytest.mark.parametrize(
    "draw",
    [
        host.Draw("", ("1",)),
        host.Draw("k", ()),
        host.Draw("k", ("a", "")),
        host.Draw("k", ("a,b", "c"), shuffle=True),
        host.Draw("k", ("a",), scope="game"),  # type: ignore[arg-type]
    ],
)
def test_draws_a_table_cannot_make_are_invalid_game(draw: host.Draw) -> None:
    with pytest.raises(InvalidGame):
        draw.check()


def test_draw_builders() -> None:
    rng = random.Random(1)
    die = host.Draw.die("d", 6)
    assert die.choices == ("1", "2", "3", "4", "5", "6")
    assert host.Draw.shuffled("deck", ["a", "b", "c"]).make(rng).count(",") == 2
    assert host.Draw.pick("coin", ["h", "t"]).make(rng) in ("h", "t")
    with pytest.raises(InvalidGame):
        host.Draw.die("d", 0)


def test_definitions_are_frozen_values() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        SPIES_DEF.undo = False  # type: ignore[misc]


def test_host_error_codes_are_stable_and_rebuildable() -> None:
    assert host.HOST_ERROR_CODES["INVALID_GAME"] is InvalidGame
    assert set(host.HOST_ERROR_CODES) == {
        "INVALID_GAME",
        "INVALID_OPTIONS",
        "INVALID_PREFERENCES",
        "INVALID_SEATS",
        "SEAT_NOT_FOUND",
        "INVALID_MOVE",
        "MOVE_REFUSED",
        "STALE_MOVE",
        "UNDO_REFUSED",
        "TOO_MANY_TARGETS",
        "CHAT_LIMIT",
        "INVALID_TABLE_LOG",
        "LOG_MISMATCH",
    }
    assert isinstance(host.error_for_code("STALE_MOVE", "x"), host.StaleMove)
    assert isinstance(host.error_for_code("NOT_YOUR_TURN", "x"), hr.NotYourTurn)
    assert isinstance(host.SeatNotFound("x"), hr.PlayerNotFound)
