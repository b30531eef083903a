"""Replay does a constant amount of work per move (benchmarks/host_bench.py prints the times).

Work is counted, not timed: the number of Python function calls a replay makes is the same on
every machine and under any load, so the test cannot flake the way a timed assertion does.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from types import FrameType
from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole.gamedef import Context
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


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """Counts the reader views built (``_core``) and the game's ``public`` hook calls made."""
    counts = {"cores": 0, "public": 0}
    real = Table._core

    def core(self: Table, *args: Any) -> Any:
        counts["cores"] += 1
        return real(self, *args)

    monkeypatch.setattr(Table, "_core", core)
    yield counts


def _counting_race(counts: dict[str, int]) -> Any:
    hook = RACE.public
    assert hook is not None

    def public(ctx: Context) -> Any:
        counts["public"] += 1
        return hook(ctx)

    return dataclasses.replace(RACE, public=public)


def test_replay_builds_views_only_after_moves_that_changed_the_board(work: dict[str, int]) -> None:
    """150 moves, 15 of them rolls: the deal and each roll rebuild the 5 readers' views; taunts rebuild none."""
    data = long_log(150)
    work.update(cores=0, public=0)
    Table.replay(_counting_race(work), data)
    assert work == {"cores": 5 * (1 + 15), "public": 1 + 15}


def test_a_move_that_leaves_the_board_as_it_was_builds_no_view(work: dict[str, int]) -> None:
    t = Table.open(_counting_race(work), 4, seed=5)
    before = {r: t.version(r) for r in (*t.seats, None)}
    work.update(cores=0, public=0)
    t.act("p2", "TAUNT", ["p3"])
    assert work == {"cores": 0, "public": 0}
    # The taunt still reached everyone: every version moved, with the event.
    assert all(t.version(r) == v + 1 for r, v in before.items())
    t.act(t.view().turn, "ROLL")
    assert work == {"cores": 5, "public": 1}


def test_a_line_said_rebuilds_no_view_until_the_speaker_may_say_no_more(work: dict[str, int]) -> None:
    """A line reaches its hearers (their versions move) without rebuilding anyone's view core;
    only the speaker's last allowed line changes its own advice (no more ``say``), so only that core is rebuilt."""
    from hiddenrole.host.table import MAX_SAYS_PER_PHASE

    t = Table.open(get("werewolf"), 9, seed=3)
    while t.status().phase != "DAY":
        t.end_phase()
    speaker = next(p.seat for p in t.view(None).players if p.alive)
    hearers = [p.seat for p in t.view(None).players if p.alive]
    before = {r: t.version(r) for r in hearers}
    work.update(cores=0)
    for k in range(MAX_SAYS_PER_PHASE - 1):
        t.say(speaker, f"line {k}")
    assert work["cores"] == 0
    assert all(t.version(r) == v + MAX_SAYS_PER_PHASE - 1 for r, v in before.items())
    t.say(speaker, "the last line")
    assert work["cores"] == 1
    assert "say" not in t.view(speaker).moves and "say" in t.view(hearers[-1]).moves


def test_a_line_said_asks_the_speech_rule_once_and_copies_no_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line's hearers come from the kernel's own delivery (``on_message``: no second
    ``message_receivers``) and the board is not copied to be compared (a line leaves it as it
    was); so too after an undo has put a restored kernel in place."""
    calls = {"receivers": 0, "view": 0}
    receivers, view = hr.Engine.message_receivers, hr.Engine.view

    def counted_receivers(self: hr.Engine, sender: str) -> tuple[str, ...]:
        calls["receivers"] += 1
        return receivers(self, sender)

    def counted_view(self: hr.Engine) -> hr.GameView:
        calls["view"] += 1
        return view(self)

    monkeypatch.setattr(hr.Engine, "message_receivers", counted_receivers)
    monkeypatch.setattr(hr.Engine, "view", counted_view)
    t = Table.open(get("redblue"), 5, seed=2)
    for when in ("dealt", "after an undo"):
        calls.update(receivers=0, view=0)
        for k in range(3):
            t.say("p1", f"{when} {k}")
        assert calls == {"receivers": 0, "view": 0}, when
        assert [c.text for c in t.view("p2").chat][-3:] == [f"{when} {k}" for k in range(3)]
        t.act("p1", "VOTE", ["p2"])
        t.undo("p1")
