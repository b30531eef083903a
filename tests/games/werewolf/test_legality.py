"""Legal means legal: a move the board already dooms is not offered, and submit refuses it.

Each case: the skill (or target) is not offered, submit refuses it with the resolver's own
reason and leaves nothing pending, and readiness does not wait for it.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

import hiddenrole as hr
from hiddenrole.enginetest.checks import behaviour, who_acts_problems
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import idiot, wolfking
from hiddenrole.games.werewolf import resolution as rs
from hiddenrole.games.werewolf.legality import USABLE_SKILLS, Usable

from .helpers import EIGHT, table, until

WITCH = "p03"


def wolves_kill(engine: hr.Engine, victim: str) -> None:
    until(engine, ww.NIGHT_WOLF)
    for pid in ("p00", "p01"):
        engine.submit(pid, ww.KILL, [victim])
    engine.end_phase()
    assert engine.status().phase == ww.NIGHT_WITCH


def owed(engine: hr.Engine) -> set[tuple[str, str]]:
    r = engine.readiness()
    return {(a.player_id, a.skill) for a in (*r.pending, *r.optional)}


def agree(engine: hr.Engine) -> None:
    assert who_acts_problems(engine, behaviour(engine)) == []


def test_a_spent_antidote_is_not_offered_again() -> None:
    engine = table(*EIGHT)
    wolves_kill(engine, "p06")
    engine.submit(WITCH, ww.ANTIDOTE, ["p06"])
    until(engine, ww.NIGHT_GUARD)
    wolves_kill(engine, "p07")
    assert engine.allowed_skills(WITCH) == (ww.POISON,)
    assert (WITCH, ww.ANTIDOTE) not in owed(engine)
    assert engine.phase_info().roles[ww.WITCH].refused == {WITCH: {ww.ANTIDOTE: rs.NO_ANTIDOTE}}
    with pytest.raises(hr.SkillNotAllowed, match=rs.NO_ANTIDOTE):
        engine.submit(WITCH, ww.ANTIDOTE, ["p07"])
    assert engine.pending_uses() == ()
    agree(engine)


def test_a_spent_poison_is_not_offered_again_and_a_witch_with_nothing_left_is_not_waited_for() -> None:
    engine = table(*EIGHT)
    until(engine, ww.NIGHT_WITCH)
    engine.submit(WITCH, ww.POISON, ["p06"])
    until(engine, ww.NIGHT_GUARD)
    wolves_kill(engine, "p07")
    assert engine.allowed_skills(WITCH) == (ww.ANTIDOTE,)
    with pytest.raises(hr.SkillNotAllowed, match=rs.NO_POISON):
        engine.submit(WITCH, ww.POISON, ["p00"])
    engine.submit(WITCH, ww.ANTIDOTE, ["p07"])
    until(engine, ww.NIGHT_GUARD)
    wolves_kill(engine, "p02")
    assert engine.allowed_skills(WITCH) == ()
    assert not any(pid == WITCH for pid, _ in owed(engine))
    assert engine.readiness().ready
    agree(engine)


def test_the_antidote_takes_only_tonights_victim_and_not_on_a_quiet_night() -> None:
    engine = table(*EIGHT)
    until(engine, ww.NIGHT_WITCH)
    assert ww.ANTIDOTE not in engine.allowed_skills(WITCH)
    with pytest.raises(hr.SkillNotAllowed, match=rs.NO_KILL):
        engine.submit(WITCH, ww.ANTIDOTE, ["p06"])
    until(engine, ww.NIGHT_GUARD)
    wolves_kill(engine, "p06")
    assert engine.allowed_targets(WITCH, ww.ANTIDOTE) == ("p06",)
    with pytest.raises(hr.InvalidTargets, match="p07"):
        engine.submit(WITCH, ww.ANTIDOTE, ["p07"])
    assert engine.pending_uses() == ()
    engine.submit(WITCH, ww.ANTIDOTE, ["p06"])
    agree(engine)


def test_the_witch_may_not_save_herself_unless_the_table_allows_it() -> None:
    for allowed in (False, True):
        engine = table(*EIGHT, switches=ww.Switches(witch_can_save_self=allowed))
        wolves_kill(engine, WITCH)
        assert (ww.ANTIDOTE in engine.allowed_skills(WITCH)) is allowed
        if not allowed:
            with pytest.raises(hr.SkillNotAllowed, match=rs.SELF_SAVE):
                engine.submit(WITCH, ww.ANTIDOTE, [WITCH])
        agree(engine)


def test_the_witch_is_never_offered_herself_as_a_poison_target() -> None:
    engine = table(*EIGHT)
    until(engine, ww.NIGHT_WITCH)
    assert WITCH not in (engine.allowed_targets(WITCH, ww.POISON) or (WITCH,))
    with pytest.raises(hr.InvalidTargets):
        engine.submit(WITCH, ww.POISON, [WITCH])


def test_the_guard_is_not_offered_last_nights_target_nor_himself_when_the_table_forbids() -> None:
    engine = table(*EIGHT, switches=ww.Switches(guard_can_protect_self=False))
    until(engine, ww.NIGHT_GUARD)
    assert "p04" not in (engine.allowed_targets("p04", ww.PROTECT) or ("p04",))
    engine.submit("p04", ww.PROTECT, ["p06"])
    until(engine, ww.DAY)
    until(engine, ww.NIGHT_GUARD)
    targets = engine.allowed_targets("p04", ww.PROTECT) or ()
    assert "p06" not in targets and "p07" in targets
    assert engine.phase_info().roles[ww.GUARD].targets["p04"][ww.PROTECT] == targets
    with pytest.raises(hr.InvalidTargets, match="p06"):
        engine.submit("p04", ww.PROTECT, ["p06"])
    agree(engine)
    until(engine, ww.DAY)
    until(engine, ww.NIGHT_GUARD)  # a night without guarding frees the target again
    assert "p06" in (engine.allowed_targets("p04", ww.PROTECT) or ())


def test_an_alive_seat_asked_about_a_gun_is_refused_and_a_dead_armed_seat_is_offered_it() -> None:
    engine = table(*EIGHT)
    until(engine, ww.NIGHT_WOLF)
    for pid in ("p00", "p01"):
        engine.submit(pid, ww.KILL, ["p05"])
    until(engine, ww.NIGHT_LAST_ACTION)
    assert engine.allowed_skills("p05") == (ww.SHOOT, ww.SKIP)
    assert ("p05", ww.SHOOT) in owed(engine)
    agree(engine)


def test_a_second_potion_the_same_night_is_refused_at_submit_unless_the_table_allows_both() -> None:
    for allowed in (False, True):
        engine = table(*EIGHT, switches=ww.Switches(witch_can_use_both_potions=allowed))
        wolves_kill(engine, "p06")
        engine.submit(WITCH, ww.ANTIDOTE, ["p06"])
        assert (ww.POISON in engine.allowed_skills(WITCH)) is allowed
        assert ((WITCH, ww.POISON) in owed(engine)) is allowed
        if allowed:
            engine.submit(WITCH, ww.POISON, ["p07"])
            assert len(engine.pending_uses()) == 2
        else:
            assert engine.phase_info().roles[ww.WITCH].refused == {WITCH: {ww.POISON: rs.BOTH_POTIONS}}
            assert engine.player_view(WITCH).allowed_skills == ()
            with pytest.raises(hr.SkillNotAllowed, match=rs.BOTH_POTIONS):
                engine.submit(WITCH, ww.POISON, ["p07"])
            assert len(engine.pending_uses()) == 1
        agree(engine)
        end = engine.end_phase()
        assert not any(e.canceled for e in end)


def test_the_player_view_names_the_only_targets_a_limited_skill_accepts() -> None:
    engine = table(*EIGHT)
    wolves_kill(engine, "p06")
    limits = dict(engine.player_view(WITCH).targets)
    assert limits[ww.ANTIDOTE] == ("p06",)
    assert WITCH not in limits[ww.POISON]
    assert engine.player_view("p06").targets == ()


TABLES = [
    (ww.Switches(), ()),
    (ww.Switches(witch_can_use_both_potions=True, guard_can_repeat=True, witch_can_save_self=True), ()),
    (ww.Switches(ordered_day=True, guard_can_protect_self=False), (idiot.EXTENSION, wolfking.EXTENSION)),
    (ww.Switches(bid_for_floor=True), (wolfking.EXTENSION,)),
]


def _pair(
    sw: ww.Switches, exts: tuple[ww.Extension, ...], seed: int
) -> tuple[hr.Engine, hr.Engine, list[tuple[str, object]]]:
    """The same deal under the shipped rules (``usable_skills`` declared) and under a copy that
    asks ``usable`` about every skill, recording each answer."""
    extra = {idiot.EXTENSION: idiot.IDIOT, wolfking.EXTENSION: wolfking.WOLF_KING}
    cards = [*ww.board(10), *(extra[e] for e in exts)]
    declared = ww.new_game(cards, seed, switches=sw, extensions=exts, start=False)
    shipped = declared.rules
    assert shipped.usable_skills == USABLE_SKILLS
    inner = shipped.usable
    assert isinstance(inner, Usable)
    answers: list[tuple[str, object]] = []

    def every(
        pid: str, skill: str, view: hr.GameView, submitted: Sequence[hr.SkillUse]
    ) -> str | tuple[str, ...] | None:
        got = inner.usable(pid, skill, view, submitted)
        answers.append((skill, got))
        return got

    undeclared = hr.Engine(dataclasses.replace(shipped, usable=every, usable_skills=None))
    for pid in declared.player_ids():
        undeclared.add_player(pid, declared.player_info(pid).role)
    declared.start()
    undeclared.start()
    return declared, undeclared, answers


def _step(engine: hr.Engine, rng: random.Random) -> list[object]:
    """Every who-acts answer of the phase, then one random move per seat, then the phase's end."""
    seen: list[object] = [behaviour(engine)]
    ids = engine.player_ids()
    alive = engine.alive_player_ids()
    for pid in ids:
        skills = engine.allowed_skills(pid)
        seen.append(tuple(engine.allowed_targets(pid, k) for k in skills))
        if not skills:
            continue
        skill = rng.choice(skills)
        targets = [] if skill in (hr.SKIP, ww.DONE) else [rng.choice(alive)]
        if skill == ww.BID:
            targets = [rng.choice(ww.BID_LEVELS)]
        try:
            engine.submit(pid, skill, targets)
            seen.append(("accepted", pid, skill, tuple(targets)))
        except hr.GameError as e:
            seen.append((type(e).__name__, str(e)))
        seen.append(behaviour(engine))
    engine.end_phase()
    return seen


