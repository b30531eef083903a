"""Exact determinization for Werewolf: late in a 12-seat game every sample replays to exactly
the seat's observation (villager, wolf, seer, witch); on a 6-seat board every deal a
brute force from the rules calls consistent appears; samplers that skip the exact check and
ignore the seer's results or the dawn's dead are caught."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Mapping, Sequence

import pytest

from hiddenrole.agents import Action, Observation, RandomAgent, SeatRunner, exact_werewolf, observe
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import idiot, wolfking
from hiddenrole.host import Table
from hiddenrole.host.catalog import get

from .support import play_to_decision
from .test_exact_determinize import _check, _deals

SAMPLER = exact_werewolf.sample_werewolf
DEALS = 100_000
"""The deal budget of a switch's samples (:func:`_check_with`'s default; a pack's deal is rare)."""


def _when(seats: int, seed: int, role: str, ready: int) -> tuple[Observation, list[Action], Table]:
    """Random play until the seat holding ``role`` decides with ``ready`` answers given at round 4
    or later (``ready`` counts answers): its observation, its answers, the real table."""
    table = Table.open(get("werewolf"), seats, seed=seed, table_id="real")
    viewer = next(s for s, r in sorted(_deals(table).items()) if r == role)
    agents = {s: RandomAgent(random.Random(seed * 100 + i)) for i, s in enumerate(table.seats)}
    obs, answers = play_to_decision(table, viewer, agents, lambda o, a: len(a) >= ready)
    assert obs is not None, "the game ended before the decision"
    return obs, answers, table


def _late(
    role: str, options: Mapping[str, object] | None = None, after: str = "", first: int = 0, double: bool = False
) -> tuple[Observation, list[Action]]:
    """A 12-seat game's first seed from ``first`` where the seat holding ``role`` decides at round 4
    or later (having seen an ``after`` event, when given; with ``double``, after a night the witch
    followed her first potion with the other, which the runner never asks for itself)."""
    for seed in range(first, first + 60):
        table = Table.open(get("werewolf"), 12, options, seed=seed, table_id="real")
        viewer = next(s for s, r in sorted(_deals(table).items()) if r == role)
        agents = {s: RandomAgent(random.Random(seed * 100 + i)) for i, s in enumerate(table.seats)}
        runner = SeatRunner(table, agents, talk=False)
        answers: list[Action] = []
        doubled = False
        while (got := runner.next_decision()) is not None:
            seat, obs = got
            seen = not after or any(e.type == after for e in obs.events)
            if seat == viewer and obs.round >= 4 and seen and double <= doubled:
                return obs, answers
            action = agents[seat].act(obs)
            _, error = runner.apply(seat, obs, action)
            if seat == viewer and not error:
                answers.append(action)
            if double and not error and obs.phase == ww.NIGHT_WITCH and action.skill in (ww.ANTIDOTE, ww.POISON):
                again = observe(table.view(seat), table.rules.config)
                other = [la for la in again.legal if la.skill in (ww.ANTIDOTE, ww.POISON) and la.candidates]
                if other:
                    follow = Action(other[0].skill, (other[0].candidates[0],))
                    _, error = runner.apply(seat, again, follow)
                    doubled = doubled or not error
                    if seat == viewer and not error:
                        answers.append(follow)
    raise AssertionError("no such game in the seeds tried")


def _check_with(
    options: Mapping[str, object], obs: Observation, answers: Sequence[Action], n: int, tries: int = DEALS
) -> list[Table]:
    """``n`` samples on a table with ``options``, each replayed from its log alone: the seat sees
    exactly ``obs`` (as ``_check``; a pack's deal is rare, hence the larger deal budget)."""
    rng = random.Random(0)
    out = []
    for _ in range(n):
        log = SAMPLER(obs, answers, rng, options=options, seats=[p.seat for p in obs.players], max_tries=tries)
        assert log is not None, "the exact sampler found no world"
        again = Table.replay(get(obs.game), log)
        assert observe(again.view(obs.seat), again.rules.config) == obs
        out.append(again)
    return out


@pytest.mark.parametrize("role", [ww.VILLAGER, ww.WEREWOLF, ww.SEER, ww.WITCH])
def test_late_in_a_12_seat_game_every_sample_replays_exactly(role: str) -> None:
    obs, answers = _late(role)
    assert obs.round >= 4 and any(e.type == ww.DAWN and e.data["dead"] for e in obs.events)
    _check(SAMPLER, obs, answers, 3)


def _seer_view() -> tuple[Observation, list[Action], Table]:
    """A 6-seat seer at its second check, after a dawn with dead and a day's vote."""
    for seed in range(200):
        table = Table.open(get("werewolf"), 6, seed=seed, table_id="real")
        if ww.SEER not in _deals(table).values():
            continue
        try:
            obs, answers, real = _when(6, seed, ww.SEER, 2)
        except (AssertionError, StopIteration):
            continue
        if any(e.type == ww.DAWN and e.data["dead"] for e in obs.events) and obs.phase == ww.NIGHT_SEER:
            return obs, answers, real
    raise AssertionError("no such game in the seeds tried")


