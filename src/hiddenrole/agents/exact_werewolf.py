"""Exact determinization for Werewolf: a deal, then each night's hidden actions built to fit.

What a seat cannot see in Werewolf is the deal and the night: the guard's protection,
the wolves' votes (a wolf sees their tally), the witch's potions, the seer's checks and
whether a dead player's gun fired or jammed. Everything else is public (who died at
dawn, every ballot, every shot). So instead of random forward play, the sampler

1. draws deals from the game's own setup (fresh seeds) and keeps one only if it fits a
   cheap reading of the seat's events: the seat's role, every role it is shown, the camp
   each of its seer checks found, a gun for every public shooter; then the seat's sight
   at the start (a wolf's pack);
2. plays the game one *round* (a night and its day) at a time from the round's start:
   the night is built for the dawn the seat saw -- the wolves name a victim (the one
   their tally shows when the seat is a wolf, the witch's victim when the seat is the
   witch and can see it; otherwise one of the dawn's dead or any living player, or
   nobody), the guard protects it or someone else, and the witch, seeing the world's
   actual victim and guard, picks the potion (or none) that makes exactly the dawn's
   dead; the seer checks at random; a dead player shoots whom the seat saw it shoot and
   otherwise skips; the day's ballots are the ones the seat saw;
   the switches: the wolf king votes with the pack and may shoot; the idiot's turned card
   ends no round and kills nobody; with both potions allowed the witch may save the victim
   and poison another seat in one night; under ``bid-for-floor`` each turn's winner bids
   the top level and the rest 0 (a quiet close: all 0), and the speaker ends the turn as
   the seat saw (DONE, or the host's cut);
3. checks each round against the seat's observation as soon as the round is over (the
   seat's history must then be exactly its real history up to that round's end) and
   retries a round that does not fit from the round's start, going back a round when
   :data:`ROUND_TRIES` retries all fail; a deal gets :data:`DEAL_BUDGET` round plays.
   The last round is played until the seat's observation is exactly ``obs``.

Weighting: deals uniform among the ones the search can explain (the setup's shuffle is
uniform, rejection keeps that), each weighted by how often the randomised night
construction finds a fitting world within the budget -- not the posterior of real play.
Every hidden choice the public record leaves open (the victim behind an empty dawn, the
guard's target, the seer's checks) is drawn with positive probability, so every
consistent deal can appear.

Cost: a round that fits at the first try costs what playing it costs; a retried round
is rebuilt from the round's start moves (the host offers no table snapshot, so that
rebuild replays the moves before the round).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import hiddenrole as hr
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import idiot, wolfking
from hiddenrole.host import Table, TableLog
from hiddenrole.host.catalog import get

from .observation import Action, Observation, SeenEvent, observe, observe_table
from .random_agent import RandomAgent
from .runner import SeatRunner
from .world_replay import MAX_REPLAY_STEPS, dealt_tables

__all__ = ["sample_werewolf", "Round", "read_rounds", "ROUND_TRIES", "DEAL_BUDGET", "UNSUPPORTED_OPTIONS", "agrees"]

ROUND_TRIES: Final = 8
"""Plays of one round from its start before the search goes back a round."""
DEAL_BUDGET: Final = 60
"""Round plays one deal may use before it is dropped."""
UNSUPPORTED_OPTIONS: Final[tuple[str, ...]] = ()
"""Switches whose hidden moves or roles this sampler does not build (none today: the wolf king,
the idiot, both potions and bidding for the floor are built): with any on, it declines and the
generic sampler takes over."""
_PACK: Final = (ww.WEREWOLF, wolfking.WOLF_KING)
"""Roles that vote in the night kill (the wolf king is a werewolf with a gun)."""
_GUNS: Final = (ww.HUNTER, wolfking.WOLF_KING)
"""Roles that may shoot when they die (neither after poison)."""
_POTIONS: Final = (ww.ANTIDOTE, ww.POISON)
_DAY_RESULTS: Final = (ww.ELIMINATE, ww.VOTE_TIED)
_LAST_ACTIONS: Final = (ww.SHOOT, ww.SKIP)
_DAY_TAIL: Final = (*_LAST_ACTIONS, idiot.IDIOT_REVEALED)
"""Events after the day's vote that still belong to its round (a shot, the idiot's card turned)."""
_NIGHT_PHASES: Final = (ww.NIGHT_GUARD, ww.NIGHT_WOLF, ww.NIGHT_WITCH, ww.NIGHT_SEER, ww.NIGHT_RESOLVE)


@dataclass
class Round:
    """What the seat's events say about one round (a night and its day)."""

    end: int = 0
    """Index, in the seat's events, just after this round's last event."""
    dawn: tuple[str, ...] | None = None
    """The dead announced at this night's dawn; ``None`` before the dawn."""
    tally: Counter[str] | None = None
    """The wolves' votes per target, when the seat saw their KILL (a wolf)."""
    shots: dict[str, str] = field(default_factory=dict)
    """Public shots of this round: shooter -> target."""
    ballots: dict[str, str] | None = None
    """The day's ballots (voter -> target) once the vote was counted."""
    eliminated: str = ""
    """Who the day's vote eliminated (or, for the idiot, turned over: see ``revealed``)."""
    revealed: str = ""
    """The idiot whose card the day's vote turned over: still alive (switch ``idiot``)."""
    checks: dict[str, str] = field(default_factory=dict)
    """The seat's own seer checks: target -> camp found."""
    saved: str = ""
    """The seat's own antidote target this night (the witch), if it saved someone."""
    floors: list[str] = field(default_factory=list)
    """Who won each of the day's bids for the floor, in turn order (switch ``bid-for-floor``)."""
    cuts: list[bool] = field(default_factory=list)
    """For each speaking turn, whether the host cut it (SPEECH_ENDED ``how`` CUT) rather than DONE."""
    quiet: bool = False
    """The talk closed because nobody bid above 0 (after ``floors``)."""


