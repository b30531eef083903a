"""The information boundary: what each player knows, whom they see, who hears what.

Knowledge that comes from being awake together (werewolves see each other, the
minion sees the werewolves, masons see each other) is derived from the dealt cards,
which never change. Knowledge that comes from looking at a card is read from the
player's ``learn.*`` variables, written by the resolvers at the moment of looking.
"""

from __future__ import annotations

from collections.abc import Mapping

import hiddenrole as hr

from .resolvers import dealt
from .vocab import DAY, MASON, MINION, PHASES, PRIVATE_EVENTS, PUBLIC_EVENTS, VOTE_PHASE, WEREWOLF

__all__ = ["LEARN_PREFIX", "KEY_WOLVES", "KEY_MASONS", "role_info", "teammates", "audience", "speech"]

LEARN_PREFIX = "learn."
KEY_WOLVES = "wolves"
"""Role info of werewolves (the *other* werewolves; empty = lone wolf) and of the minion (all werewolves)."""
KEY_MASONS = "masons"
"""Role info of masons: the other masons (empty = the other mason card is in the centre)."""


def teammates(player_id: str, view: hr.GameView) -> tuple[str, ...]:
    """Whose dealt card a player saw at night: werewolves each other, the minion the
    werewolves (one way: werewolves do not see the minion), masons each other."""
    me = view.player(player_id)
    if me is None:
        return ()
    if me.role in (WEREWOLF, MINION):
        return tuple(p for p in dealt(view, WEREWOLF) if p != player_id)
    if me.role == MASON:
        return tuple(p for p in dealt(view, MASON) if p != player_id)
    return ()


def role_info(player_id: str, view: hr.GameView) -> Mapping[str, str]:
    """What a player privately knows: companions seen at night and every card looked at.

    Looked-at cards are as of the moment of looking (``learn.self``,
    ``learn.player.<id>``, ``learn.center.<slot>``); the held card itself is never shown.
    """
    me = view.player(player_id)
    if me is None:
        return {}
    info = {k: v for k, v in me.vars.items() if k.startswith(LEARN_PREFIX)}
    if me.role in (WEREWOLF, MINION):
        info[KEY_WOLVES] = ",".join(teammates(player_id, view))
    elif me.role == MASON:
        info[KEY_MASONS] = ",".join(teammates(player_id, view))
    return info


def audience(event: hr.Event, view: hr.GameView) -> tuple[str, ...] | None:
    """Votes, deaths, start and end are public; a night result goes to its actor only."""
    if event.type in PUBLIC_EVENTS:
        return view.player_ids()
    if event.type in PRIVATE_EVENTS:
        return (event.source,) if event.source else ()
    return None


_NIGHT = frozenset(PHASES) - {DAY, VOTE_PHASE}


def speech(sender_id: str, view: hr.GameView) -> tuple[str, ...]:
    """Nobody speaks at night (eyes are closed); by day and after the game everyone hears everyone."""
    if view.phase in _NIGHT:
        return ()
    return view.player_ids()