def _consistent(obs: Observation, real: Table) -> set[tuple[str, ...]]:
    """Brute force from the rules alone: the seat's role, the camp of each seer check, and no side
    wiped out (side-wipe victory) after any death the seat saw; nights on this board (two wolves,
    a witch with both potions, no guard, no gun) can always make the dawn's dead and an empty dawn."""
    seats = list(real.seats)
    rounds = exact_werewolf.read_rounds(obs)
    checks = {t: c for r in rounds for t, c in r.checks.items()}
    deaths: list[set[str]] = []
    for r in rounds:
        deaths.append(set(r.dawn or ()))
        deaths.append({r.eliminated} - {""})
    out = set()
    for perm in set(itertools.permutations(sorted(_deals(real).values()))):
        roles = dict(zip(seats, perm, strict=True))
        if roles[obs.seat] != obs.role:
            continue
        if any((roles[t] == ww.WEREWOLF) != (c == ww.EVIL) for t, c in checks.items()):
            continue
        dead: set[str] = set()
        alive_ok = True
        for d in deaths:
            dead |= d
            living = {roles[s] for s in seats if s not in dead}
            wolves = ww.WEREWOLF in living
            gods = bool(living & {ww.SEER, ww.WITCH})
            if not wolves or not gods or ww.VILLAGER not in living:
                alive_ok = False
        if alive_ok:
            out.add(perm)
    return out


def test_every_consistent_werewolf_deal_appears() -> None:
    obs, answers, real = _seer_view()
    consistent = _consistent(obs, real)
    assert tuple(_deals(real).values()) in consistent
    assert len(consistent) < 30, "the seat's knowledge should rule some deals out"
    seen = {tuple(_deals(t).values()) for t in _check(SAMPLER, obs, answers, 50)}
    assert seen <= consistent
    assert seen == consistent, f"{len(consistent - seen)} of {len(consistent)} consistent deals never sampled"


