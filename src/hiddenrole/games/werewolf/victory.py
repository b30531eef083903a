"""Who has won: a census of the living by camp and category.

Only players whose role setup gave them a camp are counted, so a custom role
without one never decides a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import hiddenrole as hr

from .resolution import cell
from .vocab import EVIL, GOD, GOOD, SIDE_WIPE, TOWN_WIPE, VAR_CATEGORY, VILLAGER

__all__ = ["check_victory", "Victory"]


def check_victory(view: hr.GameView, mode: str = SIDE_WIPE) -> tuple[str, ...] | None:
    """R14-R16: no living wolf: good wins; no living good player: evil wins; then the mode.

    Side wipe (屠边): evil wins once a good category present at the start (special
    roles, or villagers) is entirely dead. Town wipe: evil wins once the living good
    are no more than the living evil.
    """
    players = view.all_players()
    return _decide(players, [_kind(p.vars) for p in players], mode)


# What the census makes of a seat's variables (its camp, and a good seat's category).
_UNCOUNTED: Final = 0
_EVIL: Final = 1
_GOD: Final = 2
_VILLAGER: Final = 3
_OTHER_GOOD: Final = 4


def _kind(values: Mapping[str, str]) -> int:
    """A seat's census kind, read from its variables."""
    # hr.VAR_CAMP: a literal compiled code inlines (vocab's alias of it is a name looked up per read).
    camp = cell(values, hr.VAR_CAMP)
    if camp == EVIL:
        return _EVIL
    if camp != GOOD:
        return _UNCOUNTED
    category = cell(values, VAR_CATEGORY)
    if category == GOD:
        return _GOD
    return _VILLAGER if category == VILLAGER else _OTHER_GOOD


def _decide(players: tuple[hr.PlayerInfo, ...], kinds: list[int], mode: str) -> tuple[str, ...] | None:
    """The census proper, from each seat's kind (in ``players`` order) and alive flag."""
    good = evil = 0
    # Per good category (special roles, villagers): how many were dealt, how many live.
    gods = living_gods = villagers = living_villagers = 0
    for i in range(len(players)):
        kind = kinds[i]
        if kind == _UNCOUNTED:
            continue
        alive = int(players[i].alive)
        if kind == _EVIL:
            evil += alive
            continue
        good += alive
        if kind == _GOD:
            gods += 1
            living_gods += alive
        elif kind == _VILLAGER:
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


class _Census:
    """One census: the records it counted, its answer, and each seat's variables with the kind
    read from them. Never changed once built (another thread may be reading it)."""

    __slots__ = ("answer", "cells", "kinds", "players")

    def __init__(
        self,
        players: tuple[hr.PlayerInfo, ...],
        answer: tuple[str, ...] | None,
        cells: list[Mapping[str, str]],
        kinds: list[int],
    ) -> None:
        self.players = players
        self.answer = answer
        self.cells = cells
        self.kinds = kinds


class Victory:
    """The checker bound to a victory mode (what :class:`hiddenrole.Rules` takes).

    The census reads only each player's ``alive`` flag and ``camp``/``category``
    variables. ``GameView.all_players`` returns the same tuple until a record changes,
    so the last census is kept with the tuple it counted: the same tuple gets the same
    answer. Otherwise the census is counted again (a few integer sums), but a seat's
    camp and category are read again only if its variables are no longer the same
    read-only map as last time (a record's variables are replaced on write, never
    changed in place): reading a cell is the census's real cost, and a phase writes
    the variables of a few seats at most.
    """

    __slots__ = ("_last", "mode")

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self._last: _Census | None = None

    def check_victory(self, view: hr.GameView) -> tuple[str, ...] | None:
        players = view.all_players()
        last = self._last  # one read: another thread may replace it meanwhile
        if last is not None and last.players is players:
            return last.answer
        cells = [p.vars for p in players]
        if last is not None and len(last.cells) == len(cells):
            before = last.cells
            kinds = last.kinds[:]
            for i in range(len(cells)):
                if before[i] is not cells[i]:
                    kinds[i] = _kind(cells[i])
        else:
            kinds = [_kind(values) for values in cells]
        got = _decide(players, kinds, self.mode)
        self._last = _Census(players, got, cells, kinds)
        return got
