"""Read-only values the engine hands out.

The information boundary lives in the types: :class:`PlayerInfo` is the god view
(rules and hosts only), :class:`SelfInfo` is what a player knows of themself,
:class:`PublicPlayerInfo` is what a player knows of someone else. They are separate
types so that one can never be passed where another is meant.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from .config import PhaseStep
from .effects import EMPTY_MAP
from .vocab import ANNOUNCE, SYSTEM, Camp, PhaseType, RoleType, SkillType

__all__ = [
    "PlayerInfo",
    "SelfInfo",
    "PublicPlayerInfo",
    "PlayerView",
    "Detour",
    "RoundContext",
    "Status",
    "PendingAction",
    "Readiness",
    "RolePhaseInfo",
    "PhaseInfo",
    "Message",
]


class PlayerInfo(NamedTuple):
    """God view of a player, for rules and hosts. Never forward it to a player."""

    id: str
    role: RoleType
    alive: bool = True
    vars: Mapping[str, str] = EMPTY_MAP
    round_vars: Mapping[str, str] = EMPTY_MAP


class SelfInfo(NamedTuple):
    """What a player knows about themself: no variables, only the camp."""

    id: str
    role: RoleType
    alive: bool
    camp: Camp


class PublicPlayerInfo(NamedTuple):
    """What a viewer knows about another player. ``role`` is ``""`` unless revealed."""

    id: str
    alive: bool
    role: RoleType = ""


class PlayerView(NamedTuple):
    """Everything one player may see right now; safe to send to that player."""

    player_id: str
    round: int
    phase: PhaseType
    self: SelfInfo
    players: tuple[PublicPlayerInfo, ...]
    allowed_skills: tuple[SkillType, ...]
    teammates: tuple[str, ...]
    role_info: Mapping[str, str]
    turn: str = ""
    """Whose turn it is in a turn-ordered phase (public), else ``""``."""
    targets: tuple[tuple[SkillType, tuple[str, ...]], ...] = ()
    """``(skill, only targets)`` for each allowed skill whose targets the rules limit now, in
    allowed order, targets sorted; a skill absent here takes any target its step's shape permits.
    Pairs, not a mapping: a view holds no free-form mapping but ``role_info``."""


class Detour(NamedTuple):
    """A queued trip: ``player_id`` owes an action in ``phase``."""

    player_id: str
    phase: PhaseType


class RoundContext(NamedTuple):
    """Round-scoped, unowned state: the detour queue and round variables."""

    detours: tuple[Detour, ...] = ()
    vars: Mapping[str, str] = EMPTY_MAP


class Status(NamedTuple):
    """Phase, round, whether the game is over and who won, read atomically.

    ``winners`` is a sorted tuple of camps; empty while running, and also for a game
    that ended with no winner (``over`` tells the two apart).
    """

    phase: PhaseType
    round: int
    over: bool
    winners: tuple[Camp, ...]


class PendingAction(NamedTuple):
    """A player who still owes (or may still make) an action."""

    player_id: str
    role: RoleType
    skill: SkillType


class Readiness(NamedTuple):
    """May the host end the phase without cutting anyone off?

    ``pending``: required actions still missing (``ready`` is false while non-empty).
    ``optional``: actions a player may still take. ``acted``: who has submitted.
    The engine never refuses to end a phase that is not ready; this is advice.
    """

    phase: PhaseType
    round: int
    ready: bool
    pending: tuple[PendingAction, ...]
    optional: tuple[PendingAction, ...]
    acted: tuple[str, ...]
    turn: str = ""
    """Whose turn it is in a turn-ordered phase, else ``""``."""
    delayed: tuple[str, ...] = ()
    """Players who already delayed their turn this phase (INITIATIVE phases)."""


_NO_ACTORS: Mapping[str, Any] = MappingProxyType({})


class RolePhaseInfo(NamedTuple):
    """God view of one role in this phase."""

    player_ids: tuple[str, ...]
    allowed_skills: tuple[SkillType, ...]
    teammates: Mapping[str, tuple[str, ...]]
    role_info: Mapping[str, Mapping[str, str]]
    refused: Mapping[str, Mapping[SkillType, str]] = _NO_ACTORS
    """Per actor, the skills the rules' ``usable`` refuses now, with the reason."""
    targets: Mapping[str, Mapping[SkillType, tuple[str, ...]]] = _NO_ACTORS
    """Per actor, the skills the rules' ``usable`` limits now, with the only targets allowed."""


class PhaseInfo(NamedTuple):
    """God view of the current phase, for a moderator. Never forward to players."""

    phase: PhaseType
    round: int
    steps: tuple[PhaseStep, ...]
    active_roles: tuple[RoleType, ...]
    roles: Mapping[RoleType, RolePhaseInfo]

    @property
    def needs_god_announcement(self) -> bool:
        """True when the first step is a SYSTEM/ANNOUNCE step."""
        return bool(self.steps) and self.steps[0].role == SYSTEM and self.steps[0].skill == ANNOUNCE

    @property
    def god_announcement_step(self) -> PhaseStep | None:
        """The leading announcement step, if any."""
        return self.steps[0] if self.needs_god_announcement else None

    @property
    def player_action_steps(self) -> tuple[PhaseStep, ...]:
        """The steps without the leading announcement."""
        return self.steps[1:] if self.needs_god_announcement else self.steps


class Message(NamedTuple):
    """A chat line. Not logged, produces no effects; hosts add timestamps if they want."""

    sender: str
    content: str
    phase: PhaseType
    round: int
