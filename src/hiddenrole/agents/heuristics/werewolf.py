"""A werewolf heuristic that reasons only from its observation.

Good seats keep a suspicion score from public facts: a ballot against a player who
later died in the night (most likely good) counts against the voter, and the seer's
checks are certain. The good camp votes its top suspect, ties broken by an order every
seat computes alike, so good ballots gather instead of scattering. The seer checks
its top unchecked suspect; the witch saves the night's victim once and poisons a
strong suspect; the guard never repeats last night's protection; the hunter shoots
the top suspect. Wolves share one view (teammates and their own night tallies), so
they name the same victim unasked, the good seat that voted most against the pack;
by day they join the public suspicion against a good seat.
"""

from __future__ import annotations

from collections import Counter

from hiddenrole.games import werewolf as ww

from ..observation import Action, Observation
from .common import ballots, best, seats_in, use

__all__ = ["WerewolfHeuristic"]

POISON_AT = 2.0
"""Suspicion at which the witch spends her poison."""


class Facts:
    """What a seat has gathered so far, from its observation only."""

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.night_dead: list[str] = []
        self.votes: list[tuple[str, str]] = []
        self.checked: dict[str, bool] = {}
        self.last_protect = ""
        self.pack = set(obs.teammates) | ({obs.seat} if obs.camp == ww.EVIL else set())
        for e in obs.events:
            if e.type == ww.DAWN:
                self.night_dead += seats_in(e.data.get("dead", ""))
            elif e.type in (ww.ELIMINATE, ww.VOTE_TIED):
                self.votes += ballots(e.data.get("ballots", ""))
            elif e.type == ww.CHECK and e.source == obs.seat and not e.canceled:
                self.checked[e.target] = e.data.get("camp", "") != ww.EVIL
            elif e.type == ww.PROTECT and e.source == obs.seat and not e.canceled:
                self.last_protect = e.target

    def suspicion(self, private: bool = True) -> dict[str, float]:
        """Higher is more likely a wolf. ``private=False``: public facts only (what wolves imitate)."""
        score: dict[str, float] = {}
        dead = set(self.night_dead)
        known = self.checked if private else {}
        for voter, target in self.votes:
            if target in dead or known.get(target) is True:
                score[voter] = score.get(voter, 0.0) + 1.0
            if known.get(target) is False:
                score[voter] = score.get(voter, 0.0) - 1.0
        for seat, good in known.items():
            score[seat] = score.get(seat, 0.0) + (-100.0 if good else 100.0)
        return score

    def living_others(self) -> list[str]:
        return [s for s in self.obs.living if s != self.obs.seat]


class WerewolfHeuristic:
    """One seat of werewolf, any role."""

    talks = False

    def act(self, obs: Observation) -> Action:
        if not obs.legal:
            return Action()
        f = Facts(obs)
        salt = f"{obs.round}"
        skills = {la.skill for la in obs.legal}
        evil = obs.camp == ww.EVIL
        if ww.KILL in skills:
            return self._kill(obs, f, salt) or Action()
        if ww.VOTE in skills:
            if evil:
                score = f.suspicion(private=False)
                target = best([s for s in f.living_others() if s not in f.pack], score, salt)
            else:
                target = best(f.living_others(), f.suspicion(), salt)
            return (target and use(obs, ww.VOTE, target, why="top suspect")) or Action()
        if ww.CHECK in skills:
            score = f.suspicion()
            target = best([s for s in f.living_others() if s not in f.checked], score, salt)
            return (target and use(obs, ww.CHECK, target)) or Action()
        if ww.ANTIDOTE in skills or ww.POISON in skills:
            return self._witch(obs, f, salt)
        if ww.PROTECT in skills:
            order = [obs.seat, *sorted(f.living_others(), key=lambda s: f.suspicion().get(s, 0.0))]
            for target in order:
                if target != f.last_protect and (act := use(obs, ww.PROTECT, target)):
                    return act
            return use(obs, ww.SKIP) or Action()
        if ww.SHOOT in skills and obs.role_info.get(ww.INFO_CAN_SHOOT, "yes") == "yes":
            pool = [s for s in f.living_others() if s not in f.pack]
            target = best(pool, f.suspicion(), salt)
            if target and (act := use(obs, ww.SHOOT, target)):
                return act
        if ww.BID in skills:  # bid-for-floor: a seat that does not talk would rather listen
            return use(obs, ww.BID, ww.BID_LEVELS[0], why="nothing to say") or Action()
        if ww.DONE in skills:
            return use(obs, ww.DONE) or Action()
        return use(obs, ww.SKIP) or Action()

    def _kill(self, obs: Observation, f: Facts, salt: str) -> Action | None:
        against_pack: Counter[str] = Counter(v for v, t in f.votes if t in f.pack)
        pool = [s for s in obs.living if s not in f.pack]
        target = best(pool, dict(against_pack), salt)
        return use(obs, ww.KILL, target, why="the pack's choice") if target else None

    def _witch(self, obs: Observation, f: Facts, salt: str) -> Action:
        victim = obs.role_info.get(ww.INFO_KILL_TARGET, "")
        if victim and ww.INFO_ANTIDOTE in obs.role_info and (act := use(obs, ww.ANTIDOTE, victim)):
            return act
        if ww.INFO_POISON in obs.role_info:
            score = f.suspicion()
            target = best(f.living_others(), score, salt)
            if target and score.get(target, 0.0) >= POISON_AT and (act := use(obs, ww.POISON, target)):
                return act
        return use(obs, ww.SKIP) or Action()
