"""Who may act: one source of truth, submission validation, readiness, phase info.

The kernel answers "may this player act now?" in four places (``submit``,
``allowed_skills``, ``readiness``, ``phase_info``); they must never disagree, so
most tests here check all four together against a small oracle of the rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hiddenrole as hr

from .conftest import Script, game, kill, phase, state_fingerprint, step

NIGHT, DAY = "NIGHT", "DAY"
PLAYERS = {"w1": "wolf", "w2": "wolf", "s1": "seer", "x1": "witch", "h1": "hunter", "v1": "villager"}
NIGHT_STEPS = (
    step(hr.SYSTEM, hr.ANNOUNCE),
    step("wolf", "KILL", required=True),
    step("seer", "CHECK", required=True, multiple=True),
    step("witch", "SAVE", group="potion", required=True),
    step("witch", "POISON", group="potion", allow_dead_target=True),
    step("witch", hr.SKIP),
    step("hunter"),  # watch-only: the hunter wakes and looks, nothing to submit
)
DAY_STEPS = (step("", "VOTE", required=True, multiple=True), step("", "SPEAK"))


def night_day() -> hr.Config:
    return hr.Config(
        NIGHT,
        {
            NIGHT: phase(*NIGHT_STEPS, next_phase=DAY, on_enter=(hr.CLEAR_ROUND_VARS,)),
            DAY: phase(*DAY_STEPS, next_phase=NIGHT, on_exit=(hr.ADVANCE_ROUND,)),
        },
    )


def village(players: dict[str, str] | None = None) -> tuple[hr.Engine, Script]:
    return game(night_day(), PLAYERS if players is None else players)


def to_day(engine: hr.Engine) -> None:
    engine.end_phase()
    assert engine.status().phase == DAY


def pending(engine: hr.Engine) -> list[tuple[str, str]]:
    return [(a.player_id, a.skill) for a in engine.readiness().pending]


def optional(engine: hr.Engine) -> list[tuple[str, str]]:
    return [(a.player_id, a.skill) for a in engine.readiness().optional]


def name_actors(engine: hr.Engine, *ids: str, where: str = NIGHT) -> None:
    engine.apply(hr.set_actors(where, *ids))


# ---------------------------------------------------------------- the single source: four views agree


REPRESENTATIVE = {"POISON": "SAVE"}  # readiness reports a group by its first skill


def oracle(engine: hr.Engine, role: str) -> tuple[str, ...]:
    """The rule, written out: named players of the role (dead or not), else living ones."""
    view = engine.view()
    named = view.actors(view.phase)
    if named is not None:
        return tuple(i for i in named if role in ("", view.player(i).role))  # type: ignore[union-attr]
    return tuple(p.id for p in view.alive_players() if role in ("", p.role))


def can_submit(engine: hr.Engine, pid: str, skill: str) -> bool:
    """Try the submission on a restored copy, so the original keeps no pending use."""
    copy = hr.Engine.restore(engine.rules, engine.snapshot())
    try:
        copy.submit(pid, skill)
    except (hr.SkillNotAllowed, hr.PlayerDead):
        return False
    return True


def assert_sources_agree(engine: hr.Engine) -> None:
    """For every step with a skill: submit, allowed_skills, readiness and phase_info
    name exactly the oracle's actors. Watch-only steps appear only in phase_info."""
    info = engine.phase_info()
    ready = engine.readiness()
    assert not ready.acted, "call before anyone submits: then every actor is listed"
    listed = {(a.player_id, a.skill) for a in (*ready.pending, *ready.optional)}
    for st_ in info.steps:
        if st_.role == hr.SYSTEM:
            continue
        expected = oracle(engine, st_.role)
        assert info.roles[st_.role].player_ids == expected
        for pid in engine.player_ids():
            may = pid in expected
            role = engine.player_info(pid).role
            if not st_.skill:
                assert "" not in engine.allowed_skills(pid)
                continue
            if st_.role not in ("", role):
                continue
            assert (st_.skill in engine.allowed_skills(pid)) == may, (pid, st_.skill)
            assert ((pid, REPRESENTATIVE.get(st_.skill, st_.skill)) in listed) == may, (pid, st_.skill)
            assert can_submit(engine, pid, st_.skill) == may, (pid, st_.skill)


def test_default_actors_are_the_living_players_of_the_role() -> None:
    engine, _ = village()
    kill(engine, "w2")
    assert oracle(engine, "wolf") == ("w1",)
    assert_sources_agree(engine)


