"""Who wins: decided once, after the vote, from the cards held at the end.

Every camp is judged on its own, so several can win together (tanner and village)
and none may win at all (no werewolf among the players, yet somebody died). The
kernel's multi-winner result carries the answer as a tuple of camps.
"""

from __future__ import annotations

from typing import Final

import hiddenrole as hr

from .resolvers import card_of
from .vocab import MINION, TANNER, TANNER_CAMP, VAR_VOTE_SETTLED, VILLAGE, WEREWOLF, WOLF

__all__ = ["decide", "check_victory", "check_victory_with_minion_clause"]

_GAME: Final = hr.VarScope()  # == hr.GAME (not named: mypyc cannot type the kernel's constant here)
_PRESENT: Final[str] = hr.VAR_PRESENT
"""The kernel's names as this module's constants: compiled, ``hr.GAME`` is an attribute lookup on the
package at every call, and the kernel asks for the winners after each of the ten phases."""


def decide(view: hr.GameView, *, minion_clause: bool = False) -> tuple[hr.Camp, ...] | None:
    """The winning camps once the vote is settled, ``None`` before.

    * village wins if a werewolf-card holder died, or if no player holds a werewolf
      card and nobody died;
    * the tanner wins if the tanner-card holder died;
    * the wolves (werewolves and minion) win if a player holds a werewolf card, no
      werewolf-card holder died and the tanner-card holder did not die;
    * with ``minion_clause``, when no player holds a werewolf card, the wolves also win
      if someone other than a minion-card holder died (a minion must be a player).
    """
    if view.var(_GAME, VAR_VOTE_SETTLED) != _PRESENT:
        return None
    # One pass over the records, each card compared as it is read (no lists searched after):
    # a seat's held card is its own ``card`` game variable.
    wolf_in_play = wolf_died = tanner_died = minion_held = anyone_died = other_than_minion_died = False
    for p in view.all_players():
        alive = p[2]  # by position: compiled, an attribute read is a generic lookup
        card = card_of(p)
        if card == WEREWOLF:
            wolf_in_play = True
        elif card == MINION:
            minion_held = True
        if not alive:
            anyone_died = True
            if card == WEREWOLF:
                wolf_died = True
            elif card == TANNER:
                tanner_died = True
            if card != MINION:
                other_than_minion_died = True
    winners: list[hr.Camp] = []
    if wolf_died or (not wolf_in_play and not anyone_died):
        winners.append(VILLAGE)
    if tanner_died:
        winners.append(TANNER_CAMP)
    if wolf_in_play and not wolf_died and not tanner_died:
        winners.append(WOLF)
    elif minion_clause and not wolf_in_play and minion_held and other_than_minion_died:
        winners.append(WOLF)  # the two ways for the wolves exclude each other: never listed twice
    winners.sort()
    return tuple(winners)


def check_victory(view: hr.GameView) -> tuple[hr.Camp, ...] | None:
    """The rulebook's victory rules (without the minion clause)."""
    return decide(view)


def check_victory_with_minion_clause(view: hr.GameView) -> tuple[hr.Camp, ...] | None:
    """As :func:`check_victory`, plus: with no werewolf in play, the minion wins if another player died."""
    return decide(view, minion_clause=True)
