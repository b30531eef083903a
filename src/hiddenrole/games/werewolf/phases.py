"""The phase cycle: night (guard, wolves, witch, seer, dawn), then day (talk, vote).

The graph never depends on who holds which card. Phases of dead roles still happen
(the moderator still calls them), and every death, whatever the role, is followed by
a last-action phase for the dead player, so nobody learns a role from the rhythm of
the game. Only the roles' own steps are derived from the role list (who joins the
night kill, who has a gun), which is public: every table knows its card set.

Under the ``ordered_day`` switch DAY takes turns (SEQUENTIAL): the living, in seat
order, each hold the floor for one move, DONE. Who speaks when depends only on seats
and deaths, which are public; the wolves' night talk stays free (NIGHT_WOLF keeps
its simultaneous order).

Under the ``bid_for_floor`` switch DAY is the bidding (every living player may BID
once, silently) and DAY_FLOOR the winner's turn (SEQUENTIAL, one named actor, ended by
DONE); the two alternate inside DAYTIME until the resolvers send the day to VOTE
(:mod:`.floor`). Nothing in that graph depends on roles either: who speaks follows
from the bids and the seats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import hiddenrole as hr

from .roles import RoleSpec
from .vocab import (
    ANTIDOTE,
    BID,
    BID_LEVELS,
    BID_POOL,
    CHECK,
    DAY,
    DAY_FLOOR,
    DAY_LAST_ACTION,
    DAYTIME,
    DONE,
    GUARD,
    KILL,
    MODERATOR,
    NIGHT,
    NIGHT_GUARD,
    NIGHT_LAST_ACTION,
    NIGHT_RESOLVE,
    NIGHT_SEER,
    NIGHT_WITCH,
    NIGHT_WOLF,
    POISON,
    PROTECT,
    SEER,
    SHOOT,
    SKIP,
    VOTE,
    WITCH,
)

__all__ = [
    "ANNOUNCEMENTS",
    "BID_DAY_ANNOUNCEMENT",
    "FLOOR_ANNOUNCEMENT",
    "ORDERED_DAY_ANNOUNCEMENT",
    "TIMEOUTS",
    "DEFAULT_TIMEOUT",
    "build_config",
    "announcement",
]

DEFAULT_TIMEOUT: Final = 30.0

TIMEOUTS: Final[Mapping[str, float]] = {
    NIGHT_GUARD: 15.0,
    NIGHT_WOLF: 30.0,
    NIGHT_WITCH: 15.0,
    NIGHT_SEER: 15.0,
    NIGHT_RESOLVE: 15.0,
    NIGHT_LAST_ACTION: 15.0,
    DAY: 60.0,
    DAY_FLOOR: 60.0,
    VOTE: 30.0,
    DAY_LAST_ACTION: 15.0,
}
"""Advisory seconds per phase, for hosts (the engine never times anything)."""

ANNOUNCEMENTS: Final[Mapping[str, str]] = {
    NIGHT_GUARD: "Night falls, everyone close your eyes. Guard, open your eyes and choose whom to protect.",
    NIGHT_WOLF: "Guard, close your eyes. Werewolves, open your eyes and agree on a victim.",
    NIGHT_WITCH: "Werewolves, close your eyes. Witch, open your eyes: will you use a potion?",
    NIGHT_SEER: "Witch, close your eyes. Seer, open your eyes and choose whom to check.",
    NIGHT_RESOLVE: "Seer, close your eyes. Dawn breaks; here is who died in the night.",
    NIGHT_LAST_ACTION: "The named dead player may use a last action.",
    DAY: "Discuss. The living may speak; the dead stay silent.",
    VOTE: "Vote for the player to eliminate.",
    DAY_LAST_ACTION: "The named dead player may use a last action.",
}
"""What the moderator says as each phase begins (the SYSTEM/ANNOUNCE step)."""

ORDERED_DAY_ANNOUNCEMENT: Final = "Discuss in seat order. Each living player speaks in turn and says DONE to pass."
"""The DAY line under the ``ordered_day`` switch."""

BID_DAY_ANNOUNCEMENT: Final = "Bid for the floor: each living player says, in secret, how urgently they want to speak."
"""The DAY line under the ``bid_for_floor`` switch (DAY is then the bidding)."""
FLOOR_ANNOUNCEMENT: Final = "The highest bidder holds the floor and says DONE when finished."
"""The DAY_FLOOR line (``bid_for_floor`` only)."""


def announcement(phase: str, *, ordered_day: bool = False, bid_for_floor: bool = False) -> str:
    """The moderator's line for ``phase``, ``""`` for phases without one (DAY's depends on the day's switch)."""
    if ordered_day and phase == DAY:
        return ORDERED_DAY_ANNOUNCEMENT
    if bid_for_floor and phase == DAY:
        return BID_DAY_ANNOUNCEMENT
    if bid_for_floor and phase == DAY_FLOOR:
        return FLOOR_ANNOUNCEMENT
    return ANNOUNCEMENTS.get(phase, "")


def _announce() -> hr.PhaseStep:
    return hr.PhaseStep(MODERATOR, hr.ANNOUNCE)


