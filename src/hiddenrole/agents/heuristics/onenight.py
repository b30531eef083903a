"""A One Night heuristic that reasons only from its observation.

Each seat works out which card it most likely holds at dawn (its dealt role, or
what the robber took or the insomniac saw) and which seats it knows to hold a
werewolf card, following the swaps it made or saw. Night actions gather information
(the seer looks at a player, the robber robs, the troublemaker swaps two others).
By day a seat that knows a werewolf card accuses it aloud ("I accuse p3: ..."); one
werewolf accuses an innocent to muddy the water. At the vote a village seat names
a werewolf it knows; else a seat that was falsely accused votes its accuser; else
the most accused seat, ties broken by an order all seats compute alike, so the
village's votes gather (only a seat with two or more votes dies). Werewolf-side
seats vote the innocent their side accused, or the first non-wolf in that order.
"""

from __future__ import annotations

import re

from hiddenrole.games import onenight as on

from ..observation import Action, Observation
from .common import seats_in, shared_order, use

__all__ = ["OneNightHeuristic"]

WOLF_SIDE = frozenset({on.WEREWOLF, on.MINION})
ACCUSE = "I accuse {seat}: I saw a werewolf card there."
VOUCH = "I vouch for {seat}: I saw no werewolf there."
_ACCUSED = re.compile(r"I accuse ([A-Za-z0-9][A-Za-z0-9_.-]*):")
_VOUCHED = re.compile(r"I vouch for ([A-Za-z0-9][A-Za-z0-9_.-]*):")


def vouches(obs: Observation) -> set[str]:
    return {m.group(1) for line in obs.chat if (m := _VOUCHED.match(line.text))}


def accusations(obs: Observation) -> list[tuple[str, str]]:
    """(accuser, accused) pairs heard so far."""
    out = []
    for line in obs.chat:
        m = _ACCUSED.match(line.text)
        if m:
            out.append((line.sender, m.group(1)))
    return out


class Facts:
    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        info = obs.role_info
        self.cards: dict[str, str] = {}
        for key, card in info.items():
            if key.startswith("learn.player."):
                self.cards[key.removeprefix("learn.player.")] = card
        self.wolves = set(seats_in(info.get("wolves", "")))
        if obs.role == on.WEREWOLF:
            self.wolves.add(obs.seat)
        self.mine = info.get(on.LEARN_SELF, obs.role)
        for e in obs.events:
            if e.source != obs.seat:
                continue
            if e.type == on.ROBBED and e.target:
                self.cards[e.target] = on.ROBBER
                self.mine = e.data.get("card", self.mine)
            elif e.type == on.MEDDLED and e.target:
                other = e.data.get("with", "")
                a, b = self.cards.get(e.target), self.cards.get(other)
                for seat, seen in ((e.target, b), (other, a)):
                    if seen is None:
                        self.cards.pop(seat, None)
                    else:
                        self.cards[seat] = seen
        for seat, card in self.cards.items():
            if card == on.WEREWOLF:
                self.wolves.add(seat)
            else:
                self.wolves.discard(seat)


class OneNightHeuristic:
    """One seat of One Night Ultimate Werewolf, any card."""

    talks = True

    def act(self, obs: Observation) -> Action:
        f = Facts(obs)
        others = [p.seat for p in obs.players if p.seat != obs.seat]
        order = sorted(others, key=lambda s: shared_order("onenight", s))
        if not obs.legal:
            return self._talk(obs, f, order)
        skills = {la.skill for la in obs.legal}
        if on.VOTE in skills:
            return use(obs, on.VOTE, self._vote(obs, f, order), why="gathered vote") or Action()
        if on.SEER_PLAYER in skills:
            return use(obs, on.SEER_PLAYER, order[0]) or Action()
        if on.ROB in skills:
            return use(obs, on.ROB, order[-1]) or Action()
        if on.MEDDLE in skills:
            return use(obs, on.MEDDLE, *order[1:3]) or use(obs, on.MEDDLE, *order[:2]) or Action()
        for la in obs.legal:  # peek, drink: any card will do
            if la.candidates and la.min_targets:
                return use(obs, la.skill, *la.candidates[: la.min_targets]) or Action()
        return Action()

    def _talk(self, obs: Observation, f: Facts, order: list[str]) -> Action:
        if not obs.can_say or any(line.sender == obs.seat for line in obs.chat):
            return Action()
        if f.mine in WOLF_SIDE:
            pack = sorted(f.wolves | {obs.seat})
            if obs.role == on.WEREWOLF and pack[0] == obs.seat:
                innocent = next((s for s in order if s not in f.wolves), "")
                if innocent:
                    return Action(say=ACCUSE.format(seat=innocent), reasoning="muddy the water")
            return Action()
        known = [s for s in order if s in f.wolves]
        if known:
            return Action(say=ACCUSE.format(seat=known[0]))
        cleared = sorted(s for s, card in f.cards.items() if card != on.WEREWOLF and s != obs.seat)
        return Action(say=VOUCH.format(seat=cleared[0])) if cleared else Action()

    def _vote(self, obs: Observation, f: Facts, order: list[str]) -> str:
        heard = accusations(obs)
        if f.mine in WOLF_SIDE:
            ours = [t for a, t in heard if a in f.wolves | {obs.seat} and t not in f.wolves and t != obs.seat]
            return ours[0] if ours else next((s for s in order if s not in f.wolves), order[0])
        known = [s for s in order if s in f.wolves]
        if known:
            return known[0]
        liars = [a for a, t in heard if t == obs.seat and a != obs.seat]
        if liars:
            return liars[0]
        innocent = {s for s, card in f.cards.items() if card != on.WEREWOLF} | vouches(obs)
        count: dict[str, float] = {}
        for _, t in heard:
            if t != obs.seat and t not in innocent:
                count[t] = count.get(t, 0.0) + 1.0
        pool = [s for s in order if s not in innocent] or order
        return sorted(pool, key=lambda s: (-count.get(s, 0.0), shared_order("onenight", s)))[0]
