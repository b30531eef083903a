"""Issue 8's findings at the host, each one a test that fails on the host as it was.

1. The table id carried the seed (and the seed rebuilds every deal).
2. Sequence numbers counted hidden moves, and every move notified everyone.
4. Undo after a peek (in ``test_undo.py``: the last voter cannot take back its vote).
6. A move refused after its draws rebuilt the table from the log; target lists and
   chat had no bound.

Plus properties: nothing one seat sends changes what another seat may do.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hiddenrole as hr
from hiddenrole import host
from hiddenrole.host import (
    END_PHASE,
    MAX_SAYS_PER_PHASE,
    MAX_TARGETS,
    ChatLimitReached,
    Move,
    Notice,
    Table,
    TooManyTargets,
)
from hiddenrole.host.catalog import get

from .support import POKE, SPIES_DEF, civilians, spy_of

WEREWOLF = get("werewolf")
REDBLUE = get("redblue")
ONENIGHT = get("onenight")
SEED = 918_273_645


def _subscribed(t: Table) -> dict[str | None, list[Notice]]:
    got: dict[str | None, list[Notice]] = {r: [] for r in (None, *t.seats)}
    for r, box in got.items():
        t.subscribe(r, box.append)
    return got


def _everything_seen(t: Table, pushed: dict[str | None, list[Notice]]) -> str:
    views = [t.view(r).to_dict() for r in (None, *t.seats)]
    return json.dumps([views, [n.to_dict() for box in pushed.values() for n in box]])


# ---------------------------------------------------------------------- 1. ids carry nothing


def test_a_default_table_id_is_random_and_not_the_seed() -> None:
    a, b = Table.open(WEREWOLF, 9, seed=SEED), Table.open(WEREWOLF, 9, seed=SEED)
    assert a.id != b.id
    assert str(SEED) not in a.id and len(a.id.split("-", 1)[1]) == 32  # 128 random bits


def test_neither_the_seed_nor_the_log_reaches_any_seat_or_spectator() -> None:
    t = Table.open(WEREWOLF, 9, seed=SEED)
    pushed = _subscribed(t)
    for _ in range(3):
        for seat in t.seats:
            view = t.view(seat)
            if view.me is not None and view.me.allowed_skills:
                target = next(p.seat for p in view.players if p.alive and p.seat != seat)
                with contextlib.suppress(hr.GameError):
                    t.act(seat, view.me.allowed_skills[0], [target])
        t.end_phase()
    seen = _everything_seen(t, pushed)
    assert str(SEED) not in seen and '"seed"' not in seen and '"seq"' not in seen
    assert t.log().to_json().decode() not in seen


# ---------------------------------------------------------------------- 2. no counter of hidden moves


def _seat_of(t: Table, role: str) -> str:
    return next(p.id for p in t.inspect().all_players() if p.role == role)


def test_a_hidden_move_tells_nobody_else_anything() -> None:
    t = Table.open(WEREWOLF, 9, seed=3, table_id="w")
    assert t.status().phase == "NIGHT_GUARD"
    guard = _seat_of(t, "GUARD")
    pushed = _subscribed(t)
    before = {r: t.version(r) for r in pushed}
    t.act(guard, "PROTECT", [guard])
    assert [r for r, box in pushed.items() if box] in ([], [guard])  # at most the guard hears of its choice
    assert {r: t.version(r) for r in pushed if r != guard} == {r: v for r, v in before.items() if r != guard}


def test_what_others_see_does_not_depend_on_how_many_hidden_moves_were_made() -> None:
    """Main's leak: night 2 reached seq 21 or 22 depending on how many wolves voted."""
    tables = [Table.open(WEREWOLF, 9, seed=3, table_id="w") for _ in range(2)]
    villager = _seat_of(tables[0], "VILLAGER")
    for t, protect in zip(tables, (True, False), strict=True):
        guard = _seat_of(t, "GUARD")
        if protect:
            t.act(guard, "PROTECT", [guard])  # a move nobody else can see
        t.end_phase()
    a, b = (t.view(villager) for t in tables)
    assert a == b and a.version == b.version
    assert tables[0].seq == tables[1].seq + 1  # the host, and only the host, counts it


def test_a_move_in_the_robbers_phase_shows_nobody_that_the_robber_is_dealt() -> None:
    t = Table.open(ONENIGHT, 5, seed=3, table_id="o")
    while t.status().phase != "ON_NIGHT_ROBBER" and not t.over:
        t.end_phase()
    robber = _seat_of(t, "ON_ROBBER")
    pushed = _subscribed(t)
    view = t.view(robber)
    assert view.me is not None and view.me.allowed_skills
    target = next(p.seat for p in view.players if p.seat != robber)
    t.act(robber, view.me.allowed_skills[0], [target])
    assert all(not box for r, box in pushed.items() if r != robber)


def test_against_uses_the_movers_own_version() -> None:
    t = Table.open(REDBLUE, 5, seed=1)
    v2 = t.version("p2")
    t.act("p1", "VOTE", ["p3"])  # hidden from p2: p2's version stands, so its move is not stale
    assert t.act("p2", "VOTE", ["p3"], against=v2) == t.version("p2")
    with pytest.raises(host.StaleMove):
        t.act("p3", "VOTE", ["p1"], against=t.seq)  # the table's count means nothing to a seat


