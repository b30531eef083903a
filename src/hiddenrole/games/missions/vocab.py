"""Every value the missions ruleset puts into the kernel's vocabulary.

All phase, role, skill and event values start with ``MS_`` so that no two rulesets
sharing one process can ever confuse each other's values; what a person reads comes
from :func:`display_name` instead. Camps are the plain ``GOOD``/``EVIL``.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "GOOD",
    "EVIL",
    "CAMPS",
    "REVEAL",
    "PROPOSE_2",
    "PROPOSE_3",
    "PROPOSE_4",
    "PROPOSE_5",
    "PROPOSE_PHASES",
    "TEAM_VOTE",
    "MISSION",
    "ASSASSINATION",
    "PHASES",
    "SERVANT",
    "MERLIN",
    "PERCIVAL",
    "MINION",
    "ASSASSIN",
    "MORGANA",
    "MORDRED",
    "OBERON",
    "ROLES",
    "GOOD_ROLES",
    "EVIL_ROLES",
    "SPECIAL_ROLES",
    "NOMINATE",
    "APPROVE",
    "REJECT",
    "SUCCESS",
    "FAIL",
    "ASSASSINATE",
    "SKILLS",
    "NOMINATED",
    "NO_NOMINATION",
    "VOTED",
    "TEAM_APPROVED",
    "TEAM_REJECTED",
    "LEADER",
    "MISSION_SUCCEEDED",
    "MISSION_FAILED",
    "HAMMER",
    "FAIL_REFUSED",
    "ASSASSINATED",
    "EVENTS",
    "VAR_LEADER",
    "VAR_RESULTS",
    "VAR_REJECTS",
    "VAR_ASSASSINATION",
    "VAR_TEAM",
    "camp_of",
    "display_name",
]

GOOD: Final = "GOOD"
EVIL: Final = "EVIL"
CAMPS: Final = (GOOD, EVIL)

# Phases. A nomination phase exists per team size so the kernel itself checks the
# size of a nomination (PhaseStep min/max targets); which one is entered is public.
REVEAL: Final = "MS_REVEAL"
PROPOSE_2: Final = "MS_PROPOSE_2"
PROPOSE_3: Final = "MS_PROPOSE_3"
PROPOSE_4: Final = "MS_PROPOSE_4"
PROPOSE_5: Final = "MS_PROPOSE_5"
PROPOSE_PHASES: Final = {2: PROPOSE_2, 3: PROPOSE_3, 4: PROPOSE_4, 5: PROPOSE_5}
TEAM_VOTE: Final = "MS_TEAM_VOTE"
MISSION: Final = "MS_MISSION"
ASSASSINATION: Final = "MS_ASSASSINATION"
PHASES: Final = frozenset({REVEAL, *PROPOSE_PHASES.values(), TEAM_VOTE, MISSION, ASSASSINATION})

# Roles.
SERVANT: Final = "MS_SERVANT"
MERLIN: Final = "MS_MERLIN"
PERCIVAL: Final = "MS_PERCIVAL"
MINION: Final = "MS_MINION"
ASSASSIN: Final = "MS_ASSASSIN"
MORGANA: Final = "MS_MORGANA"
MORDRED: Final = "MS_MORDRED"
OBERON: Final = "MS_OBERON"
GOOD_ROLES: Final = frozenset({SERVANT, MERLIN, PERCIVAL})
EVIL_ROLES: Final = frozenset({MINION, ASSASSIN, MORGANA, MORDRED, OBERON})
ROLES: Final = GOOD_ROLES | EVIL_ROLES
SPECIAL_ROLES: Final = ROLES - {SERVANT, MINION}
"""Roles a board may hold at most once."""

# Skills.
NOMINATE: Final = "MS_NOMINATE"
APPROVE: Final = "MS_APPROVE"
REJECT: Final = "MS_REJECT"
SUCCESS: Final = "MS_SUCCESS"
FAIL: Final = "MS_FAIL"
ASSASSINATE: Final = "MS_ASSASSINATE"
SKILLS: Final = frozenset({NOMINATE, APPROVE, REJECT, SUCCESS, FAIL, ASSASSINATE})

# Rule events.
NOMINATED: Final = "MS_NOMINATED"
NO_NOMINATION: Final = "MS_NO_NOMINATION"
VOTED: Final = "MS_VOTED"
TEAM_APPROVED: Final = "MS_TEAM_APPROVED"
TEAM_REJECTED: Final = "MS_TEAM_REJECTED"
LEADER: Final = "MS_LEADER"
MISSION_SUCCEEDED: Final = "MS_MISSION_SUCCEEDED"
MISSION_FAILED: Final = "MS_MISSION_FAILED"
HAMMER: Final = "MS_HAMMER"
FAIL_REFUSED: Final = "MS_FAIL_REFUSED"
ASSASSINATED: Final = "MS_ASSASSINATED"
EVENTS: Final = frozenset(
    {
        NOMINATED,
        NO_NOMINATION,
        VOTED,
        TEAM_APPROVED,
        TEAM_REJECTED,
        LEADER,
        MISSION_SUCCEEDED,
        MISSION_FAILED,
        HAMMER,
        FAIL_REFUSED,
        ASSASSINATED,
    }
)

# Variables. Every one holds a public fact; the only secret per player is the
# kernel's camp variable, written at seating.
VAR_LEADER: Final = "ms.leader"
"""Game var: id of the current (or next) leader."""
VAR_RESULTS: Final = "ms.results"
"""Game var: one letter per finished mission, ``S`` or ``F`` (e.g. ``"SFS"``)."""
VAR_REJECTS: Final = "ms.rejects"
"""Game var: consecutive rejected (or forfeited) nominations this mission."""
VAR_ASSASSINATION: Final = "ms.assassination"
"""Game var: ``hit`` or ``miss`` once the assassin has spoken."""
VAR_TEAM: Final = "ms.team"
"""Round var: the nominated team, comma-separated ids in sorted order."""

_CAMP = {r: GOOD for r in GOOD_ROLES} | {r: EVIL for r in EVIL_ROLES}

_NAMES = {
    SERVANT: "Loyal Servant of Arthur",
    MERLIN: "Merlin",
    PERCIVAL: "Percival",
    MINION: "Minion of Mordred",
    ASSASSIN: "Assassin",
    MORGANA: "Morgana",
    MORDRED: "Mordred",
    OBERON: "Oberon",
    GOOD: "Good",
    EVIL: "Evil",
}
_RESISTANCE_NAMES = {SERVANT: "Resistance", MINION: "Spy", GOOD: "Resistance", EVIL: "Spies"}


def camp_of(role: str) -> str:
    """The camp a role belongs to (``""`` for a role this ruleset does not know)."""
    return _CAMP.get(role, "")


def display_name(value: str, variant: str = "avalon") -> str:
    """A human name for a role or camp; The Resistance names its plain roles differently."""
    if variant == "resistance" and value in _RESISTANCE_NAMES:
        return _RESISTANCE_NAMES[value]
    return _NAMES.get(value, value)