def agrees(seen: object, want: object) -> bool:
    """The exact check: what the sampled world showed the seat is what it really saw (one place,
    so a test can plant a sampler that skips it)."""
    return seen == want


def _pairs(text: str, sep: str) -> list[tuple[str, str]]:
    return [(a, b) for a, _, b in (item.partition(sep) for item in text.split(",") if item)]


def read_rounds(obs: Observation) -> list[Round]:
    """Split ``obs.events`` into rounds (see :class:`Round`); the last one is the present's."""
    rounds = [Round()]
    for i, e in enumerate(obs.events):
        cur = rounds[-1]
        if cur.ballots is not None and e.type not in _DAY_TAIL:
            cur.end = i  # the day and its last actions are over: a new night began
            rounds.append(Round())
            cur = rounds[-1]
        _read(cur, e, obs.seat)
    rounds[-1].end = len(obs.events)
    if rounds[-1].ballots is not None and obs.phase in _NIGHT_PHASES:
        rounds.append(Round(end=len(obs.events)))  # a night began that the seat saw nothing of yet
    return rounds


def _read(cur: Round, e: SeenEvent, seat: str) -> None:
    if e.type == ww.DAWN:
        cur.dawn = tuple(d for d in e.data.get("dead", "").split(",") if d)
    elif e.type == ww.KILL and not e.source:
        cur.tally = Counter({t: int(n) for t, n in _pairs(e.data.get("tally", ""), ":")})
    elif e.type == ww.SHOOT and not e.canceled:
        cur.shots[e.source] = e.target
    elif e.type in _DAY_RESULTS:
        cur.ballots = dict(_pairs(e.data.get("ballots", ""), ">"))
        cur.eliminated = e.target if e.type == ww.ELIMINATE else ""
    elif e.type == ww.FLOOR:
        cur.floors.append(e.target)
    elif e.type == ww.SPEECH_ENDED:
        cur.cuts.append(e.data.get("how") == ww.CUT)
    elif e.type == ww.FLOOR_CLOSED:
        cur.quiet = e.data.get("why") == ww.QUIET
    elif e.type == idiot.IDIOT_REVEALED:
        cur.revealed = e.target
    elif e.type == ww.CHECK and e.source == seat and not e.canceled:
        cur.checks[e.target] = e.data.get("camp", "")
    elif e.type == ww.SAVE and e.source == seat and not e.canceled:
        cur.saved = e.target


def _fits(roles: Mapping[str, str], obs: Observation, rounds: Sequence[Round], camps: Mapping[str, str]) -> bool:
    """The cheap reading of the seat's events a deal must pass (the replay checks the rest)."""
    if roles[obs.seat] != obs.role or any(p.role and roles.get(p.seat) != p.role for p in obs.players):
        return False
    gone: set[str] = set()  # dead before the round's night (every death is public)
    for r in rounds:
        if any(camps.get(roles.get(t, ""), "") != camp for t, camp in r.checks.items()):
            return False
        if any(roles.get(s) not in _GUNS for s in r.shots):
            return False
        if not _night_possible(roles, r, gone):
            return False
        gone |= set(r.dawn or ()) | set(r.shots.values())
        if r.eliminated and r.eliminated != r.revealed:
            gone.add(r.eliminated)
    return True


