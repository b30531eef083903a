"""An Avalon / Resistance heuristic that reasons only from its observation.

Good seats score suspicion from mission results (each fail is spread over the team it
happened on; a clean mission clears its team a little) and send the least suspicious
players. Merlin knows the evil seats and steers with his votes and teams, but ranks
everyone else by the same public suspicion, so his choices look like anyone's. Evil
seats approve teams holding one of their own, fail a mission only when their known
members on the team reach the fails it needs (the lowest seats fail, the others play
safe), and reject the hammer unless they are on it. The assassin picks the good seat
whose votes matched the truth best: who rejected evil teams and approved clean ones.
"""

from __future__ import annotations

from collections import Counter

from hiddenrole.games import missions as ms

from ..observation import Action, Observation
from .common import best, seats_in, shared_order, use

__all__ = ["MissionsHeuristic"]


class Facts:
    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.missions: list[tuple[list[str], int]] = []  # (team, fails)
        self.votes: list[tuple[list[str], dict[str, bool]]] = []  # (team, seat -> approved)
        pending: dict[str, bool] = {}
        team: list[str] = []
        for e in obs.events:
            if e.type == ms.NOMINATED:
                team = seats_in(e.data.get("team", ""))
                pending = {}
            elif e.type == ms.VOTED:
                pending[e.source] = e.data.get("vote", "") == "approve"
            elif e.type in (ms.TEAM_APPROVED, ms.TEAM_REJECTED):
                self.votes.append((seats_in(e.data.get("team", "")) or team, dict(pending)))
            elif e.type in (ms.MISSION_SUCCEEDED, ms.MISSION_FAILED):
                self.missions.append((seats_in(e.data.get("team", "")), int(e.data.get("fails", "0") or 0)))
        self.rejects = int(str(obs.data.get("rejects", "0")) or 0)
        self.known_evil: set[str] = set()
        if obs.camp == ms.EVIL:  # fellow evil players are named in role info (never their roles), Oberon excepted
            self.known_evil = set(seats_in(obs.role_info.get(ms.KEY_FELLOW_EVIL, ""))) | {obs.seat}
        elif ms.KEY_EVIL in obs.role_info:
            self.known_evil = set(seats_in(obs.role_info[ms.KEY_EVIL]))

    def suspicion(self) -> dict[str, float]:
        """Public suspicion, plus what this seat knows of itself."""
        score: dict[str, float] = {}
        for team, fails in self.missions:
            others = [s for s in team if s != self.obs.seat or self.obs.camp == ms.EVIL]
            if fails and others:
                for s in others:
                    score[s] = score.get(s, 0.0) + fails / len(others) * 3.0
            elif not fails:
                for s in team:
                    score[s] = score.get(s, 0.0) - 0.5
        if self.obs.camp != ms.EVIL:
            score[self.obs.seat] = -1000.0
        return score


class MissionsHeuristic:
    """One seat of The Resistance or Avalon, any role."""

    talks = False

    def act(self, obs: Observation) -> Action:
        if not obs.legal:
            return Action()
        f = Facts(obs)
        skills = {la.skill for la in obs.legal}
        salt = f"{obs.data.get('mission', '')}|{f.rejects}"
        evil = obs.camp == ms.EVIL
        if ms.NOMINATE in skills:
            return self._nominate(obs, f, salt)
        if ms.APPROVE in skills:
            team = seats_in(str(obs.data.get("team", "")))
            ok = self._approve(obs, f, team)
            return use(obs, ms.APPROVE if ok else ms.REJECT) or Action()
        if ms.FAIL in skills or ms.SUCCESS in skills:
            if evil and self._should_fail(obs, f):
                return use(obs, ms.FAIL) or use(obs, ms.SUCCESS) or Action()
            return use(obs, ms.SUCCESS) or Action()
        if ms.ASSASSINATE in skills:
            return self._assassinate(obs, f, salt)
        return Action()

    def _nominate(self, obs: Observation, f: Facts, salt: str) -> Action:
        la = obs.legal_for(ms.NOMINATE)
        assert la is not None
        size = la.min_targets
        score = f.suspicion()
        if obs.camp == ms.EVIL:
            # me, then the seats the table trusts most among the good
            others = [s for s in la.candidates if s not in f.known_evil]
        else:
            others = [s for s in la.candidates if s != obs.seat and s not in f.known_evil]
        ranked = sorted(others, key=lambda s: (score.get(s, 0.0), shared_order(salt, s)))
        team = [obs.seat, *ranked][:size]
        if len(team) < size:  # not enough trusted seats: fill from the rest
            rest = [s for s in la.candidates if s not in team]
            team += rest[: size - len(team)]
        return use(obs, ms.NOMINATE, *sorted(team), why="trusted team") or Action()

    def _approve(self, obs: Observation, f: Facts, team: list[str]) -> bool:
        hammer = f.rejects >= ms.HAMMER_AT - 1
        if obs.camp == ms.EVIL:
            return bool(set(team) & f.known_evil)
        if hammer:
            return True
        if f.known_evil:  # Merlin
            return not set(team) & f.known_evil
        score = f.suspicion()
        n = len(obs.players)
        trusted = sorted(obs.living, key=lambda s: (score.get(s, 0.0), s))[: n - ms.evil_count(n)]
        return all(s in trusted for s in team)

    def _should_fail(self, obs: Observation, f: Facts) -> bool:
        team = seats_in(str(obs.data.get("team", "")))
        need = int(str(obs.data.get("fails_needed", "1")) or 1)
        mine = sorted(s for s in team if s in f.known_evil)
        return len(mine) >= need and obs.seat in mine[:need]

    def _assassinate(self, obs: Observation, f: Facts, salt: str) -> Action:
        la = obs.legal_for(ms.ASSASSINATE)
        assert la is not None
        right: Counter[str] = Counter()
        for team, ballot in f.votes:
            dirty = bool(set(team) & f.known_evil)
            for seat, approved in ballot.items():
                if approved != dirty:
                    right[seat] += 1
        pool = [s for s in la.candidates if s not in f.known_evil]
        target = best(pool, dict(right), salt)
        return (target and use(obs, ms.ASSASSINATE, target, why="voted most like Merlin")) or Action()
