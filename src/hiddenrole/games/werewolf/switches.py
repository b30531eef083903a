"""Rule switches: the house rules a table agrees on before dealing.

Defaults follow the zh-Wikipedia baseline. A :class:`Switches` value is frozen and
validated on construction, so a bad table setting fails before any game exists.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import hiddenrole as hr

from .vocab import SIDE_WIPE, VICTORY_MODES

__all__ = ["Switches", "DISCLOSURE_SWITCHES"]

DISCLOSURE_SWITCHES = ("announce_death_causes",)
"""Switches that deliberately make something public that is otherwise secret."""


@dataclass(frozen=True, slots=True)
class Switches:
    """House rules. Every field is a ``bool`` except ``victory_mode``.

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

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "victory_mode":
                if value not in VICTORY_MODES:
                    raise hr.InvalidConfig(f"victory_mode must be one of {', '.join(VICTORY_MODES)}, got {value!r}")
            elif not isinstance(value, bool):
                raise hr.InvalidConfig(f"switch {f.name} must be a bool, got {value!r}")

    def changed(self) -> tuple[tuple[str, object], ...]:
        """``(name, value)`` of every switch that differs from its default, in field order."""
        values = ((f.name, getattr(self, f.name)) for f in fields(self))
        return tuple((name, value) for name, value in values if value != getattr(_DEFAULT, name))

    @property
    def disclosures(self) -> tuple[str, ...]:
        """Names of the disclosure switches that are on (for information-boundary checks)."""
        return tuple(name for name in DISCLOSURE_SWITCHES if getattr(self, name))


_DEFAULT = Switches()