def _night_possible(roles: Mapping[str, str], r: Round, gone: set[str]) -> bool:
    """Who must be alive tonight: the witch for a death the wolves' victim does not explain
    (two dead, or a dead seat a wolf knows was not the victim), the witch or the guard for a
    victim a wolf knows survived."""
    alive = {roles[s] for s in roles if s not in gone}
    dawn = set(r.dawn or ())
    victim = _leader(r.tally) if r.tally is not None else None
    poisoned = dawn - {victim} if victim is not None else (dawn if len(dawn) > 1 else set())
    if poisoned and (ww.WITCH not in alive or any(roles.get(s) == ww.WITCH for s in poisoned if len(dawn) == 1)):
        return False
    spared = victim is not None and r.dawn is not None and victim != "" and victim not in dawn
    return not spared or bool(alive & {ww.WITCH, ww.GUARD})


def sample_werewolf(
    obs: Observation,
    answers: Sequence[Action],
    rng: random.Random,
    *,
    options: Mapping[str, Any] | None,
    seats: Sequence[str],
    max_tries: int,
) -> TableLog | None:
    """A log replaying to ``obs`` (see the module docstring); ``None`` when ``max_tries`` deals did
    not fit or the table's switches are beyond this sampler (:data:`UNSUPPORTED_OPTIONS`)."""
    definition = get(obs.game)
    probe = Table.open(definition, list(seats), dict(options or {}), seed=0, table_id="sample")
    if any(probe.options.get(k) for k in UNSUPPORTED_OPTIONS):
        return None
    camps = {p.role: p.vars.get(ww.VAR_CAMP, "") for p in probe.inspect().all_players()}
    rounds = read_rounds(obs)
    tables = dealt_tables(
        obs,
        rng,
        lambda roles: True if _fits(roles, obs, rounds, camps) else None,
        options=options,
        seats=seats,
        max_tries=max_tries,
        start=_same_pack,
    )
    for table, _ in tables:
        found = _Search(obs, answers, rounds, rng).run(table)
        if found is not None:
            return found.log()
    return None


def _same_pack(table: Table, obs: Observation) -> bool:
    """The pack the seat was shown is this deal's (not the whole start: role info changes, the
    round checks see it)."""
    return observe(table.view(obs.seat), table.rules.config).teammates == obs.teammates