def test_named_actors_beat_living_by_role_and_may_be_dead() -> None:
    engine, _ = village()
    kill(engine, "w2")
    name_actors(engine, "w2", "s1")
    assert engine.phase_info().roles["wolf"].player_ids == ("w2",)
    assert engine.allowed_skills("w2") == ("KILL",)
    assert engine.allowed_skills("w1") == ()
    assert_sources_agree(engine)
    engine.submit("w2", "KILL", ["v1"])


def test_empty_named_list_means_nobody_may_act() -> None:
    engine, _ = village()
    name_actors(engine)
    assert all(engine.allowed_skills(pid) == () for pid in engine.player_ids())
    assert all(info.player_ids == () for info in engine.phase_info().roles.values())
    assert engine.readiness().ready
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("w1", "KILL", ["v1"])
    assert_sources_agree(engine)


def test_named_actors_of_another_phase_do_not_apply_now() -> None:
    engine, _ = village()
    name_actors(engine, "v1", where=DAY)
    assert engine.allowed_skills("w1") == ("KILL",)
    assert_sources_agree(engine)
    to_day(engine)
    assert engine.phase_info().roles[""].player_ids == ("v1",)
    assert_sources_agree(engine)


def test_named_actors_are_forgotten_when_their_phase_ends() -> None:
    engine, _ = village()
    name_actors(engine, "w1")
    engine.end_phase()
    engine.end_phase()
    assert engine.status().phase == NIGHT
    assert engine.allowed_skills("w2") == ("KILL",)
    assert_sources_agree(engine)


def test_named_list_filters_by_step_role() -> None:
    engine, _ = village()
    name_actors(engine, "w1", "v1", "h1")
    info = engine.phase_info()
    assert info.roles["wolf"].player_ids == ("w1",)
    assert info.roles["hunter"].player_ids == ("h1",)
    assert info.roles["seer"].player_ids == ()
    assert engine.allowed_skills("v1") == ()  # named, but no step for villagers
    assert_sources_agree(engine)


ROLES = ["wolf", "seer", "witch", "hunter", "villager"]


@st.composite
def situations(draw: st.DrawFn) -> tuple[dict[str, str], list[str], tuple[str, ...] | None, str, bool]:
    n = draw(st.integers(1, 6))
    players = {f"p{i}": draw(st.sampled_from(ROLES)) for i in range(n)}
    dead = draw(st.lists(st.sampled_from(sorted(players)), unique=True))
    named = draw(st.none() | st.lists(st.sampled_from([*players, "ghost"]), unique=True).map(tuple))
    where = draw(st.sampled_from([NIGHT, DAY]))
    in_day = draw(st.booleans())
    return players, dead, named, where, in_day


@settings(max_examples=80, deadline=None)
@given(situations())
def test_submit_allowed_skills_readiness_and_phase_info_always_agree(
    situation: tuple[dict[str, str], list[str], tuple[str, ...] | None, str, bool],
) -> None:
    players, dead, named, where, in_day = situation
    engine, _ = village(players)
    if in_day:
        to_day(engine)
    kill(engine, *dead)
    if named is not None:
        name_actors(engine, *named, where=where)
    assert_sources_agree(engine)


def test_a_phase_of_one_role_offers_its_skills_to_that_role_only() -> None:
    """The offer pass finds a one-role phase's seats by role: every other seat, named or
    living, is offered nothing; a phase whose one role only watches offers nobody anything."""
    wolves = "WOLVES"
    cfg = hr.Config(
        wolves,
        {
            wolves: phase(step("wolf", "KILL"), step("wolf", hr.SKIP), step(hr.SYSTEM, "NOTE"), next_phase=NIGHT),
            NIGHT: phase(step("seer"), next_phase=hr.END),
        },
    )
    engine, _ = game(cfg, PLAYERS)
    expected = {pid: ("KILL", hr.SKIP) if role == "wolf" else () for pid, role in PLAYERS.items()}
    assert {pid: engine.allowed_skills(pid) for pid in PLAYERS} == expected
    name_actors(engine, "w2", "s1", "v1", where=wolves)
    assert {pid: engine.allowed_skills(pid) for pid in PLAYERS} == {
        pid: ("KILL", hr.SKIP) if pid == "w2" else () for pid in PLAYERS
    }
    engine.end_phase()
    assert engine.status().phase == NIGHT
    assert {pid: engine.allowed_skills(pid) for pid in PLAYERS} == dict.fromkeys(PLAYERS, ())


# ---------------------------------------------------------------- submission validation order


def test_valid_submission_is_recorded_and_stamped() -> None:
    engine, script = village()
    use = engine.submit("w1", "KILL", ["v1"])
    assert use == hr.SkillUse("w1", "KILL", ("v1",), NIGHT, 1)
    assert use.target == "v1"
    assert engine.pending_uses() == (use,)
    engine.end_phase()
    assert script.calls == [(NIGHT, (use,))]


