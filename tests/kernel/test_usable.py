"""The rules' ``usable`` answer: one verdict for allowed_skills, readiness, submit and phase_info.

A board variable ``no.<SKILL>`` on a player refuses that skill (the reason is its value);
``only.<SKILL>`` limits its targets to the comma-separated ids it holds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest

import hiddenrole as hr
from hiddenrole.enginetest.checks import behaviour, who_acts_problems

from .conftest import game, make_rules, phase, step
from .test_who_may_act import DAY_STEPS, PLAYERS, night_day, optional, pending


def gate(
    player_id: str, skill: str, view: hr.GameView, submitted: Sequence[hr.SkillUse]
) -> str | tuple[str, ...] | None:
    me = view.player(player_id)
    assert me is not None
    if f"no.{skill}" in me.vars:
        return me.vars[f"no.{skill}"]
    only = me.vars.get(f"only.{skill}")
    if only is not None:
        return tuple(t for t in only.split(",") if t != "-")
    return None


def village() -> hr.Engine:
    engine, _ = game(night_day(), PLAYERS, usable=gate)
    return engine


def mark(engine: hr.Engine, pid: str, key: str, value: str) -> None:
    engine.apply(hr.set_var(hr.GAME.of(pid), key, value))


def agree(engine: hr.Engine) -> None:
    assert who_acts_problems(engine, behaviour(engine)) == []


def test_a_refused_skill_is_not_offered_and_submit_gives_the_reason() -> None:
    engine = village()
    mark(engine, "x1", "no.SAVE", "the antidote is gone")
    assert engine.allowed_skills("x1") == ("POISON", hr.SKIP)
    assert engine.player_view("x1").allowed_skills == ("POISON", hr.SKIP)
    assert engine.phase_info().roles["witch"].refused == {"x1": {"SAVE": "the antidote is gone"}}
    with pytest.raises(hr.SkillNotAllowed, match="the antidote is gone"):
        engine.submit("x1", "SAVE", ["v1"])
    assert engine.pending_uses() == ()
    assert engine.allowed_targets("x1", "SAVE") == ()
    agree(engine)


def test_readiness_asks_for_a_live_skill_of_the_group_and_skips_a_seat_with_none() -> None:
    engine = village()
    assert ("x1", "SAVE") in pending(engine)
    mark(engine, "x1", "no.SAVE", "gone")
    assert ("x1", "POISON") in pending(engine)
    assert not any(pid == "x1" for pid, _ in pending(engine) if _ == "SAVE")
    mark(engine, "x1", "no.POISON", "gone")
    assert not any(pid == "x1" for pid, _ in pending(engine))
    mark(engine, "h1", "no.CHECK", "unused")  # a refusal of a skill the seat lacks changes nothing
    mark(engine, "s1", "no.CHECK", "blind")
    assert not any(pid == "s1" for pid, _ in pending(engine) + optional(engine))
    agree(engine)


def test_limited_targets_are_told_and_enforced() -> None:
    engine = village()
    assert engine.allowed_targets("s1", "CHECK") is None
    mark(engine, "s1", "only.CHECK", "v1,h1")
    assert engine.allowed_targets("s1", "CHECK") == ("h1", "v1")
    assert engine.player_view("s1").targets == (("CHECK", ("h1", "v1")),)
    assert engine.player_view("x1").targets == ()
    assert engine.phase_info().roles["seer"].targets == {"s1": {"CHECK": ("h1", "v1")}}
    with pytest.raises(hr.InvalidTargets, match="w1"):
        engine.submit("s1", "CHECK", ["w1"])
    agree(engine)
    engine.submit("s1", "CHECK", ["v1"])
    assert [u.targets for u in engine.pending_uses()] == [("v1",)]
    agree(engine)


def test_targets_given_repeated_and_unsorted_are_checked_as_given_and_told_sorted_once() -> None:
    """The kernel keeps a tuple of targets as the rules gave it (submit asks ``in`` of it) and makes
    their set only for a reader that shows them."""
    engine = village()
    mark(engine, "s1", "only.CHECK", "v1,h1,v1")
    assert "CHECK" in engine.allowed_skills("s1")  # the who-acts pass asked usable and kept its answer
    with pytest.raises(hr.InvalidTargets, match="w1"):
        engine.submit("s1", "CHECK", ["w1"])
    assert engine.allowed_targets("s1", "CHECK") == ("h1", "v1")
    assert engine.player_view("s1").targets == (("CHECK", ("h1", "v1")),)
    assert engine.phase_info().roles["seer"].targets == {"s1": {"CHECK": ("h1", "v1")}}
    engine.submit("s1", "CHECK", ["h1"])
    assert [u.targets for u in engine.pending_uses()] == [("h1",)]
    agree(engine)


def test_no_target_left_refuses_the_skill() -> None:
    engine = village()
    mark(engine, "s1", "only.CHECK", "-")
    assert "CHECK" not in engine.allowed_skills("s1")
    assert engine.phase_info().roles["seer"].refused == {"s1": {"CHECK": "no target is allowed now"}}
    with pytest.raises(hr.SkillNotAllowed, match="no target is allowed now"):
        engine.submit("s1", "CHECK", ["v1"])
    agree(engine)


def test_an_empty_reason_still_refuses() -> None:
    engine2, _ = game(night_day(), PLAYERS, usable=lambda pid, skill, view, mine: "" if skill == "CHECK" else None)
    assert "CHECK" not in engine2.allowed_skills("s1")
    with pytest.raises(hr.SkillNotAllowed, match="the rules do not allow it now"):
        engine2.submit("s1", "CHECK", ["v1"])


def test_no_opinion_leaves_every_skill_and_target() -> None:
    engine, _ = game(night_day(), PLAYERS, usable=lambda pid, skill, view, mine: None)
    assert engine.allowed_skills("x1") == ("SAVE", "POISON", hr.SKIP)
    assert engine.allowed_targets("s1", "CHECK") is None
    assert engine.phase_info().roles["seer"].refused == {}


def test_usable_sees_only_the_players_own_submissions_this_phase() -> None:
    """A rule that depends on this phase's moves ("one check a night") reads the seat's own, never others'."""
    seen: list[tuple[str, tuple[str, ...]]] = []

    def once(pid: str, skill: str, view: hr.GameView, submitted: Sequence[hr.SkillUse]) -> str | None:
        seen.append((pid, tuple(u.player_id for u in submitted)))
        return "one check a night" if skill == "CHECK" and any(u.skill == "CHECK" for u in submitted) else None

    engine, _ = game(night_day(), PLAYERS, usable=once)
    engine.submit("w1", "KILL", ["v1"])
    assert "CHECK" in engine.allowed_skills("s1")
    engine.submit("s1", "CHECK", ["v1"])
    assert "CHECK" not in engine.allowed_skills("s1")
    assert engine.phase_info().roles["seer"].refused == {"s1": {"CHECK": "one check a night"}}
    assert not any(a.player_id == "s1" for a in engine.readiness().pending)
    with pytest.raises(hr.SkillNotAllowed, match="one check a night"):
        engine.submit("s1", "CHECK", ["h1"])
    assert all(set(mine) <= {pid} for pid, mine in seen)
    assert ("s1", ("s1",)) in seen


