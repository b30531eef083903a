"""Who has won: a census of the living by camp and category.

Only players whose role setup gave them a camp are counted, so a custom role
without one never decides a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import hiddenrole as hr

from .vocab import (
    DAY_LAST_ACTION,
    EVIL,
    GOD,
    GOOD,
    NIGHT_LAST_ACTION,
    NIGHT_RESOLVE,
    SIDE_WIPE,
    TOWN_WIPE,
    VAR_CATEGORY,
    VILLAGER,
    VOTE,
)

__all__ = ["check_victory", "Victory", "KILLING_PHASES"]

KILLING_PHASES: Final = frozenset({NIGHT_RESOLVE, NIGHT_LAST_ACTION, VOTE, DAY_LAST_ACTION})
"""The phases whose resolvers can kill (dawn, the vote, a shot in a last action), declared as
``Rules.victory_after``: the census reads the living and the seats' camps, and camps are set at
seating, so no other phase's end can change the verdict (the kernel skips the check there)."""


# What a seat counts for in the census, from its camp and category variables (an int: compiled, a
# native value, compared and summed without boxing).
_UNCOUNTED: Final = 0
"""No camp the census knows (a custom role without one never decides a game)."""
_WOLF: Final = 1
_GOD: Final = 2
_VILLAGER: Final = 3
_OTHER_GOOD: Final = 4
"""Good, in neither good category: counts among the living good only."""


def _seat_kind(cell: Mapping[str, str]) -> int:
    """What a seat with these variables counts for: read with ``[]``, a missing cell caught
    (compiled, ``get`` on a read-only map is a method call that calls the dict's in turn, and an
    ``in`` test first is a second generic call: every seat of the preset roles has its camp, every
    good one its category, so the miss, costly, is a custom role's)."""
    # hr.VAR_CAMP: a literal compiled code inlines (vocab's alias of it is a name looked up per read).
    try:
        camp = cell[hr.VAR_CAMP]
    except KeyError:
        return _UNCOUNTED
    if camp == EVIL:
        return _WOLF
    if camp != GOOD:
        return _UNCOUNTED
    try:
        category = cell[VAR_CATEGORY]
    except KeyError:
        return _OTHER_GOOD
    if category == GOD:
        return _GOD
    return _VILLAGER if category == VILLAGER else _OTHER_GOOD


def _verdict(players: tuple[hr.PlayerInfo, ...], kinds: list[int], mode: str) -> tuple[str, ...] | None:
    """The census of ``players``, seat ``i`` counting for ``kinds[i]`` (see :func:`check_victory`)."""
    good = evil = 0
    # Per good category (special roles, villagers): how many were dealt, how many live.
    gods = living_gods = villagers = living_villagers = 0
    for i, p in enumerate(players):
        kind = kinds[i]
        if kind == _UNCOUNTED:
            continue
        alive = 1 if p.alive else 0
        if kind == _WOLF:
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


def check_victory(view: hr.GameView, mode: str = SIDE_WIPE) -> tuple[str, ...] | None:
    """R14-R16: no living wolf: good wins; no living good player: evil wins; then the mode.

    Side wipe (屠边): evil wins once a good category present at the start (special
    roles, or villagers) is entirely dead. Town wipe: evil wins once the living good
    are no more than the living evil.
    """
    players = view.all_players()
    return _verdict(players, [_seat_kind(p.vars) for p in players], mode)


class Victory:
    """The checker bound to a victory mode (what :class:`hiddenrole.Rules` takes).

    The census reads only each player's ``alive`` flag and ``camp``/``category``
    variables. ``GameView.all_players`` returns the same tuple until a record changes,
    and a record changes on any variable write (a vote ban, a potion spent, a death
    cause), so the last census is kept with the tuple it was taken from: what each seat
    counts for (:func:`_seat_kind`) is read again only from a seat whose variables are a
    new map (a death keeps the map), and the answer is recounted only when an alive flag
    or what a seat counts for changed.
    """

    __slots__ = ("_last", "mode")

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self._last: tuple[tuple[hr.PlayerInfo, ...], list[int], tuple[str, ...] | None] | None = None

    def check_victory(self, view: hr.GameView) -> tuple[str, ...] | None:
        players = view.all_players()
        last = self._last  # one read: another thread may replace it meanwhile (a kept list is never changed)
        if last is None or len(last[0]) != len(players):
            kinds = [_seat_kind(p.vars) for p in players]
            got = _verdict(players, kinds, self.mode)
            self._last = (players, kinds, got)
            return got
        before, kinds, got = last
        if before is players:
            return got
        recount = False
        fresh: list[int] | None = None
        # By index (the lengths are equal): compiled, a native loop with two tuple reads per seat.
        for i in range(len(players)):
            a, b = before[i], players[i]
            if a is b:
                continue
            if a.alive != b.alive:
                recount = True
            if a.vars is not b.vars:
                kind = _seat_kind(b.vars)
                if kind != kinds[i]:
                    if fresh is None:
                        fresh = list(kinds)
                    fresh[i] = kind
        if fresh is not None:
            kinds = fresh
            recount = True
        if recount:
            got = _verdict(players, kinds, self.mode)
        self._last = (players, kinds, got)
        return got
