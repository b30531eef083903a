"""Defaults every hidden-role game shares, written once: roles revealed at the end, survival statistics.

``roles_public_at_end`` is the default ``public_roles`` hook of every
:class:`~hiddenrole.gamedef.GameDefinition`: cards stay face down while the game runs
and are all turned over once it is over (the table rule of every shipped hidden-role
game and of the reference console). A game without secrets overrides it; a game whose
roles must stay secret even afterwards passes ``public_roles=None``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

import hiddenrole as hr

from .hooks import Context
from .outcome import Statistic

__all__ = ["roles_public_at_end", "SURVIVAL_STATISTICS", "survival"]


def roles_public_at_end(ctx: Context) -> dict[str, str]:
    """Every seat's dealt role once the game is over; nothing before."""
    if ctx.view.phase != hr.END:
        return {}
    return {p.id: p.role for p in ctx.view.all_players()}


SURVIVAL_STATISTICS: Final = (Statistic.seat("survived"), Statistic.seat("won"))
"""The per-seat statistics :func:`survival` fills: ``survived`` and ``won`` (1 or 0)."""


def survival(players: Iterable[hr.PlayerInfo], winners: Iterable[str]) -> dict[str, dict[str, int]]:
    """``{seat: {"survived": 0|1, "won": 0|1}}`` for an :class:`Outcome`'s seat statistics."""
    won = frozenset(winners)
    return {p.id: {"survived": int(p.alive), "won": int(p.id in won)} for p in players}
