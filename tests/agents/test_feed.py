"""Incremental observations: the runner's SeatFeed, built from the notices pushed to each seat, gives
exactly the observation rebuilt from the seat's whole view, at every decision, chat included."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hiddenrole.agents import Action, Observation, RandomAgent, SeatRunner
from hiddenrole.agents import feed as feed_module
from hiddenrole.agents.feed import SeatFeed
from hiddenrole.agents.observation import seen_events
from hiddenrole.agents.runner import full_observation
from hiddenrole.host import Notice, Table
from hiddenrole.host.catalog import get

from .support import SEATS


class Talker:
    """Plays at random and says something whenever it may speak, so chat reaches the feed too."""

    talks = True

    def __init__(self, table: Table, seat: str, seed: int) -> None:
        self.table, self.seat = table, seat
        self.inner = RandomAgent(random.Random(seed))
        self.got: list[tuple[Observation, Observation]] = []

    def act(self, obs: Observation) -> Action:
        self.got.append((obs, full_observation(self.table, self.seat, obs.error)))
        chosen = self.inner.act(obs)
        say = f"{self.seat} heard {len(obs.chat)}" if obs.can_say else ""
        return Action(chosen.skill, chosen.targets, say)


def _play(game: str, seed: int, feed: type[SeatFeed] | None = None) -> list[tuple[Observation, Observation]]:
    table = Table.open(get(game), SEATS[game], seed=seed, table_id="t")
    agents = {s: Talker(table, s, i) for i, s in enumerate(table.seats)}
    SeatRunner(table, agents, observe_fn=feed(table) if feed is not None else None).run()
    return [pair for a in agents.values() for pair in a.got]


@pytest.mark.parametrize("game", sorted(SEATS))
def test_the_feed_gives_exactly_the_full_views_observation(game: str) -> None:
    pairs = [p for seed in range(2) for p in _play(game, seed)]
    assert any(got.chat for got, _ in pairs), "no chat reached the feed: the test misses a channel"
    for got, truth in pairs:
        assert got == truth


def test_a_misnumbering_feed_goes_red(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: each notice's events numbered from 0, as if every push started a new history."""

    def push(self: Any, notice: Notice) -> None:
        self.events.extend(seen_events(notice.events))
        self.events_at = notice.events[-1].at if notice.events else self.events_at
        self.frozen = None

    monkeypatch.setattr(feed_module._History, "push", push)
    pairs = _play("werewolf", 0)
    assert any(got != truth for got, truth in pairs)
