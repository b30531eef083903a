"""Determinization: a full hidden state consistent with everything one seat has seen.

For search agents (OpenSpiel's resample-from-infostate): given a seat's current
:class:`Observation` and the seat's own past answers (what it did, which it knows),
:func:`sample_consistent_state` returns a :class:`hiddenrole.host.TableLog` -- a deal
(the seed the game's setup deals from: roles, One Night's centre cards) and every
move so far, the other seats' hidden night actions included -- such that replaying
it gives the seat exactly the observation it holds. Works for every ruleset
(werewolf, Avalon/Resistance, One Night) through the host's own setup and replay.

Every game first tries its exact sampler (:data:`EXACT`: :mod:`.exact_missions`,
:mod:`.exact_onenight`, :mod:`.exact_werewolf`: consistent deals, then only the hidden
choices the public record leaves open, checked by replay); what they cannot explain goes
to the generic sampler below.

How (generic): rejection sampling with early pruning. Draw a deal from the game's setup with a
fresh seed; reject it unless the seat's role and first knowledge match; play the
table forward with the seat repeating its own answers and every other seat acting
at random (legal moves only); after every step, reject as soon as what the seat has
seen stops being a prefix of its real history. The first world that reaches the
seat's present with an identical observation is returned. Each accepted sample is
a draw from the consistent worlds weighted by how likely random play makes them;
every consistent deal reachable by legal play has positive probability.

Limits: the seat's heard chat must be empty (other seats' words are not
resampled), and the cost grows with how much hidden action lies behind the present
(``max_tries`` bounds it; :class:`NoConsistentState` says it ran out).
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import hiddenrole as hr
from hiddenrole.host import MAX_SEED, Table, TableLog
from hiddenrole.host.catalog import get

from .exact_missions import sample_missions
from .exact_onenight import sample_onenight
from .exact_werewolf import sample_werewolf
from .observation import Action, Observation, SeenEvent, observe
from .random_agent import RandomAgent
from .runner import SeatRunner

__all__ = ["sample_consistent_state", "NoConsistentState", "MAX_TRIES", "consistent_start"]

MAX_TRIES: Final = 20_000
"""Worlds tried before :func:`sample_consistent_state` gives up."""
MAX_STEPS: Final = 2_000
"""Runner steps one tried world may take."""
SEGMENT_TRIES: Final = 3
GUIDE_RANDOM: Final = 0.2
"""Share of other seats' proposals drawn uniformly at random (the rest follow the coming events)."""
GUIDE_WINDOW: Final = 40
"""How many of the seat's coming events guide the proposals."""
"""Random retries of one stretch of play (between two things the seat saw) before the world is dropped."""


EXACT: Final[Mapping[str, Callable[..., TableLog | None]]] = {
    "missions": sample_missions,
    "onenight": sample_onenight,
    "werewolf": sample_werewolf,
}
"""Per game, its exact (constructive) sampler; the random-play search below is the fallback."""


class NoConsistentState(hr.GameError):
    """No consistent world was found within the tries allowed (or the seat heard chat)."""

    code = "NO_CONSISTENT_STATE"


def consistent_start(obs: Observation, start: Observation) -> bool:
    """Could a world whose first observation is ``start`` lead to ``obs``? (same seat, role, camp, team)."""
    return (start.seat, start.role, start.camp, start.teammates) == (obs.seat, obs.role, obs.camp, obs.teammates)


def _prefix(now: Observation, target: Observation) -> bool:
    n = len(now.events)
    return n <= len(target.events) and now.events == target.events[:n] and not now.chat


def sample_consistent_state(
    obs: Observation,
    answers: Sequence[Action],
    rng: random.Random,
    *,
    options: Mapping[str, Any] | None = None,
    seats: Sequence[str] | None = None,
    max_tries: int = MAX_TRIES,
) -> TableLog:
    """A table log that, replayed, gives ``obs.seat`` exactly ``obs`` (see the module docstring).

    ``answers`` are the seat's own accepted answers so far, in order (its
    ``GameRecord.private`` decisions without an error); ``options`` and ``seats`` the
    table's (public), by default the game's defaults and ``obs``'s seats.
    """
    if obs.chat:
        raise NoConsistentState("the seat heard table talk, which determinization does not resample")
    definition = get(obs.game)
    names = list(seats) if seats is not None else [p.seat for p in obs.players]
    exact = EXACT.get(obs.game)
    if exact is not None:
        built = exact(obs, answers, rng, options=options, seats=names, max_tries=max_tries)
        if built is not None:
            return built
    tries = 0
    while tries < max_tries:
        tries += 1
        table = Table.open(definition, names, dict(options or {}), seed=rng.randrange(MAX_SEED), table_id="sample")
        if not consistent_start(obs, observe(table.view(obs.seat), table.rules.config)):
            continue
        found, spent = _search(table, answers, obs, rng, max_tries - tries)
        tries += spent
        if found is not None:
            return found.log()
    raise NoConsistentState(f"no world consistent with {obs.seat}'s view in {max_tries} tries")


