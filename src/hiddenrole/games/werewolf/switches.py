"""Rule switches: the house rules a table agrees on before dealing.

Defaults follow the zh-Wikipedia baseline. A :class:`Switches` value is frozen and
validated on construction, so a bad table setting fails before any game exists.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import hiddenrole as hr

from .vocab import SIDE_WIPE, VICTORY_MODES

__all__ = ["Switches", "DISCLOSURE_SWITCHES", "FLOOR_TURNS", "MAX_FLOOR_TURNS"]

DISCLOSURE_SWITCHES = ("announce_death_causes",)
"""Switches that deliberately make something public that is otherwise secret."""

FLOOR_TURNS = 8
"""Default speaking turns per day under ``bid_for_floor`` (the vote follows the last one)."""
MAX_FLOOR_TURNS = 50
"""Upper bound of ``floor_turns``: a day's discussion cannot be made endless."""


@dataclass(frozen=True, slots=True)
class Switches:
    """House rules. Every field is a ``bool`` except ``victory_mode`` and ``floor_turns``.

    ``witch_can_save_self``: the antidote may target the witch herself.
    ``witch_can_use_both_potions``: both potions may be used in one night.
    ``guard_can_protect_self``: the guard may protect himself.
    ``guard_can_repeat``: the guard may protect the same player two nights running.
    ``guarded_kill_is_empty``: a guarded victim survives the wolves.
    ``guard_and_save_dies``: a victim both guarded and healed dies anyway (同守同救).
    ``victory_mode``: :data:`SIDE_WIPE` or :data:`TOWN_WIPE`.
    ``announce_death_causes``: the dawn announcement says who was killed and who was
    poisoned (a disclosure: by default the moderator names the dead, never the cause).
    ``ordered_day``: the day's discussion goes round the table: each living player in
    seat order holds the floor until they use ``DONE`` (or the host ends the turn),
    and only the player holding the floor speaks. Off: everyone talks at once.
    ``bid_for_floor``: the day's discussion is bid for (Werewolf Arena's design): each
    living player secretly bids 0-4 for how urgently they want to speak, the highest
    bid takes the floor (ties: the first in seat order after the last speaker), speaks,
    says ``DONE``; then everyone bids again, for at most ``floor_turns`` turns, or until
    nobody bids above 0; then the vote. Only the player holding the floor speaks.
    Cannot be combined with ``ordered_day``.
    ``floor_turns``: speaking turns per day under ``bid_for_floor``, 1 to
    :data:`MAX_FLOOR_TURNS`.
    """

    witch_can_save_self: bool = False
    witch_can_use_both_potions: bool = False
    guard_can_protect_self: bool = True
    guard_can_repeat: bool = False
    guarded_kill_is_empty: bool = True
    guard_and_save_dies: bool = True
    victory_mode: str = SIDE_WIPE
    announce_death_causes: bool = False
    ordered_day: bool = False
    bid_for_floor: bool = False
    floor_turns: int = FLOOR_TURNS

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "victory_mode":
                if value not in VICTORY_MODES:
                    raise hr.InvalidConfig(f"victory_mode must be one of {', '.join(VICTORY_MODES)}, got {value!r}")
            elif f.name == "floor_turns":
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_FLOOR_TURNS:
                    raise hr.InvalidConfig(f"floor_turns must be an int from 1 to {MAX_FLOOR_TURNS}, got {value!r}")
            elif not isinstance(value, bool):
                raise hr.InvalidConfig(f"switch {f.name} must be a bool, got {value!r}")
        if self.ordered_day and self.bid_for_floor:
            raise hr.InvalidConfig("ordered_day and bid_for_floor are two ways to run the day: choose one")

    def changed(self) -> tuple[tuple[str, object], ...]:
        """``(name, value)`` of every switch that differs from its default, in field order."""
        values = ((f.name, getattr(self, f.name)) for f in fields(self))
        return tuple((name, value) for name, value in values if value != getattr(_DEFAULT, name))

    @property
    def disclosures(self) -> tuple[str, ...]:
        """Names of the disclosure switches that are on (for information-boundary checks)."""
        return tuple(name for name in DISCLOSURE_SWITCHES if getattr(self, name))


_DEFAULT = Switches()
