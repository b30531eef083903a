"""``Engine.who_acts()``: every seat that may act now with its skills, each asked when reached.

It must give exactly what asking ``allowed_skills`` seat by seat in seat order gives, the
empty answers left out, including when the loop itself submits (a turn passes, a move
resolves at once). The harness checks the same agreement after every step of its random
games (``who_acts_problems``); these tests pin the cases by name.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import hiddenrole as hr

from .small_games import ACT, LOOP, counter_game, counter_rules, finished_mini
from .test_turns import SHOUT, STEP, ZAP, make_rules, new
from .test_who_may_act import village

ALL = (STEP, SHOUT, ZAP)


def seat_by_seat(engine: hr.Engine) -> list[tuple[str, tuple[hr.SkillType, ...]]]:
    return [(pid, s) for pid in engine.player_ids() if (s := engine.allowed_skills(pid))]


def test_each_seat_is_asked_when_reached_so_a_turn_passed_in_the_loop_counts() -> None:
    """A sequential phase: only the turn holder may act at first; submitting in the loop passes the
    turn, and the next seat is asked after that (an answer taken up front would end the loop at "a")."""
    engine = new(make_rules(hr.SEQUENTIAL))
    assert list(engine.who_acts()) == [("a", ALL)]
    got = []
    for pid, skills in engine.who_acts():
        got.append((pid, skills))
        engine.submit(pid, STEP)
    assert got == [("a", ALL), ("b", ALL), ("c", ALL)]
    assert [engine.var(hr.GAME.of(p), "pos") for p in "abc"] == ["1", "1", "1"]


def test_out_of_turn_skills_are_offered_to_the_seats_without_the_turn() -> None:
    engine = new(make_rules(hr.SEQUENTIAL, out_of_turn=(SHOUT,)))
    assert list(engine.who_acts()) == [("a", ALL), ("b", (SHOUT,)), ("c", (SHOUT,))]


def test_a_simultaneous_phase_yields_the_acting_seats_and_drops_a_used_step() -> None:
    engine, _ = village()
    night = list(engine.who_acts())
    assert [pid for pid, _ in night] == ["s1", "w1", "w2", "x1"]  # seat order; hunter and villager do nothing
    assert night == seat_by_seat(engine)
    engine.submit("w1", "KILL", ["v1"])
    assert [pid for pid, _ in engine.who_acts()] == ["s1", "w2", "x1"]
    assert list(engine.who_acts()) == seat_by_seat(engine)


def test_answers_asked_out_of_seat_order_while_submissions_wait_are_matched_to_their_seats() -> None:
    """A board changed while a submission waits: the pass leaves the offered seats to be asked one by
    one, and asking them in reverse seat order refills the kept map in that order. who_acts must still
    give each seat its own answer (a read of the map by position would hand them to the wrong seats)."""
    engine, _ = village()
    engine.submit("w1", "KILL", ["v1"])
    engine.apply(hr.set_var(hr.GAME, "note", "x"))  # the board changes; w1's KILL still waits
    for pid in reversed(engine.player_ids()):
        engine.allowed_skills(pid)
    assert list(engine.who_acts()) == seat_by_seat(engine)
    assert [pid for pid, _ in engine.who_acts()] == ["s1", "w2", "x1"]


def test_the_dead_and_seats_not_named_are_left_out() -> None:
    engine, _ = village()
    engine.end_phase()  # to DAY: everybody living votes
    assert [pid for pid, _ in engine.who_acts()] == ["h1", "s1", "v1", "w1", "w2", "x1"]
    engine.apply(hr.set_alive("v1", False))
    assert "v1" not in dict(engine.who_acts())
    engine.apply(hr.set_actors("DAY", "w2", "v1"))  # named: the dead among them may act
    assert [pid for pid, _ in engine.who_acts()] == ["v1", "w2"]
    assert list(engine.who_acts()) == seat_by_seat(engine)


def test_before_the_start_and_after_the_end_nobody_acts() -> None:
    engine = hr.Engine(counter_rules())
    engine.add_player("p0", "ANY")
    assert list(engine.who_acts()) == []
    assert list(counter_game().who_acts())
    engine = finished_mini()
    assert engine.status().over
    assert list(engine.who_acts()) == []


@pytest.mark.parametrize("seed", range(8))
def test_random_play_agrees_with_asking_seat_by_seat(seed: int) -> None:
    """Random submissions through ``who_acts`` in every turn order: the seats it yields, and their
    answers, are at each point what ``allowed_skills`` says."""
    rng = random.Random(seed)
    order = [hr.SIMULTANEOUS, hr.SEQUENTIAL, hr.INITIATIVE, hr.FREE][seed % 4]
    initiative = "init" if order is hr.INITIATIVE else ""
    rules = make_rules(order, moves=1 + seed % 2, out_of_turn=(SHOUT,) if seed % 3 else (), initiative_var=initiative)
    engine = new(rules, (("a", "SLOW"), ("b", "FAST"), ("c", "SLOW"), ("d", "FAST")))
    for _ in range(6):
        for pid, skills in engine.who_acts():
            assert skills == engine.allowed_skills(pid)
            skill = rng.choice(skills)
            others = [p for p in engine.alive_player_ids() if p != pid]
            targets: Sequence[str] = (rng.choice(others),) if skill == ZAP and others else ()
            if skill == ZAP and not others:
                continue
            engine.submit(pid, skill, targets)
        assert list(engine.who_acts()) == seat_by_seat(engine)
        engine.end_phase()
        if engine.status().over:
            break


def test_an_extension_point_may_not_ask_it() -> None:
    """Asked from a resolver (which runs under the lock), ``who_acts`` raises ``ReentrantCall``, like every
    engine method; so does advancing an iterator made outside, as each seat is asked when reached."""
    holder: list[hr.Engine] = []
    outside: list[object] = []
    seen: list[hr.ReentrantCall] = []

    def resolver(uses: object, view: object) -> list[hr.Effect]:
        for call in (lambda: holder[0].who_acts(), lambda: next(iter(outside[0]))):  # type: ignore[call-overload]
            try:
                call()
            except hr.ReentrantCall as e:
                seen.append(e)
        return []

    engine = counter_game(rules=counter_rules(resolvers={LOOP: resolver}))
    holder.append(engine)
    engine.submit("p3", ACT)
    assert engine.allowed_skills("p0") == (ACT,)  # kept: the iterator's first seat has an answer at hand
    outside.append(engine.who_acts())
    engine.end_phase()
    assert len(seen) == 2 and all(e.code == "REENTRANT_CALL" for e in seen)
