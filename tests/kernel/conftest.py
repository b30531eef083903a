"""Small builders shared by the kernel tests.

The kernel knows no game, so each test builds the smallest ruleset that exercises
one rule. :class:`Script` stands in for every resolver: a test queues the effects a
phase should produce and the script records what each resolver was given. Plain
functions rather than fixtures, so a test reads top to bottom.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import hiddenrole as hr


def step(role: str, skill: str = "", **kw: Any) -> hr.PhaseStep:
    """A phase step; keyword arguments pass straight through."""
    return hr.PhaseStep(role, skill, **kw)


def phase(
    *steps: hr.PhaseStep,
    next_phase: str = "",
    parent: str = "",
    on_enter: Iterable[str] = (),
    on_exit: Iterable[str] = (),
    timeout: float = 0.0,
) -> hr.PhaseConfig:
    """A phase config with steps given positionally (reads like the phase it builds)."""
    return hr.PhaseConfig(
        steps=steps,
        next_phase=next_phase,
        parent=parent,
        on_enter=tuple(hr.PhaseAction(a) for a in on_enter),
        on_exit=tuple(hr.PhaseAction(a) for a in on_exit),
        timeout=timeout,
    )


class Script:
    """Resolvers for every leaf phase that return what the test queued.

    ``queue(phase, *effects)`` sets what the next resolution of ``phase`` returns
    (once); ``calls`` records ``(phase, uses)`` for every resolution, in order.
    """

    def __init__(self) -> None:
        self.queued: dict[str, list[hr.Effect]] = {}
        self.calls: list[tuple[str, tuple[hr.SkillUse, ...]]] = []

    def queue(self, phase_name: str, *effects: hr.Effect) -> None:
        self.queued[phase_name] = list(effects)

    def resolver(self, phase_name: str) -> Callable[[Sequence[hr.SkillUse], hr.GameView], list[hr.Effect]]:
        def resolve(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
            self.calls.append((phase_name, tuple(uses)))
            return self.queued.pop(phase_name, [])

        return resolve


class Verdict:
    """A victory checker whose answer the test sets (``None`` = undecided)."""

    def __init__(self, result: Iterable[str] | None = None) -> None:
        self.result = result
        self.calls = 0

    def check_victory(self, view: hr.GameView) -> Iterable[str] | None:
        self.calls += 1
        return self.result


def leaf_phases(config: hr.Config) -> list[str]:
    """Phases that need a resolver (every phase nobody names as parent)."""
    compound = {pc.parent for pc in config.phases.values() if pc.parent}
    return [name for name in config.phases if name not in compound]


def make_rules(
    config: hr.Config, script: Script | None = None, *, name: str = "kerneltest", **extension_points: Any
) -> hr.Rules:
    """Rules whose every leaf phase resolves through ``script`` (a fresh one if omitted)."""
    script = script if script is not None else Script()
    resolvers = {p: script.resolver(p) for p in leaf_phases(config)}
    resolvers.update(extension_points.pop("resolvers", {}))
    return hr.Rules(config, name=name, resolvers=resolvers, **extension_points)


def seated(rules: hr.Rules, players: Mapping[str, str], *, start: bool = True) -> hr.Engine:
    """An engine with ``players`` (id -> role) seated in sorted order, started by default."""
    engine = hr.Engine(rules)
    for pid in sorted(players):
        engine.add_player(pid, players[pid])
    if start:
        engine.start()
    return engine


def game(
    config: hr.Config,
    players: Mapping[str, str],
    *,
    start: bool = True,
    **extension_points: Any,
) -> tuple[hr.Engine, Script]:
    """The usual one-liner: scripted rules, seated players, started game."""
    script = Script()
    engine = seated(make_rules(config, script, **extension_points), players, start=start)
    return engine, script


def kill(engine: hr.Engine, *player_ids: str) -> None:
    """Eliminate players through the host's write path (logged, replayable)."""
    engine.apply(*(hr.set_alive(pid, False) for pid in player_ids))


def types(effects: Iterable[hr.Effect]) -> list[str]:
    """Effect types in order: the compact thing most assertions compare."""
    return [e.type for e in effects]


def state_fingerprint(engine: hr.Engine) -> bytes:
    """Everything observable about a game's state: board, log and pending uses."""
    return engine.snapshot().to_json()


def board_of(engine: hr.Engine) -> hr.Snapshot:
    """The engine's board without its log: compares state while ignoring history."""
    snap = engine.snapshot()
    return dataclasses.replace(snap, log=hr.GameLog(snap.log.rules_name, snap.log.rules_version, ()))
