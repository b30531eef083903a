"""Exact determinization for One Night: the deal (centre cards included) and the other roles' night actions.

What a seat cannot see in One Night is the deal and every night action but its own;
the day's votes are public. The sampler draws deals from the game's own setup (fresh
seeds) and keeps one only if the seat was dealt its card and starts with the same
sight (a werewolf's partners...); it then replays the night with every other seat
choosing uniformly among its legal actions (a skill, then its targets, as
:class:`RandomAgent` does), the seat repeating its own answers, and the day's votes
as the seat saw them; the world is kept only if the seat's observation is then
exactly ``obs`` (so what it saw at night -- the seer's look, the robber's new card,
the insomniac's card -- and the end, which hangs on the final cards, all hold).

Weighting: deals uniform among those consistent with the seat's card and start;
night actions as random play makes them; both filtered by the exact check.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from hiddenrole.games import onenight as on
from hiddenrole.host import TableLog

from .observation import Action, Observation
from .world_replay import Chooser, sample_deals

__all__ = ["sample_onenight"]


def _chooser(obs: Observation) -> Chooser:
    """The day's ballots as the seat saw them; a counted vote a seat is missing from was not cast."""
    ballots = {e.source: e.target for e in obs.events if e.type == on.VOTED}
    closed = any(e.type in (on.LYNCHED, on.NO_ONE_DIES) for e in obs.events)

    def choose(seat: str, o: Observation) -> Action | None:
        if seat == obs.seat or not any(la.skill == on.VOTE for la in o.legal):
            return None
        if seat in ballots:
            return Action(on.VOTE, (ballots[seat],))
        return Action() if closed else None

    return choose


def sample_onenight(
    obs: Observation,
    answers: Sequence[Action],
    rng: random.Random,
    *,
    options: Mapping[str, Any] | None,
    seats: Sequence[str],
    max_tries: int,
) -> TableLog | None:
    """A log replaying to ``obs`` (see the module docstring); ``None`` when ``max_tries`` deals did not fit."""
    choose = _chooser(obs)

    def chooser_for(roles: Mapping[str, str]) -> Chooser | None:
        return choose if roles[obs.seat] == obs.role else None

    return sample_deals(obs, answers, rng, chooser_for, options=options, seats=seats, max_tries=max_tries)
