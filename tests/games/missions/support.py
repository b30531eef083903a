"""Shared builders for the missions tests: fixed tables, hand-made boards, game drivers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import hiddenrole as hr
from hiddenrole.games import missions as ms

AVALON7: tuple[tuple[str, str], ...] = (
    ("p1", ms.MERLIN),
    ("p2", ms.PERCIVAL),
    ("p3", ms.SERVANT),
    ("p4", ms.SERVANT),
    ("p5", ms.ASSASSIN),
    ("p6", ms.MORGANA),
    ("p7", ms.OBERON),
)
"""Seven players: Merlin, Percival, two servants; assassin, Morgana, Oberon."""

MORDRED7: tuple[tuple[str, str], ...] = (
    ("p1", ms.MERLIN),
    ("p2", ms.SERVANT),
    ("p3", ms.SERVANT),
    ("p4", ms.SERVANT),
    ("p5", ms.ASSASSIN),
    ("p6", ms.MORDRED),
    ("p7", ms.MINION),
)
"""Seven players with Mordred and a plain minion."""

RESIST5: tuple[tuple[str, str], ...] = (
    ("p1", ms.SERVANT),
    ("p2", ms.SERVANT),
    ("p3", ms.SERVANT),
    ("p4", ms.MINION),
    ("p5", ms.MINION),
)
"""Five players of The Resistance: three servants, two minions (spies)."""


def board(
    seats: Iterable[tuple[str, str]],
    phase: str = "",
    *,
    vars: Mapping[str, str] | None = None,
    round_vars: Mapping[str, str] | None = None,
    round: int = 1,
    actors: Mapping[str, tuple[str, ...]] | None = None,
) -> hr.Board:
    """A hand-made board with each player's camp seated as the rules would seat it."""
    players = tuple(hr.seat(pid, role, vars={hr.VAR_CAMP: ms.camp_of(role)}) for pid, role in seats)
    return hr.Board(
        players,
        round=round,
        phase=phase,
        vars=dict(vars or {}),
        round_vars=dict(round_vars or {}),
        actors=dict(actors or {}),
    )


def use(pid: str, skill: str, *targets: str) -> hr.SkillUse:
    return hr.SkillUse(pid, skill, tuple(targets))


def of_type(effects: Iterable[hr.Effect], kind: str) -> list[hr.Effect]:
    return [e for e in effects if e.type == kind]


def types(effects: Iterable[hr.Effect]) -> list[str]:
    return [e.type for e in effects]


def leader(engine: hr.Engine) -> str:
    return engine.var(hr.GAME, ms.VAR_LEADER)


def to_first_nomination(engine: hr.Engine) -> None:
    """End the reveal phase of a freshly started engine."""
    assert engine.status().phase == ms.REVEAL
    engine.end_phase()


def nominate(engine: hr.Engine, team: Sequence[str] | None = None) -> tuple[str, ...]:
    """The leader nominates ``team`` (default: the first seats of the right size)."""
    size = ms.team_size(engine.status())
    chosen = tuple(team) if team is not None else engine.player_ids()[:size]
    engine.submit(leader(engine), ms.NOMINATE, chosen)
    engine.end_phase()
    return chosen


def vote(engine: hr.Engine, approve: bool) -> tuple[hr.Effect, ...]:
    for pid in engine.player_ids():
        engine.submit(pid, ms.APPROVE if approve else ms.REJECT)
    return engine.end_phase()


def play_mission(
    engine: hr.Engine, fails: Iterable[str] = (), team: Sequence[str] | None = None
) -> tuple[hr.Effect, ...]:
    """Nominate, approve unanimously, and play cards: ``fails`` play fail, others success."""
    chosen = nominate(engine, team)
    vote(engine, True)
    bad = set(fails)
    for pid in chosen:
        engine.submit(pid, ms.FAIL if pid in bad else ms.SUCCESS)
    return engine.end_phase()
