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

After the end every held card and the centre are public, and random nights almost never
end with exactly those cards. So the deal is rebuilt backwards instead
(:func:`end_nights`: every deal and choice of card moves that ends so), a drawn deal is
kept only if it is one of them, and one of its nights is picked uniformly (uniform over
the consistent deals, uniform over the nights explaining each).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import hiddenrole as hr
from hiddenrole.games import onenight as on
from hiddenrole.host import Table, TableLog

from .observation import Action, Observation
from .world_replay import Chooser, sample_deals

__all__ = ["sample_onenight", "Night", "end_nights"]


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
    if obs.over:
        return _after_the_end(obs, answers, rng, choose, options=options, seats=seats, max_tries=max_tries)

    def chooser_for(roles: Mapping[str, str]) -> Chooser | None:
        return choose if roles[obs.seat] == obs.role else None

    return sample_deals(obs, answers, rng, chooser_for, options=options, seats=seats, max_tries=max_tries)


@dataclass(frozen=True)
class Night:
    """One way the night went that explains the end: the deal and the night's card moves
    (each ``None`` when nobody made it)."""

    dealt: tuple[tuple[str, str], ...]
    """(seat, card dealt), in seat order."""
    centre: tuple[str, ...]
    """The centre cards as dealt, by slot."""
    rob: tuple[str, str] | None
    """(robber, victim)."""
    meddle: tuple[str, str, str] | None
    """(troublemaker, a, b)."""
    drink: tuple[str, str] | None
    """(drunk, centre slot); a drunk dealt to a seat always swaps."""


def end_nights(obs: Observation, answers: Sequence[Action]) -> list[Night]:
    """Every deal and night of card moves that ends with the cards every seat holds and the
    centre (all public once the game is over), found by undoing the moves from the end: the
    seat was dealt its card, each move is made by the seat dealt its card (the drunk's always),
    and the seat's own move is its answer."""
    by_name = {name: role for role, name in on.DISPLAY_NAMES.items()}
    held = {s: by_name[n] for s, n in obs.data["held"].items()}
    final_centre = tuple(by_name[n] for n in obs.data["center"])
    seats = sorted(held)
    mine = {a.skill: a.targets for a in answers}
    me = obs.seat

    def options(
        role: str, skill: str, shapes: Sequence[tuple[str, ...]], optional: bool
    ) -> list[tuple[str, ...] | None]:
        if obs.role == role:  # the seat's own move: its answer (the drunk's default slot without one)
            got = mine.get(skill) or (() if optional else (on.CENTER_SLOTS[0],))
            return [(me, *got) if got else None]
        out: list[tuple[str, ...] | None] = [None]
        out += [(actor, *t) for actor in seats if actor != me for t in shapes if actor not in t]
        return out

    rob_opts = options(on.ROBBER, on.ROB, [(t,) for t in seats], True)
    meddle_opts = options(
        on.TROUBLEMAKER, on.MEDDLE, [(a, b) for i, a in enumerate(seats) for b in seats[i + 1 :]], True
    )
    drink_opts = options(on.DRUNK, on.DRINK, [(c,) for c in on.CENTER_SLOTS], False)
    found: list[Night] = []
    for drink in drink_opts:
        cards = dict(held)
        centre = list(final_centre)
        if drink is not None:  # undo the drunk's swap first (it came last)
            i = on.CENTER_SLOTS.index(drink[1])
            cards[drink[0]], centre[i] = centre[i], cards[drink[0]]
        for meddle in meddle_opts:
            after_rob = dict(cards)
            if meddle is not None:
                after_rob[meddle[1]], after_rob[meddle[2]] = after_rob[meddle[2]], after_rob[meddle[1]]
            for rob in rob_opts:
                deal = dict(after_rob)
                if rob is not None:
                    deal[rob[0]], deal[rob[1]] = deal[rob[1]], deal[rob[0]]
                if _explains(deal, tuple(centre), rob, meddle, drink, me, obs.role):
                    found.append(
                        Night(tuple(sorted(deal.items())), tuple(centre), _pair(rob), _triple(meddle), _pair(drink))
                    )
    return found


def _explains(
    deal: Mapping[str, str],
    centre: tuple[str, ...],
    rob: tuple[str, ...] | None,
    meddle: tuple[str, ...] | None,
    drink: tuple[str, ...] | None,
    me: str,
    role: str,
) -> bool:
    """Is each move made by the seat dealt its card, and the drunk's swap made whenever a seat was
    dealt the drunk? (and the seat dealt its own card)"""
    if deal[me] != role:
        return False
    for move, card in ((rob, on.ROBBER), (meddle, on.TROUBLEMAKER), (drink, on.DRUNK)):
        if move is not None and deal[move[0]] != card:
            return False
    return drink is not None or on.DRUNK not in deal.values()


def _pair(move: tuple[str, ...] | None) -> tuple[str, str] | None:
    return None if move is None else (move[0], move[1])


def _triple(move: tuple[str, ...] | None) -> tuple[str, str, str] | None:
    return None if move is None else (move[0], move[1], move[2])


def _after_the_end(
    obs: Observation,
    answers: Sequence[Action],
    rng: random.Random,
    votes: Chooser,
    *,
    options: Mapping[str, Any] | None,
    seats: Sequence[str],
    max_tries: int,
) -> TableLog | None:
    """Once the game is over every held card and the centre are public: keep the deals that
    :func:`end_nights` can explain, then pick one of their nights uniformly."""
    nights: dict[tuple[tuple[str, str], ...], list[Night]] = {}
    for n in end_nights(obs, answers):
        nights.setdefault(n.dealt, []).append(n)

    def chooser_for(roles: Mapping[str, str]) -> Chooser | None:
        return votes if tuple(sorted(roles.items())) in nights else None

    def refine(table: Table, _: Chooser) -> Chooser | None:
        god = table.inspect()
        centre = tuple(god.var(hr.GAME, on.center_key(s)) for s in on.CENTER_SLOTS)
        dealt = tuple(sorted((p.id, p.role) for p in god.all_players()))
        fitting = [n for n in nights.get(dealt, ()) if n.centre == centre]
        return _night_chooser(obs.seat, rng.choice(fitting), votes) if fitting else None

    return sample_deals(
        obs, answers, rng, chooser_for, options=options, seats=seats, max_tries=max_tries, refine=refine
    )


def _night_chooser(me: str, night: Night, votes: Chooser) -> Chooser:
    """The other seats' card moves as ``night`` says; everything else as :func:`_chooser` and random
    play (the seat ``me`` repeats its answers)."""
    plan: dict[tuple[str, str], tuple[str, ...]] = {}
    if night.rob is not None:
        plan[(night.rob[0], on.ROB)] = night.rob[1:]
    if night.meddle is not None:
        plan[(night.meddle[0], on.MEDDLE)] = night.meddle[1:]
    if night.drink is not None:
        plan[(night.drink[0], on.DRINK)] = night.drink[1:]

    def choose(seat: str, o: Observation) -> Action | None:
        for la in o.legal:
            if la.skill in (on.ROB, on.MEDDLE, on.DRINK) and seat != me:
                targets = plan.get((seat, la.skill))
                return Action(la.skill, targets) if targets else Action()
        return votes(seat, o)

    return choose