# ---------------------------------------------------------------- Rules.usable_skills


def declared_village(asked: list[str], declared: object) -> hr.Engine:
    """The village whose ``gate`` records every skill it is asked about, under a declaration."""

    def spy(pid: str, skill: str, view: hr.GameView, submitted: Sequence[hr.SkillUse]) -> str | tuple[str, ...] | None:
        asked.append(skill)
        return gate(pid, skill, view, submitted)

    engine, _ = game(night_day(), PLAYERS, usable=spy, usable_skills=declared)
    return engine


def every_answer(engine: hr.Engine) -> tuple[object, ...]:
    """Every reader that asks ``usable``, for every seat and skill of the config."""
    skills = ("KILL", "CHECK", "SAVE", "POISON", hr.SKIP, "VOTE", "SPEAK")
    return (
        behaviour(engine),
        tuple(engine.allowed_targets(pid, k) for pid in engine.player_ids() for k in skills),
        engine.phase_info(),
    )


def play_marked(engine: hr.Engine) -> list[object]:
    """A night and a day with refusals and limits on declared and undeclared skills, every answer taken."""
    seen: list[object] = [every_answer(engine)]
    mark(engine, "x1", "no.SAVE", "the antidote is gone")
    mark(engine, "s1", "only.CHECK", "v1,h1")
    mark(engine, "w1", "only.KILL", "v1")
    seen.append(every_answer(engine))
    for pid, skill, targets in (("w1", "KILL", ["h1"]), ("s1", "CHECK", ["w1"]), ("s1", "CHECK", ["v1"])):
        try:
            engine.submit(pid, skill, targets)
            seen.append(("accepted", pid, skill))
        except hr.GameError as e:
            seen.append((type(e).__name__, str(e)))
        seen.append(every_answer(engine))
    engine.end_phase()
    mark(engine, "v1", "no.VOTE", "muted")
    seen.append(every_answer(engine))
    return seen


def test_usable_skills_are_checked_and_kept_as_a_frozenset() -> None:
    rules = make_rules(night_day(), usable=gate, usable_skills=["SAVE", "CHECK", "SAVE"])
    assert rules.usable_skills == frozenset({"SAVE", "CHECK"})
    assert type(rules.usable_skills) is frozenset
    assert rules.with_game_setup(None).usable_skills == rules.usable_skills
    assert make_rules(night_day(), usable=gate).usable_skills is None
    for bad, match in (
        ("SAVE", "collection of skill names"),
        (42, "collection of skill names"),
        ([["SAVE"]], "must hold skill names"),
        (["SAVE", ""], "not a skill name"),
        (["SAVE", 7], "not a skill name"),
    ):
        with pytest.raises(hr.InvalidConfig, match=match):
            make_rules(night_day(), usable=gate, usable_skills=bad)
    with pytest.raises(hr.InvalidConfig, match=r"Rules\.usable is None"):
        make_rules(night_day(), usable_skills=frozenset({"SAVE"}))


