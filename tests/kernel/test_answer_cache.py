"""The engine keeps what it derived from the board until the board changes, and no longer.

"What may each seat do" is computed once per board (for every seat at once) and the
rules' ``usable`` answers are kept per (seat, skill); a waiting submission in a
simultaneous phase changes only the pending list. Every step that can change the
board (apply, end_phase, a resolved move, rollback) must forget them: these tests
fail if one of those steps keeps a stale answer. Compiled rules are shared by every
engine of one Rules value, kept outside that frozen value, and dropped with it.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence

import pytest

import hiddenrole as hr
from hiddenrole import compiled as compiled_rules

from .conftest import game, make_rules
from .test_who_may_act import DAY, NIGHT, PLAYERS, night_day

CLOSED = "closed"
"""A game variable naming a skill the gate below refuses to everyone."""


class CountingGate:
    """``usable``: refuses the skill named by the ``closed`` game variable; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def usable(self, player_id: str, skill: str, view: hr.GameView, submitted: Sequence[hr.SkillUse]) -> str | None:
        self.calls += 1
        return "closed" if view.var(hr.GAME, CLOSED) == skill else None


def gated_village() -> tuple[hr.Engine, CountingGate]:
    gate = CountingGate()
    engine, _ = game(night_day(), PLAYERS, usable=gate)
    return engine, gate


def test_apply_makes_the_engine_ask_again() -> None:
    engine, _ = gated_village()
    assert engine.allowed_skills("s1") == ("CHECK",)
    engine.apply(hr.set_var(hr.GAME, CLOSED, "CHECK"))
    assert engine.allowed_skills("s1") == ()
    assert engine.allowed_targets("s1", "CHECK") == ()
    engine.apply(hr.set_var(hr.GAME, CLOSED, ""))
    assert engine.allowed_skills("s1") == ("CHECK",)


def test_end_phase_makes_the_engine_ask_again() -> None:
    engine, _ = gated_village()
    engine.apply(hr.set_var(hr.GAME, CLOSED, "VOTE"))
    assert engine.allowed_skills("v1") == ()  # nothing for a villager at night
    engine.end_phase()
    assert engine.status().phase == DAY
    assert engine.allowed_skills("v1") == ("SPEAK",)
    assert engine.player_view("v1").allowed_skills == ("SPEAK",)


def _refs(views: dict[str, hr.PlayerView]) -> dict[str, int]:
    """References to each view (counted the same way on every call, so calls compare)."""
    return {pid: sys.getrefcount(view) for pid, view in views.items()}


def test_stale_views_are_released_by_the_next_view_request_not_by_the_move() -> None:
    """A move that makes views stale leaves them for the next :meth:`player_view` to release:
    the move costs the same whether or not views were asked for, and the views' cost lands on
    views. The engine holds each stale view once, however many moves pass before the next
    request (the engine's reference is the only one besides this test's)."""
    engine, _ = gated_village()
    views = {pid: engine.player_view(pid) for pid in engine.player_ids()}
    held = _refs(views)
    engine.submit("s1", "CHECK", ["w1"])  # s1's view is stale: its own waiting submission
    assert _refs(views) == held
    assert engine.player_view("w1") is views["w1"]  # a seat the submission did not touch keeps its view
    assert _refs(views) == held | {"s1": held["s1"] - 1}  # ...and that request released s1's
    engine.end_phase()  # every view is stale now
    engine.apply(hr.set_var(hr.GAME, "unrelated", "1"))
    engine.end_phase()
    assert _refs(views) == held | {"s1": held["s1"] - 1}
    fresh = engine.player_view("v1")
    assert fresh is not views["v1"] and fresh.phase == NIGHT and fresh.round == 2
    assert _refs(views) == {pid: n - 1 for pid, n in held.items()}


def test_a_death_changes_who_may_act_at_once() -> None:
    engine, _ = gated_village()
    assert engine.allowed_skills("s1") == ("CHECK",)
    engine.apply(hr.set_alive("s1", False))
    assert engine.allowed_skills("s1") == ()
    with pytest.raises(hr.PlayerDead):
        engine.submit("s1", "CHECK", ["w1"])


