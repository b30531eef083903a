"""Ready-to-play engines, and the moves a random bot may make."""

from __future__ import annotations

import random
from collections.abc import Iterable

import hiddenrole as hr

from .boards import AVALON, composition, deal
from .play import rules
from .tables import team_size
from .vocab import ASSASSINATE, NOMINATE

__all__ = ["new_engine", "engine_from_seats", "random_submission"]


def engine_from_seats(seats: Iterable[tuple[str, str]], *, start: bool = True) -> hr.Engine:
    """An engine with these ``(id, role)`` seats, started unless ``start`` is false.

    An illegal table is refused by :meth:`hiddenrole.Engine.start` with
    :class:`hiddenrole.InvalidBoard`.
    """
    engine = hr.Engine(rules())
    for pair in seats:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise hr.InvalidArgument(f"a seat is an (id, role) pair, got {pair!r}")
        engine.add_player(pair[0], pair[1])
    if start:
        engine.start()
    return engine


def new_engine(
    variant: str = AVALON, players: int = 7, roles: Iterable[str] = (), seed: int = 0, *, start: bool = True
) -> hr.Engine:
    """A game of ``variant`` for ``players`` with the optional ``roles``, dealt from ``seed``.

    Restore or replay it with ``hiddenrole.Engine.restore(missions.rules(), snapshot)``.
    """
    return engine_from_seats(deal(composition(variant, players, roles), seed), start=start)


def random_submission(view: hr.PlayerView, rng: random.Random) -> tuple[str, tuple[str, ...]] | None:
    """A uniformly random legal move for the viewer, or ``None`` if it may not act.

    A nomination is :func:`team_size` distinct living players (the leader may be among
    them); the assassin names one other player; every other skill takes no target.
    """
    if not view.allowed_skills:
        return None
    skill = rng.choice(view.allowed_skills)
    living = sorted(p.id for p in view.players if p.alive)
    if skill == NOMINATE:
        return skill, tuple(rng.sample(living, team_size(view)))
    if skill == ASSASSINATE:
        return skill, (rng.choice([p for p in living if p != view.player_id]),)
    return skill, ()