class _Search:
    """The round-by-round search for one deal (see the module docstring, step 2 and 3)."""

    def __init__(self, obs: Observation, answers: Sequence[Action], rounds: Sequence[Round], rng: random.Random):
        self.obs, self.answers, self.rounds, self.rng = obs, answers, rounds, rng
        self.budget = DEAL_BUDGET

    def run(self, table: Table) -> Table | None:
        return self._round(0, table, 0)

    def _round(self, r: int, table: Table, used: int) -> Table | None:
        """Play round ``r`` from ``table`` (at its start, the seat having used ``used`` answers)."""
        start = table.moves()
        fresh: Table | None = table
        for _ in range(ROUND_TRIES):
            if self.budget <= 0:
                return None
            self.budget -= 1
            world = fresh if fresh is not None else Table(table.definition, table.header, start)
            fresh = None
            verdict, now_used = self._play(r, world, used)
            if verdict == "present":
                return world
            if verdict == "next":
                got = self._round(r + 1, world, now_used)
                if got is not None:
                    return got
        return None

    def _play(self, r: int, table: Table, used: int) -> tuple[str, int]:
        """Play one round: ``present`` (the seat sees exactly ``obs``), ``next`` (the round ended as
        the seat saw it end) or ``dead``."""
        me, target, config = self.obs.seat, self.obs, table.rules.config
        info = self.rounds[r]
        last = r == len(self.rounds) - 1
        agents: dict[str, Any] = {s: RandomAgent(random.Random(self.rng.random())) for s in table.seats}
        runner = SeatRunner(table, agents, talk=False)
        night = _Night(table, me, info, self._own_night(table, info, used, last), self.rng)
        start_round = table.status().round
        for _ in range(MAX_REPLAY_STEPS):
            if table.status().round != start_round:
                seen = observe(table.view(me), config).events
                return ("next" if not last and agrees(seen, target.events[: info.end]) else "dead"), used
            if last and used >= len(self.answers):
                now = observe(table.view(me), config)
                if agrees(now, target):
                    return "present", used
                if len(now.events) > len(target.events):
                    return "dead", used
            got = runner.next_decision()  # ends phases on the way, maybe into the next round
            if table.status().round != start_round:
                continue  # the round is over; its decision is asked again from the next round's play
            if got is None:
                return ("present" if last and agrees(observe(table.view(me), config), target) else "dead"), used
            seat, o = got
            if seat == me:
                if used >= len(self.answers):
                    return ("present" if last and agrees(o, target) else "dead"), used
                action = self.answers[used]
                used += 1
            else:
                action = night.choose(seat, o) or agents[seat].act(o)
            _, error = runner.apply(seat, o, action)
            if error and seat == me:
                return "dead", used
            if not error:
                used, ok = self._second_potion(runner, seat, o, night, used)
                if not ok:
                    return "dead", used
        return "dead", used

    def _second_potion(
        self, runner: SeatRunner, seat: str, o: Observation, night: _Night, used: int
    ) -> tuple[int, bool]:
        """Under ``witch-can-use-both-potions`` the witch may follow one potion with the other in the same
        night (the runner asks a seat once a visit): another seat's planned second potion, or the seat's
        own next answer when it is that potion (``False``: the table refused the seat's)."""
        if o.phase != ww.NIGHT_WITCH:
            return used, True
        if seat != self.obs.seat:
            then = night.then.pop(seat, None)
            if then is not None:
                runner.apply(seat, observe_table(runner.table, seat), then)
            return used, True
        nxt = self.answers[used] if used < len(self.answers) else None
        first = self.answers[used - 1].skill if used else None
        if nxt is None or first not in _POTIONS or nxt.skill not in _POTIONS or nxt.skill == first:
            return used, True
        again = observe_table(runner.table, seat)
        if again.phase != ww.NIGHT_WITCH or nxt.skill not in {la.skill for la in again.legal}:
            return used, True
        _, error = runner.apply(seat, again, nxt)
        return used + 1, not error

    def _own_night(self, table: Table, info: Round, used: int, last: bool) -> _Own:
        """What the seat itself fixes tonight: its wolf vote (its first answer of the round, when
        it is a living wolf), the victim the witch saw (her save, or her role info in the present)."""
        me = table.inspect().player(self.obs.seat)
        own = _Own()
        if me is None or not me.alive:
            return own
        if me.role in _PACK and used < len(self.answers):
            a = self.answers[used]
            own.vote = a.targets[0] if a.skill == ww.KILL and a.targets else ""
        if info.saved:
            own.victim = info.saved
        elif (
            last
            and me.role == ww.WITCH
            and self.obs.role_info.get(ww.INFO_ANTIDOTE)
            and (self.obs.phase not in (ww.NIGHT_GUARD, ww.NIGHT_WOLF) or ww.INFO_KILL_TARGET in self.obs.role_info)
        ):
            own.victim = self.obs.role_info.get(ww.INFO_KILL_TARGET, "")  # she sees tonight's victim, or none
        return own


@dataclass
class _Own:
    vote: str | None = None
    """The seat's own wolf vote tonight ("" passes), ``None`` if it does not vote."""
    victim: str | None = None
    """Tonight's victim as the seat (the witch) knows it ("" nobody), ``None`` if unknown."""