def test_a_waiting_submission_changes_only_its_seat() -> None:
    engine, gate = gated_village()
    before = {pid: engine.allowed_skills(pid) for pid in engine.player_ids()}
    asked = gate.calls
    engine.submit("s1", "CHECK", ["w1"])
    assert engine.allowed_skills("s1") == ()
    assert {pid: engine.allowed_skills(pid) for pid in engine.player_ids() if pid != "s1"} == {
        pid: skills for pid, skills in before.items() if pid != "s1"
    }
    # The board did not change: only s1's gate is asked again, as it now sees s1's own submission.
    assert gate.calls == asked + 1


def test_usable_is_asked_once_per_seat_and_skill_per_board() -> None:
    engine, gate = gated_village()
    for _ in range(3):
        engine.allowed_skills("x1")
        engine.allowed_targets("x1", "SAVE")
        engine.readiness()
    asked = gate.calls
    assert asked > 0
    engine.submit("x1", "SAVE", ["v1"])
    assert gate.calls == asked
    engine.apply(hr.set_var(hr.GAME, "unrelated", "1"))
    engine.allowed_skills("x1")
    assert gate.calls > asked


def test_one_pass_answers_every_seat_the_gate_allows() -> None:
    """The first question on a board asks ``usable`` for every seat offered a skill; later
    questions about other seats are answered from that pass."""
    engine, gate = gated_village()
    engine.apply(hr.set_var(hr.GAME, CLOSED, "KILL"))
    assert engine.allowed_skills("s1") == ("CHECK",)
    asked = gate.calls
    assert engine.allowed_skills("w1") == ()  # refused by the gate in that same pass
    assert engine.allowed_skills("x1") == ("SAVE", "POISON", "SKIP")
    assert gate.calls == asked


def test_a_gate_that_raises_for_one_seat_raises_only_for_that_seat() -> None:
    """``usable`` asked for every seat at once: an error for one seat reaches only whoever asks about it."""

    def usable(player_id: str, skill: str, view: hr.GameView, submitted: Sequence[hr.SkillUse]) -> None:
        if player_id == "w1":
            raise RuntimeError("gate bug")

    engine, _ = game(night_day(), PLAYERS, usable=usable)
    assert engine.allowed_skills("s1") == ("CHECK",)
    assert engine.allowed_skills("w2") == ("KILL",)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="gate bug"):
            engine.allowed_skills("w1")
    assert engine.submit("s1", "CHECK", ["w1"]).skill == "CHECK"


def test_end_phase_answers_every_seat_of_the_new_board_before_it_returns() -> None:
    """end_phase (and start) keep the who-acts pass of the board they leave: the first questions
    of a phase are answered without asking ``usable`` again, with the answers it would give."""
    engine, gate = gated_village()
    asked = gate.calls
    assert asked > 0  # start kept the first phase's pass
    assert {pid: engine.allowed_skills(pid) for pid in engine.player_ids()}["x1"] == ("SAVE", "POISON", "SKIP")
    assert gate.calls == asked
    engine.end_phase()
    asked = gate.calls
    answers = {pid: engine.allowed_skills(pid) for pid in engine.player_ids()}
    assert gate.calls == asked
    assert answers == {pid: ("VOTE", "SPEAK") for pid in engine.player_ids()}
    engine.apply(hr.set_var(hr.GAME, "unrelated", "1"))  # the same answers, asked afresh
    assert {pid: engine.allowed_skills(pid) for pid in engine.player_ids()} == answers
    assert gate.calls > asked


def test_a_gate_that_raises_in_the_pass_end_phase_keeps_does_not_fail_end_phase() -> None:
    """The pass kept by end_phase asks ``usable`` for every seat; a seat whose gate raises gets
    the error when it is asked about, and end_phase itself succeeds."""

    def usable(player_id: str, skill: str, view: hr.GameView, submitted: Sequence[hr.SkillUse]) -> None:
        if player_id == "v1" and view.phase == DAY:
            raise RuntimeError("gate bug")

    engine, _ = game(night_day(), PLAYERS, usable=usable)
    engine.end_phase()
    assert engine.status().phase == DAY
    assert engine.allowed_skills("s1") == ("VOTE", "SPEAK")
    with pytest.raises(RuntimeError, match="gate bug"):
        engine.allowed_skills("v1")


