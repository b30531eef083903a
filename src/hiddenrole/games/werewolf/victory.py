"""Who has won: a census of the living by camp and category.

Only players whose role setup gave them a camp are counted, so a custom role
without one never decides a game.
"""

from __future__ import annotations

from typing import Final

import hiddenrole as hr

from .vocab import EVIL, GOD, GOOD, SIDE_WIPE, TOWN_WIPE, VAR_CATEGORY, VILLAGER

__all__ = ["check_victory", "Victory"]


def check_victory(view: hr.GameView, mode: str = SIDE_WIPE) -> tuple[str, ...] | None:
    """R14-R16: no living wolf: good wins; no living good player: evil wins; then the mode.

    Side wipe (屠边): evil wins once a good category present at the start (special
    roles, or villagers) is entirely dead. Town wipe: evil wins once the living good
    are no more than the living evil.
    """
    good = evil = 0
    # Per good category (special roles, villagers): how many were dealt, how many live.
    gods = living_gods = villagers = living_villagers = 0
    for p in view.all_players():
        cell = p.vars
        # hr.VAR_CAMP: a literal compiled code inlines (vocab's alias of it is a name looked up per read).
        camp = cell[hr.VAR_CAMP] if hr.VAR_CAMP in cell else ""  # noqa: SIM401 (see _same_census)
        if camp == EVIL:
            evil += p.alive
        elif camp == GOOD:
            alive = p.alive
            good += alive
            category = cell[VAR_CATEGORY] if VAR_CATEGORY in cell else ""  # noqa: SIM401
            if category == GOD:
                gods += 1
                living_gods += alive
            elif category == VILLAGER:
                villagers += 1
                living_villagers += alive
    if not evil:
        return (GOOD,)
    if not good:
        return (EVIL,)
    if mode == TOWN_WIPE:
        return (EVIL,) if good <= evil else None
    wiped = (gods and not living_gods) or (villagers and not living_villagers)
    return (EVIL,) if wiped else None


class Victory:
    """The checker bound to a victory mode (what :class:`hiddenrole.Rules` takes).

    The census reads only each player's ``alive`` flag and ``camp``/``category``
    variables. ``GameView.all_players`` returns the same tuple until a record changes,
    and a record changes on any variable write (a vote ban, a potion spent, a death
    cause), so the last answer is kept with the tuple it was computed from and reused
    while every record either is the same object or agrees on those three readings:
    the census is redone only after a death or a camp/category change.
    """

    __slots__ = ("_last", "mode")

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self._last: tuple[tuple[hr.PlayerInfo, ...], tuple[str, ...] | None] | None = None

    def check_victory(self, view: hr.GameView) -> tuple[str, ...] | None:
        players = view.all_players()
        last = self._last  # one read: another thread may replace it meanwhile
        if last is not None:
            before = last[0]
            if before is players or _same_census(before, players):
                if before is not players:
                    self._last = (players, last[1])
                return last[1]
        got = check_victory(view, self.mode)
        self._last = (players, got)
        return got


def _same_census(before: tuple[hr.PlayerInfo, ...], now: tuple[hr.PlayerInfo, ...]) -> bool:
    """Whether the census reads the same from both: each record the same alive flag, camp and category."""
    if len(before) != len(now):
        return False
    # Plain ``zip`` (the lengths are equal): compiled, a ``for`` over it is a native loop, where
    # ``zip(..., strict=True)`` is a Python-level call and an iterator stepped per record.
    for a, b in zip(before, now):  # noqa: B905
        if a is b:
            continue
        if a.alive != b.alive:
            return False
        va, vb = a.vars, b.vars
        if va is vb:
            continue
        # ``in`` and ``[]`` rather than ``get`` (here and in the census): compiled, ``get`` on a
        # read-only map is a method call that calls the dict's in turn.
        for key in _CENSUS_KEYS:
            if (key in va) != (key in vb) or (key in va and va[key] != vb[key]):
                return False
    return True


_CENSUS_KEYS: Final = (hr.VAR_CAMP, VAR_CATEGORY)
