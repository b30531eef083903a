"""Exact determinization (Missions, One Night): every sample replays to exactly the seat's
observation, mid and late game included; over many samples every consistent deal appears;
a sampler that skips the check (ignoring fail counts, the seer's sight) is caught."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

import pytest

import hiddenrole as hr
from hiddenrole.agents import (
    Action,
    Observation,
    RandomAgent,
    exact_missions,
    exact_onenight,
    observe,
    world_replay,
)
from hiddenrole.agents.determinize import EXACT
from hiddenrole.games import missions as ms
from hiddenrole.games import onenight as on
from hiddenrole.host import Table, TableLog
from hiddenrole.host.catalog import get

from .support import play_to_decision

Sampler = Callable[..., TableLog | None]


def _played(game: str, seats: int, seed: int, viewer: str, k: int | None) -> tuple[Observation, list[Action]]:
    """Random play until ``viewer``'s ``k``-th decision (``None``: the end): its observation, its answers."""
    table = Table.open(get(game), seats, seed=seed, table_id="real")
    agents = {s: RandomAgent(random.Random(seed * 100 + i)) for i, s in enumerate(table.seats)}
    obs, answers = play_to_decision(table, viewer, agents, lambda o, a: len(a) == k)
    if obs is None:
        assert k is None, "the game ended before the decision"
        obs = observe(table.view(viewer), table.rules.config)
    return obs, answers


def _check(sampler: Sampler, obs: Observation, answers: Sequence[Action], n: int, seed: int = 0) -> list[Table]:
    """``n`` samples, each replayed from its log alone: the seat sees exactly ``obs``."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        log = sampler(obs, answers, rng, options=None, seats=[p.seat for p in obs.players], max_tries=20_000)
        assert log is not None, "the exact sampler found no world"
        again = Table.replay(get(obs.game), log)
        assert observe(again.view(obs.seat), again.rules.config) == obs
        out.append(again)
    return out


@pytest.mark.parametrize(
    ("game", "seats", "seed", "k"),
    [
        ("missions", 7, 11, 1),
        ("missions", 7, 11, 4),  # after missions were played
        ("missions", 7, 11, 8),
        ("missions", 7, 11, None),  # the end: every result, the assassin's pick
        ("missions", 5, 3, None),
        ("onenight", 5, 11, 0),  # at night
        ("onenight", 5, 11, 1),  # the day vote
        ("onenight", 6, 4, 0),
    ],
)
def test_every_exact_sample_replays_to_the_seats_observation(game: str, seats: int, seed: int, k: int | None) -> None:
    for viewer in ("p1", "p3"):
        obs, answers = _played(game, seats, seed, viewer, k)
        _check(EXACT[game], obs, answers, 3)


def _deals(table: Table) -> dict[str, str]:
    view = table.inspect()
    return {s: view.player(s).role for s in table.seats}  # type: ignore[union-attr]


def _late_missions_view() -> tuple[Observation, list[Action], Table]:
    """The first seat's last decision of a 5-seat Avalon game where it is a servant, after a failed mission."""
    for seed in range(200):
        table = Table.open(get("missions"), 5, seed=seed, table_id="real")
        if _deals(table)["p1"] != ms.SERVANT:
            continue
        best = None
        for k in itertools.count():
            try:
                obs, answers = _played("missions", 5, seed, "p1", k)
            except AssertionError:
                break
            if any(e.type == ms.MISSION_FAILED for e in obs.events):
                best = obs, answers
        if best is not None:
            return (*best, table)
    raise AssertionError("no such game in the seeds tried")


