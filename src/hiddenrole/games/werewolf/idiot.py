"""The idiot (白痴): a third-party extension built from public names only.

When the vote eliminates an idiot whose card is still hidden, the card is turned
over instead: the idiot stays in the game, everyone learns the role, and the idiot
never votes again. Any later death (a second exile, a wolf kill, poison, a shot)
is an ordinary one.

It is written as an :class:`hiddenrole.Interceptor` over the primitives the core
resolvers emit, using nothing but ``hiddenrole``'s and ``werewolf``'s public API, to
show how a table's house role plugs in without editing the ruleset::

    rules = werewolf.rules(extensions=(idiot.EXTENSION,))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import hiddenrole as hr
from hiddenrole.games import werewolf as ww

__all__ = ["IDIOT", "IDIOT_REVEALED", "VAR_REVEALED", "EXTENSION", "SPEC", "intercept", "board"]

IDIOT: Final = "IDIOT"
IDIOT_REVEALED: Final = "IDIOT_REVEALED"
"""Public event: the target turned over the idiot card and survives the vote."""
VAR_REVEALED: Final = "idiot.revealed"
"""Game, per player: this idiot's card is face up."""


def _hidden_idiot(view: hr.GameView, player_id: str) -> bool:
    p = view.player(player_id)
    return p is not None and p.role == IDIOT and not p.vars.get(VAR_REVEALED)


def _spared(view: hr.GameView, player_id: str) -> bool:
    """The idiot just turned the card over during this vote (and is therefore alive)."""
    p = view.player(player_id)
    return p is not None and p.alive and p.role == IDIOT and bool(p.vars.get(VAR_REVEALED))


def intercept(effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
    """Turn an idiot's exile into a reveal.

    The core expresses a death as ``set_alive(False)``, the cause variable and a
    detour to the last-action phase. During the vote, the lethal primitive on a
    hidden idiot becomes the reveal; the other two parts, now about a living
    player, are dropped. Every other effect passes untouched (``None``).
    """
    if view.phase != ww.VOTE:
        return None
    if effect.sets_alive() is False and _hidden_idiot(view, effect.target):
        owner = hr.GAME.of(effect.target)
        return [
            hr.Effect(IDIOT_REVEALED, target=effect.target),
            hr.set_var(owner, VAR_REVEALED, hr.VAR_PRESENT),
            hr.set_var(owner, ww.VAR_NO_VOTE, hr.VAR_PRESENT),
        ]
    written = effect.sets_var()
    if written is not None and written[1] == ww.VAR_DEATH_CAUSE and _spared(view, written[0].owner):
        return []
    if effect.type == hr.DETOUR and not effect.canceled and _spared(view, effect.source):
        return []
    return None


SPEC: Final = ww.RoleSpec(IDIOT, ww.GOOD, ww.GOD)

EXTENSION: Final = ww.Extension(
    "idiot",
    roles=(SPEC,),
    interceptors=(intercept,),
    events=((IDIOT_REVEALED, ww.PUBLIC),),
    reveals=(IDIOT_REVEALED,),
)


def board(players: int) -> tuple[str, ...]:
    """The preset card set with one villager replaced by the idiot."""
    return _swap(ww.board(players), ww.VILLAGER, IDIOT)


def _swap(cards: Sequence[str], old: str, new: str) -> tuple[str, ...]:
    out = list(cards)
    out[out.index(old)] = new
    return tuple(out)