def test_usable_is_asked_only_about_the_declared_skills() -> None:
    asked: list[str] = []
    play_marked(declared_village(asked, {"SAVE", "CHECK"}))
    assert asked
    assert set(asked) <= {"SAVE", "CHECK"}


def test_a_truthful_declaration_changes_no_answer() -> None:
    """Declaring every skill ``gate`` acts on here (SAVE, CHECK, KILL, VOTE) answers as declaring none;
    so does declaring every skill of the config."""
    reference = play_marked(declared_village([], None))
    assert play_marked(declared_village([], {"SAVE", "CHECK", "KILL", "VOTE"})) == reference
    assert play_marked(declared_village([], {"KILL", "CHECK", "SAVE", "POISON", hr.SKIP, "VOTE", "SPEAK"})) == reference


def forgotten_gates(engine: hr.Engine) -> list[tuple[str, str]]:
    """(seat, skill) of every gate invariant C finds outside ``Rules.usable_skills``; asserts it finds nothing else."""
    problems = who_acts_problems(engine, behaviour(engine))
    found = [
        re.fullmatch(r"(\w+): usable answers .* for '(\w+)', but Rules.usable_skills leaves it out \(never asked\)", p)
        for p in problems
    ]
    assert all(found), problems
    return [(m.group(1), m.group(2)) for m in found if m is not None]


def test_an_undeclared_skill_is_usable_on_any_target_whatever_usable_would_say() -> None:
    """The declaration is the rules' promise: a skill it leaves out is never asked about, so a
    refusal or limit ``usable`` would give it has no effect anywhere (every reader agrees), and the
    harness's invariant C names each such gate the declaration forgot."""
    engine = declared_village([], {"SAVE"})
    mark(engine, "s1", "no.CHECK", "blind")
    mark(engine, "w1", "only.KILL", "v1")
    mark(engine, "x1", "no.SAVE", "the antidote is gone")
    assert engine.allowed_skills("s1") == ("CHECK",)
    assert engine.allowed_targets("s1", "CHECK") is None
    assert engine.allowed_targets("w1", "KILL") is None
    assert engine.player_view("w1").targets == ()
    assert engine.allowed_skills("x1") == ("POISON", hr.SKIP)  # a declared skill is still refused
    assert engine.phase_info().roles["seer"].refused == {}
    assert ("s1", "CHECK") in pending(engine)
    assert forgotten_gates(engine) == [("s1", "CHECK"), ("w1", "KILL")]
    engine.submit("w1", "KILL", ["h1"])
    engine.submit("s1", "CHECK", ["w1"])
    assert [(u.player_id, u.skill) for u in engine.pending_uses()] == [("w1", "KILL"), ("s1", "CHECK")]
    forgotten_gates(engine)  # every finding is a forgotten gate, nothing else disagrees


@pytest.mark.parametrize("declared", [None, {"VOTE", "CHECK"}, {"SAVE"}])
def test_the_pass_gates_a_shared_offer_only_when_declared(declared: set[str] | None) -> None:
    """One role acting (the seer's night) or one role-less step set (the day) gives every seat one
    shared offer, gated once per pass: refused where ``usable`` is asked, offered where it is not."""
    night = hr.Config(
        "NIGHT",
        {
            "NIGHT": phase(
                step(hr.SYSTEM, hr.ANNOUNCE), step("seer", "CHECK"), next_phase="DAY", on_enter=(hr.CLEAR_ROUND_VARS,)
            ),
            "DAY": phase(*DAY_STEPS, next_phase="NIGHT", on_exit=(hr.ADVANCE_ROUND,)),
        },
    )
    engine, _ = game(night, PLAYERS, usable=gate, usable_skills=declared)
    engine.apply(hr.set_var(hr.GAME.of("s1"), "no.CHECK", "blind"), hr.set_var(hr.GAME.of("v1"), "no.VOTE", "muted"))
    asked = declared is None or "VOTE" in declared
    assert engine.allowed_skills("s1") == (() if asked else ("CHECK",))
    engine.end_phase()
    assert engine.allowed_skills("v1") == (("SPEAK",) if asked else ("VOTE", "SPEAK"))
    assert engine.allowed_skills("h1") == ("VOTE", "SPEAK")


def test_submit_asks_usable_itself_when_no_answer_was_kept() -> None:
    """While a submission waits, the who-acts pass keeps no ``usable`` answer: submit asks for the
    seat's own (red if submit took a seat without kept answers for one ``usable`` has no opinion on)."""
    engine = village()
    engine.submit("w1", "KILL", ["v1"])
    mark(engine, "s1", "only.CHECK", "v1,h1")  # a board change: nothing is kept
    with pytest.raises(hr.InvalidTargets, match="w1"):
        engine.submit("s1", "CHECK", ["w1"])
    engine.submit("s1", "CHECK", ["h1"])
    engine.submit("x1", "SAVE", ["v1"])  # usable has no opinion: any living target
    assert [u.targets for u in engine.pending_uses()] == [("v1",), ("h1",), ("v1",)]
    agree(engine)
