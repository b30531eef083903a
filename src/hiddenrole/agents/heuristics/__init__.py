"""Heuristic agents per ruleset: better than random, reasoning only from the observation.

``HEURISTICS`` maps a catalog game name to its heuristic agent class.
"""

from __future__ import annotations

from .missions import MissionsHeuristic
from .onenight import OneNightHeuristic
from .werewolf import WerewolfHeuristic

__all__ = ["HEURISTICS", "MissionsHeuristic", "OneNightHeuristic", "WerewolfHeuristic"]

HEURISTICS: dict[str, type[WerewolfHeuristic] | type[MissionsHeuristic] | type[OneNightHeuristic]] = {
    "missions": MissionsHeuristic,
    "onenight": OneNightHeuristic,
    "werewolf": WerewolfHeuristic,
}
