"""Legal means legal: a move the board already dooms is not offered, and submit refuses it.

Each case: the skill (or target) is not offered, submit refuses it with the resolver's own
reason and leaves nothing pending, and readiness does not wait for it.
"""

from __future__ import annotations

import pytest

import hiddenrole as hr
from hiddenrole.enginetest.checks import behaviour, who_acts_problems
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import resolution as rs

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