def test_unknown_player_is_reported_first() -> None:
    engine, _ = village()
    name_actors(engine, "w1")
    with pytest.raises(hr.PlayerNotFound) as err:
        engine.submit("ghost", "NO_SUCH_SKILL", ["nobody"])
    assert err.value.code == "PLAYER_NOT_FOUND"


def test_player_off_the_named_list_is_not_allowed_even_if_alive() -> None:
    engine, _ = village()
    name_actors(engine, "w1")
    with pytest.raises(hr.SkillNotAllowed) as err:
        engine.submit("w2", "KILL", ["v1"])
    assert err.value.code == "SKILL_NOT_ALLOWED"


def test_named_list_check_replaces_the_dead_check() -> None:
    engine, _ = village()
    kill(engine, "w1", "w2")
    name_actors(engine, "w1")
    with pytest.raises(hr.SkillNotAllowed):  # not PlayerDead: the named list decides
        engine.submit("w2", "KILL", ["v1"])
    engine.submit("w1", "KILL", ["v1"])  # dead, but named


def test_dead_player_is_reported_before_an_unknown_skill() -> None:
    engine, _ = village()
    kill(engine, "v1")
    with pytest.raises(hr.PlayerDead) as err:
        engine.submit("v1", "NO_SUCH_SKILL", ["ghost"])
    assert err.value.code == "PLAYER_DEAD"


def test_unknown_skill_is_reported_before_bad_targets() -> None:
    engine, _ = village()
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("w1", "CHECK", ["ghost"])


def test_skill_of_another_role_is_not_allowed() -> None:
    engine, _ = village()
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("s1", "KILL", ["v1"])


def test_skill_declared_for_every_role_is_allowed_to_any_role() -> None:
    engine, _ = village()
    to_day(engine)
    for pid in sorted(PLAYERS):
        engine.submit(pid, "VOTE", ["w1"])


def test_empty_skill_never_matches_even_a_watch_only_step() -> None:
    engine, _ = village()
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("h1", "")


def test_announce_step_cannot_be_submitted() -> None:
    engine, _ = village()
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("w1", hr.ANNOUNCE)


def test_unknown_target_is_target_not_found() -> None:
    engine, _ = village()
    with pytest.raises(hr.TargetNotFound) as err:
        engine.submit("w1", "KILL", ["ghost"])
    assert err.value.code == "TARGET_NOT_FOUND"


def test_dead_target_is_target_dead() -> None:
    engine, _ = village()
    kill(engine, "v1")
    with pytest.raises(hr.TargetDead) as err:
        engine.submit("w1", "KILL", ["v1"])
    assert err.value.code == "TARGET_DEAD"


def test_allow_dead_target_accepts_a_dead_target_but_not_a_missing_one() -> None:
    engine, _ = village()
    kill(engine, "v1")
    engine.submit("x1", "POISON", ["v1"])
    with pytest.raises(hr.TargetNotFound):
        engine.submit("x1", "POISON", ["ghost"])


@pytest.mark.parametrize("order", [("wolf", "witch"), ("witch", "wolf")])
def test_a_skill_two_roles_share_is_checked_by_each_roles_own_step(order: tuple[str, str]) -> None:
    # Two steps offer KILL: a vetted submission must still find its own role's step (submit finds
    # the step by skill alone only when one step offers it), whichever role the config names first.
    steps = {"wolf": step("wolf", "KILL"), "witch": step("witch", "KILL", allow_dead_target=True)}
    night = phase(*(steps[r] for r in order), next_phase=DAY, on_enter=(hr.CLEAR_ROUND_VARS,))
    config = hr.Config(NIGHT, {NIGHT: night, DAY: phase(*DAY_STEPS, next_phase=NIGHT, on_exit=(hr.ADVANCE_ROUND,))})
    engine, _ = game(config, {"w1": "wolf", "x1": "witch", "v1": "villager"})
    kill(engine, "v1")
    assert engine.allowed_skills("x1") == ("KILL",) == engine.allowed_skills("w1")
    assert engine.submit("x1", "KILL", ["v1"]).targets == ("v1",)
    with pytest.raises(hr.TargetDead):
        engine.submit("w1", "KILL", ["v1"])


def test_empty_target_strings_are_skipped() -> None:
    engine, _ = village()
    assert engine.submit("w1", "KILL", ["", "v1", ""]).targets == ("", "v1", "")
    assert engine.submit("w2", "KILL", [""]).target == ""
    assert engine.submit("x1", hr.SKIP).targets == ()


