"""Issue 11 goal 3: the round boundary is held while a detour is owed.

It lands once, counter and clearing together, when the detour queue drains, so "the
round advanced" always means "the round state was cleared" and one cycle counts once.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

import hiddenrole as hr

NIGHT, VOTE, HUNTER, LAST = "NIGHT", "VOTE", "DAY_HUNTER", "LAST_WORDS"
SHOOT, ACT = "SHOOT", "ACT"


def _rules(victims: Sequence[str], extra_phase: bool = False) -> hr.Rules:
    """NIGHT (on enter: clear) -> VOTE (on exit: advance) -> NIGHT; VOTE may detour to
    DAY_HUNTER (on exit: advance, next NIGHT) and, with ``extra_phase``, to LAST_WORDS."""
    phases = {
        NIGHT: hr.PhaseConfig(steps=(hr.PhaseStep("", ACT),), next_phase=VOTE, on_enter=(hr.CLEAR_ROUND_VARS,)),
        VOTE: hr.PhaseConfig(steps=(hr.PhaseStep("", ACT),), next_phase=NIGHT, on_exit=(hr.ADVANCE_ROUND,)),
        HUNTER: hr.PhaseConfig(steps=(hr.PhaseStep("", SHOOT),), next_phase=NIGHT, on_exit=(hr.ADVANCE_ROUND,)),
        LAST: hr.PhaseConfig(steps=(hr.PhaseStep("", ACT),), next_phase=NIGHT, on_exit=(hr.ADVANCE_ROUND,)),
    }

    def vote(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
        if view.round != 1:
            return []
        out: list[hr.Effect] = [hr.set_var(hr.ROUND, "voted", "yes")]
        for v in victims:
            out += [hr.set_alive(v, False), hr.detour(v, HUNTER)]
        if extra_phase:
            out.append(hr.detour(victims[0], LAST))
        return out

    def note_round(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
        # What a detour phase sees: the round it belongs to and that round's state.
        return [hr.Effect("SEEN", data={"round": str(view.round), "voted": view.var(hr.ROUND, "voted")})]

    resolvers = {NIGHT: lambda u, v: [], VOTE: vote, HUNTER: note_round, LAST: note_round}
    cfg = hr.Config(start_phase=NIGHT, phases=phases)
    return hr.Rules(cfg, name="boundary", resolvers=resolvers)


def _play(rules: hr.Rules) -> tuple[hr.Engine, list[tuple[str, int, str]]]:
    engine = hr.Engine(rules)
    for pid in ("h1", "h2", "v1"):
        engine.add_player(pid, "villager")
    engine.start()
    trail: list[tuple[str, int, str]] = []
    for _ in range(8):
        st = engine.status()
        trail.append((st.phase, st.round, engine.var(hr.ROUND, "voted")))
        for e in engine.end_phase():
            if e.type == "SEEN":
                assert e.data["round"] == "1" and e.data["voted"] == "yes"
    return engine, trail


def test_one_detour_counts_the_round_once_and_keeps_its_state_until_it_lands() -> None:
    _, trail = _play(_rules(["h1"]))
    assert trail[:5] == [
        (NIGHT, 1, ""),
        (VOTE, 1, ""),
        (HUNTER, 1, "yes"),  # the boundary is held: same round, its state intact
        (NIGHT, 2, ""),  # it lands once: round 2 (not 3), cleared
        (VOTE, 2, ""),
    ]


def test_several_queued_detours_all_run_then_the_boundary_lands_once() -> None:
    _, trail = _play(_rules(["h1", "h2"], extra_phase=True))
    assert trail[:6] == [
        (NIGHT, 1, ""),
        (VOTE, 1, ""),
        (HUNTER, 1, "yes"),
        (HUNTER, 1, "yes"),
        (LAST, 1, "yes"),
        (NIGHT, 2, ""),
    ]


@pytest.mark.parametrize("victims", [["h1"], ["h1", "h2"]])
def test_a_held_boundary_survives_replay_and_restore(victims: list[str]) -> None:
    rules = _rules(victims, extra_phase=len(victims) > 1)
    engine = hr.Engine(rules)
    for pid in ("h1", "h2", "v1"):
        engine.add_player(pid, "villager")
    engine.start()
    engine.end_phase()
    engine.end_phase()  # now in DAY_HUNTER with the boundary held
    snap = engine.snapshot()
    assert snap.held == (hr.ADVANCE_ROUND,)
    for other in (
        hr.Engine.replay(rules, engine.log().to_json()),
        hr.Engine.restore(rules, snap.to_json()),
        hr.Engine.restore(rules, snap.to_json(), verify=False),
    ):
        assert other.snapshot() == snap
        while engine.status().phase != NIGHT:
            engine.end_phase()
        while other.status().phase != NIGHT:
            other.end_phase()
        assert other.snapshot() == engine.snapshot()
        assert other.status().round == 2


def test_a_version_1_snapshot_is_read_with_nothing_held() -> None:
    rules = _rules([])
    engine = hr.Engine(rules)
    engine.add_player("v1", "villager")
    engine.start()
    engine.submit("v1", ACT)
    d = json.loads(engine.snapshot().to_json())
    del d["round_context"]["held"]
    d["version"] = 1
    old = json.dumps(d, separators=(",", ":")).encode()
    restored = hr.Engine.restore(rules, old)
    assert restored.snapshot() == engine.snapshot()
    assert restored.pending_uses() == engine.pending_uses()  # migrated, not rebuilt from the log


def test_held_actions_without_a_detour_are_an_invalid_snapshot() -> None:
    import dataclasses

    rules = _rules([])
    engine = hr.Engine(rules)
    engine.add_player("v1", "villager")
    engine.start()
    bad = dataclasses.replace(engine.snapshot(), held=(hr.ADVANCE_ROUND,))
    with pytest.raises(hr.InvalidSnapshot):
        hr.Engine.restore(rules, bad, verify=False)
    with pytest.raises(hr.InvalidSnapshot):
        hr.Engine.restore(rules, bad)
