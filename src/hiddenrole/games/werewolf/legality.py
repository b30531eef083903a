"""What a seat may do *now*: the kernel's ``usable`` answer for werewolf.

Every refusal the board already decides is made here, before the move is accepted, so a
seat is never offered a move that would be cancelled (a spent potion, a jammed gun, the
guard's last target). The reasons are the resolvers' own constants; the resolvers keep
their checks as a second line, for effects a host applies directly and for old logs.

Nothing here tells a seat more than its role info already does: the witch sees her
potions and tonight's victim (``witch_info``), an armed player whether the gun would
fire (``gun_info``), and the guard knows whom he guarded. One rule depends on this phase's own moves rather than
the board: with ``witch_can_use_both_potions`` off, once the witch has submitted one
potion tonight the other is refused (``BOTH_POTIONS``). The kernel hands ``usable`` the
seat's own pending submissions (``submitted``), which she knows, and nobody else's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import hiddenrole as hr

from .resolution import (
    BOTH_POTIONS,
    NO_ANTIDOTE,
    NO_KILL,
    NO_POISON,
    SELF_SAVE,
    _numeral,
    cell,
    gun_refusal,
    night_kill_target,
)
from .switches import Switches
from .vocab import (
    ANTIDOTE,
    POISON,
    PROTECT,
    SHOOT,
    VAR_ANTIDOTE,
    VAR_GUARD_LAST_ROUND,
    VAR_GUARD_LAST_TARGET,
    VAR_POISON,
)

__all__ = ["USABLE_SKILLS", "Usable"]

USABLE_SKILLS: Final = frozenset({ANTIDOTE, POISON, PROTECT, SHOOT})
"""The only skills :meth:`Usable.usable` may refuse or narrow, declared as ``Rules.usable_skills``:
the kernel asks it about no other (a day vote's every seat, the pack's kill, the seer's check).
A test holds ``usable`` to it (``None`` for every other skill)."""


class Usable:
    """The ``usable`` extension point under one set of house rules (``Rules.usable``)."""

    __slots__ = ("_both_potions", "_protect_self", "_repeat_guard", "_save_self", "switches")

    def __init__(self, switches: Switches) -> None:
        self.switches = switches
        # The four switches read here, copied once: compiled, each read of the pure-Python
        # Switches is a generic attribute lookup; these are native fields.
        self._both_potions = switches.witch_can_use_both_potions
        self._protect_self = switches.guard_can_protect_self
        self._repeat_guard = switches.guard_can_repeat
        self._save_self = switches.witch_can_save_self

    def usable(
        self, player_id: str, skill: str, view: hr.GameView, submitted: Sequence[hr.SkillUse] = ()
    ) -> str | tuple[str, ...] | None:
        """``None``: any target; a reason: refused; a tuple: only these targets."""
        # Most skills (KILL, CHECK, VOTE...): nothing to narrow (USABLE_SKILLS; the kernel does not
        # ask about them, a direct caller may). Four literal comparisons, not a frozenset lookup:
        # compiled, they cost a fraction of hashing into the set.
        if skill != ANTIDOTE and skill != POISON and skill != PROTECT and skill != SHOOT:
            return None
        me = view.player(player_id)
        if me is None:
            return None
        if skill in (ANTIDOTE, POISON) and not self._both_potions:
            other = POISON if skill == ANTIDOTE else ANTIDOTE
            for u in submitted:  # a loop, not ``any`` over a generator (compiled, an object per call)
                if u.skill == other:
                    return BOTH_POTIONS
        if skill == PROTECT:
            ids = [p.id for p in view.alive_players()]
            last = cell(me.vars, VAR_GUARD_LAST_TARGET)
            if not self._repeat_guard and last and cell(me.vars, VAR_GUARD_LAST_ROUND) == _numeral(view.round - 1):
                barred = last
            else:
                barred = ""
            if self._protect_self and not barred:  # nobody barred: the living
                return tuple(ids)
            return tuple([t for t in ids if t != barred and (self._protect_self or t != player_id)])
        if skill == ANTIDOTE:
            if not cell(me.vars, VAR_ANTIDOTE):
                return NO_ANTIDOTE
            victim = night_kill_target(view)
            if not victim:
                return NO_KILL
            if victim == player_id and not self._save_self:
                return SELF_SAVE
            return (victim,)
        if skill == POISON:
            if not cell(me.vars, VAR_POISON):
                return NO_POISON
            return tuple([p.id for p in view.alive_players() if p.id != player_id])
        if skill == SHOOT:
            return gun_refusal(me) or None
        return None