def test_one_bad_target_rejects_the_whole_submission() -> None:
    engine, _ = village()
    kill(engine, "h1")
    before = state_fingerprint(engine)
    for targets in (["v1", "ghost"], ["v1", "h1"], ["ghost", "v1"]):
        with pytest.raises((hr.TargetNotFound, hr.TargetDead)):
            engine.submit("w1", "KILL", targets)
    assert state_fingerprint(engine) == before
    assert engine.pending_uses() == ()


def test_a_second_submission_for_the_same_step_is_refused_and_the_first_counts() -> None:
    engine, script = village()
    first = engine.submit("w1", "KILL", ["v1"])
    before = state_fingerprint(engine)
    for targets in (["v1"], ["s1"]):
        with pytest.raises(hr.AlreadySubmitted) as err:
            engine.submit("w1", "KILL", targets)
        assert err.value.code == "ALREADY_SUBMITTED"
    assert state_fingerprint(engine) == before
    other = engine.submit("w2", "KILL", ["s1"])
    engine.end_phase()
    assert script.calls[0][1] == (first, other)


def _vote_or_note() -> hr.Engine:
    """Two villagers; one phase with a two-skill step group (YES/NO) and a step of its own (NOTE)."""
    cfg = hr.Config(
        "A",
        {
            "A": phase(
                step("", "YES", required=True, group="vote"),
                step("", "NO", required=True, group="vote"),
                step("", "NOTE"),
                next_phase=hr.END,
            )
        },
    )
    return game(cfg, {"a": "villager", "b": "villager"})[0]


def test_one_submission_per_group_however_many_skills_it_has() -> None:
    engine = _vote_or_note()
    engine.submit("a", "YES")
    with pytest.raises(hr.AlreadySubmitted):
        engine.submit("a", "NO")
    engine.submit("a", "NOTE")  # another step: allowed once too
    with pytest.raises(hr.AlreadySubmitted):
        engine.submit("a", "NOTE")
    engine.submit("b", "NO")
    assert [(u.player_id, u.skill) for u in engine.pending_uses()] == [("a", "YES"), ("a", "NOTE"), ("b", "NO")]


def test_a_used_step_is_refused_after_allowed_skills_was_asked_again() -> None:
    """submit skips the checks a kept allowed_skills answer already made only for a skill in it."""
    engine = _vote_or_note()
    assert engine.allowed_skills("a") == ("YES", "NO", "NOTE")
    engine.submit("a", "YES")
    assert engine.allowed_skills("a") == ("NOTE",)  # the answer is kept again, without the group
    for skill in ("YES", "NO"):
        with pytest.raises(hr.AlreadySubmitted):
            engine.submit("a", skill)
    engine.submit("a", "NOTE")
    assert engine.allowed_skills("a") == ()
    with pytest.raises(hr.AlreadySubmitted):
        engine.submit("a", "NOTE")
    assert [(u.player_id, u.skill) for u in engine.pending_uses()] == [("a", "YES"), ("a", "NOTE")]


def test_a_single_string_target_is_one_target() -> None:
    engine, _ = village()
    assert engine.submit("w1", "KILL", "v1").targets == ("v1",)


def test_submit_outside_a_running_game_is_refused() -> None:
    engine, _ = game(night_day(), PLAYERS, start=False)
    with pytest.raises(hr.GameNotStarted):
        engine.submit("w1", "KILL", ["v1"])
    ended, _ = game(hr.Config("A", {"A": phase(step("", "GO"), next_phase=hr.END)}), {"a": "x"})
    ended.end_phase()
    with pytest.raises(hr.GameEnded):
        ended.submit("a", "GO")


@pytest.mark.pure_only
@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((1, "KILL", ["v1"]), hr.InvalidArgument),
        (("w1", None, ["v1"]), hr.InvalidArgument),
        (("w1", "KILL", [1]), hr.InvalidArgument),
        (("w1", "KILL", 5), hr.InvalidArgument),
    ],
)
def test_bad_argument_types_are_typed_errors_and_change_nothing(args: tuple[object, ...], error: type) -> None:
    engine, _ = village()
    before = state_fingerprint(engine)
    with pytest.raises(error):
        engine.submit(*args)  # type: ignore[arg-type]
    assert state_fingerprint(engine) == before


def test_rejected_submissions_leave_pending_uses_unchanged() -> None:
    engine, _ = village()
    kept = engine.submit("w1", "KILL", ["v1"])
    kill(engine, "v1")
    for pid, skill, targets in [("ghost", "KILL", []), ("v1", "VOTE", []), ("s1", "KILL", []), ("w2", "KILL", ["v1"])]:
        with pytest.raises(hr.GameError):
            engine.submit(pid, skill, targets)
    assert engine.pending_uses() == (kept,)


