"""The kernel's whole vocabulary.

Phases, roles, skills, event types and camps are plain strings chosen by the rules.
The kernel owns only the handful of values below; it knows no game.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, TypeAlias

__all__ = [
    "PhaseType",
    "RoleType",
    "SkillType",
    "EventType",
    "Camp",
    "START",
    "END",
    "SYSTEM",
    "SKIP",
    "ANNOUNCE",
    "VAR_CAMP",
    "VAR_PRESENT",
    "SET_ALIVE",
    "SET_VAR",
    "SET_ACTORS",
    "DETOUR",
    "GOTO_PHASE",
    "PLAYER_ADDED",
    "PHASE_CHANGED",
    "GAME_STARTED",
    "GAME_ENDED",
    "KERNEL_EVENTS",
    "INTERNAL_EVENTS",
    "BOOKKEEPING_EVENTS",
    "TURN_ENDED",
    "TURN_DELAYED",
    "TurnOrder",
    "SIMULTANEOUS",
    "SEQUENTIAL",
    "INITIATIVE",
    "FREE",
    "MAX_MOVES_PER_TURN",
    "PhaseAction",
    "ADVANCE_ROUND",
    "CLEAR_ROUND_VARS",
    "DEFAULT_PHASE_TIMEOUT",
    "MAX_PENDING_USES",
    "MAX_PENDING_PER_SEAT",
    "MAX_TARGETS",
]

PhaseType: TypeAlias = str
RoleType: TypeAlias = str
SkillType: TypeAlias = str
EventType: TypeAlias = str
Camp: TypeAlias = str

START: Final = "START"
"""Phase before :meth:`Engine.start`: the only phase in which players may be added."""
END: Final = "END"
"""Phase after the game is over."""
SYSTEM: Final = "SYSTEM"
"""Step role meaning "no player carries this step" (an announcement marker)."""
SKIP: Final = "SKIP"
"""Shared name for declining to act. It carries no kernel privilege."""
ANNOUNCE: Final = "ANNOUNCE"
"""Skill paired with :data:`SYSTEM` for a moderator's announcement step."""

VAR_CAMP: Final = "camp"
"""Player variable the kernel copies into :class:`SelfInfo.camp`."""
VAR_PRESENT: Final = "1"
"""Conventional "has it" value (the empty string deletes a variable)."""

SET_ALIVE: Final = "SET_ALIVE"
SET_VAR: Final = "SET_VAR"
SET_ACTORS: Final = "SET_ACTORS"
DETOUR: Final = "DETOUR"
GOTO_PHASE: Final = "GOTO_PHASE"
PLAYER_ADDED: Final = "PLAYER_ADDED"
PHASE_CHANGED: Final = "PHASE_CHANGED"
GAME_STARTED: Final = "GAME_STARTED"
GAME_ENDED: Final = "GAME_ENDED"
TURN_ENDED: Final = "TURN_ENDED"
"""Replay bookkeeping: the player at the head of the turn queue finished their turn."""
TURN_DELAYED: Final = "TURN_DELAYED"
"""Replay bookkeeping: the player at the head of the turn queue moved to its end."""

KERNEL_EVENTS: Final[frozenset[EventType]] = frozenset(
    {
        SET_ALIVE,
        SET_VAR,
        SET_ACTORS,
        DETOUR,
        GOTO_PHASE,
        PLAYER_ADDED,
        PHASE_CHANGED,
        GAME_STARTED,
        GAME_ENDED,
        TURN_ENDED,
        TURN_DELAYED,
    }
)
"""Every event type the kernel defines."""

INTERNAL_EVENTS: Final = KERNEL_EVENTS - {GAME_STARTED, GAME_ENDED}
"""Kernel primitives: never published, never routed to any player (not configurable)."""

BOOKKEEPING_EVENTS: Final = frozenset({PLAYER_ADDED, PHASE_CHANGED, GAME_STARTED, GAME_ENDED, TURN_ENDED, TURN_DELAYED})
"""Log entries only the kernel writes; rules and hosts may not produce them (replay acts on them)."""


class PhaseAction(StrEnum):
    """Round bookkeeping a phase declares on entry or exit (a closed set)."""

    ADVANCE_ROUND = "ADVANCE_ROUND"
    CLEAR_ROUND_VARS = "CLEAR_ROUND_VARS"


class TurnOrder(StrEnum):
    """How the actors of a phase take their moves.

    SIMULTANEOUS: everyone submits, all is resolved when the phase ends (the default).
    SEQUENTIAL: one actor at a time in seat (id) order. INITIATIVE: one at a time,
    highest initiative first (read from a player variable), and a player may delay
    their turn once. FREE: anyone, any time. In the last three, each turn (each move
    in FREE) is resolved when it ends, so later actors see earlier results.
    """

    SIMULTANEOUS = "SIMULTANEOUS"
    SEQUENTIAL = "SEQUENTIAL"
    INITIATIVE = "INITIATIVE"
    FREE = "FREE"


SIMULTANEOUS: Final = TurnOrder.SIMULTANEOUS
SEQUENTIAL: Final = TurnOrder.SEQUENTIAL
INITIATIVE: Final = TurnOrder.INITIATIVE
FREE: Final = TurnOrder.FREE
MAX_MOVES_PER_TURN: Final = 100

ADVANCE_ROUND: Final = PhaseAction.ADVANCE_ROUND
CLEAR_ROUND_VARS: Final = PhaseAction.CLEAR_ROUND_VARS

DEFAULT_PHASE_TIMEOUT: Final = 30.0
"""Seconds; advice for hosts only. The engine never times anything."""
MAX_PENDING_PER_SEAT: Final = 256
"""Submissions one seat may hold unresolved in one phase (more is ``TooManySubmissions``).

Per seat, so one seat's flood never crowds out another. In a simultaneous phase a seat
submits at most once per step anyway (``AlreadySubmitted``); the cap bounds turn-ordered
phases with many moves per turn, FREE phases and out-of-turn skills that no turn
resolver consumes. It exceeds :data:`MAX_MOVES_PER_TURN` so a full turn always fits.
"""
MAX_PENDING_USES: Final = MAX_PENDING_PER_SEAT
"""Former name of :data:`MAX_PENDING_PER_SEAT` (the limit used to be per phase, not per seat)."""
MAX_TARGETS: Final = 64
"""Targets one submission may carry when its step sets no ``max_targets`` (``InvalidTargets``).

Checked before any target is read, so a huge list costs nothing and never reaches the log.
"""
