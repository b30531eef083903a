"""Shared helpers for the agent tests: fixed deals, twin tables, deterministic agents."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from hiddenrole.agents import Action, Observation, RandomAgent, SeatRunner, observe
from hiddenrole.host import Deal, GameDefinition, Table
from hiddenrole.host.catalog import get

SEATS = {"werewolf": 9, "missions": 7, "onenight": 5}
PLAIN = {"werewolf": "VILLAGER", "missions": "MS_SERVANT", "onenight": "ON_VILLAGER"}
"""A role that learns nothing private: all it ever knows is public."""


def play_to_decision(
    table: Table,
    viewer: str,
    agents: Mapping[str, Any],
    stop: Callable[[Observation, Sequence[Action]], bool],
) -> tuple[Observation | None, list[Action]]:
    """Play ``table`` with ``agents`` until ``viewer`` decides with ``stop(obs, answers)`` true: that
    observation and the answers ``viewer`` gave before it (refused ones left out); the observation
    is ``None`` when the game ended first."""
    runner = SeatRunner(table, agents, talk=False)
    answers: list[Action] = []
    while (got := runner.next_decision()) is not None:
        seat, obs = got
        if seat == viewer and stop(obs, answers):
            return obs, answers
        action = agents[seat].act(obs)
        _, error = runner.apply(seat, obs, action)
        if seat == viewer and not error:
            answers.append(action)
    return None, answers


def dealt(game: str, seed: int) -> tuple[GameDefinition, dict[str, str]]:
    """The catalog definition and the roles its setup deals for ``seed``."""
    d = get(game)
    t = Table.open(d, SEATS[game], seed=seed, table_id="t")
    roles = {p.id: p.role for p in t.inspect().all_players()}
    return d, roles


def with_roles(definition: GameDefinition, roles: Mapping[str, str]) -> GameDefinition:
    """The same game, dealing exactly ``roles`` (same rules, same table randomness otherwise)."""
    base = definition.setup

    def setup(options: Any, seats: tuple[str, ...], rng: random.Random) -> Deal:
        deal = base(options, seats, rng)
        return Deal(deal.rules, dict(roles))

    return dataclasses.replace(definition, setup=setup)


def table_for(definition: GameDefinition, game: str, seed: int) -> Table:
    return Table.open(definition, SEATS[game], seed=seed, table_id="t")


class PublicAgent:
    """Decides from the public shape of its situation only (phase, round, who lives, its skills).

    Seats holding the same skills in the same public situation choose alike (all wolves
    name one victim, all voters one target), so twin tables stay alike as long as
    possible and a leak has room to show.
    """

    talks = False

    def act(self, obs: Observation) -> Action:
        key = json.dumps([obs.phase, obs.round, obs.living, [la.to_dict() for la in obs.legal]])
        rng = random.Random(hashlib.sha256(key.encode()).hexdigest())
        return RandomAgent(rng).act(obs)


Builder = Callable[[Table, str, str], Observation]


def real_observe(table: Table, seat: str, error: str) -> Observation:
    return observe(table.view(seat), table.rules.config, error)


def public_projection(table: Table) -> dict[str, Any]:
    """What a spectator may see, without the host's numbers (table id, sequence)."""
    v = table.view(None).to_dict()
    for k in ("table", "seq", "version"):
        v.pop(k, None)
    for line in (*v["events"], *v["chat"]):
        line.pop("seq", None)
        line.pop("at", None)
    return v


def segments(runner: SeatRunner, viewer: str, seen: list[Observation]) -> Iterator[dict[str, Any]]:
    """Play phase by phase; after each, what the viewer got in it and what the public sees."""
    table = runner.table
    while not table.over:
        start = (runner.phase_ends, table.status().phase, table.status().round)
        seen.clear()
        for _ in range(500):
            runner.step()
            if table.over or (runner.phase_ends, table.status().phase, table.status().round) != start:
                break
        yield {
            "received": [o.to_dict() for o in seen],
            "now": runner._observe(table, viewer, "").to_dict(),
            "public": public_projection(table),
        }


def _dealt_sight(table: Table, seat: str) -> Observation:
    """What the deal itself shows the seat at the start: its observation less the offered moves.

    The offer (``legal``: skills and their allowed targets) is what the check is about, so it
    must not decide which deals count as twins (a leaking offer would hide itself)."""
    return dataclasses.replace(real_observe(table, seat, ""), legal=())


def first_private_divergence(
    game: str, seed: int, builder: Builder | None, max_pairs: int = 40, viewer_role: str | None = None
) -> tuple[int, int, str | None]:
    """Twin deals for a plain seat (or the first seat holding ``viewer_role``), played side by
    side with public-minded agents; pairs the seat can tell apart from the start are skipped.

    Returns (pairs tried, segments compared, description of the first divergence the
    viewer saw while the public views still agreed, or ``None``).
    """
    definition, roles = dealt(game, seed)
    wanted = viewer_role or PLAIN[game]
    viewer = next((s for s in sorted(roles) if roles[s] == wanted), None)
    if viewer is None:
        return 0, 0, None
    others = [s for s in sorted(roles) if s != viewer]
    pairs = [(a, b) for i, a in enumerate(others) for b in others[i + 1 :] if roles[a] != roles[b]]
    tried = compared = 0
    for a, b in pairs[:max_pairs]:
        twin = dict(roles)
        twin[a], twin[b] = roles[b], roles[a]
        ta = table_for(with_roles(definition, roles), game, seed)
        tb = table_for(with_roles(definition, twin), game, seed)
        if _dealt_sight(ta, viewer) != _dealt_sight(tb, viewer):
            continue  # the seat can tell these deals apart from the start (not a twin)
        tried += 1
        seen_a: list[Observation] = []
        seen_b: list[Observation] = []
        agents_a = {s: PublicAgent() for s in ta.seats}
        agents_b = {s: PublicAgent() for s in tb.seats}

        def rec(seen: list[Observation]) -> Callable[[str, Observation], None]:
            return lambda seat, obs: seen.append(obs) if seat == viewer else None

        # builder None: the runner's own incremental feed (SeatFeed)
        ra = SeatRunner(ta, agents_a, on_observation=rec(seen_a), observe_fn=builder)
        rb = SeatRunner(tb, agents_b, on_observation=rec(seen_b), observe_fn=builder)
        for sa, sb in zip(segments(ra, viewer, seen_a), segments(rb, viewer, seen_b), strict=False):
            if sa["public"] != sb["public"]:
                break
            compared += 1
            if sa["received"] != sb["received"] or sa["now"] != sb["now"]:
                return tried, compared, f"{game} seed {seed}, twins swapping {a}/{b}: viewer {viewer} saw a difference"
    return tried, compared, None
