"""The package's helpers: tables, seats, dealing, entry points, bot support, bad input."""

from __future__ import annotations

import random

import pytest

import hiddenrole as hr
from hiddenrole.games import missions as ms

from .support import AVALON7, board, nominate, to_first_nomination, vote


def test_team_size_table_matches_the_rules() -> None:
    assert [list(ms.TEAM_SIZES[n]) for n in range(5, 11)] == [
        [2, 3, 2, 3, 3],
        [2, 3, 4, 3, 4],
        [2, 3, 3, 4, 4],
        [3, 4, 4, 5, 5],
        [3, 4, 4, 5, 5],
        [3, 4, 4, 5, 5],
    ]
    assert ms.mission_team_size(8, 4) == 5


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: ms.mission_team_size(4, 1), hr.InvalidBoard),
        (lambda: ms.mission_team_size(11, 1), hr.InvalidBoard),
        (lambda: ms.mission_team_size(7, 0), hr.InvalidArgument),
        (lambda: ms.mission_team_size(7, 6), hr.InvalidArgument),
        (lambda: ms.mission_team_size("7", 1), hr.InvalidArgument),  # type: ignore[arg-type]
        (lambda: ms.evil_count(True), hr.InvalidArgument),
        (lambda: ms.fails_needed(7, 2.0), hr.InvalidArgument),  # type: ignore[arg-type]
        (lambda: ms.team_size(3), hr.InvalidArgument),  # type: ignore[arg-type]
        (lambda: ms.seat_ids(0), hr.InvalidArgument),
        (lambda: ms.parse_role(7), hr.InvalidArgument),  # type: ignore[arg-type]
        (lambda: ms.parse_role("lancelot"), hr.InvalidRole),
        (lambda: ms.composition(ms.AVALON, 7, "percival"), hr.InvalidArgument),
        (lambda: ms.composition(ms.AVALON, 7, (ms.SERVANT,)), hr.InvalidBoard),
        (lambda: ms.check_composition("MS_MERLIN"), hr.InvalidArgument),
        (lambda: ms.deal(ms.composition(ms.AVALON, 5), seed=True), hr.InvalidArgument),
        (lambda: ms.deal(ms.composition(ms.AVALON, 5), seed=1, ids=("a", "b")), hr.InvalidArgument),
        (lambda: ms.deal(ms.composition(ms.AVALON, 5), seed=1, ids=("a", "a", "b", "c", "d")), hr.InvalidPlayerID),
        (lambda: ms.deal([ms.SERVANT] * 5, seed=1), hr.InvalidBoard),
        (lambda: ms.engine_from_seats([("p1", ms.MERLIN, "x")]), hr.InvalidArgument),  # type: ignore[list-item]
        (lambda: ms.new_engine("avalon", 4), hr.InvalidBoard),
    ],
)
def test_bad_input_gets_a_typed_error(call: object, error: type[hr.GameError]) -> None:
    with pytest.raises(error):
        call()  # type: ignore[operator]


def test_team_size_reads_any_phase_holder() -> None:
    assert [ms.team_size(p) for p in (ms.PROPOSE_2, ms.PROPOSE_5, ms.TEAM_VOTE, hr.END)] == [2, 5, 0, 0]
    engine = ms.new_engine(ms.AVALON, 9, seed=4)
    to_first_nomination(engine)
    assert ms.team_size(engine.status()) == ms.team_size(engine.player_view("p1")) == 3
    assert ms.team_size(engine.view()) == 3


def test_seat_ids_sort_in_seat_order() -> None:
    assert ms.seat_ids(7) == ("p1", "p2", "p3", "p4", "p5", "p6", "p7")
    ten = ms.seat_ids(10)
    assert ten[0] == "p01" and ten[-1] == "p10" and list(ten) == sorted(ten)


def test_parse_role_accepts_values_and_short_names() -> None:
    assert ms.parse_role(ms.OBERON) == ms.OBERON
    assert ms.parse_role(" Loyal Servant ") == ms.SERVANT
    assert ms.parse_role("MINION") == ms.MINION
    assert ms.composition(ms.AVALON, 5, ("merlin", "assassin")) == ms.composition(ms.AVALON, 5)


def test_new_engine_can_wait_to_start_and_custom_ids_deal() -> None:
    engine = ms.new_engine(ms.RESISTANCE, 6, seed=2, start=False)
    assert engine.status().phase == hr.START and len(engine.player_ids()) == 6
    engine.start()
    assert engine.status().phase == ms.REVEAL
    seats = ms.deal(ms.composition(ms.RESISTANCE, 5), 3, ids=("eve", "bob", "ann", "cid", "dan"))
    assert [pid for pid, _ in seats] == ["ann", "bob", "cid", "dan", "eve"]


def test_scoreboard_shows_only_public_facts() -> None:
    engine = ms.engine_from_seats(AVALON7)
    to_first_nomination(engine)
    nominate(engine, ("p3", "p4"))
    assert ms.scoreboard(engine.view()) == {
        "mission": "1",
        "results": "",
        "successes": "0",
        "fails": "0",
        "rejects": "0",
        "leader": "p1",
        "team": "p3,p4",
        "team_size": "2",
        "fails_needed": "1",
    }
    vote(engine, False)
    board_view = board(AVALON7, vars={ms.VAR_RESULTS: "SFSFS"}).view()
    assert "team_size" not in ms.scoreboard(board_view)


def test_random_submission_is_always_legal() -> None:
    rng = random.Random(5)
    for seed in range(40):
        engine = ms.new_engine(ms.AVALON, 5 + seed % 6, seed=seed)
        while not engine.status().over:
            for pid in engine.player_ids():
                view = engine.player_view(pid)
                move = ms.random_submission(view, rng)
                assert (move is None) == (view.allowed_skills == ())
                if move is not None:
                    engine.submit(pid, *move)  # raises if illegal
            engine.end_phase()
