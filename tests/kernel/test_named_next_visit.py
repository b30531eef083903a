"""A resolver may name who acts on the next visit of its own phase (found by the missions ruleset)."""

from __future__ import annotations

from collections.abc import Sequence

import hiddenrole as hr

LOOP = "LOOP"
ACT = "ACT"


def _name_second_player(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    return [hr.set_actors(LOOP, view.player_ids()[1]), hr.goto_phase(LOOP)]


def _rules(resolver: object) -> hr.Rules:
    config = hr.Config(
        start_phase=LOOP,
        phases={
            LOOP: hr.PhaseConfig(
                steps=(hr.PhaseStep("", ACT),),
                next_phase=LOOP,
                on_enter=(hr.CLEAR_ROUND_VARS,),
                on_exit=(hr.ADVANCE_ROUND,),
            )
        },
    )
    return hr.Rules(config, name="loop-note", resolvers={LOOP: resolver})  # type: ignore[dict-item]


def _engine(rules: hr.Rules) -> hr.Engine:
    engine = hr.Engine(rules)
    engine.add_player("a", "R")
    engine.add_player("b", "R")
    engine.start()
    return engine


def test_actors_named_for_the_next_visit_of_the_same_phase_survive_and_replay() -> None:
    rules = _rules(_name_second_player)
    engine = _engine(rules)
    engine.end_phase()
    assert engine.allowed_skills("a") == ()
    assert engine.allowed_skills("b") == (ACT,)
    replayed = hr.Engine.replay(rules, engine.log().to_json())
    assert replayed.snapshot().to_json() == engine.snapshot().to_json()
    assert replayed.allowed_skills("a") == ()


def test_actors_named_by_the_host_during_a_phase_last_only_for_that_visit() -> None:
    rules = _rules(lambda uses, view: [])
    engine = _engine(rules)
    engine.apply(hr.set_actors(LOOP, "a"))
    assert engine.allowed_skills("b") == ()
    engine.end_phase()
    assert engine.allowed_skills("b") == (ACT,)
    replayed = hr.Engine.replay(rules, engine.log().to_json())
    assert replayed.snapshot().to_json() == engine.snapshot().to_json()
