"""The numbers of the game: team sizes, evil seats and fails needed, per player count."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Protocol

import hiddenrole as hr

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

MIN_PLAYERS: Final = 5
MAX_PLAYERS: Final = 10
MISSIONS: Final = 5
WINS_NEEDED: Final = 3
"""Missions a side must win (three successes or three failures)."""
HAMMER_AT: Final = 5
"""Consecutive rejected teams that hand the game to evil."""

TEAM_SIZES: Final[Mapping[int, tuple[int, ...]]] = MappingProxyType(
    {
        5: (2, 3, 2, 3, 3),
        6: (2, 3, 4, 3, 4),
        7: (2, 3, 3, 4, 4),
        8: (3, 4, 4, 5, 5),
        9: (3, 4, 4, 5, 5),
        10: (3, 4, 4, 5, 5),
    }
)
"""Team size of missions 1..5 by player count."""

EVIL_COUNTS: Final[Mapping[int, int]] = MappingProxyType({5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4})
"""Evil seats by player count."""


def _players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise hr.InvalidArgument(f"player count must be an int, got {players!r}")
    if players not in TEAM_SIZES:
        raise hr.InvalidBoard(f"missions needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
    return players


def _mission(mission: object) -> int:
    if isinstance(mission, bool) or not isinstance(mission, int):
        raise hr.InvalidArgument(f"mission must be an int, got {mission!r}")
    if not 1 <= mission <= MISSIONS:
        raise hr.InvalidArgument(f"mission must be 1..{MISSIONS}, got {mission}")
    return mission


def mission_team_size(players: int, mission: int) -> int:
    """How many players go on ``mission`` (1..5) at a table of ``players``."""
    return TEAM_SIZES[_players(players)][_mission(mission) - 1]


def evil_count(players: int) -> int:
    """How many evil players a table of ``players`` has."""
    return EVIL_COUNTS[_players(players)]


def fails_needed(players: int, mission: int) -> int:
    """Fail cards that sink ``mission``: two on the fourth mission from seven players up."""
    return 2 if _mission(mission) == 4 and _players(players) >= 7 else 1


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
