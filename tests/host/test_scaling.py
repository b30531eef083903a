"""Replay does a constant amount of work per move (benchmarks/host_bench.py prints the numbers)."""

from __future__ import annotations

import time

from hiddenrole.host import Table
from hiddenrole.host.catalog import get

RACE = get("race")


def long_log(moves: int) -> bytes:
    """A race log of exactly ``moves`` moves: mostly taunts (no chance) with a roll every tenth move."""
    t = Table.open(RACE, 4, {"target": 100, "track": "long"}, seed=5)
    while t.seq < moves and not t.over:
        if t.seq % 10 == 9:
            t.act(t.view().turn, "ROLL")
        else:
            seat = t.seats[t.seq % 4]
            t.act(seat, "TAUNT", [t.seats[(t.seq + 1) % 4]])
    assert t.seq == moves
    return t.log().to_json()


def _best_replay(data: bytes, tries: int = 3) -> float:
    best = float("inf")
    for _ in range(tries):
        start = time.perf_counter()
        Table.replay(RACE, data)
        best = min(best, time.perf_counter() - start)
    return best


def test_replay_time_grows_linearly_with_the_log() -> None:
    small, large = long_log(150), long_log(600)
    ratio = _best_replay(large) / _best_replay(small)
    # Four times the moves: about 4x the time. Quadratic work would be about 16x.
    assert ratio < 8, f"replaying 4x the moves took {ratio:.1f}x the time"
