"""The numbers of the game and their checked lookups, apart from :mod:`.tables` so the compiled build compiles them.

The resolvers ask a mission's team size and the fails that sink it at every nomination and
mission. :mod:`.tables` is the package's public face and stays Python (its functions declare
``int`` arguments, which compiled code would check with a plain ``TypeError``); the lookups
here take ``object`` and check it themselves, so a wrongly typed argument still raises the
package's typed errors (:class:`~hiddenrole.InvalidArgument`, :class:`~hiddenrole.InvalidBoard`)
and the resolvers call them natively.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

import hiddenrole as hr

MIN_PLAYERS: Final = 5
MAX_PLAYERS: Final = 10
MISSIONS: Final = 5
WINS_NEEDED: Final = 3
"""Missions a side must win (three successes or three failures)."""
HAMMER_AT: Final = 5
"""Consecutive rejected teams that hand the game to evil."""

_SIZES: Final[dict[int, tuple[int, ...]]] = {
    5: (2, 3, 2, 3, 3),
    6: (2, 3, 4, 3, 4),
    7: (2, 3, 3, 4, 4),
    8: (3, 4, 4, 5, 5),
    9: (3, 4, 4, 5, 5),
    10: (3, 4, 4, 5, 5),
}
_EVIL: Final[dict[int, int]] = {5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}

TEAM_SIZES: Final[Mapping[int, tuple[int, ...]]] = MappingProxyType(_SIZES)
"""Team size of missions 1..5 by player count (read-only)."""
EVIL_COUNTS: Final[Mapping[int, int]] = MappingProxyType(_EVIL)
"""Evil seats by player count (read-only)."""


def _players(players: object) -> int:
    if isinstance(players, bool) or not isinstance(players, int):
        raise hr.InvalidArgument(f"player count must be an int, got {players!r}")
    if players not in _SIZES:
        raise hr.InvalidBoard(f"missions needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players}")
    return players


def _mission(mission: object) -> int:
    if isinstance(mission, bool) or not isinstance(mission, int):
        raise hr.InvalidArgument(f"mission must be an int, got {mission!r}")
    if not 1 <= mission <= MISSIONS:
        raise hr.InvalidArgument(f"mission must be 1..{MISSIONS}, got {mission}")
    return mission


def team_size_of(players: object, mission: object) -> int:
    """How many players go on ``mission`` (1..5) at a table of ``players``."""
    return _SIZES[_players(players)][_mission(mission) - 1]


def evil_of(players: object) -> int:
    """How many evil players a table of ``players`` has."""
    return _EVIL[_players(players)]


def fails_of(players: object, mission: object) -> int:
    """Fail cards that sink ``mission``: two on the fourth mission from seven players up."""
    return 2 if _mission(mission) == 4 and _players(players) >= 7 else 1
