"""Replay does a constant amount of work per move (benchmarks/host_bench.py prints the times).

Work is counted, not timed: the number of Python function calls a replay makes is the same on
every machine and under any load, so the test cannot flake the way a timed assertion does.
"""

from __future__ import annotations

import sys
from types import FrameType

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


def _calls_to_replay(data: bytes) -> int:
    """Python-level function calls made while replaying ``data`` (deterministic)."""
    calls = 0

    def count(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    sys.setprofile(count)
    try:
        Table.replay(RACE, data)
    finally:
        sys.setprofile(None)
    return calls


def test_replay_work_grows_linearly_with_the_log() -> None:
    small, large = long_log(150), long_log(600)
    ratio = _calls_to_replay(large) / _calls_to_replay(small)
    # Four times the moves: about 4x the calls. Quadratic work would be about 16x.
    assert ratio < 5, f"replaying 4x the moves made {ratio:.2f}x the calls"