def _search(
    table: Table, answers: Sequence[Action], target: Observation, rng: random.Random, budget: int
) -> tuple[Table | None, int]:
    """Play ``table`` towards ``target``; on a divergence, go back to the last point where the seat's
    history still matched and try other random choices there (at most :data:`SEGMENT_TRIES` times).

    Returns the table that reached the present (or ``None``) and the tries spent.
    """
    definition, header = table.definition, table.header
    config = table.rules.config
    checkpoint: tuple[tuple[Any, ...], int] = (table.moves(), 0)
    seen = 0
    spent = 0
    retries = 0
    used = 0
    runner = _runner(table, target.seat, rng)
    while spent <= budget:
        verdict, used = _advance(runner, answers, used, target, config, seen, rng)
        if verdict == "present":
            return runner.table, spent
        if verdict == "progress":
            seen = len(observe(runner.table.view(target.seat), config).events)
            checkpoint, retries = (runner.table.moves(), used), 0
            continue
        retries += 1
        spent += 1
        if retries > SEGMENT_TRIES:
            return None, spent
        moves, used = checkpoint
        runner = _runner(Table(definition, header, moves), target.seat, rng)
    return None, spent


def _runner(table: Table, seat: str, rng: random.Random) -> SeatRunner:
    agents: dict[str, Any] = {s: RandomAgent(random.Random(rng.random())) for s in table.seats}
    return SeatRunner(table, agents, talk=False)


def _tokens(e: SeenEvent) -> set[str]:
    out = {e.source, e.target}
    for v in e.data.values():
        out.update(t for t in re.split(r"[,>:]", v) if t)
    return out


def _guided(seat: str, o: Observation, upcoming: Sequence[SeenEvent], rng: random.Random) -> Action:
    """A proposal for another seat: usually the action the seat's coming events mention, sometimes random.

    Public actions show up in later events (a ballot ``p3>p5``, a vote ``approve``, a
    team, a death): scoring candidates by the mentions makes matching worlds likely,
    and the random share keeps every world possible.
    """
    if not o.legal or rng.random() < GUIDE_RANDOM:
        return RandomAgent(rng).act(o)
    toks = [(_tokens(e), " ".join(e.data.values()).lower(), e) for e in upcoming]
    best: list[Action] = []
    top = -1.0
    for la in o.legal:
        if la.out_of_turn:
            continue
        k = la.min_targets if la.min_targets else min(1, la.max_targets)
        combos = list(itertools.combinations(la.candidates, k)) if k else [()]
        if len(combos) > 300:
            combos = rng.sample(combos, 300)
        for combo in combos:
            score = 0.0
            for tk, text, _e in toks:
                word = la.skill.lower().split("_")[-1]
                here = (
                    (seat in tk)
                    + sum(t in tk for t in combo)
                    + (word in text)
                    + 2 * any(f"{seat}>{t}" in text for t in combo)
                )
                score = max(score, float(here))
            if score > top:
                top, best = score, [Action(la.skill, tuple(combo))]
            elif score == top:
                best.append(Action(la.skill, tuple(combo)))
    return rng.choice(best) if best else RandomAgent(rng).act(o)


def _advance(
    runner: SeatRunner,
    answers: Sequence[Action],
    used: int,
    target: Observation,
    config: hr.Config,
    seen: int,
    runner_rng: random.Random,
) -> tuple[str, int]:
    """Step until the seat has seen more ("progress"), reached ``target`` ("present") or diverged ("dead")."""
    table = runner.table
    me = target.seat
    rng = random.Random(runner_rng.random())
    for _ in range(MAX_STEPS):
        now = observe(table.view(me), config)
        if not _prefix(now, target):
            return "dead", used
        if used >= len(answers) and now == target:
            return "present", used
        if len(now.events) > seen:
            return "progress", used
        if table.over:
            return "dead", used
        got = runner.next_decision()
        if got is None:
            return ("present" if used >= len(answers) and observe(table.view(me), config) == target else "dead"), used
        seat, o = got
        if seat == me:
            if used >= len(answers):
                return ("present" if o == target else "dead"), used
            _, error = runner.apply(seat, o, answers[used])
            used += 1
            if error:
                return "dead", used
            continue
        _, error = runner.apply(seat, o, _guided(seat, o, target.events[seen : seen + GUIDE_WINDOW], rng))
        if error:
            runner.apply(seat, o, Action())
    return "dead", used
