"""The three hidden-role rulesets share no phase, role, skill or event value (the kernel's
own values aside): proof that the kernel carries no game's vocabulary for them."""

from __future__ import annotations

import itertools
import random

import pytest

import hiddenrole as hr
from hiddenrole.games import missions, onenight
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import idiot, wolfking

from .random_moves import EngineRandom

KERNEL_VALUES = {hr.START, hr.END, hr.SYSTEM, hr.SKIP, hr.ANNOUNCE, "", *hr.KERNEL_EVENTS}


def _engines(name: str, seed: int) -> hr.Engine:
    if name == "werewolf":
        cards = list(ww.board(12))
        cards[cards.index(ww.VILLAGER)] = idiot.IDIOT
        cards[cards.index(ww.WEREWOLF)] = wolfking.WOLF_KING
        return ww.new_game(cards, seed, extensions=(idiot.EXTENSION, wolfking.EXTENSION))
    if name == "missions":
        return missions.new_engine(missions.AVALON, 7, ("percival", "morgana", "oberon"), seed)
    return onenight.new_engine(onenight.default_deck(7), 7, seed)


def vocabulary(name: str) -> dict[str, set[str]]:
    """Every value the ruleset uses: from its config and from what random games produce."""
    found: dict[str, set[str]] = {"phase": set(), "role": set(), "skill": set(), "event": set()}
    for seed in range(12):
        engine = _engines(name, seed)
        rules = engine.rules
        for phase, pc in rules.config.phases.items():
            found["phase"].add(phase)
            for step in pc.steps:
                found["role"].add(step.role)
                found["skill"].add(step.skill)
        found["role"].update(engine.player_info(p).role for p in engine.player_ids())
        agent = EngineRandom(random.Random(seed))
        for _ in range(300):
            if engine.status().over:
                break
            for pid in engine.player_ids():
                agent.act(engine, pid)
            engine.end_phase()
        found["event"].update(e.type for e in engine.log().effects)
    return {k: v - KERNEL_VALUES for k, v in found.items()}


@pytest.fixture(scope="module")
def vocabularies() -> dict[str, dict[str, set[str]]]:
    return {name: vocabulary(name) for name in ("werewolf", "missions", "onenight")}


def test_each_ruleset_has_a_real_vocabulary(vocabularies: dict[str, dict[str, set[str]]]) -> None:
    for name, vocab in vocabularies.items():
        for kind, values in vocab.items():
            assert len(values) >= 2, f"{name} has almost no {kind} values: {values}"


def test_no_two_rulesets_share_a_value(vocabularies: dict[str, dict[str, set[str]]]) -> None:
    for (a, va), (b, vb) in itertools.combinations(sorted(vocabularies.items()), 2):
        mine = set().union(*va.values())
        theirs = set().union(*vb.values())
        assert not mine & theirs, f"{a} and {b} share {sorted(mine & theirs)}"


def test_the_check_would_catch_a_shared_value(vocabularies: dict[str, dict[str, set[str]]]) -> None:
    planted = {k: set(v) for k, v in vocabularies["missions"].items()}
    planted["event"].add(ww.KILL)
    assert set().union(*planted.values()) & set().union(*vocabularies["werewolf"].values())
