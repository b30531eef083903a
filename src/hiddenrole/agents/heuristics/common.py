"""Small readers shared by the heuristic agents: ballots, a shared tie-break, picking a legal target."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

from ..observation import Action, Observation

__all__ = ["ballots", "shared_order", "best", "use", "seats_in"]


def ballots(text: str) -> list[tuple[str, str]]:
    """``"p1>p7,p2>p6"`` -> ``[("p1", "p7"), ("p2", "p6")]``."""
    out = []
    for item in text.split(","):
        voter, _, target = item.partition(">")
        if voter and target:
            out.append((voter, target))
    return out


def seats_in(text: str) -> list[str]:
    return [s for s in text.split(",") if s]


def shared_order(salt: str, seat: str) -> str:
    """A tie-break every seat computes alike from public facts, so allies pick the same seat unasked."""
    return hashlib.sha256(f"{salt}|{seat}".encode()).hexdigest()


def best(candidates: Iterable[str], score: Mapping[str, float], salt: str) -> str | None:
    """The highest-scoring candidate, ties broken by :func:`shared_order`."""
    ranked = sorted(candidates, key=lambda s: (-score.get(s, 0.0), shared_order(salt, s)))
    return ranked[0] if ranked else None


def use(obs: Observation, skill: str, *targets: str, why: str = "") -> Action | None:
    """``skill`` on ``targets`` if the observation offers exactly that, else ``None``."""
    la = obs.legal_for(skill)
    if la is None or la.check(targets):
        return None
    return Action(skill, tuple(targets), reasoning=why)
