"""Legal means legal, up to every picker: a target a seat is offered is a target the table accepts.

The rules' limits (the kernel's ``PlayerView.targets``) reach the host view (``SeatSelf.targets``
and its JSON), the agents' legal actions and JSON Schema, the web's pickers (the same
enumeration over the JSON view) and PettingZoo's action mask. Each check probes the table:
every offered target of a limited skill is played on a replayed copy and must be accepted.
"""

from __future__ import annotations

import random

import pytest

from hiddenrole.agents import Observation, RandomAgent, SeatRunner, legal_actions, observe
from hiddenrole.games import werewolf as ww
from hiddenrole.host import Table
from hiddenrole.host.catalog import get

SEEDS = range(6)


def probe(table: Table, seat: str, skill: str, target: str) -> str:
    """Play ``skill`` on ``target`` at a replayed copy of ``table``: ``""`` if accepted, else the refusal."""
    copy = Table.replay(table.definition, table.log())
    try:
        copy.act(seat, skill, (target,))
    except Exception as exc:
        return str(exc)
    return ""


def limited_decisions(seed: int) -> list[tuple[Table, str, Observation]]:
    """Play a werewolf game at random; every decision where the rules limit a skill's targets, with its table."""
    table = Table.open(get("werewolf"), 9, seed=seed, table_id="legal")
    agents = {s: RandomAgent(random.Random(f"{seed}{s}")) for s in table.seats}
    runner = SeatRunner(table, agents)
    seen: list[tuple[Table, str, Observation]] = []
    while not table.over:
        got = runner.next_decision()
        if got is None:
            break
        seat, obs = got
        view = table.view(seat)
        assert view.me is not None
        if view.me.targets:
            seen.append((Table.replay(table.definition, table.log()), seat, obs))
        runner._decide(seat, obs)
    return seen


@pytest.fixture(scope="module")
def decisions() -> list[tuple[Table, str, Observation]]:
    return [d for seed in SEEDS for d in limited_decisions(seed)]


def test_limited_skills_are_met_often(decisions: list[tuple[Table, str, Observation]]) -> None:
    skills = set()
    for table, seat, obs in decisions:
        me = table.view(seat).me
        assert me is not None
        skills |= {la.skill for la in obs.legal if me.targets_for(la.skill) is not None}
    assert {ww.PROTECT, ww.ANTIDOTE, ww.POISON} <= skills


def test_every_offered_target_of_a_limited_skill_is_accepted(decisions: list[tuple[Table, str, Observation]]) -> None:
    for table, seat, obs in decisions:
        me = table.view(seat).me
        assert me is not None
        for la in obs.legal:
            only = me.targets_for(la.skill)
            if only is None:
                continue
            assert set(la.candidates) <= set(only), (seat, la.skill)
            for target in la.candidates:
                assert probe(table, seat, la.skill, target) == "", (seat, la.skill, target)


def test_the_json_view_the_web_and_bots_read_offers_the_same_targets(
    decisions: list[tuple[Table, str, Observation]],
) -> None:
    for table, seat, obs in decisions:
        view = table.view(seat)
        assert legal_actions(view.to_dict(), table.rules.config) == obs.legal
        assert observe(view, table.rules.config).legal == obs.legal


def test_the_schema_enumerates_only_the_allowed_targets(decisions: list[tuple[Table, str, Observation]]) -> None:
    for table, seat, obs in decisions:
        me = table.view(seat).me
        assert me is not None
        options = {o["properties"]["skill"].get("const"): o for o in obs.action_schema()["oneOf"]}
        for skill, only in me.targets:
            if skill in options:
                items = options[skill]["properties"]["targets"].get("items", {"enum": []})
                assert set(items["enum"]) <= set(only)


def test_the_action_mask_offers_only_the_allowed_targets(decisions: list[tuple[Table, str, Observation]]) -> None:
    pz = pytest.importorskip("hiddenrole.agents.pz")
    env = pz.env("werewolf")
    for table, seat, obs in decisions[:40]:
        me = table.view(seat).me
        assert me is not None
        mask = env.mask(obs)
        for i, (skill, targets) in enumerate(env.actions):
            only = me.targets_for(skill) if skill is not None else None
            if mask[i] and only is not None:
                assert set(targets) <= set(only), (skill, targets)
