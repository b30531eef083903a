"""The numbers of the game: team sizes, evil seats and fails needed, per player count.

The public face of :mod:`.chart`, which holds the numbers and the checked lookups (compiled in
the compiled build); these functions declare the ``int`` arguments a caller passes.
"""

from __future__ import annotations

from typing import Protocol

import hiddenrole as hr

from .chart import (
    EVIL_COUNTS,
    HAMMER_AT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MISSIONS,
    TEAM_SIZES,
    WINS_NEEDED,
    evil_of,
    fails_of,
    team_size_of,
)
from .vocab import PROPOSE_PHASES

__all__ = [
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "MISSIONS",
    "WINS_NEEDED",
    "HAMMER_AT",
    "TEAM_SIZES",
    "EVIL_COUNTS",
    "mission_team_size",
    "evil_count",
    "fails_needed",
    "team_size",
]


def mission_team_size(players: int, mission: int) -> int:
    """How many players go on ``mission`` (1..5) at a table of ``players``."""
    return team_size_of(players, mission)


def evil_count(players: int) -> int:
    """How many evil players a table of ``players`` has."""
    return evil_of(players)


def fails_needed(players: int, mission: int) -> int:
    """Fail cards that sink ``mission``: two on the fourth mission from seven players up."""
    return fails_of(players, mission)


class _HasPhase(Protocol):
    @property
    def phase(self) -> str: ...


_SIZE_OF_PHASE = {phase: size for size, phase in PROPOSE_PHASES.items()}


def team_size(view: _HasPhase | str) -> int:
    """The team size the current nomination must have; 0 outside a nomination phase.

    Accepts anything with a ``phase`` (a :class:`hiddenrole.PlayerView`, a
    :class:`hiddenrole.Status`, a :class:`hiddenrole.GameView`) or a phase name, so a bot
    holding only its own player view can form a legal nomination.
    """
    phase = view if isinstance(view, str) else getattr(view, "phase", None)
    if not isinstance(phase, str):
        raise hr.InvalidArgument("team_size needs a phase name or a value with a .phase")
    return _SIZE_OF_PHASE.get(phase, 0)