class _Night:
    """How the other seats act in one round, built for the dawn and the day the seat saw."""

    def __init__(self, table: Table, me: str, info: Round, own: _Own, rng: random.Random) -> None:
        self.table, self.info, self.rng = table, info, rng
        god = table.inspect()
        alive = [p.id for p in god.alive_players()]
        wolves = [p.id for p in god.alive_players() if p.role in _PACK]
        opts = table.options
        self.save_dies = bool(opts.get("guard-and-save-dies"))
        self.guard_empties = bool(opts.get("guarded-kill-is-empty"))
        dawn = info.dawn
        if info.tally is not None:
            self.victim = _leader(info.tally)
            pool = list((info.tally - Counter([own.vote] if own.vote else [])).elements())
        else:
            if own.victim is not None:
                self.victim = own.victim
            elif dawn and rng.random() < 0.5:
                self.victim = rng.choice(sorted(dawn))
            else:
                self.victim = rng.choice([*alive, ""])
            pool = [self.victim] * len(wolves) if self.victim else rng.sample(alive, min(len(wolves), len(alive)))
        others = [w for w in wolves if w != me]
        rng.shuffle(pool)
        self.votes: dict[str, str] = dict(zip(others, pool, strict=False))
        """The other living wolves' votes tonight (a wolf missing here passes)."""
        self.both = bool(opts.get("witch-can-use-both-potions"))
        self.then: dict[str, Action] = {}
        """A witch's second potion tonight, after the one :meth:`choose` gave (``both`` switch)."""

    def choose(self, seat: str, o: Observation) -> Action | None:
        skills = {la.skill: la for la in o.legal}
        info, rng = self.info, self.rng
        if ww.KILL in skills and o.phase == ww.NIGHT_WOLF:
            t = self.votes.get(seat, "")
            return Action(ww.KILL, (t,)) if t in skills[ww.KILL].candidates else Action()
        if ww.PROTECT in skills and info.dawn is not None:
            cands = list(skills[ww.PROTECT].candidates)
            v = self.victim
            if v and v not in info.dawn and v in cands and rng.random() < 0.5:
                return Action(ww.PROTECT, (v,))
            rest = [c for c in cands if c != v or not v]
            return Action(ww.PROTECT, (rng.choice(rest),)) if rest else Action()
        if o.phase == ww.NIGHT_WITCH and info.dawn is not None:
            return self._witch(seat, skills)
        if o.phase in ww.LAST_ACTION_PHASES:
            shot = info.shots.get(seat)
            if shot and ww.SHOOT in skills and shot in skills[ww.SHOOT].candidates:
                return Action(ww.SHOOT, (shot,))
            return Action(ww.SKIP) if ww.SKIP in skills else Action()
        if o.phase in (ww.DAY, ww.DAY_FLOOR):
            return self._floor(seat, o.phase, skills)
        if ww.VOTE in skills and o.phase == ww.VOTE and info.ballots is not None:
            b = info.ballots.get(seat)
            return Action(ww.VOTE, (b,)) if b else Action()
        return None

    def _floor(self, seat: str, phase: str, skills: Mapping[str, Any]) -> Action | None:
        """Bids for the floor that give it to whom the seat saw take it: the winner bids the top level
        and everyone else 0 (the seat's own bid is its answer; the real winner beat it in the same
        public seat rotation); 0 from all when the talk closed quietly; the speaker ends the turn as
        the seat saw (DONE, or passing so the host cuts it). Turns the seat has not seen: ``None``."""
        raw = self.table.inspect().var(hr.ROUND, ww.VAR_FLOOR_TURNS)
        turn = int(raw) if raw.isdigit() else 0
        info = self.info
        if phase == ww.DAY_FLOOR:
            if turn - 1 >= len(info.cuts):
                return None
            return Action() if info.cuts[turn - 1] or ww.DONE not in skills else Action(ww.DONE)
        if ww.BID not in skills:
            return None
        if turn < len(info.floors):
            return Action(ww.BID, (ww.BID_LEVELS[-1] if seat == info.floors[turn] else ww.BID_LEVELS[0],))
        return Action(ww.BID, (ww.BID_LEVELS[0],)) if info.quiet else None

    def _witch(self, seat: str, skills: Mapping[str, Any]) -> Action:
        """The potion (or none) that makes exactly the dawn's dead, given the world's actual night."""
        god = self.table.inspect()
        victim = god.var(hr.ROUND, ww.VAR_KILL_TARGET)
        p = god.player(victim) if victim else None
        guarded = bool(p is not None and p.round_vars.get(ww.VAR_PROTECTED))
        want = set(self.info.dawn or ())
        options: list[Action] = []

        def dies(saved: bool) -> set[str]:
            if p is None or not p.alive:
                return set()
            if guarded and saved:
                return {victim} if self.save_dies else set()
            if guarded:
                return set() if self.guard_empties else {victim}
            return set() if saved else {victim}

        if dies(False) == want:
            options.append(Action())
        if ww.ANTIDOTE in skills and victim in skills[ww.ANTIDOTE].candidates and dies(True) == want:
            options.append(Action(ww.ANTIDOTE, (victim,)))
        both: list[Action] = []
        can_both = self.both and ww.ANTIDOTE in skills and victim in skills[ww.ANTIDOTE].candidates
        if ww.POISON in skills:
            for t in skills[ww.POISON].candidates:
                if t in self.info.shots:
                    continue  # the poisoned do not shoot
                if dies(False) | {t} == want:
                    options.append(Action(ww.POISON, (t,)))
                if can_both and t != victim and dies(True) | {t} == want:
                    both.append(Action(ww.POISON, (t,)))
        k = self.rng.randrange(len(options) + len(both)) if options or both else -1
        if k < len(options):
            return options[k] if k >= 0 else Action()
        self.then[seat] = both[k - len(options)]
        return Action(ww.ANTIDOTE, (victim,))


def _leader(tally: Counter[str]) -> str:
    if not tally:
        return ""
    top = max(tally.values())
    leaders = [t for t, n in tally.items() if n == top]
    return leaders[0] if len(leaders) == 1 else ""
