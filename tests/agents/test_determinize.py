"""Determinization: a sampled hidden state replays to exactly the seat's observation, and over
many samples every deal consistent with what the seat knows appears."""

from __future__ import annotations

import itertools
import random

import pytest

import hiddenrole as hr
from hiddenrole.agents import Action, Observation, RandomAgent, observe, observe_table
from hiddenrole.agents.determinize import NoConsistentState, sample_consistent_state
from hiddenrole.games import onenight as on
from hiddenrole.host import Table
from hiddenrole.host.catalog import get

from .support import play_to_decision


def _at_decision(game: str, seats: int, seed: int, k: int) -> tuple[Observation, list[Action]]:
    """Random play until the first seat's ``k``-th decision: its observation then, and its answers before."""
    table = Table.open(get(game), seats, seed=seed, table_id="real")
    viewer = table.seats[0]
    agents = {s: RandomAgent(random.Random(i)) for i, s in enumerate(table.seats)}
    obs, answers = play_to_decision(table, viewer, agents, lambda o, a: len(a) == k)
    assert obs is not None, "the game ended before the decision"
    return obs, answers


@pytest.mark.parametrize(("game", "seats", "k"), [("onenight", 5, 1), ("werewolf", 9, 1), ("missions", 7, 1)])
def test_a_sample_replays_to_exactly_the_seats_observation(game: str, seats: int, k: int) -> None:
    obs, answers = _at_decision(game, seats, seed=11, k=k)
    for i in range(2):
        log = sample_consistent_state(obs, answers, random.Random(i))
        again = Table.replay(get(game), log)
        assert observe(again.view(obs.seat), again.rules.config) == obs


def _deal(table: Table) -> tuple[str, ...]:
    view = table.inspect()
    held = tuple(view.player(s).role for s in table.seats)  # type: ignore[union-attr]
    return held + tuple(view.var(hr.GAME, on.center_key(slot)) for slot in on.CENTER_SLOTS)


def test_every_consistent_deal_appears() -> None:
    # a three-seat One Night table; the first seat holds the villager and knows nothing else yet
    tables = (Table.open(get("onenight"), 3, seed=s, table_id="real") for s in range(100))
    table = next(t for t in tables if _deal(t)[0] == on.VILLAGER)
    obs = observe_table(table, "p1")
    rest = sorted(_deal(table)[1:])  # the box's cards are public; only their places are hidden
    consistent = {(on.VILLAGER, *p) for p in itertools.permutations(rest)}
    assert len(consistent) == 60
    rng = random.Random(1)
    seen = set()
    for _ in range(500):
        log = sample_consistent_state(obs, [], rng)
        seen.add(_deal(Table.replay(get("onenight"), log)))
    assert seen <= consistent
    assert seen == consistent, f"{len(consistent - seen)} consistent deals never sampled"


def test_table_talk_is_refused() -> None:
    obs, answers = _at_decision("onenight", 5, seed=11, k=0)
    from dataclasses import replace

    from hiddenrole.agents import SeenChat

    with pytest.raises(NoConsistentState):
        sample_consistent_state(replace(obs, chat=(SeenChat(0, "p2", "hi", "ON_DAY", 1),)), answers, random.Random(0))
