"""Who has won: a census of the living by camp and category.

Only players whose role setup gave them a camp are counted, so a custom role
without one never decides a game.
"""

from __future__ import annotations

import hiddenrole as hr

from .vocab import EVIL, GOD, GOOD, SIDE_WIPE, TOWN_WIPE, VAR_CAMP, VAR_CATEGORY, VILLAGER

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
        camp = cell.get(VAR_CAMP)
        if camp == EVIL:
            evil += p.alive
        elif camp == GOOD:
            alive = p.alive
            good += alive
            category = cell.get(VAR_CATEGORY)
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

    The census reads the player records alone, and ``GameView.all_players`` returns the
    same tuple until a record changes, so the last answer is kept by that tuple's
    identity: the census is redone only after a death or a camp change, not every phase.
    """

    __slots__ = ("_last", "mode")

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self._last: tuple[tuple[hr.PlayerInfo, ...], tuple[str, ...] | None] | None = None

    def check_victory(self, view: hr.GameView) -> tuple[str, ...] | None:
        players = view.all_players()
        last = self._last  # one read: another thread may replace it meanwhile
        if last is not None and last[0] is players:
            return last[1]
        got = check_victory(view, self.mode)
        self._last = (players, got)
        return got