def _one(role: str, skill: str, *, required: bool = False, multiple: bool = False, group: str = "") -> hr.PhaseStep:
    """A step whose skill takes exactly one living player as target."""
    return hr.PhaseStep(role, skill, required, multiple, group, min_targets=1, max_targets=1)


def _last_action_steps(roles: Sequence[RoleSpec]) -> tuple[hr.PhaseStep, ...]:
    """Every role may close its last action; armed roles may shoot instead.

    Each role's alternatives form one required group, so readiness asks exactly one
    answer of every dead player, hunter or not.
    """
    steps = [_announce()]
    for spec in roles:
        group = f"last.{spec.role}"
        if spec.gun:
            steps.append(_one(spec.role, SHOOT, required=True, group=group))
        steps.append(hr.PhaseStep(spec.role, SKIP, required=True, group=group, max_targets=0))
    return tuple(steps)


def _day(ordered: bool) -> hr.PhaseConfig:
    """Free talk, or (ordered) one turn per living player, ended by DONE or by the host."""
    if not ordered:
        return hr.PhaseConfig(steps=(_announce(),), next_phase=VOTE, timeout=TIMEOUTS[DAY], parent=DAYTIME)
    return hr.PhaseConfig(
        steps=(_announce(), hr.PhaseStep("", DONE, required=True, max_targets=0)),
        next_phase=VOTE,
        timeout=TIMEOUTS[DAY],
        parent=DAYTIME,
        turn_order=hr.SEQUENTIAL,
        moves_per_turn=1,
    )


def _bid_day() -> dict[str, hr.PhaseConfig]:
    """``bid_for_floor``: DAY collects one bid per living player; DAY_FLOOR is the winner's turn."""
    bid = hr.PhaseStep("", BID, required=True, multiple=True, target_pool=BID_POOL, min_targets=1, max_targets=1)
    return {
        DAY: hr.PhaseConfig(steps=(_announce(), bid), next_phase=DAY_FLOOR, timeout=TIMEOUTS[DAY], parent=DAYTIME),
        DAY_FLOOR: hr.PhaseConfig(
            steps=(_announce(), hr.PhaseStep("", DONE, required=True, max_targets=0)),
            next_phase=DAY,
            timeout=TIMEOUTS[DAY_FLOOR],
            parent=DAYTIME,
            turn_order=hr.SEQUENTIAL,
            moves_per_turn=1,
        ),
    }


def build_config(roles: Sequence[RoleSpec], *, ordered_day: bool = False, bid_for_floor: bool = False) -> hr.Config:
    """The phase graph for a game whose card set is drawn from ``roles``.

    ``ordered_day`` makes the day's discussion take turns, ``bid_for_floor`` makes it
    bid for (the switches of those names; not both).
    """
    pack = tuple(_one(r.role, KILL, required=True, multiple=True) for r in roles if r.pack)
    last = _last_action_steps(roles)

    def leaf(phase: str, steps: tuple[hr.PhaseStep, ...], nxt: str, parent: str) -> hr.PhaseConfig:
        return hr.PhaseConfig(steps=(_announce(), *steps), next_phase=nxt, timeout=TIMEOUTS[phase], parent=parent)

    phases = {
        NIGHT: hr.PhaseConfig(on_enter=(hr.CLEAR_ROUND_VARS,)),
        NIGHT_GUARD: leaf(NIGHT_GUARD, (_one(GUARD, PROTECT),), NIGHT_WOLF, NIGHT),
        NIGHT_WOLF: leaf(NIGHT_WOLF, pack, NIGHT_WITCH, NIGHT),
        NIGHT_WITCH: leaf(NIGHT_WITCH, (_one(WITCH, ANTIDOTE), _one(WITCH, POISON)), NIGHT_SEER, NIGHT),
        NIGHT_SEER: leaf(NIGHT_SEER, (_one(SEER, CHECK),), NIGHT_RESOLVE, NIGHT),
        NIGHT_RESOLVE: leaf(NIGHT_RESOLVE, (), DAY, NIGHT),
        NIGHT_LAST_ACTION: hr.PhaseConfig(
            steps=last, next_phase=DAY, timeout=TIMEOUTS[NIGHT_LAST_ACTION], parent=NIGHT
        ),
        DAYTIME: hr.PhaseConfig(on_exit=(hr.ADVANCE_ROUND,)),
        DAY: _day(ordered_day),
        VOTE: leaf(VOTE, (_one("", VOTE, required=True, multiple=True),), NIGHT_GUARD, DAYTIME),
        DAY_LAST_ACTION: hr.PhaseConfig(
            steps=last, next_phase=NIGHT_GUARD, timeout=TIMEOUTS[DAY_LAST_ACTION], parent=DAYTIME
        ),
    }
    if bid_for_floor:
        phases.update(_bid_day())
        pools = {BID_POOL: BID_LEVELS}
        return hr.Config(start_phase=NIGHT_GUARD, phases=phases, default_timeout=DEFAULT_TIMEOUT, target_pools=pools)
    return hr.Config(start_phase=NIGHT_GUARD, phases=phases, default_timeout=DEFAULT_TIMEOUT)