# ---------------------------------------------------------------------- 6. refusals cost O(1)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts full rebuilds of a table from its log."""
    count: list[int] = []
    real = Table._build

    def counting(self: Table, moves: Any) -> Any:
        count.append(len(moves))
        return real(self, moves)

    monkeypatch.setattr(Table, "_build", counting)
    yield count


def test_a_move_refused_after_its_draws_does_not_rebuild_the_table(builds: list[int]) -> None:
    t = Table.open(SPIES_DEF, 4, seed=3)
    twin = Table.open(SPIES_DEF, 4, seed=3)
    a, b = civilians(t)[:2]
    views = [t.view(r) for r in (None, *t.seats)]
    builds.clear()
    with pytest.raises(hr.TargetNotFound):
        t.act(a, POKE, ["nobody"])  # the coin is tossed, then the kernel refuses the target
    assert builds == []
    assert [t.view(r) for r in (None, *t.seats)] == views and t.seq == 0
    t.act(a, POKE, [b])
    twin.act(a, POKE, [b])
    assert t.view(a).events == twin.view(a).events  # the refused toss did not move the random stream
    assert t.inspect().var(hr.GAME, "pokes") == "1" and spy_of(t) == spy_of(twin)


def test_undo_does_not_rebuild_the_table(builds: list[int]) -> None:
    t = Table.open(REDBLUE, 6, seed=2)
    t.act("p1", "VOTE", ["p2"])
    builds.clear()
    t.undo("p1")
    assert builds == []


def test_an_oversized_target_list_is_refused_before_it_is_read() -> None:
    t = Table.open(REDBLUE, 5, seed=1)
    before = t.log().to_json()
    names = (f"x{i}" for i in itertools.count())
    with pytest.raises(TooManyTargets) as info:
        t.act("p1", "VOTE", names)
    assert info.value.code == "TOO_MANY_TARGETS"
    assert next(names) == f"x{MAX_TARGETS + 1}"  # no more than MAX_TARGETS + 1 names were read
    with pytest.raises(TooManyTargets):
        t.play(Move("act", "p1", "VOTE", ("p2",) * (MAX_TARGETS + 1)))
    assert t.log().to_json() == before


def test_chat_is_bounded_per_seat_and_per_phase() -> None:
    t = Table.open(REDBLUE, 5, seed=1)
    for i in range(MAX_SAYS_PER_PHASE):
        t.say("p1", f"line {i}")
    assert host.SAY not in t.view("p1").moves
    with pytest.raises(ChatLimitReached) as info:
        t.say("p1", "one more")
    assert info.value.code == "CHAT_LIMIT"
    t.say("p2", "I may still speak")  # one seat's flood does not silence another
    for seat in t.seats:
        t.act(seat, "VOTE", [seat])  # a tie: the phase ends and the count starts again
    assert not t.over and host.SAY in t.view("p1").moves
    t.say("p1", "back again")
    with pytest.raises(host.InvalidMove):
        t.say("p1", "x" * (host.MAX_SAY + 1))


# ---------------------------------------------------------------------- properties of the limits

_NAMES = st.sampled_from(["p1", "p2", "p3", "p4", "p5", "p9", "", "P1"])
_INPUT = st.one_of(
    st.tuples(st.just("say"), st.text(max_size=2100)),
    st.tuples(st.just("act"), st.sampled_from(["VOTE", "KILL", ""]), st.lists(_NAMES, max_size=80)),
    st.tuples(st.just("undo")),
    st.tuples(st.just("end-turn")),
    st.tuples(st.just("end-phase")),
)


def _send(t: Table, seat: str, msg: tuple[Any, ...]) -> None:
    try:
        if msg[0] == "say":
            t.say(seat, msg[1])
        elif msg[0] == "act":
            t.act(seat, msg[1], msg[2])
        elif msg[0] == "undo":
            t.undo(seat)
        elif msg[0] == "end-turn":
            t.end_turn(seat)
        else:
            t.play(Move(END_PHASE, seat))
    except hr.GameError:
        pass


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_INPUT, max_size=60))
def test_nothing_one_seat_sends_changes_what_another_may_do(inputs: list[tuple[Any, ...]]) -> None:
    t = Table.open(REDBLUE, 5, seed=7, table_id="r")
    fresh = {s: (t.view(s).moves, t.view(s).me) for s in t.seats if s != "p1"}
    for msg in inputs:
        _send(t, "p1", msg)
    assert not t.over and t.status().round == 1  # p1 alone can never resolve the round
    for seat, (moves, me) in fresh.items():
        view = t.view(seat)
        assert (view.moves, view.me) == (moves, me)
        assert all(e.type == hr.GAME_STARTED for e in view.events)  # p1's choices showed nobody anything
    t.say("p2", "still here")
    t.act("p2", "VOTE", ["p3"])


@settings(max_examples=40, deadline=None)
@given(st.lists(_NAMES, min_size=MAX_TARGETS + 1, max_size=MAX_TARGETS + 40), st.sampled_from(["p1", "p9", 7]))
def test_any_target_list_over_the_cap_is_refused_first(targets: list[str], seat: Any) -> None:
    t = Table.open(REDBLUE, 5, seed=1)
    before = t.log().to_json()
    with pytest.raises(TooManyTargets):
        t.act(seat, "VOTE", targets)
    assert t.log().to_json() == before