def _unchecked(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Plant a sampler without the exact check; returns what the real check said at each call."""
    verdicts: list[bool] = []

    def accept(seen: object, want: object) -> bool:
        verdicts.append(seen == want)
        return True

    monkeypatch.setattr(exact_werewolf, "agrees", accept)
    return verdicts


def _caught(obs: Observation, answers: Sequence[Action], verdicts: list[bool]) -> None:
    with pytest.raises(AssertionError, match="assert Observation"):
        _check(SAMPLER, obs, answers, 8)
    assert False in verdicts, "the plant never accepted a world the check refuses"


def test_planted_a_sampler_ignoring_the_seers_results_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    obs, answers, _ = _seer_view()
    _check(SAMPLER, obs, answers, 2)  # green without the plant
    verdicts = _unchecked(monkeypatch)
    monkeypatch.setattr(exact_werewolf, "_fits", lambda roles, o, rounds, camps: roles[o.seat] == o.role)
    _caught(obs, answers, verdicts)


def test_planted_a_sampler_ignoring_the_dawns_dead_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    obs, answers, _ = _seer_view()
    _check(SAMPLER, obs, answers, 2)
    verdicts = _unchecked(monkeypatch)
    real = exact_werewolf.read_rounds

    def blind(o: Observation) -> list[exact_werewolf.Round]:
        rounds = real(o)
        for r in rounds:
            r.dawn = None
        return rounds

    monkeypatch.setattr(exact_werewolf, "read_rounds", blind)
    _caught(obs, answers, verdicts)


SWITCH_SAMPLES = 1
"""Samples per late position with a switch on: each is replayed and compared whole, and every
switch has three seats; more samples per seat cost the suite seconds and add no new kind of world."""


def _green(
    role: str,
    options: Mapping[str, object],
    *,
    after: str = "",
    first: int = 0,
    double: bool = False,
    tries: int = DEALS,
) -> tuple[Observation, tuple[Action, ...]]:
    """The late position of :func:`_late`, after :data:`SWITCH_SAMPLES` samples within ``tries``
    deals replayed exactly (:func:`_check_with`). Kept per worker: a planted test's run without
    its plant is the same call as its parametrized case's, so one of the two reuses the other's
    (a sample costs seconds). Nothing planted runs through here: a plant is set after this."""
    return _green_kept(role, tuple(sorted(options.items())), after, first, double, tries)


@functools.cache
def _green_kept(
    role: str, options: tuple[tuple[str, object], ...], after: str, first: int, double: bool, tries: int
) -> tuple[Observation, tuple[Action, ...]]:
    obs, answers = _late(role, dict(options), after=after, first=first, double=double)
    _check_with(dict(options), obs, answers, SWITCH_SAMPLES, tries=tries)
    return obs, tuple(answers)


WOLF_KING = {"wolf-king": True}


@pytest.mark.parametrize("role", [ww.VILLAGER, ww.WEREWOLF, wolfking.WOLF_KING])
def test_wolf_king_late_samples_replay_exactly(role: str) -> None:
    """The wolf king votes with the pack and may shoot when it dies: samples still fit exactly."""
    obs, _ = _green(role, WOLF_KING)
    assert obs.round >= 4


def test_planted_a_sampler_leaving_the_wolf_king_out_of_the_pack_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wolf sees the pack's tally; a sampler whose wolf king never votes cannot make it."""
    obs, answers = _green(ww.WEREWOLF, WOLF_KING)  # green without the plant
    monkeypatch.setattr(exact_werewolf, "_PACK", (ww.WEREWOLF,))
    with pytest.raises(AssertionError, match="found no world"):
        _check_with(WOLF_KING, obs, answers, 1)


IDIOT = {"idiot": True}
IDIOT_DEALS = 14
"""The idiot's own seat's deal budget, planted or not: its 8th deal is the first that fits, and
the sampler solves it in 13 of its :data:`~hiddenrole.agents.exact_werewolf.DEAL_BUDGET` round
plays; the plant spends all of them on that deal and finds nothing (the next deal that fits is
the 15th, which a planted run would only search in vain again)."""


@pytest.mark.parametrize(
    ("role", "first", "tries"), [(ww.VILLAGER, 5, DEALS), (ww.WEREWOLF, 0, DEALS), (idiot.IDIOT, 0, IDIOT_DEALS)]
)
def test_idiot_late_samples_replay_exactly(role: str, first: int, tries: int) -> None:
    """After the vote turned the idiot's card over (the idiot lives on, never votes again; for the
    idiot's own seat, exiled a second time at round 7), samples still fit exactly."""
    _green(role, IDIOT, after=idiot.IDIOT_REVEALED, first=first, tries=tries)


def test_planted_a_sampler_taking_the_revealed_idiot_for_dead_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sampler that reads the turned card as the start of a new round (the exile as a death)
    cannot replay the day."""
    obs, answers = _green(idiot.IDIOT, IDIOT, after=idiot.IDIOT_REVEALED, tries=IDIOT_DEALS)  # green without the plant
    monkeypatch.setattr(exact_werewolf, "_DAY_TAIL", exact_werewolf._LAST_ACTIONS)
    with pytest.raises(AssertionError, match="found no world"):
        _check_with(IDIOT, obs, answers, 1, tries=IDIOT_DEALS)


BOTH = {"witch-can-use-both-potions": True}
BOTH_DEALS = 200
"""The witch's own seat's deal budget, planted or not (the 15th deal fits)."""


@pytest.mark.parametrize(("role", "tries"), [(ww.VILLAGER, DEALS), (ww.WEREWOLF, DEALS), (ww.WITCH, BOTH_DEALS)])
def test_both_potions_late_samples_replay_exactly(role: str, tries: int) -> None:
    """After a night the witch saved the victim and poisoned someone else, samples still fit exactly."""
    _green(role, BOTH, double=True, tries=tries)


def test_planted_a_sampler_with_one_potion_a_night_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The witch's own seat used both potions one night: a sampler that never follows her first
    potion with the second cannot replay her night."""
    obs, answers = _green(ww.WITCH, BOTH, double=True, tries=BOTH_DEALS)  # green without the plant
    assert sum(a.skill in (ww.ANTIDOTE, ww.POISON) for a in answers) >= 2
    monkeypatch.setattr(
        exact_werewolf._Search, "_second_potion", lambda self, runner, seat, o, night, used: (used, True)
    )
    with pytest.raises(AssertionError, match="found no world"):
        _check_with(BOTH, obs, answers, 1, tries=BOTH_DEALS)


BIDS = {"bid-for-floor": True}
BIDS_DEALS = 60
"""The witch's own seat's deal budget, planted or not (the 26th deal is the one the sampler solves)."""


@pytest.mark.parametrize(("role", "tries"), [(ww.VILLAGER, DEALS), (ww.WEREWOLF, DEALS), (ww.WITCH, BIDS_DEALS)])
def test_bid_for_floor_late_samples_replay_exactly(role: str, tries: int) -> None:
    """Every day's floor went to whom the seat saw take it, in the same order, closed the same way."""
    obs, _ = _green(role, BIDS, tries=tries)
    assert sum(e.type == ww.FLOOR for e in obs.events) >= 8


def test_planted_a_sampler_with_random_bids_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Secret bids drawn at random hand the floor to the wrong seats: no world fits."""
    obs, answers = _green(ww.WITCH, BIDS, tries=BIDS_DEALS)  # green without the plant
    monkeypatch.setattr(exact_werewolf._Night, "_floor", lambda self, seat, phase, skills: None)
    with pytest.raises(AssertionError, match="found no world"):
        _check_with(BIDS, obs, answers, 1, tries=BIDS_DEALS)
