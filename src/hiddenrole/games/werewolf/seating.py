"""A core role's setup as the kernel runs it per seat: compiled, its variables built once.

:meth:`RoleSpec.setup <.roles.RoleSpec.setup>` is Python (``roles`` checks a caller's arguments,
so the build leaves it uncompiled) and builds the same variables for every seat: a preset table
would run it, and build them, once per player of every game.
"""

from __future__ import annotations

from collections.abc import Mapping

import hiddenrole as hr

from .roles import RoleSpec

__all__ = ["Seating", "seating"]


class Seating:
    """What ``spec.setup`` gives every seat, kept as one :func:`hr.constant_map`, which the kernel seats
    as it is: no sorted, frozen copy per seat (a plain ``RoleSpec`` reads neither argument, and its
    variables are never empty: at least a camp, and no empty value)."""

    __slots__ = ("_initial",)

    def __init__(self, spec: RoleSpec) -> None:
        self._initial = hr.constant_map(spec.setup("", spec.role))

    def setup(self, player_id: str, role: str) -> Mapping[str, str]:
        return self._initial


def seating(spec: RoleSpec) -> RoleSpec | Seating:
    """The role setup to give the kernel for ``spec``: a :class:`Seating` for a plain ``RoleSpec``;
    a subclass (which may override ``setup`` to read the seat) as it is."""
    return Seating(spec) if type(spec) is RoleSpec else spec