def test_a_used_step_is_no_longer_offered_to_that_seat_only() -> None:
    engine, _ = village()
    assert engine.allowed_skills("x1") == ("SAVE", "POISON", hr.SKIP)
    engine.submit("x1", "SAVE", ["v1"])
    assert engine.allowed_skills("x1") == (hr.SKIP,)  # SAVE and POISON are one group
    assert engine.player_view("x1").allowed_skills == (hr.SKIP,)
    engine.submit("w1", "KILL", ["v1"])
    assert engine.allowed_skills("w1") == ()
    assert engine.allowed_skills("w2") == ("KILL",)  # another seat is untouched
    engine.end_phase()


def test_a_flood_from_one_seat_never_crowds_out_another() -> None:
    """Issue 8: one seat's repeated submissions used to fill a per-phase cap."""
    cfg = hr.Config("A", {"A": hr.PhaseConfig(steps=(step("", "MOVE"),), next_phase=hr.END, turn_order=hr.FREE)})
    engine, _ = game(cfg, {"a": "villager", "b": "villager"})
    for _ in range(hr.MAX_PENDING_PER_SEAT):
        engine.submit("a", "MOVE")
    with pytest.raises(hr.TooManySubmissions) as err:
        engine.submit("a", "MOVE")
    assert err.value.code == "TOO_MANY_SUBMISSIONS"
    engine.submit("b", "MOVE")  # the cap is per seat
    assert len(engine.pending_uses()) == hr.MAX_PENDING_PER_SEAT + 1
    assert hr.MAX_PENDING_PER_SEAT > hr.MAX_MOVES_PER_TURN


def test_a_flooding_voter_is_refused_and_every_other_ballot_counts() -> None:
    engine, script = village()
    engine.submit("w1", "KILL", ["v1"])
    for _ in range(10):
        with pytest.raises(hr.AlreadySubmitted):
            engine.submit("w1", "KILL", ["v1"])
    engine.submit("w2", "KILL", ["s1"])
    engine.end_phase()
    assert [u.player_id for u in script.calls[0][1]] == ["w1", "w2"]


def test_an_oversized_target_list_is_refused_unread() -> None:
    engine, _ = village()
    before = state_fingerprint(engine)
    read = 0

    def endless() -> Iterator[str]:
        nonlocal read
        while True:
            read += 1
            yield "v1"

    with pytest.raises(hr.InvalidTargets):
        engine.submit("w1", "KILL", endless())
    assert read == hr.MAX_TARGETS + 1
    with pytest.raises(hr.InvalidTargets):
        engine.submit("w1", "KILL", ["v1"] * 100_000)
    assert state_fingerprint(engine) == before
    assert len(engine.log().to_json()) == len(hr.Engine.replay(engine.rules, engine.log()).log().to_json())


def test_more_targets_than_the_step_allows_is_refused_before_the_targets_are_checked() -> None:
    cfg = hr.Config("A", {"A": phase(step("", "PICK", max_targets=1), next_phase=hr.END)})
    engine, _ = game(cfg, {"a": "villager", "b": "villager"})
    with pytest.raises(hr.InvalidTargets):
        engine.submit("a", "PICK", ["b", "ghost"])  # the count is wrong before "ghost" is
    with pytest.raises(hr.TargetNotFound):
        engine.submit("a", "PICK", ["ghost"])
    with pytest.raises(hr.InvalidArgument):
        hr.PhaseStep("", "PICK", max_targets=hr.MAX_TARGETS + 1)


# ---------------------------------------------------------------- allowed_skills


def test_allowed_skills_lists_every_skill_of_the_role_in_step_order() -> None:
    engine, _ = village()
    assert engine.allowed_skills("x1") == ("SAVE", "POISON", hr.SKIP)
    assert engine.allowed_skills("w1") == ("KILL",)
    assert engine.allowed_skills("v1") == ()
    assert engine.allowed_skills("h1") == ()  # watch-only


def test_allowed_skills_includes_skills_for_every_role() -> None:
    cfg = hr.Config("A", {"A": phase(step("wolf", "KILL"), step("", "VOTE"), next_phase=hr.END)})
    engine, _ = game(cfg, {"w": "wolf", "v": "villager"})
    assert engine.allowed_skills("w") == ("KILL", "VOTE")
    assert engine.allowed_skills("v") == ("VOTE",)


def test_allowed_skills_is_empty_for_the_dead_unless_named() -> None:
    engine, _ = village()
    kill(engine, "x1")
    assert engine.allowed_skills("x1") == ()
    name_actors(engine, "x1")
    assert engine.allowed_skills("x1") == ("SAVE", "POISON", hr.SKIP)