@pytest.mark.parametrize(("sw", "exts"), TABLES)
def test_usable_refuses_and_narrows_only_the_skills_it_declares(
    sw: ww.Switches, exts: tuple[ww.Extension, ...]
) -> None:
    """``Rules.usable_skills`` is a promise: ``usable`` answers ``None`` for every other skill on every
    board a game reaches, so the kernel, which then never asks, answers exactly as if it asked."""
    for seed in range(3):
        declared, undeclared, answers = _pair(sw, exts, seed)
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        for _ in range(60):
            if declared.status().over:
                break
            assert _step(declared, rng_a) == _step(undeclared, rng_b)
        assert declared.log().to_json() == undeclared.log().to_json()
        assert {skill for skill, _ in answers} - USABLE_SKILLS, "the spy was asked about other skills too"
        assert [(k, got) for k, got in answers if k not in USABLE_SKILLS and got is not None] == []


def test_the_guard_and_poison_targets_follow_the_board_given() -> None:
    """One ``Usable`` serves every engine of a ruleset: each answer reads the board it is given
    (a death, another game), never one an earlier question saw."""
    gate = Usable(ww.Switches())
    one = table(*EIGHT)
    until(one, ww.NIGHT_GUARD)
    view = god_view(one)
    assert gate.usable("p04", ww.PROTECT, view) == tuple(one.player_ids())
    assert gate.usable(WITCH, ww.POISON, view) == tuple(p for p in one.player_ids() if p != WITCH)
    wolves_kill(one, "p06")
    until(one, ww.DAY)
    assert not one.player_info("p06").alive
    living = tuple(p for p in one.player_ids() if p != "p06")
    assert gate.usable("p04", ww.PROTECT, god_view(one)) == living
    assert gate.usable(WITCH, ww.POISON, god_view(one)) == tuple(p for p in living if p != WITCH)
    other = table(*EIGHT)
    assert gate.usable("p04", ww.PROTECT, god_view(other)) == tuple(other.player_ids())


def god_view(engine: hr.Engine) -> hr.GameView:
    """The engine's board as the rules see it (what the kernel hands ``usable``)."""
    players = tuple(engine.player_info(p) for p in engine.player_ids())
    return hr.Board(players, round=engine.status().round, phase=engine.status().phase).view()
