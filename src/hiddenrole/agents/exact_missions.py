"""Exact determinization for Missions (Avalon / Resistance): deal, then the secret mission cards.

What a seat cannot see in Missions is the deal and who played a fail on each mission;
everything else (teams, ballots, results, the assassin's pick) is public. So instead
of random forward play, the sampler

1. draws deals from the game's own setup (fresh seeds) and keeps one only if it fits
   the seat's role, the roles it is shown, and a cheap reading of the public record: each played mission's
   team holds at least as many evil seats as the fails it showed (good cards are
   always successes), and a hit by the assassin names Merlin;
2. picks, for every played mission, which evil team members played the fails,
   uniformly among the subsets of the right size (the seat's own card is its own);
3. replays the public moves (each nomination, each ballot, the assassin's target)
   with those cards through the host, and keeps the world only if the seat's
   observation is exactly ``obs`` (this also checks what the seat saw at the start:
   Merlin's, evil's and Percival's sight).

Weighting: deals are uniform among the consistent ones (the setup's shuffle is
uniform and rejection keeps that), and the fail cards uniform given the deal. This
is not the posterior of real play (it ignores how likely players are to fail).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hiddenrole.games import missions as ms
from hiddenrole.host import TableLog

from .observation import Action, Observation
from .world_replay import Chooser, sample_deals

__all__ = ["sample_missions", "PublicRecord", "read_record"]


@dataclass
class PublicRecord:
    """What the seat's events say: nominations in order, each ballot round, each mission's result."""

    teams: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    """``(mission, team)`` of every nomination, in order."""
    ballots: list[dict[str, str]] = field(default_factory=list)
    """Per nomination, each voter's skill (approve / reject)."""
    results: dict[str, tuple[tuple[str, ...], int, frozenset[str]]] = field(default_factory=dict)
    """Per played mission: its team, its fail count, good seats whose fail was refused."""
    tallied: int = 0
    """Ballot rounds already counted (later rounds are still open)."""
    assassinated: str = ""
    hit: bool = False


def read_record(obs: Observation) -> PublicRecord:
    """Parse the public part of ``obs.events`` (see :class:`PublicRecord`)."""
    rec = PublicRecord()
    refused: set[str] = set()
    for e in obs.events:
        if e.type == ms.NOMINATED and not e.canceled:
            rec.teams.append((e.data["mission"], tuple(e.data["team"].split(","))))
            rec.ballots.append({})
        elif e.type == ms.VOTED and rec.ballots:
            rec.ballots[-1][e.source] = ms.APPROVE if e.data["vote"] == "approve" else ms.REJECT
        elif e.type in (ms.TEAM_APPROVED, ms.TEAM_REJECTED):
            rec.tallied += 1
        elif e.type == ms.FAIL_REFUSED:
            refused.add(e.source)
        elif e.type in (ms.MISSION_FAILED, ms.MISSION_SUCCEEDED):
            team = tuple(t for t in e.data["team"].split(",") if t)
            rec.results[e.data["mission"]] = (team, int(e.data["fails"]), frozenset(refused))
            refused = set()
        elif e.type == ms.ASSASSINATED:
            rec.assassinated, rec.hit = e.target, e.data.get("hit") == "true"
    return rec


def _my_cards(obs: Observation, answers: Sequence[Action], rec: PublicRecord) -> dict[str, str]:
    """The seat's own card on each mission it was on (its answers, in mission order)."""
    played = [a.skill for a in answers if a.skill in (ms.SUCCESS, ms.FAIL)]
    mine = [m for m, (team, _, _) in rec.results.items() if obs.seat in team]
    return dict(zip(mine, played, strict=False))


def _cards(
    roles: Mapping[str, str], obs: Observation, mine: Mapping[str, str], rec: PublicRecord, rng: random.Random
) -> dict[str, dict[str, str]] | None:
    """Per mission, every other team member's card; ``None`` if the deal cannot explain a fail count."""
    out: dict[str, dict[str, str]] = {}
    me = obs.seat
    for mission, (team, fails, refused) in rec.results.items():
        need = fails - (mine.get(mission) == ms.FAIL and roles[me] in ms.EVIL_ROLES)
        evil = [s for s in team if s != me and roles[s] in ms.EVIL_ROLES]
        if need < 0 or need > len(evil) or any(roles[s] in ms.EVIL_ROLES for s in refused):
            return None
        failers = set(rng.sample(evil, need))
        out[mission] = {s: ms.FAIL if s in failers | refused else ms.SUCCESS for s in team if s != me}
    return out


def _fits(roles: Mapping[str, str], obs: Observation, rec: PublicRecord) -> bool:
    if roles[obs.seat] != obs.role:
        return False
    if any(p.role and roles.get(p.seat) != p.role for p in obs.players):
        return False  # a role the seat is shown (all of them once the game is over) is the dealt one
    return not rec.assassinated or rec.hit == (roles.get(rec.assassinated) == ms.MERLIN)


def sample_missions(
    obs: Observation,
    answers: Sequence[Action],
    rng: random.Random,
    *,
    options: Mapping[str, Any] | None,
    seats: Sequence[str],
    max_tries: int,
) -> TableLog | None:
    """A log replaying to ``obs`` (see the module docstring); ``None`` when ``max_tries`` deals did not fit."""
    rec = read_record(obs)
    mine = _my_cards(obs, answers, rec)

    def chooser_for(roles: Mapping[str, str]) -> Chooser | None:
        if not _fits(roles, obs, rec):
            return None
        cards = _cards(roles, obs, mine, rec, rng)
        return None if cards is None else _chooser(obs.seat, rec, cards)

    return sample_deals(obs, answers, rng, chooser_for, options=options, seats=seats, max_tries=max_tries)


def _chooser(me: str, rec: PublicRecord, cards: Mapping[str, Mapping[str, str]]) -> Chooser:
    """Each other seat's public moves from ``rec`` and its cards from ``cards`` (the seat itself
    repeats its answers)."""
    state = {"nominated": 0}
    mission = [""]

    def choose(seat: str, o: Observation) -> Action | None:
        nominated = state["nominated"]
        skills = {la.skill for la in o.legal}
        ballot = rec.ballots[nominated - 1] if 0 < nominated <= len(rec.ballots) else {}
        closed = nominated <= rec.tallied  # a counted round: a seat missing from it did not vote
        action: Action | None = None
        if ms.NOMINATE in skills:
            if seat != me and nominated < len(rec.teams):
                action = Action(ms.NOMINATE, rec.teams[nominated][1])
            mission[0] = rec.teams[nominated][0] if nominated < len(rec.teams) else ""
            state["nominated"] += 1
        elif skills & {ms.APPROVE, ms.REJECT}:
            if seat == me:
                pass
            elif seat in ballot:
                action = Action(ballot[seat])
            else:
                action = Action() if closed else Action(ms.APPROVE)
        elif skills & {ms.SUCCESS, ms.FAIL} and seat != me:
            action = Action(cards.get(mission[0], {}).get(seat, ms.SUCCESS))
        elif ms.ASSASSINATE in skills and rec.assassinated and seat != me:
            action = Action(ms.ASSASSINATE, (rec.assassinated,))
        return action

    return choose