def test_verdicts_asked_before_the_pass_are_not_asked_again_by_it() -> None:
    """readiness asks ``usable`` seat by seat; the pass that allowed_skills runs afterwards on the
    same board reads those verdicts instead of asking again."""
    engine, gate = gated_village()
    engine.apply(hr.set_var(hr.GAME, "unrelated", "1"))  # a new board, no pass kept
    engine.readiness()
    asked = gate.calls
    assert engine.allowed_skills("s1") == ("CHECK",)
    assert engine.allowed_skills("w1") == ("KILL",)
    assert engine.allowed_skills("x1") == ("SAVE", "POISON", "SKIP")
    assert gate.calls == asked  # readiness asked every offered (seat, skill): the pass asks nothing


def test_a_rolled_back_step_leaves_the_answers_of_the_board_it_restored() -> None:
    def boom(uses: object, view: hr.GameView) -> list[hr.Effect]:
        raise RuntimeError("resolver bug")

    gate = CountingGate()
    engine, _ = game(night_day(), PLAYERS, usable=gate, resolvers={NIGHT: boom})
    before = {pid: engine.allowed_skills(pid) for pid in engine.player_ids()}
    with pytest.raises(RuntimeError):
        engine.end_phase()
    assert {pid: engine.allowed_skills(pid) for pid in engine.player_ids()} == before
    assert engine.status().phase == NIGHT


def test_status_follows_the_phase() -> None:
    engine, _ = gated_village()
    first = engine.status()
    assert engine.status() == first
    engine.end_phase()
    assert engine.status().phase == DAY
    engine.end_phase()
    assert (engine.status().phase, engine.status().round) == (NIGHT, 2)


def test_the_status_and_living_ids_kept_after_a_phase_follow_the_board() -> None:
    """end_phase keeps both answers for lock-free reads; every later board change drops them."""
    engine, _ = gated_village()
    engine.end_phase()
    assert engine.status().phase == DAY and "v1" in engine.alive_player_ids()
    engine.apply(hr.set_alive("v1", False))
    assert "v1" not in engine.alive_player_ids()
    engine.apply(hr.set_var(hr.GAME, CLOSED, "VOTE"))  # a write that kills nobody keeps the ids
    assert "v1" not in engine.alive_player_ids()
    engine.end_phase()
    assert (engine.status().phase, engine.status().round) == (NIGHT, 2)
    engine.apply(hr.set_alive("v1", True))
    assert "v1" in engine.alive_player_ids()


def test_all_players_is_the_same_tuple_until_a_record_changes() -> None:
    """Rules may memoise a function of the player records by the tuple's identity."""
    seen: list[tuple[hr.PlayerInfo, ...]] = []

    def victory(view: hr.GameView) -> None:
        seen.append(view.all_players())
        return None

    engine, _ = game(night_day(), PLAYERS, victory=victory)
    seen.clear()
    engine.end_phase()
    engine.end_phase()
    assert len(seen) == 2 and seen[0] is seen[1]
    engine.apply(hr.set_alive("v1", False))
    engine.end_phase()
    assert seen[2] is not seen[1]
    assert [p.alive for p in seen[2] if p.id == "v1"] == [False]


def test_compiled_rules_are_shared_kept_outside_the_rules_and_dropped_with_them() -> None:
    rules = make_rules(night_day(), name="cachetest")
    assert not hasattr(rules, "_compiled")
    first = compiled_rules.compiled(rules)
    hr.Engine(rules)
    hr.Engine.replay(rules, hr.Engine(rules).log())
    assert compiled_rules.compiled(rules) is first
    key = id(rules)
    assert key in compiled_rules._CACHE
    del rules
    gc.collect()
    assert key not in compiled_rules._CACHE


def test_seats_taken_after_a_question_get_their_answers() -> None:
    """Asking before the table is full keeps nothing about the seats: each later seat is answered."""
    gate = CountingGate()
    engine = hr.Engine(make_rules(night_day(), usable=gate))
    engine.add_player("s1", "seer")
    assert engine.allowed_skills("s1") == ()  # not started
    for pid in sorted(set(PLAYERS) - {"s1"}):
        engine.add_player(pid, PLAYERS[pid])
    engine.start()
    assert engine.allowed_skills("w1") == ("KILL",)
    assert engine.allowed_skills("v1") == ()
    assert engine.allowed_skills("s1") == ("CHECK",)