def test_allowed_skills_of_an_unknown_player_is_player_not_found() -> None:
    engine, _ = village()
    with pytest.raises(hr.PlayerNotFound):
        engine.allowed_skills("ghost")


def test_player_view_carries_the_same_allowed_skills() -> None:
    engine, _ = village()
    kill(engine, "w2")
    name_actors(engine, "w2", "x1")
    for pid in engine.player_ids():
        assert engine.player_view(pid).allowed_skills == engine.allowed_skills(pid)


# ---------------------------------------------------------------- readiness


def test_readiness_at_the_start_of_a_phase() -> None:
    engine, _ = village()
    r = engine.readiness()
    assert (r.phase, r.round, r.ready, r.acted) == (NIGHT, 1, False, ())
    assert pending(engine) == [("w1", "KILL"), ("w2", "KILL"), ("s1", "CHECK"), ("x1", "SAVE")]
    assert optional(engine) == [("x1", hr.SKIP)]
    assert engine.readiness().pending[0] == hr.PendingAction("w1", "wolf", "KILL")


def test_required_single_step_is_satisfied_by_any_one_actor() -> None:
    engine, _ = village()
    engine.submit("w2", "KILL", ["v1"])
    assert ("w1", "KILL") not in pending(engine)
    assert ("w1", "KILL") not in optional(engine)


def test_required_multiple_step_waits_for_every_actor() -> None:
    engine, _ = village()
    to_day(engine)
    voters = sorted(PLAYERS)
    for n, pid in enumerate(voters):
        assert pending(engine) == [(p, "VOTE") for p in voters[n:]]
        engine.submit(pid, "VOTE", ["w1"])
    assert engine.readiness().ready


def test_optional_step_lists_missing_actors_as_optional_and_stays_ready() -> None:
    engine, _ = village()
    to_day(engine)
    for pid in sorted(PLAYERS):
        engine.submit(pid, "VOTE", ["w1"])
    r = engine.readiness()
    assert r.ready
    assert optional(engine) == [(pid, "SPEAK") for pid in sorted(PLAYERS)]
    engine.submit("v1", "SPEAK")
    assert ("v1", "SPEAK") not in optional(engine)


def test_group_member_satisfies_the_group() -> None:
    engine, _ = village()
    engine.submit("x1", "POISON", ["w1"])
    assert ("x1", "SAVE") not in pending(engine)


def test_another_skill_of_the_role_does_not_satisfy_a_group() -> None:
    engine, _ = village()
    engine.submit("x1", hr.SKIP)
    assert ("x1", "SAVE") in pending(engine)
    assert ("x1", hr.SKIP) not in optional(engine)


def test_group_is_required_if_any_member_is_and_reported_by_its_first_skill() -> None:
    steps = (step("witch", "SAVE", group="potion"), step("witch", "POISON", group="potion", required=True))
    engine, _ = game(hr.Config("A", {"A": phase(*steps, next_phase=hr.END)}), {"x": "witch"})
    r = engine.readiness()
    assert not r.ready
    assert [(a.player_id, a.skill) for a in r.pending] == [("x", "SAVE")]
    engine.submit("x", "SAVE")
    assert engine.readiness().ready


def test_step_with_no_eligible_actor_is_satisfied() -> None:
    engine, _ = village()
    kill(engine, "w1", "w2", "s1")
    engine.submit("x1", "SAVE", ["v1"])
    assert engine.readiness().ready
    assert pending(engine) == []


def test_named_dead_actor_is_pending() -> None:
    engine, _ = village()
    kill(engine, "s1")
    assert ("s1", "CHECK") not in pending(engine)
    name_actors(engine, "s1")
    assert pending(engine) == [("s1", "CHECK")]


def test_system_and_watch_only_steps_are_not_in_readiness() -> None:
    engine, _ = village()
    everyone = {a.player_id for a in (*engine.readiness().pending, *engine.readiness().optional)}
    assert "h1" not in everyone
    assert all(a.role != hr.SYSTEM for a in engine.readiness().pending)


def test_acted_lists_everyone_who_submitted_sorted_and_once() -> None:
    engine, _ = village()
    engine.submit("x1", hr.SKIP)
    engine.submit("w2", "KILL", ["v1"])
    engine.submit("x1", "SAVE", ["v1"])
    assert engine.readiness().acted == ("w2", "x1")


def test_end_phase_never_refuses_when_not_ready() -> None:
    engine, _ = village()
    assert not engine.readiness().ready
    engine.end_phase()
    assert engine.status().phase == DAY


# ---------------------------------------------------------------- phase_info and watch-only steps


