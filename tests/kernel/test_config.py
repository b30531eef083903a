"""Configuration: every validation rule, its first-error order, timeouts, bad types.

Each test builds the smallest phase graph that breaks exactly one rule, so a
failure names the rule that regressed.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pytest

import hiddenrole as hr

from .conftest import make_rules, phase, step

ADV = hr.ADVANCE_ROUND
CLR = hr.CLEAR_ROUND_VARS


def config(start: str, phases: dict[str, hr.PhaseConfig], **kw: Any) -> hr.Config:
    return hr.Config(start_phase=start, phases=phases, **kw)


def straight() -> dict[str, hr.PhaseConfig]:
    """A -> B -> END: the smallest valid graph without a loop."""
    return {"A": phase(next_phase="B"), "B": phase(next_phase=hr.END)}


def looping(**a_kw: Any) -> dict[str, hr.PhaseConfig]:
    """A -> B -> A with round actions on A (overridable)."""
    a_kw.setdefault("on_enter", (CLR,))
    a_kw.setdefault("on_exit", (ADV,))
    return {"A": phase(next_phase="B", **a_kw), "B": phase(next_phase="A")}


def night_day() -> dict[str, hr.PhaseConfig]:
    """NIGHT (compound: GUARD, WOLF) and DAY, looping."""
    return {
        "NIGHT": phase(on_enter=(CLR,), on_exit=(ADV,)),
        "GUARD": phase(step("guard", "PROTECT"), next_phase="WOLF", parent="NIGHT"),
        "WOLF": phase(step("wolf", "KILL"), next_phase="DAY", parent="NIGHT"),
        "DAY": phase(step("", "VOTE"), next_phase="GUARD"),
    }


def assert_valid(cfg: hr.Config) -> None:
    cfg.validate()


# ---------------------------------------------------------------- valid shapes


def test_straight_line_config_is_valid() -> None:
    assert_valid(config("A", straight()))


def test_looping_config_with_both_round_actions_is_valid() -> None:
    assert_valid(config("A", looping()))


def test_compound_config_is_valid() -> None:
    assert_valid(config("GUARD", night_day()))


def test_rules_validate_their_config_on_construction() -> None:
    with pytest.raises(hr.InvalidPhase):
        make_rules(config("A", {"A": phase(next_phase="NOWHERE")}))


def test_rules_without_a_config_are_refused() -> None:
    with pytest.raises(hr.InvalidConfig):
        hr.Rules(None, name="x")  # type: ignore[arg-type]


# ---------------------------------------------------------------- rule 1: basics


def test_no_phases_is_invalid_config() -> None:
    with pytest.raises(hr.InvalidConfig):
        config("A", {}).validate()


def test_empty_start_phase_is_invalid_config() -> None:
    with pytest.raises(hr.InvalidConfig):
        config("", straight()).validate()


@pytest.mark.pure_only
def test_non_string_start_phase_is_invalid_config() -> None:
    with pytest.raises(hr.InvalidConfig):
        config(7, straight()).validate()  # type: ignore[arg-type]


def test_empty_phase_name_is_invalid_config() -> None:
    with pytest.raises(hr.InvalidConfig):
        config("A", {**straight(), "": phase(next_phase=hr.END)}).validate()


@pytest.mark.parametrize("reserved", [hr.START, hr.END])
def test_reserved_phase_names_are_invalid_phase(reserved: str) -> None:
    with pytest.raises(hr.InvalidPhase, match=reserved):
        config("A", {**straight(), reserved: phase(next_phase=hr.END)}).validate()


@pytest.mark.pure_only
def test_non_numeric_default_timeout_is_invalid_config() -> None:
    with pytest.raises(hr.InvalidConfig):
        config("A", straight(), default_timeout="soon").validate()


# ---------------------------------------------------------------- rule 2: loops need round actions


def test_loop_without_any_round_action_is_invalid_config() -> None:
    with pytest.raises(hr.InvalidConfig, match="loops"):
        config("A", looping(on_enter=(), on_exit=())).validate()


def test_loop_with_only_advance_round_is_invalid_config() -> None:
    with pytest.raises(hr.InvalidConfig):
        config("A", looping(on_enter=(), on_exit=(ADV,))).validate()


def test_loop_with_only_clear_round_vars_is_invalid_config() -> None:
    with pytest.raises(hr.InvalidConfig):
        config("A", looping(on_enter=(CLR,), on_exit=())).validate()


@pytest.mark.parametrize(
    ("a_enter", "a_exit", "b_enter", "b_exit"),
    [
        ((CLR,), (ADV,), (), ()),
        ((), (), (CLR, ADV), ()),
        ((), (), (), (ADV, CLR)),
        ((ADV,), (), (), (CLR,)),
    ],
)
def test_loop_accepts_round_actions_declared_anywhere(
    a_enter: tuple[str, ...], a_exit: tuple[str, ...], b_enter: tuple[str, ...], b_exit: tuple[str, ...]
) -> None:
    phases = {
        "A": phase(next_phase="B", on_enter=a_enter, on_exit=a_exit),
        "B": phase(next_phase="A", on_enter=b_enter, on_exit=b_exit),
    }
    assert_valid(config("A", phases))


def test_loop_counts_round_actions_declared_on_a_compound_parent() -> None:
    assert_valid(config("GUARD", night_day()))


def test_loop_not_through_the_start_phase_still_needs_round_actions() -> None:
    phases = {"A": phase(next_phase="B"), "B": phase(next_phase="C"), "C": phase(next_phase="B")}
    with pytest.raises(hr.InvalidConfig):
        config("A", phases).validate()


def test_self_loop_needs_round_actions() -> None:
    with pytest.raises(hr.InvalidConfig):
        config("A", {"A": phase(next_phase="A")}).validate()


def test_straight_line_needs_no_round_actions() -> None:
    phases = {"A": phase(next_phase="B"), "B": phase(next_phase="C"), "C": phase(next_phase=hr.END)}
    assert_valid(config("A", phases))


# ---------------------------------------------------------------- rule 3: start phase


def test_missing_start_phase_is_invalid_phase() -> None:
    with pytest.raises(hr.InvalidPhase, match="NOPE"):
        config("NOPE", straight()).validate()


def test_compound_start_phase_is_invalid_phase() -> None:
    with pytest.raises(hr.InvalidPhase, match="compound"):
        config("NIGHT", night_day()).validate()


# ---------------------------------------------------------------- rule 4: per phase


def test_unknown_phase_action_is_invalid_phase() -> None:
    phases = {"A": hr.PhaseConfig(next_phase=hr.END, on_exit=("EXPLODE",))}  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidPhase, match="EXPLODE"):
        config("A", phases).validate()


def test_phase_that_is_its_own_parent_is_invalid_phase() -> None:
    with pytest.raises(hr.InvalidPhase, match="own parent"):
        config("S", {"S": phase(next_phase=hr.END), "A": phase(next_phase=hr.END, parent="A")}).validate()


def test_missing_parent_is_invalid_phase() -> None:
    with pytest.raises(hr.InvalidPhase, match="GHOST"):
        config("A", {"A": phase(next_phase=hr.END, parent="GHOST")}).validate()


def test_parent_chain_that_loops_is_invalid_phase() -> None:
    phases = {
        "A": phase(next_phase=hr.END, parent="P"),
        "P": phase(parent="Q"),
        "Q": phase(parent="P"),
    }
    with pytest.raises(hr.InvalidPhase, match="loops"):
        config("A", phases).validate()


def test_compound_phase_with_steps_is_invalid_phase() -> None:
    phases = night_day()
    phases["NIGHT"] = phase(step("wolf", "HOWL"), on_enter=(CLR,), on_exit=(ADV,))
    with pytest.raises(hr.InvalidPhase, match="NIGHT"):
        config("GUARD", phases).validate()


def test_compound_phase_with_next_phase_is_invalid_phase() -> None:
    phases = night_day()
    phases["NIGHT"] = phase(next_phase="DAY", on_enter=(CLR,), on_exit=(ADV,))
    with pytest.raises(hr.InvalidPhase, match="NIGHT"):
        config("GUARD", phases).validate()


def test_leaf_phase_without_next_phase_is_invalid_phase() -> None:
    with pytest.raises(hr.InvalidPhase, match="END"):
        config("A", {"A": phase()}).validate()


def test_leaf_phase_with_unknown_next_phase_is_invalid_phase() -> None:
    with pytest.raises(hr.InvalidPhase, match="NOWHERE"):
        config("A", {"A": phase(next_phase="NOWHERE")}).validate()


def test_leaf_phase_whose_next_phase_is_compound_is_invalid_phase() -> None:
    phases = night_day()
    phases["DAY"] = phase(step("", "VOTE"), next_phase="NIGHT")
    with pytest.raises(hr.InvalidPhase, match="compound"):
        config("GUARD", phases).validate()


def test_next_phase_end_ends_the_line() -> None:
    assert_valid(config("A", {"A": phase(next_phase=hr.END)}))


# ---------------------------------------------------------------- rule 5: steps


def test_duplicate_role_and_skill_is_invalid_phase() -> None:
    phases = {"A": phase(step("wolf", "KILL"), step("wolf", "KILL", required=True), next_phase=hr.END)}
    with pytest.raises(hr.InvalidPhase, match="duplicate"):
        config("A", phases).validate()


def test_duplicate_watch_only_step_is_invalid_phase() -> None:
    phases = {"A": phase(step("seer"), step("seer"), next_phase=hr.END)}
    with pytest.raises(hr.InvalidPhase, match="duplicate"):
        config("A", phases).validate()


def test_same_skill_for_two_specific_roles_is_valid() -> None:
    assert_valid(config("A", {"A": phase(step("wolf", "VOTE"), step("seer", "VOTE"), next_phase=hr.END)}))


@pytest.mark.parametrize("all_roles_first", [True, False])
def test_skill_for_every_role_may_not_also_be_declared_for_one_role(all_roles_first: bool) -> None:
    steps = [step("", "VOTE"), step("wolf", "VOTE")]
    if not all_roles_first:
        steps.reverse()
    with pytest.raises(hr.InvalidPhase, match="every role"):
        config("A", {"A": phase(*steps, next_phase=hr.END)}).validate()


def test_group_within_one_role_is_valid() -> None:
    steps = (step("witch", "SAVE", group="potion"), step("witch", "POISON", group="potion"))
    assert_valid(config("A", {"A": phase(*steps, next_phase=hr.END)}))


def test_group_spanning_two_roles_is_invalid_phase() -> None:
    steps = (step("witch", "SAVE", group="potion"), step("wolf", "KILL", group="potion"))
    with pytest.raises(hr.InvalidPhase, match="potion"):
        config("A", {"A": phase(*steps, next_phase=hr.END)}).validate()


def test_same_group_name_in_two_phases_is_independent() -> None:
    phases = {
        "A": phase(step("witch", "SAVE", group="g"), next_phase="B"),
        "B": phase(step("wolf", "KILL", group="g"), next_phase=hr.END),
    }
    assert_valid(config("A", phases))


def test_step_with_unknown_target_pool_is_invalid_phase() -> None:
    phases = {"A": phase(step("seer", "LOOK", target_pool="CENTER"), next_phase=hr.END)}
    with pytest.raises(hr.InvalidPhase, match="CENTER"):
        config("A", phases).validate()


def test_step_with_known_target_pool_is_valid() -> None:
    phases = {"A": phase(step("seer", "LOOK", target_pool="CENTER"), next_phase=hr.END)}
    assert_valid(config("A", phases, target_pools={"CENTER": ("0", "1", "2")}))


@pytest.mark.parametrize(
    "pools",
    [
        {"CENTER": ()},
        {"CENTER": ("0", "")},
        {"CENTER": ("0", "0")},
        {"": ("0",)},
    ],
    ids=["empty-pool", "empty-member", "repeated-member", "unnamed-pool"],
)
def test_malformed_target_pool_is_invalid_config(pools: dict[str, tuple[str, ...]]) -> None:
    with pytest.raises(hr.InvalidConfig):
        config("A", straight(), target_pools=pools).validate()


# ---------------------------------------------------------------- deterministic first error


def two_broken_phases() -> list[tuple[str, hr.PhaseConfig]]:
    """Phases "B" and "C" are each broken in a different way; "A" is fine."""
    return [
        ("A", phase(next_phase="B")),
        ("B", phase(step("wolf", "KILL"), step("wolf", "KILL"), next_phase=hr.END)),
        ("C", phase(next_phase="NOWHERE")),
    ]


def test_first_error_is_the_same_for_every_insertion_order() -> None:
    messages = set()
    for order in itertools.permutations(two_broken_phases()):
        with pytest.raises(hr.InvalidPhase) as err:
            config("A", dict(order)).validate()
        messages.add(str(err.value))
    assert len(messages) == 1
    assert "'B'" in messages.pop()  # phases are checked in sorted order


def test_top_level_errors_come_before_per_phase_errors() -> None:
    phases = dict(two_broken_phases())
    with pytest.raises(hr.InvalidPhase, match="MISSING"):
        config("MISSING", phases).validate()


def test_loop_error_comes_before_start_phase_errors() -> None:
    # P is a compound start phase (an error) that also carries a next phase, closing a loop.
    phases = {"P": phase(next_phase="A"), "A": phase(next_phase="P", parent="P")}
    with pytest.raises(hr.InvalidConfig, match="loops"):
        config("P", phases).validate()


def test_config_phases_are_sorted_and_read_only() -> None:
    source = {"B": phase(next_phase=hr.END), "A": phase(next_phase="B")}
    cfg = config("A", source)
    source["C"] = phase(next_phase=hr.END)
    assert list(cfg.phases) == ["A", "B"]
    with pytest.raises(TypeError):
        cfg.phases["C"] = phase(next_phase=hr.END)  # type: ignore[index]


@pytest.mark.parametrize("bad", ["not a phase", None, 3, hr.PhaseStep("wolf")])
def test_non_phase_config_value_is_invalid_phase(bad: object) -> None:
    with pytest.raises(hr.InvalidPhase, match="'A'"):
        config("A", {"A": bad}).validate()  # type: ignore[dict-item]


# ---------------------------------------------------------------- phase_timeout


def test_phase_timeout_prefers_the_phase_own_timeout() -> None:
    phases = {"A": phase(next_phase=hr.END, timeout=12)}
    assert config("A", phases, default_timeout=45).phase_timeout("A") == 12


def test_phase_timeout_falls_back_to_the_default() -> None:
    phases = {"A": phase(next_phase=hr.END)}
    assert config("A", phases, default_timeout=45).phase_timeout("A") == 45


def test_phase_timeout_ignores_a_non_positive_own_timeout() -> None:
    phases = {"A": phase(next_phase=hr.END, timeout=-5)}
    assert config("A", phases, default_timeout=45).phase_timeout("A") == 45


def test_phase_timeout_falls_back_to_thirty_seconds() -> None:
    cfg = config("A", {"A": phase(next_phase=hr.END)})
    assert cfg.phase_timeout("A") == hr.DEFAULT_PHASE_TIMEOUT == 30.0


@pytest.mark.parametrize("name", ["UNKNOWN", hr.START, hr.END])
def test_phase_timeout_of_an_unconfigured_phase_uses_the_chain(name: str) -> None:
    cfg = config("A", {"A": phase(next_phase=hr.END, timeout=5)}, default_timeout=9)
    assert cfg.phase_timeout(name) == 9
    assert config("A", {"A": phase(next_phase=hr.END)}).phase_timeout(name) == 30.0


def test_phase_timeout_is_a_float() -> None:
    assert isinstance(config("A", {"A": phase(next_phase=hr.END, timeout=7)}).phase_timeout("A"), float)


# ---------------------------------------------------------------- PhaseAction


def test_phase_action_is_a_closed_set_of_two() -> None:
    assert {a.value for a in hr.PhaseAction} == {"ADVANCE_ROUND", "CLEAR_ROUND_VARS"}
    assert hr.ADVANCE_ROUND is hr.PhaseAction.ADVANCE_ROUND
    assert hr.CLEAR_ROUND_VARS is hr.PhaseAction.CLEAR_ROUND_VARS


@pytest.mark.pure_only
def test_phase_actions_given_as_strings_become_phase_actions() -> None:
    pc = hr.PhaseConfig(next_phase=hr.END, on_enter=["CLEAR_ROUND_VARS"], on_exit=("ADVANCE_ROUND",))  # type: ignore[arg-type]
    assert pc.on_enter == (hr.CLEAR_ROUND_VARS,)
    assert pc.on_exit == (hr.ADVANCE_ROUND,)
    assert all(isinstance(a, hr.PhaseAction) for a in (*pc.on_enter, *pc.on_exit))


def test_unknown_phase_action_cannot_be_made() -> None:
    with pytest.raises(ValueError):
        hr.PhaseAction("EXPLODE")


# ---------------------------------------------------------------- Engine and resolvers


def resolve_nothing(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    return []


def test_engine_refuses_a_leaf_phase_without_a_resolver() -> None:
    cfg = config("A", straight())
    rules = hr.Rules(cfg, name="noresolver", resolvers={"A": resolve_nothing})
    with pytest.raises(hr.InvalidPhase, match="'B'"):
        hr.Engine(rules)


def test_engine_needs_no_resolver_for_a_compound_phase() -> None:
    cfg = config("GUARD", night_day())
    resolvers = {p: resolve_nothing for p in ("GUARD", "WOLF", "DAY")}
    hr.Engine(hr.Rules(cfg, name="compound", resolvers=resolvers))


def test_engine_needs_rules() -> None:
    with pytest.raises(hr.InvalidArgument):
        hr.Engine(config("A", straight()))  # type: ignore[arg-type]


# ---------------------------------------------------------------- bad types


@pytest.mark.pure_only
@pytest.mark.parametrize(
    "build",
    [
        lambda: hr.PhaseStep(None),  # type: ignore[arg-type]
        lambda: hr.PhaseStep("wolf", 3),  # type: ignore[arg-type]
        lambda: hr.PhaseStep("wolf", "KILL", group=1),  # type: ignore[arg-type]
        lambda: hr.PhaseStep("wolf", "KILL", target_pool=None),  # type: ignore[arg-type]
        lambda: hr.PhaseStep("wolf", "KILL", min_targets=-1),
        lambda: hr.PhaseStep("wolf", "KILL", min_targets=True),
        lambda: hr.PhaseStep("wolf", "KILL", min_targets="1"),  # type: ignore[arg-type]
        lambda: hr.PhaseStep("wolf", "KILL", min_targets=2, max_targets=1),
        lambda: hr.PhaseStep("wolf", "KILL", max_targets=False),
        lambda: hr.PhaseConfig(steps="wolf"),  # type: ignore[arg-type]
        lambda: hr.PhaseConfig(steps=("wolf",)),  # type: ignore[arg-type]
        lambda: hr.PhaseConfig(on_enter="ADVANCE_ROUND"),  # type: ignore[arg-type]
        lambda: hr.PhaseConfig(on_exit=(1,)),  # type: ignore[arg-type]
        lambda: hr.PhaseConfig(next_phase=None),  # type: ignore[arg-type]
        lambda: hr.PhaseConfig(parent=5),  # type: ignore[arg-type]
        lambda: hr.PhaseConfig(timeout=True),
        lambda: hr.PhaseConfig(timeout="30"),  # type: ignore[arg-type]
        lambda: hr.Config("A", phases=[("A", hr.PhaseConfig())]),  # type: ignore[arg-type]
        lambda: hr.Config("A", phases={}, target_pools=["CENTER"]),  # type: ignore[arg-type]
        lambda: hr.Config("A", phases={}, target_pools={"CENTER": "012"}),  # type: ignore[dict-item]
        lambda: hr.Config("A", phases={}, target_pools={"CENTER": (0, 1)}),  # type: ignore[dict-item]
    ],
)
def test_bad_types_raise_invalid_argument(build: Any) -> None:
    with pytest.raises(hr.InvalidArgument) as err:
        build()
    assert err.value.code == "INVALID_ARGUMENT"
    assert isinstance(err.value, hr.GameError)
    assert isinstance(err.value, TypeError)


def test_phase_step_defaults() -> None:
    s = hr.PhaseStep("wolf")
    assert (s.skill, s.required, s.multiple, s.group, s.allow_dead_target) == ("", False, False, "", False)
    assert (s.target_pool, s.min_targets, s.max_targets, s.distinct_targets, s.allow_self_target) == (
        "",
        0,
        None,
        False,
        True,
    )


def test_step_for_prefers_the_role_step_then_the_every_role_step() -> None:
    own = hr.PhaseStep("wolf", "VOTE", required=True)
    anyone = hr.PhaseStep("", "VOTE")
    cfg = hr.Config("A", {"A": hr.PhaseConfig(steps=(anyone, own, hr.PhaseStep(hr.SYSTEM, "NOTE")), next_phase=hr.END)})
    assert cfg.step_for("A", "VOTE", "wolf") is own
    assert cfg.step_for("A", "VOTE", "seer") is anyone
    assert cfg.step_for("A", "NOTE", hr.SYSTEM) is None  # nobody carries a SYSTEM step
    assert cfg.step_for("A", "", "wolf") is None
    assert cfg.step_for("NOWHERE", "VOTE", "wolf") is None


def _scanned_step(cfg: hr.Config, phase: str, skill: str, role: str) -> hr.PhaseStep | None:
    """The definition step_for's index must answer like: the role's first step, else the
    last every-role step, never a SYSTEM step nor a watch-only one."""
    pc = cfg.phases.get(phase)
    found = None
    for st in pc.steps if pc is not None and skill else ():
        if st.skill == skill and st.role != hr.SYSTEM:
            if st.role == role:
                return st
            if st.role == "":
                found = st
    return found


def test_step_for_answers_as_a_scan_of_the_steps_for_every_phase_skill_and_role() -> None:
    steps = (
        hr.PhaseStep("", "VOTE"),
        hr.PhaseStep("wolf", "KILL"),
        hr.PhaseStep("wolf", "KILL", required=True),  # a second step of one role: the first wins
        hr.PhaseStep("", "VOTE", required=True),  # a second every-role step: the last wins
        hr.PhaseStep("wolf", "VOTE"),
        hr.PhaseStep(hr.SYSTEM, "NOTE"),
        hr.PhaseStep("seer"),
    )
    # "C": a skill only every-role steps offer (the index keeps it without a lookup by role), twice:
    # role "" still gets the first, as a role's own step, and every other role the last.
    phases = {
        "A": hr.PhaseConfig(steps=steps, next_phase="B"),
        "B": hr.PhaseConfig(steps=steps[:2], next_phase="C"),
        "C": hr.PhaseConfig(steps=(steps[0], steps[1], steps[3])),
    }
    cfg = hr.Config("A", phases)
    for where, skill, role in itertools.product(
        ("A", "B", "C", "D"), ("", "VOTE", "KILL", "NOTE"), ("", "wolf", "seer", hr.SYSTEM)
    ):
        assert cfg.step_for(where, skill, role) is _scanned_step(cfg, where, skill, role), (where, skill, role)


def test_step_for_answers_each_config_when_calls_alternate_between_them() -> None:
    """step_for remembers the index it used last: a call on another Config must not get it."""
    first = hr.PhaseStep("wolf", "KILL")
    second = hr.PhaseStep("wolf", "KILL", required=True)
    a = hr.Config("A", {"A": hr.PhaseConfig(steps=(first,), next_phase=hr.END)})
    b = hr.Config("A", {"A": hr.PhaseConfig(steps=(second,), next_phase=hr.END)})
    for _ in range(2):
        assert a.step_for("A", "KILL", "wolf") is first
        assert a.step_for("A", "KILL", "wolf") is first
        assert b.step_for("A", "KILL", "wolf") is second
        assert b.step_for("A", "KILL", "seer") is None
