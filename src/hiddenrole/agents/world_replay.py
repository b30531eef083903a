"""Play a sampled world forward through the host, and check it gives one seat exactly its observation.

Shared by the exact determinization samplers (:mod:`.exact_missions`,
:mod:`.exact_onenight`): each says what every other seat does at each decision
(public moves read off the seat's events, hidden ones sampled); the seat itself
repeats its own answers. :mod:`.exact_werewolf` uses only the deal loop (:func:`dealt_tables`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final, TypeVar

from hiddenrole.host import MAX_SEED, Table, TableLog
from hiddenrole.host.catalog import get

from .observation import Action, Observation, observe
from .random_agent import RandomAgent
from .runner import SeatRunner

__all__ = ["replay_world", "sample_deals", "dealt_tables", "start_fits", "MAX_REPLAY_STEPS", "Chooser", "DealFilter"]

MAX_REPLAY_STEPS: Final = 2_000
"""Runner steps one replay may take before the world is dropped."""

Chooser = Callable[[str, Observation], Action | None]
"""``(seat, observation) -> action`` for a decision; ``None`` lets the seat itself answer (its own
answers for the target seat, a uniformly random legal action for the others). An action returned
for the target seat is played instead of its next answer."""

DealFilter = Callable[[Mapping[str, str]], Chooser | None]
"""``roles of a drawn deal -> how the other seats act in it``, or ``None`` to drop the deal."""


def sample_deals(
    obs: Observation,
    answers: Sequence[Action],
    rng: random.Random,
    chooser_for: DealFilter,
    *,
    options: Mapping[str, Any] | None,
    seats: Sequence[str],
    max_tries: int,
    refine: Callable[[Table, Chooser], Chooser | None] | None = None,
) -> TableLog | None:
    """The exact samplers' loop: draw deals from the game's own setup with fresh seeds; for each
    deal ``chooser_for`` accepts, open its table, check the seat's starting sight and replay it.
    ``refine`` (optional) sees the opened table (what the seat list of roles leaves out, such as
    One Night's centre cards) and may replace the chooser or drop the deal.
    The first world that gives the seat exactly ``obs`` is returned; ``None`` after ``max_tries`` deals."""
    for table, dealt in dealt_tables(obs, rng, chooser_for, options=options, seats=seats, max_tries=max_tries):
        choose = dealt if refine is None else refine(table, dealt)
        if choose is None:
            continue
        if replay_world(table, obs, answers, choose, rng):
            return table.log()
    return None


_Kept = TypeVar("_Kept")


def dealt_tables(
    obs: Observation,
    rng: random.Random,
    keep: Callable[[Mapping[str, str]], _Kept | None],
    *,
    options: Mapping[str, Any] | None,
    seats: Sequence[str],
    max_tries: int,
    start: Callable[[Table, Observation], bool] | None = None,
) -> Iterator[tuple[Table, _Kept]]:
    """The exact samplers' deal loop: ``max_tries`` deals drawn from the game's own setup with fresh
    seeds; each one ``keep`` answers (not ``None``) for its roles is opened as a table and yielded
    with that answer when ``start`` (default :func:`start_fits`) accepts the seat's sight in it.
    Lazy, so a sampler's own use of ``rng`` between deals keeps its place in the stream."""
    definition = get(obs.game)
    probe = Table.open(definition, list(seats), dict(options or {}), seed=0, table_id="sample")
    fits = start_fits if start is None else start
    for _ in range(max_tries):
        seed = rng.randrange(MAX_SEED)
        kept = keep(definition.setup(probe.options, probe.seats, random.Random(seed)).roles)
        if kept is None:
            continue
        table = Table.open(definition, list(seats), dict(options or {}), seed=seed, table_id="sample")
        if fits(table, obs):  # else the seat's sight at the start is not this deal's
            yield table, kept


def replay_world(
    table: Table, target: Observation, answers: Sequence[Action], choose: Chooser, rng: random.Random
) -> bool:
    """Play ``table`` on with ``choose``; True once ``target.seat``'s observation is exactly ``target``."""
    me, config = target.seat, table.rules.config
    agents: dict[str, Any] = {s: RandomAgent(random.Random(rng.random())) for s in table.seats}
    runner = SeatRunner(table, agents, talk=False)
    used = 0
    for _ in range(MAX_REPLAY_STEPS):
        if used >= len(answers):
            now = observe(table.view(me), config)
            if now == target:
                return True
            if len(now.events) > len(target.events):
                return False
        got = runner.next_decision()
        if got is None:  # over: answers of the seat that changed nothing may be left
            return observe(table.view(me), config) == target
        seat, o = got
        action = choose(seat, o)
        if seat == me and action is None:
            if used >= len(answers):
                return o == target
            action = answers[used]
            used += 1
        elif action is None:
            action = agents[seat].act(o)
        _, error = runner.apply(seat, o, action)
        if error and seat == me:
            return False
    return False


def start_fits(table: Table, obs: Observation) -> bool:
    """Does the freshly dealt ``table`` give ``obs.seat`` the sight it started with in ``obs``?

    Compares the teammates and the role information dealt at the start (what a seat
    learns later, ``learn.*`` keys, is left to the replay's exact check).
    """
    start = observe(table.view(obs.seat), table.rules.config)
    dealt = {k: v for k, v in start.role_info.items() if not k.startswith("learn.")}
    known = {k: v for k, v in obs.role_info.items() if not k.startswith("learn.")}
    return start.teammates == obs.teammates and dealt == known
