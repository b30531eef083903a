"""Roles as data, and extensions as bundles of roles, interceptors and event audiences.

A role is described, not coded: its camp, its category, whether it joins the wolves'
night kill (``pack``), after which deaths it may shoot (``gun``) and any extra initial
variables. The phase configuration and every resolver read these facts from the
players' variables, so a new role such as the wolf king needs no edit to the core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final, TypeAlias

import hiddenrole as hr

from .vocab import (
    AUDIENCE_CLASSES,
    EVIL,
    GOD,
    GOOD,
    GUARD,
    HUNTER,
    KILL,
    SEER,
    SHOOT,
    VAR_ANTIDOTE,
    VAR_CAMP,
    VAR_CATEGORY,
    VAR_GUN,
    VAR_POISON,
    VILLAGER,
    VOTE,
    WEREWOLF,
    WITCH,
    WOLF,
)

__all__ = [
    "RoleSpec",
    "Extension",
    "CORE_ROLES",
    "GUN_CAUSES",
    "InterceptorLike",
    "RoleInfoLike",
    "camp_vars",
]

InterceptorLike: TypeAlias = hr.Interceptor | Callable[[hr.Effect, hr.GameView], Iterable[hr.Effect] | None]
RoleInfoLike: TypeAlias = hr.RoleInfoProvider | Callable[[str, hr.GameView], Mapping[str, str] | None]

GUN_CAUSES: Final[tuple[str, ...]] = (KILL, SHOOT, VOTE)
"""Deaths after which a hunter may shoot: every death but poison."""


def camp_vars(camp: str, category: str = "") -> dict[str, str]:
    """Initial variables that place a role in a camp and a category."""
    out = {VAR_CAMP: camp}
    if category:
        out[VAR_CATEGORY] = category
    return out


def _names(values: object, what: str) -> tuple[str, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise hr.InvalidConfig(f"{what} must be a sequence of strings")
    out = tuple(values)
    for v in out:
        if not isinstance(v, str) or not v:
            raise hr.InvalidConfig(f"{what} must hold non-empty strings, got {v!r}")
    return out


def _pairs(values: object, what: str) -> tuple[tuple[str, object], ...]:
    items = values.items() if isinstance(values, Mapping) else values
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise hr.InvalidConfig(f"{what} must be a mapping or a sequence of pairs")
    out: list[tuple[str, object]] = []
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2 or not isinstance(item[0], str) or not item[0]:
            raise hr.InvalidConfig(f"{what} entries must be (name, value) pairs, got {item!r}")
        out.append(item)
    return tuple(sorted(out, key=lambda kv: kv[0]))


@dataclass(frozen=True, slots=True)
class RoleSpec:
    """One role. Usable directly as the kernel's role setup (``setup(player_id, role)``)."""

    role: str
    camp: str
    category: str = ""
    pack: bool = False
    """Joins the wolves' night kill (gets a KILL step in NIGHT_WOLF)."""
    gun: tuple[str, ...] = ()
    """Death causes after which the role may SHOOT at its last action."""
    vars: tuple[tuple[str, str], ...] = field(default=())
    """Extra initial variables (a mapping is accepted and frozen)."""

    def __post_init__(self) -> None:
        for name in ("role", "camp"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value or value == hr.SYSTEM:
                raise hr.InvalidConfig(f"RoleSpec.{name} must be a non-empty string, got {value!r}")
        if not isinstance(self.category, str) or not isinstance(self.pack, bool):
            raise hr.InvalidConfig("RoleSpec.category must be a str and pack a bool")
        object.__setattr__(self, "gun", tuple(sorted(set(_names(self.gun, "RoleSpec.gun")))))
        pairs = _pairs(self.vars, "RoleSpec.vars")
        for k, v in pairs:
            if not isinstance(v, str):
                raise hr.InvalidConfig(f"RoleSpec.vars[{k!r}] must be a str")
        object.__setattr__(self, "vars", pairs)

    def setup(self, player_id: str, role: str) -> dict[str, str]:
        """Initial variables of a player seated in this role."""
        out = camp_vars(self.camp, self.category)
        if self.gun:
            out[VAR_GUN] = ",".join(self.gun)
        out.update(self.vars)
        return out


CORE_ROLES: tuple[RoleSpec, ...] = (
    RoleSpec(WEREWOLF, EVIL, WOLF, pack=True),
    RoleSpec(SEER, GOOD, GOD),
    RoleSpec(WITCH, GOOD, GOD, vars=((VAR_ANTIDOTE, hr.VAR_PRESENT), (VAR_POISON, hr.VAR_PRESENT))),
    RoleSpec(GUARD, GOOD, GOD),
    RoleSpec(HUNTER, GOOD, GOD, gun=GUN_CAUSES),
    RoleSpec(VILLAGER, GOOD, VILLAGER),
)
"""The six roles of the seed, in the order the night calls them (roughly)."""


@dataclass(frozen=True, slots=True)
class Extension:
    """A bundle that grows the ruleset without touching its core.

    ``roles``: new roles. ``interceptors``: run after the core resolvers produce their
    effects, in order. ``events``: audience class (:data:`PUBLIC`, :data:`ACTOR` or
    :data:`PACK`) of each new event type. ``role_info``: what a new role privately sees.
    ``reveals``: event types by which the extension deliberately makes a hidden role
    known to their audience (the idiot's flipped card), for information-boundary checks.
    """

    name: str
    roles: tuple[RoleSpec, ...] = ()
    interceptors: tuple[InterceptorLike, ...] = ()
    events: tuple[tuple[str, str], ...] = ()
    role_info: tuple[tuple[str, RoleInfoLike], ...] = ()
    reveals: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name or "+" in self.name:
            raise hr.InvalidConfig(f"extension name must be a non-empty string without '+', got {self.name!r}")
        if isinstance(self.roles, (str, bytes)) or not isinstance(self.roles, Iterable):
            raise hr.InvalidConfig("Extension.roles must be a sequence of RoleSpec")
        roles = tuple(self.roles)
        for r in roles:
            if not isinstance(r, RoleSpec):
                raise hr.InvalidConfig(f"Extension.roles must hold RoleSpec values, got {r!r}")
        object.__setattr__(self, "roles", roles)
        if isinstance(self.interceptors, (str, bytes)) or not isinstance(self.interceptors, Iterable):
            raise hr.InvalidConfig("Extension.interceptors must be a sequence")
        icpts = tuple(self.interceptors)
        for i in icpts:
            if not callable(i) and not callable(getattr(i, "intercept", None)):
                raise hr.InvalidConfig(f"extension {self.name!r}: interceptor {i!r} is not callable")
        object.__setattr__(self, "interceptors", icpts)
        events = _pairs(self.events, "Extension.events")
        for etype, cls in events:
            if cls not in AUDIENCE_CLASSES:
                raise hr.InvalidConfig(f"event {etype!r}: audience must be one of {AUDIENCE_CLASSES}, got {cls!r}")
        object.__setattr__(self, "events", events)
        info = _pairs(self.role_info, "Extension.role_info")
        for role, fn in info:
            if not callable(fn) and not callable(getattr(fn, "role_info", None)):
                raise hr.InvalidConfig(f"extension {self.name!r}: role info for {role!r} is not callable")
        object.__setattr__(self, "role_info", info)
        reveals = _names(self.reveals, "Extension.reveals")
        declared = {etype for etype, _ in events}
        for etype in reveals:
            if etype not in declared:
                raise hr.InvalidConfig(f"extension {self.name!r} reveals through undeclared event {etype!r}")
        object.__setattr__(self, "reveals", tuple(sorted(set(reveals))))