def test_every_consistent_missions_deal_appears() -> None:
    obs, answers, real = _late_missions_view()
    rec = exact_missions.read_record(obs)
    cards = sorted(_deals(real).values())
    # brute force, from the rules alone: the seat's own card; each mission's fails need as many
    # evil seats on its team (a servant's card is a success); a hit means the target was Merlin
    consistent = set()
    for perm in set(itertools.permutations(cards)):
        roles = dict(zip(real.seats, perm, strict=True))
        if roles["p1"] != ms.SERVANT:
            continue
        if any(sum(roles[s] in ms.EVIL_ROLES for s in team) < fails for team, fails, _ in rec.results.values()):
            continue
        if rec.assassinated and rec.hit != (roles[rec.assassinated] == ms.MERLIN):
            continue
        consistent.add(tuple(perm))
    assert tuple(_deals(real).values()) in consistent
    seen = {tuple(_deals(t).values()) for t in _check(EXACT["missions"], obs, answers, 150)}
    assert seen <= consistent
    assert seen == consistent, f"{len(consistent - seen)} of {len(consistent)} consistent deals never sampled"


def _unchecked(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Plant a sampler that plays its world but accepts it without the exact check.

    Returns, per planted call, what the real check would have said: a test asserts the plant
    was reached and did accept a world the check refuses (a plant patched where no sampler
    looks, or one that changes nothing, would otherwise pass as a catch)."""
    real = world_replay.replay_world
    verdicts: list[bool] = []

    def accept(*args: object, **kwargs: object) -> bool:
        verdicts.append(real(*args, **kwargs))  # type: ignore[arg-type]
        return True

    monkeypatch.setattr(world_replay, "replay_world", accept)
    return verdicts


def test_planted_a_sampler_ignoring_the_fail_count_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    obs, answers, _ = _late_missions_view()
    _check(EXACT["missions"], obs, answers, 3)  # green without the plant
    verdicts = _unchecked(monkeypatch)
    monkeypatch.setattr(exact_missions, "_cards", lambda roles, o, mine, rec, rng: {})  # every card a success
    with pytest.raises(AssertionError, match="assert Observation"):
        _check(EXACT["missions"], obs, answers, 5)
    assert False in verdicts, "the plant never accepted a world the check refuses"


def test_planted_a_sampler_ignoring_the_seers_sight_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    seed = next(s for s in range(100) if _deals(Table.open(get("onenight"), 5, seed=s, table_id="r"))["p1"] == on.SEER)
    obs, answers = _played("onenight", 5, seed, "p1", 1)  # the seer's vote, after its look
    assert any(e.type == on.SEER_LOOK for e in obs.events)
    _check(EXACT["onenight"], obs, answers, 3)  # green without the plant
    verdicts = _unchecked(monkeypatch)
    with pytest.raises(AssertionError, match="assert Observation"):
        _check(EXACT["onenight"], obs, answers, 10)
    assert False in verdicts, "the plant never accepted a world the check refuses"


@pytest.mark.parametrize(("seats", "seed"), [(5, 0), (5, 3), (5, 7), (6, 4)])
def test_one_night_after_the_end_every_sample_replays_exactly(seats: int, seed: int) -> None:
    for viewer in ("p1", "p3"):
        obs, answers = _played("onenight", seats, seed, viewer, None)
        assert obs.over
        _check(EXACT["onenight"], obs, answers, 3)


def _forward(deal: dict[str, str], centre: list[str], night: tuple[object, ...]) -> tuple[dict[str, str], list[str]]:
    """The rules' card moves, played forward: robber, then troublemaker, then drunk."""
    cards, mid = dict(deal), list(centre)
    rob, meddle, drink = night
    if isinstance(rob, tuple):
        cards[rob[0]], cards[rob[1]] = cards[rob[1]], cards[rob[0]]
    if isinstance(meddle, tuple):
        cards[meddle[0]], cards[meddle[1]] = cards[meddle[1]], cards[meddle[0]]
    if isinstance(drink, tuple):
        i = on.CENTER_SLOTS.index(drink[1])
        cards[drink[0]], mid[i] = mid[i], cards[drink[0]]
    return cards, mid


def _nights(deal: dict[str, str]) -> list[tuple[object, ...]]:
    """Every night the deal allows: the robber and the troublemaker may act or not, a dealt drunk must."""
    seats = sorted(deal)
    holder = {r: s for s, r in deal.items()}
    robs: list[object] = [None]
    if on.ROBBER in holder:
        robs += [(holder[on.ROBBER], t) for t in seats if t != holder[on.ROBBER]]
    meddles: list[object] = [None]
    if on.TROUBLEMAKER in holder:
        rest = [s for s in seats if s != holder[on.TROUBLEMAKER]]
        meddles += list(itertools.combinations(rest, 2))
    drinks: list[object] = [None]
    if on.DRUNK in holder:
        drinks = [(holder[on.DRUNK], c) for c in on.CENTER_SLOTS]
    return list(itertools.product(robs, meddles, drinks))


BY_NAME = {name: role for role, name in on.DISPLAY_NAMES.items()}


def _moved_end() -> tuple[Observation, list[Action], dict[str, str]]:
    """A three-seat One Night villager at the end of a game where a card moved: obs, answers, held cards."""
    by_name = BY_NAME
    for seed in range(300):
        table = Table.open(get("onenight"), 3, seed=seed, table_id="real")
        if _deals(table)["p1"] != on.VILLAGER:
            continue
        obs, answers = _played("onenight", 3, seed, "p1", None)
        held = {s: by_name[n] for s, n in obs.data["held"].items()}
        if held != _deals(table):
            return obs, answers, held  # a card moved: the deal differs from the end
    raise AssertionError("no such game in the seeds tried")


def test_every_deal_consistent_with_the_end_appears() -> None:
    # a three-seat One Night villager at the end: it saw nothing at night, so the end (every held
    # card and the centre) is all that constrains the deal; brute force plays every deal forward
    obs, answers, held = _moved_end()
    by_name = BY_NAME
    final_centre = [by_name[n] for n in obs.data["center"]]
    cards = sorted([*held.values(), *final_centre])
    consistent = set()
    for perm in set(itertools.permutations(cards)):
        deal = dict(zip(("p1", "p2", "p3"), perm[:3], strict=True))
        if deal["p1"] != on.VILLAGER:
            continue
        if any(_forward(deal, list(perm[3:]), n) == (held, final_centre) for n in _nights(deal)):
            consistent.add(perm)
    assert len(consistent) > 1
    rng = random.Random(1)
    seen = set()
    for _ in range(10 * len(consistent)):
        log = EXACT["onenight"](obs, answers, rng, options=None, seats=["p1", "p2", "p3"], max_tries=20_000)
        assert log is not None
        again = Table.replay(get("onenight"), log)
        assert observe(again.view("p1"), again.rules.config) == obs
        view = again.inspect()
        seen.add(tuple(_deals(again).values()) + tuple(view.var(hr.GAME, on.center_key(s)) for s in on.CENTER_SLOTS))
    assert seen <= consistent
    assert seen == consistent, f"{len(consistent - seen)} of {len(consistent)} consistent deals never sampled"


def test_planted_an_end_sampler_ignoring_the_end_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    obs, answers, _ = _moved_end()
    _check(EXACT["onenight"], obs, answers, 2)  # green without the plant
    # planted: after the end, deal and night as before the end (the held cards and centre ignored)
    monkeypatch.setattr(exact_onenight, "end_nights", lambda o, a: [])
    monkeypatch.setattr(
        exact_onenight,
        "_after_the_end",
        lambda o, a, rng, votes, **kw: world_replay.sample_deals(
            o, a, rng, lambda roles: votes if roles[o.seat] == o.role else None, **kw
        ),
    )
    verdicts = _unchecked(monkeypatch)
    with pytest.raises(AssertionError, match="assert Observation"):
        _check(EXACT["onenight"], obs, answers, 5)
    assert False in verdicts, "the plant never accepted a world the check refuses"
