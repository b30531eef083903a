"""The rules packages hand the kernel event payloads it can take as they are.

Resolvers build an event's data as one read-only map with its keys sorted (what a chain
of ``Effect.with_data`` calls makes) rather than chaining copies. A map in any other
form is still accepted, but the kernel then rebuilds the effect on every phase: these
tests keep the cheap form from quietly regressing. Every resolver's raw output is
inspected, before the kernel normalises it, over a few seeded random games.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole.games import missions, onenight
from hiddenrole.games import werewolf as ww

from .random_moves import EngineRandom

Resolve = Callable[[Sequence[hr.SkillUse], hr.GameView], list[hr.Effect]]
GAMES = 4
MAX_PHASES = 600
"""Enough for a bid-for-floor day (every speaking turn is two phases); every game must end."""


def _engine(name: str, seed: int) -> hr.Engine:
    if name == "werewolf":
        return ww.new_game(12, seed, start=False)
    if name == "werewolf-ordered":
        sw = ww.Switches(ordered_day=True, announce_death_causes=True, witch_can_use_both_potions=True)
        return ww.new_game(9, seed, switches=sw, start=False)
    if name == "werewolf-floor":
        sw = ww.Switches(bid_for_floor=True, victory_mode=ww.TOWN_WIPE, witch_can_save_self=True)
        return ww.new_game(10, seed, switches=sw, start=False)
    if name == "missions":
        return missions.new_engine(missions.AVALON, 7, ("percival", "morgana", "oberon"), seed, start=False)
    return onenight.new_engine(onenight.default_deck(7), 7, seed, start=False)


def bad_payloads(effects: Sequence[hr.Effect]) -> list[str]:
    """Each effect whose data is not a read-only, key-sorted str -> str map."""
    out = []
    for e in effects:
        data: Mapping[str, str] = e.data
        clean = type(data) is MappingProxyType and list(data) == sorted(data)
        if not clean or not all(type(k) is str and type(v) is str for k, v in data.items()):
            out.append(f"{e.type}: {type(data).__name__} {dict(data)}")
    return out


def _watched(fn: Resolve, found: list[str]) -> Resolve:
    def resolve(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
        effects = fn(uses, view)
        found.extend(bad_payloads(effects))
        return effects

    return resolve


def play_watched(name: str, plant: Callable[[Resolve], Resolve] | None = None) -> list[str]:
    """Seeded random games under the ruleset with every resolver watched; the bad payloads seen."""
    found: list[str] = []
    for seed in range(GAMES):
        plain = _engine(name, seed)
        rules = plain.rules

        def watch(table: Mapping[str, Any]) -> dict[str, Resolve]:  # the shipped rulesets' are plain callables
            return {p: _watched(plant(fn) if plant else fn, found) for p, fn in table.items()}

        watched = dataclasses.replace(
            rules, resolvers=watch(rules.resolvers), turn_resolvers=watch(rules.turn_resolvers)
        )
        engine = hr.Engine(watched)
        for pid in plain.player_ids():
            engine.add_player(pid, plain.player_info(pid).role)
        engine.start()
        agent = EngineRandom(random.Random(seed))
        for _ in range(MAX_PHASES):
            if engine.status().over:
                break
            for pid in engine.player_ids():
                agent.act(engine, pid)
            engine.end_phase()
        assert engine.status().over
    return found


@pytest.mark.parametrize("name", ["werewolf", "werewolf-ordered", "werewolf-floor", "missions", "onenight"])
def test_every_resolver_builds_sorted_read_only_payloads(name: str) -> None:
    assert play_watched(name) == []


def test_an_unsorted_payload_is_caught() -> None:
    def unsorted(fn: Resolve) -> Resolve:
        def resolve(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
            return [
                e._replace(data=MappingProxyType(dict(reversed(list(e.data.items()))))) if len(e.data) > 1 else e
                for e in fn(uses, view)
            ]

        return resolve

    assert play_watched("missions", unsorted)