def test_phase_info_lists_active_roles_in_step_order_without_system() -> None:
    engine, _ = village()
    info = engine.phase_info()
    assert (info.phase, info.round) == (NIGHT, 1)
    assert info.active_roles == ("wolf", "seer", "witch", "hunter")
    assert tuple(info.roles) == tuple(sorted(info.active_roles))
    assert info.steps == NIGHT_STEPS


def test_phase_info_role_entries_name_actors_and_skills() -> None:
    engine, _ = village()
    info = engine.phase_info()
    assert info.roles["wolf"].player_ids == ("w1", "w2")
    assert info.roles["witch"].allowed_skills == ("SAVE", "POISON", hr.SKIP)
    assert set(info.roles["wolf"].teammates) == {"w1", "w2"}


def test_watch_only_role_is_active_but_cannot_submit() -> None:
    engine, _ = village()
    info = engine.phase_info()
    assert "hunter" in info.active_roles
    assert info.roles["hunter"].player_ids == ("h1",)
    assert info.roles["hunter"].allowed_skills == ()
    assert engine.allowed_skills("h1") == ()
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("h1", "")


def test_phase_info_announcement_helpers() -> None:
    engine, _ = village()
    info = engine.phase_info()
    assert info.needs_god_announcement
    assert info.god_announcement_step == NIGHT_STEPS[0]
    assert info.player_action_steps == NIGHT_STEPS[1:]
    to_day(engine)
    day = engine.phase_info()
    assert not day.needs_god_announcement
    assert day.god_announcement_step is None
    assert day.player_action_steps == DAY_STEPS


# ---------------------------------------------------------------- SKIP has no privilege


def test_skip_is_refused_where_no_step_declares_it() -> None:
    engine, _ = village()
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("w1", hr.SKIP)


def test_skip_by_a_dead_player_is_player_dead() -> None:
    engine, _ = village()
    kill(engine, "x1")
    with pytest.raises(hr.PlayerDead):
        engine.submit("x1", hr.SKIP)


def test_skip_targets_are_validated_like_any_skill() -> None:
    engine, _ = village()
    with pytest.raises(hr.TargetNotFound):
        engine.submit("x1", hr.SKIP, ["ghost"])


def test_skip_satisfies_nothing_but_its_own_step() -> None:
    engine, _ = village()
    engine.submit("x1", hr.SKIP)
    assert not engine.readiness().ready
    assert ("x1", "SAVE") in pending(engine)


# ---------------------------------------------------------------- shaped targets: pools, counts, self


def pool_game(*steps: hr.PhaseStep) -> hr.Engine:
    cfg = hr.Config("A", {"A": phase(*steps, next_phase=hr.END)}, target_pools={"CENTER": ("0", "1", "2")})
    engine, _ = game(cfg, {"s": "seer", "t": "thief", "w": "wolf"})
    return engine


def test_pool_targets_must_be_pool_members() -> None:
    engine = pool_game(step("seer", "LOOK", target_pool="CENTER"))
    assert engine.submit("s", "LOOK", ["0", "2"]).targets == ("0", "2")
    with pytest.raises(hr.TargetNotFound):
        engine.submit("s", "LOOK", ["3"])
    with pytest.raises(hr.TargetNotFound):  # a player is not a member of the pool
        engine.submit("s", "LOOK", ["w"])
    with pytest.raises(hr.TargetNotFound):
        engine.submit("s", "LOOK", ["0", ""])


@pytest.mark.parametrize(
    ("targets", "ok"),
    [((), False), (("0",), True), (("0", "1"), True), (("0", "1", "2"), False)],
)
def test_target_count_is_bounded(targets: Sequence[str], ok: bool) -> None:
    engine = pool_game(step("seer", "LOOK", target_pool="CENTER", min_targets=1, max_targets=2))
    if ok:
        engine.submit("s", "LOOK", targets)
    else:
        with pytest.raises(hr.SkillNotAllowed):
            engine.submit("s", "LOOK", targets)
        assert engine.pending_uses() == ()


def test_exact_target_count() -> None:
    engine = pool_game(step("thief", "SWAP", min_targets=2, max_targets=2, distinct_targets=True))
    engine.submit("t", "SWAP", ["s", "w"])
    for bad in (["s"], ["s", "w", "t"]):
        with pytest.raises(hr.SkillNotAllowed):
            engine.submit("t", "SWAP", bad)


def test_min_targets_without_max_is_unbounded_above() -> None:
    engine = pool_game(step("seer", "LOOK", target_pool="CENTER", min_targets=1))
    engine.submit("s", "LOOK", ["0", "1", "2", "0"])


