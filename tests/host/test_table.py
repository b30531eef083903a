"""Tables: opening, checked moves with typed refusals, sequence numbers, outcome and statistics."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole import host
from hiddenrole.host import InvalidGame, InvalidMove, InvalidSeats, Move, MoveRefused, SeatNotFound, Table
from hiddenrole.host.catalog import get

from .support import BRAWL_DEF, PEEK, POKE, SPIES_DEF, civilians, spy_of, with_outcome

RACE = get("race")
REDBLUE = get("redblue")


def test_seats_by_count_or_by_name_in_sorted_table_order() -> None:
    assert Table.open(RACE, 3, seed=1).seats == ("p1", "p2", "p3")
    assert Table.open(REDBLUE, 12, seed=1).seats[:2] == ("p01", "p02")
    t = Table.open(RACE, ["cy", "ann", "bob"], seed=1)
    assert t.seats == ("ann", "bob", "cy")
    assert t.view().turn == "ann"


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (1, "seats 2..4"),
        (5, "seats 2..4"),
        (0, "1..64"),
        (65, "1..64"),
        (["a", "a"], "same name"),
        (["a", "b c"], "seat name"),
        (["a", ""], "seat name"),
        (["a", "b,c"], "seat name"),
        (["a", 3], "texts"),
        ("ab", "count or a list"),
        (True, "count or a list"),
    ],
)
def test_bad_seats_are_refused(seats: Any, message: str) -> None:
    with pytest.raises(InvalidSeats, match=message):
        Table.open(RACE, seats, seed=1)


@pytest.mark.parametrize(("seed", "ok"), [(0, True), (2**53 - 1, True), (-1, False), (2**53, False), (1.5, False)])
def test_seeds_are_json_safe_whole_numbers(seed: Any, ok: bool) -> None:
    if ok:
        assert Table.open(RACE, 2, seed=seed).header.seed == seed
    else:
        with pytest.raises(hr.InvalidArgument):
            Table.open(RACE, 2, seed=seed)


def test_a_table_without_seed_draws_one_and_records_it() -> None:
    t = Table.open(RACE, 2)
    assert 0 <= t.header.seed < host.MAX_SEED
    assert str(t.header.seed) not in t.id and t.id.startswith("race-")  # the id is random, not the seed
    assert Table.open(RACE, 2, seed=1, table_id="lobby:7").id == "lobby:7"
    with pytest.raises(hr.InvalidArgument):
        Table.open(RACE, 2, seed=1, table_id="has space")


def test_an_accepted_move_returns_the_movers_own_number() -> None:
    t = Table.open(RACE, 2, seed=1)
    assert t.seq == 0
    assert t.act("p1", "ROLL") == 2 == t.version("p1")  # a seat's move: the seat's view version
    assert t.act("p1", "TAUNT", ["p2"]) == 3
    assert t.act("p2", "ROLL") == 4 == t.version("p2")
    assert t.seq == 3 and [m.seq for m in t.moves()] == [1, 2, 3]


def test_a_move_for_a_seat_that_does_not_exist_is_refused() -> None:
    t = Table.open(RACE, 2, seed=1)
    with pytest.raises(SeatNotFound, match="'p9'") as info:
        t.act("p9", "ROLL")
    assert info.value.code == "SEAT_NOT_FOUND"
    with pytest.raises(InvalidMove):
        t.act(7, "ROLL")  # type: ignore[arg-type]
    assert t.seq == 0


def test_a_move_out_of_turn_is_refused_with_the_seat_whose_turn_it_is() -> None:
    t = Table.open(RACE, 3, seed=1)
    before = t.log().to_json()
    with pytest.raises(hr.NotYourTurn, match="p1's turn") as info:
        t.act("p2", "ROLL")
    assert info.value.code == "NOT_YOUR_TURN"
    with pytest.raises(hr.NotYourTurn):
        t.end_turn("p3")
    assert t.log().to_json() == before


def test_a_move_not_allowed_now_is_refused() -> None:
    t = Table.open(RACE, 2, seed=1)
    with pytest.raises(hr.SkillNotAllowed, match="may not use JUMP") as info:
        t.act("p1", "JUMP")
    assert not isinstance(info.value, hr.NotYourTurn)
    with pytest.raises(hr.InvalidTargets):  # the kernel's own target checks still apply
        t.act("p1", "TAUNT", ["p1"])
    with pytest.raises(MoveRefused, match="ends a turn by rolling") as refused:
        t.end_turn("p1")  # the game's own allows hook
    assert refused.value.code == "MOVE_REFUSED"
    assert t.seq == 0


def test_only_the_host_ends_a_phase() -> None:
    t = Table.open(SPIES_DEF, 3, seed=1)
    with pytest.raises(MoveRefused, match="only the host"):
        t.play(Move(host.END_PHASE, "p1"))
    assert t.end_phase() == 1
    assert t.over


@pytest.mark.parametrize(
    ("move", "error"),
    [
        (Move("jump", "p1"), InvalidMove),
        (Move(host.ACT, None, "ROLL"), InvalidMove),
        (Move(host.ACT, "p1", ""), InvalidMove),
        (Move(host.ACT, "p1", "ROLL", ["p2"]), InvalidMove),  # type: ignore[arg-type]
        (Move(host.SAY, "p1", text=""), InvalidMove),
        (Move(host.SAY, "p1", text="x" * (host.MAX_SAY + 1)), InvalidMove),
        (("act", "p1", "ROLL"), InvalidMove),
    ],
)
def test_malformed_moves_are_refused(move: Any, error: type[Exception]) -> None:
    t = Table.open(RACE, 2, seed=1)
    with pytest.raises(error):
        t.play(move)
    assert t.seq == 0


def test_a_refused_move_after_a_draw_leaves_the_table_as_it_was() -> None:
    # POKE draws a coin before the kernel sees the move; a bad target is only found by the kernel.
    t = Table.open(SPIES_DEF, 3, seed=4)
    before = (t.log().to_json(), [t.view(s) for s in t.seats])
    with pytest.raises(hr.TargetNotFound):
        t.act("p1", POKE, ["nobody"])
    assert (t.log().to_json(), [t.view(s) for s in t.seats]) == before
    t.act("p1", POKE, ["p2"])
    assert Table.replay(SPIES_DEF, t.log()).log().to_json() == t.log().to_json()


def test_once_over_every_move_is_refused() -> None:
    t = Table.open(SPIES_DEF, 3, seed=1)
    t.end_phase()
    moves: list[Callable[[], int]] = [
        lambda: t.act("p1", POKE, ["p2"]),
        lambda: t.say("p1", "hi"),
        t.end_phase,
        lambda: t.undo(),
    ]
    for move in moves:
        with pytest.raises(hr.GameEnded):
            move()
    assert t.view("p1").moves == ()


def test_outcome_names_winning_seats_the_ending_and_statistics() -> None:
    t = Table.open(SPIES_DEF, 4, seed=2)
    spy = spy_of(t)
    t.act(civilians(t)[0], POKE, [spy])
    t.act(spy, PEEK, [civilians(t)[1]])
    t.end_phase()
    o = t.outcome
    assert o is not None
    assert o.winners == (spy,)
    assert o.ending == "spy-peeked"
    assert o.stat("pokes") == 1
    assert o.seat_stat(spy, "won") == 1 and o.seat_stat(civilians(t)[0], "won") == 0
    assert t.view(None).outcome == o


def test_race_outcome_reports_rounds_and_positions() -> None:
    t = Table.open(RACE, 3, {"target": 10}, seed=11)
    while not t.over:
        t.act(t.view().turn, "ROLL")
    o = t.outcome
    assert o is not None and o.ending == "finish-line" and o.winners
    assert all(o.seat_stat(w, "position") == 10 for w in o.winners)
    assert o.stat("rounds") == t.status().round - 1
    assert set(o.seats) == set(t.seats)


def test_default_outcome_maps_winning_camps_to_seats() -> None:
    t = Table.open(with_outcome(SPIES_DEF, None), 3, seed=2)
    t.end_phase()
    o = t.outcome
    assert o is not None and o.winners == tuple(civilians(t)) and o.ending == "won"


@pytest.mark.parametrize(
    ("outcome", "message"),
    [
        (host.Outcome((), "x", {"undeclared": 1}), "not declared"),
        (host.Outcome((), "x", {"won": 1}), "declared per seat"),
        (host.Outcome(("ghost",), "x"), "not a seat"),
        ("done", "not an Outcome"),
    ],
)
def test_bad_statistics_from_the_game_are_invalid_game_and_the_move_is_not_taken(outcome: Any, message: str) -> None:
    t = Table.open(with_outcome(SPIES_DEF, lambda ctx, camps: outcome), 3, seed=2)
    with pytest.raises(InvalidGame, match=message):
        t.end_phase()
    assert t.seq == 0 and not t.over


def test_a_deal_that_does_not_fit_is_invalid_game() -> None:
    bad_roles = dataclasses.replace(
        SPIES_DEF, setup=lambda o, seats, rng: host.Deal(SPIES_DEF.setup(o, seats, rng).rules, {})
    )
    with pytest.raises(InvalidGame, match="every seat"):
        Table.open(bad_roles, 3, seed=1)
    not_a_deal = dataclasses.replace(SPIES_DEF, setup=lambda o, seats, rng: "deal")  # type: ignore[arg-type,return-value]
    with pytest.raises(InvalidGame, match="Deal"):
        Table.open(not_a_deal, 3, seed=1)
    system = dataclasses.replace(
        SPIES_DEF,
        setup=lambda o, seats, rng: host.Deal(SPIES_DEF.setup(o, seats, rng).rules, dict.fromkeys(seats, hr.SYSTEM)),
    )
    with pytest.raises(InvalidGame, match="bad role"):
        Table.open(system, 3, seed=1)


def test_setup_may_refuse_an_option_that_does_not_fit_the_seats() -> None:
    def setup(options: host.Settings, seats: tuple[str, ...], rng: Any) -> host.Deal:
        if options.number("spies") >= len(seats):
            raise host.InvalidOptions(f"option 'spies': {options.number('spies')} spies need more seats", "spies")
        return SPIES_DEF.setup(options, seats, rng)

    d = dataclasses.replace(SPIES_DEF, setup=setup, options=(host.Option.integer("spies", 1, 1, 8),))
    with pytest.raises(host.InvalidOptions, match="spies") as info:
        Table.open(d, 3, {"spies": 3}, seed=1)
    assert info.value.option == "spies"


def test_auto_advance_that_never_stops_is_the_games_fault() -> None:
    # A phase nobody can act in is always ready: auto-advance would loop for ever.
    cfg = hr.Config(
        start_phase="IDLE",
        phases={
            "IDLE": hr.PhaseConfig(next_phase="IDLE", on_enter=(hr.CLEAR_ROUND_VARS,), on_exit=(hr.ADVANCE_ROUND,))
        },
    )
    rules = hr.Rules(cfg, name="idle", resolvers={"IDLE": lambda uses, view: []})
    idle = dataclasses.replace(
        BRAWL_DEF, auto_advance=True, setup=lambda o, seats, rng: host.Deal(rules, dict.fromkeys(seats, "X"))
    )
    with pytest.raises(InvalidGame, match="in a row"):
        Table.open(idle, 2, seed=1)


def test_auto_advance_ends_ready_phases_by_itself() -> None:
    t = Table.open(REDBLUE, 4, seed=3)
    v = t.view("p1")
    assert v.round == 1
    for seat in t.seats:
        t.act(seat, "VOTE", [t.seats[0] if seat != t.seats[0] else t.seats[1]])
    assert t.view("p1").round == 2  # the last vote ended the phase, no host needed
    assert not t.inspect().player(t.seats[0]).alive  # type: ignore[union-attr]


def test_initiative_turns_and_delay_through_the_table() -> None:
    t = Table.open(BRAWL_DEF, ["f1", "s1", "s2"], seed=1)
    v = t.view("f1")
    assert v.turn == "f1" and host.DELAY_TURN in v.moves and host.END_TURN in v.moves
    assert host.DELAY_TURN not in t.view("s1").moves
    t.delay_turn("f1")
    assert t.view().turn == "s1"
    with pytest.raises(hr.NotYourTurn):
        t.delay_turn("f1")
    t.act("s1", "HIT", ["f1"])
    t.end_turn("s2")
    assert t.view().turn == "f1"
    kinds = [m.kind for m in t.moves()]
    assert kinds == [host.DELAY_TURN, host.ACT, host.END_TURN]
    assert Table.replay(BRAWL_DEF, t.log().to_json()).view("f1") == t.view("f1")


def test_the_view_lists_the_moves_a_seat_may_make_now() -> None:
    t = Table.open(RACE, 2, seed=1)
    assert t.view("p1").moves == (host.ACT, host.SAY)  # end-turn is refused by the race's allows hook
    assert t.view("p2").moves == (host.ACT, host.SAY)  # taunting is allowed out of turn
    t.act("p1", "TAUNT", ["p2"])  # seen by everyone at once: not undoable
    assert host.UNDO not in t.view("p1").moves and host.UNDO not in t.view("p2").moves
    assert t.view(None).moves == ()
    r = Table.open(REDBLUE, 4, seed=1)
    r.act("p1", "VOTE", ["p2"])  # a pending choice
    assert host.UNDO in r.view("p1").moves and host.UNDO not in r.view("p2").moves


def test_readiness_and_inspect_are_host_tools() -> None:
    t = Table.open(RACE, 2, seed=1)
    assert t.readiness().turn == "p1"
    assert t.inspect().var(hr.GAME.of("p1"), "position") == "0"
