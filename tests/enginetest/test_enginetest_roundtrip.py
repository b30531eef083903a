"""The harness's incremental JSON round trips and its replay schedule."""

from __future__ import annotations

import dataclasses
import random

import hiddenrole as hr
from hiddenrole import enginetest as et
from hiddenrole.enginetest import fuzzgame
from hiddenrole.enginetest.roundtrip import BOARD, FULL, GrowingLog, ReplaySchedule, roundtrip_snapshot


def _engine(seed: int = 3) -> hr.Engine:
    game = fuzzgame.setup(random.Random(seed))
    engine = hr.Engine(game.rules)
    for pid, role in game.seats:
        engine.add_player(pid, role)
    engine.start()
    return engine


def test_a_growing_log_decodes_to_the_whole_log_step_after_step() -> None:
    engine, grown, rng = _engine(), GrowingLog(), random.Random(0)
    while not engine.status().over:
        log = engine.log()
        decoded = grown.roundtrip(log)
        assert decoded == log and decoded.to_json() == log.to_json()
        assert all(a is not b for a, b in zip(decoded.effects, log.effects, strict=True))  # decoded, not shared
        et.random_policy(et.Turn(engine, rng, 0, 0, et.Game(engine.rules, (("p0", "RED"),))))
        engine.end_phase()


def test_a_log_whose_history_changed_is_decoded_again_from_scratch() -> None:
    engine, grown = _engine(), GrowingLog()
    engine.end_phase()
    log = engine.log()
    grown.roundtrip(log)
    first = log.effects[0]
    rewritten = dataclasses.replace(log, effects=(first._replace(role="OTHER"), *log.effects[1:]))
    assert grown.roundtrip(rewritten) == rewritten


def test_a_snapshot_round_trip_keeps_the_board_and_the_whole_log() -> None:
    engine, grown = _engine(), GrowingLog()
    for _ in range(3):
        snap = engine.snapshot()
        assert roundtrip_snapshot(snap, grown) == snap
        engine.end_phase()


def test_the_schedule_replays_fully_at_start_on_doubling_and_at_the_end_and_once_per_new_phase() -> None:
    schedule = ReplaySchedule()
    got = [
        schedule.due("A", 5, False),  # start
        schedule.due("A", 7, False),
        schedule.due("B", 8, False),  # first step in B
        schedule.due("A", 10, False),  # doubled since 5
        schedule.due("B", 15, False),
        schedule.due("B", 16, True),  # last step
    ]
    assert got == [FULL, None, BOARD, FULL, None, FULL]