def test_distinct_targets_forbids_repeats() -> None:
    engine = pool_game(step("seer", "LOOK", target_pool="CENTER", distinct_targets=True))
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("s", "LOOK", ["1", "1"])
    engine.submit("s", "LOOK", ["1", "2"])


def test_self_target_is_invalid_targets_when_forbidden() -> None:
    engine = pool_game(step("thief", "SWAP", allow_self_target=False))
    with pytest.raises(hr.InvalidTargets) as err:
        engine.submit("t", "SWAP", ["s", "t"])
    assert err.value.code == "INVALID_TARGETS"
    assert isinstance(err.value, hr.SkillNotAllowed)
    engine.submit("t", "SWAP", ["s", "w"])


@pytest.mark.parametrize(
    "shape",
    [{}, {"max_targets": 1}, {"min_targets": 1, "max_targets": 1}, {"min_targets": 1}, {"max_targets": 3}],
)
def test_one_target_of_a_shaped_step_gets_every_check(shape: dict[str, int]) -> None:
    """submit's one-target path for shaped steps refuses what the full check refuses, with its errors."""
    engine = pool_game(step("thief", "SWAP", allow_self_target=False, **shape))
    with pytest.raises(hr.InvalidTargets, match="'SWAP' may not target oneself"):
        engine.submit("t", "SWAP", ["t"])
    with pytest.raises(hr.TargetNotFound):
        engine.submit("t", "SWAP", ["ghost"])
    with pytest.raises(hr.TargetNotFound):
        engine.submit("t", "SWAP", [""])
    kill(engine, "w")
    with pytest.raises(hr.TargetDead):
        engine.submit("t", "SWAP", ["w"])
    assert engine.pending_uses() == ()
    assert engine.submit("t", "SWAP", ["s"]).targets == ("s",)


def test_self_target_is_allowed_by_default() -> None:
    engine = pool_game(step("thief", "SWAP"))
    engine.submit("t", "SWAP", ["t"])


def test_shaped_player_targets_still_must_exist_and_live() -> None:
    engine = pool_game(step("thief", "SWAP", max_targets=2))
    with pytest.raises(hr.TargetNotFound):
        engine.submit("t", "SWAP", ["ghost"])
    kill(engine, "w")
    with pytest.raises(hr.TargetDead):
        engine.submit("t", "SWAP", ["w"])


def test_shaped_step_refuses_empty_target_names() -> None:
    # Unlike plain steps (which skip ""), a step that counts its targets refuses
    # an empty name rather than miscount.
    engine = pool_game(step("thief", "SWAP", max_targets=2))
    with pytest.raises(hr.TargetNotFound):
        engine.submit("t", "SWAP", ["s", ""])


def test_wrong_target_count_is_invalid_targets() -> None:
    engine = pool_game(step("seer", "LOOK", target_pool="CENTER", min_targets=1, max_targets=2))
    with pytest.raises(hr.InvalidTargets):
        engine.submit("s", "LOOK", ["0", "1", "2"])


def test_repeated_targets_are_invalid_targets() -> None:
    engine = pool_game(step("seer", "LOOK", target_pool="CENTER", distinct_targets=True))
    with pytest.raises(hr.InvalidTargets):
        engine.submit("s", "LOOK", ["1", "1"])


def test_role_less_steps_serve_every_role_the_same_before_and_after_first_use() -> None:
    """submit keeps a role-less step per role on first use (in the phase table every engine of
    the same Config shares): each skill keeps its own step, whichever seat and engine asks first."""
    cfg = hr.Config(
        DAY,
        {
            DAY: phase(
                step("", "VOTE", allow_dead_target=True),
                step("", "SPEAK", max_targets=1),
                step("wolf", "KILL"),
                next_phase=hr.END,
            )
        },
    )
    players = {"w1": "wolf", "v1": "villager", "v2": "villager", "d1": "villager"}
    for _ in range(2):  # the second engine finds the kept entries
        engine, _ = game(cfg, players)
        kill(engine, "d1")
        with pytest.raises(hr.TargetDead):
            engine.submit("v1", "SPEAK", ["d1"])
        assert engine.submit("v1", "VOTE", ["d1"]).target == "d1"
        with pytest.raises(hr.InvalidTargets):
            engine.submit("v2", "SPEAK", ["v1", "w1"])
        with pytest.raises(hr.AlreadySubmitted):
            engine.submit("v1", "VOTE", ["w1"])
        with pytest.raises(hr.SkillNotAllowed):
            engine.submit("v2", "KILL", ["w1"])
        assert engine.submit("w1", "VOTE", ["d1"]).target == "d1"
        assert engine.submit("w1", "KILL", ["v1"]).target == "v1"
