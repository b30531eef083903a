"""Agents never receive more than their seat: what a runner hands an agent is the seat's view,
and twin deals the seat cannot tell apart give it identical observations."""

from __future__ import annotations

import random

import pytest

from hiddenrole.agents import Action, Observation, RandomAgent, SeatRunner, observe
from hiddenrole.host import Table
from hiddenrole.host.catalog import get

from .support import SEATS, first_private_divergence, real_observe


class Recorder:
    """Plays randomly and keeps every observation it was handed, with the seat's view at that moment."""

    talks = True

    def __init__(self, table: Table, seat: str, seed: int) -> None:
        self.table = table
        self.seat = seat
        self.inner = RandomAgent(random.Random(seed))
        self.got: list[tuple[Observation, Observation]] = []

    def act(self, obs: Observation) -> Action:
        truth = observe(self.table.view(self.seat), self.table.rules.config, obs.error)
        self.got.append((obs, truth))
        return self.inner.act(obs)


@pytest.mark.parametrize("game", sorted(SEATS))
def test_every_agent_receives_exactly_its_seats_view(game: str) -> None:
    for seed in range(4):
        table = Table.open(get(game), SEATS[game], seed=seed, table_id="t")
        agents = {s: Recorder(table, s, seed * 31 + i) for i, s in enumerate(table.seats)}
        SeatRunner(table, agents).run()
        assert table.over
        for seat, agent in agents.items():
            assert agent.got, f"{seat} was never asked"
            for got, truth in agent.got:
                assert got == truth
                assert got.seat == seat
                view = table.view(seat)
                # never a role the seat's own view does not show
                shown = {p.seat: p.role for p in view.players}
                assert all(p.role in ("", shown[p.seat]) for p in got.players)


def test_an_observation_holds_no_host_number() -> None:
    table = Table.open(get("werewolf"), 9, seed=3, table_id="werewolf-3")
    SeatRunner(table, {s: RandomAgent(random.Random(1)) for s in table.seats}).run()
    obs = observe(table.view("p1"), table.rules.config).to_dict()
    text = str(obs)
    assert "werewolf-3" not in text
    assert not {"seq", "version", "at", "table"} & (set(obs) | {k for e in obs["events"] for k in e})


@pytest.mark.parametrize(
    ("game", "feed"),
    [(g, True) for g in sorted(SEATS)] + [("werewolf", False)],
    ids=[f"{g}-pushed-events" for g in sorted(SEATS)] + ["werewolf-full-view"],
)
def test_twin_deals_give_a_plain_seat_identical_observations(game: str, feed: bool) -> None:
    """The runner's observations (built from pushed events) and the full-view ones both hold."""
    compared = 0
    for seed in range(3):
        _, n, leak = first_private_divergence(game, seed, None if feed else real_observe, max_pairs=8)
        assert leak is None, leak
        compared += n
    assert compared >= 10, "the twins diverged publicly at once: the test compared almost nothing"


def _seq_leak(table: Table, seat: str, error: str) -> Observation:
    """Planted: the observation carries the table's global move count (issue 8's counter leak)."""
    obs = real_observe(table, seat, error)
    return Observation(**{**obs.__dict__, "data": {**obs.data, "seq": table.seq}})


def _role_leak(table: Table, seat: str, error: str) -> Observation:
    """Planted: the observation names one other seat's role."""
    obs = real_observe(table, seat, error)
    other = next(p for p in table.inspect().all_players() if p.id != seat)
    return Observation(**{**obs.__dict__, "data": {**obs.data, "peek": other.role}})


@pytest.mark.parametrize("leak", [_seq_leak, _role_leak])
def test_the_twin_check_catches_a_planted_leak(leak) -> None:  # type: ignore[no-untyped-def]
    found = [first_private_divergence("werewolf", seed, leak, max_pairs=12)[2] for seed in range(3)]
    assert any(found), "a planted leak went unnoticed"
