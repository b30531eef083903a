"""Bid-for-the-floor discussion: the highest bidder speaks, the last speaker does not bid, all-zero
bids or the turn limit end the talk, and bids are never shown to a seat."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from hiddenrole.agents import Action, Observation, RandomAgent, SeatRunner
from hiddenrole.agents.llm import LLMAgent, Message
from hiddenrole.agents.runner import BID, MAX_TALK_TURNS
from hiddenrole.games import onenight as on
from hiddenrole.host import Table
from hiddenrole.host.catalog import get


class Bidder:
    """Bids from a script keyed by how many lines it has heard; says who it is when it speaks."""

    talks = True

    def __init__(self, seat: str, bids: dict[int, int]) -> None:
        self.seat = seat
        self.bids = bids
        self.seen: list[str] = []

    def bid(self, obs: Observation) -> int:
        self.seen.append(json.dumps(obs.to_dict()))
        return self.bids.get(len(obs.chat), 0)

    def act(self, obs: Observation) -> Action:
        self.seen.append(json.dumps(obs.to_dict()))
        if obs.legal:
            return RandomAgent(random.Random(len(self.seen))).act(obs)
        return Action(say=f"{self.seat} speaks after {len(obs.chat)} lines")


def _day_chat(table: Table) -> list[str]:
    """The lines said by day (seats may talk again once their votes are in)."""
    return [c.text for c in table.view(table.seats[0]).chat if c.phase == on.DAY]


def test_the_highest_bidder_speaks_and_zero_bids_end_the_talk() -> None:
    table = Table.open(get("onenight"), 5, seed=2, table_id="t")
    bids = {"p1": {0: 1, 1: 3}, "p2": {0: 2}, "p3": {1: 1, 2: 4}, "p4": {}, "p5": {0: 2}}
    agents = {s: Bidder(s, bids[s]) for s in table.seats}
    record = SeatRunner(table, agents, discussion=BID).run()
    chat = _day_chat(table)
    # turn 1: p2 and p5 bid 2 -> p2 (first after nobody); turn 2: p1 bids 3; turn 3: p3 bids 4; turn 4: all 0
    assert chat == ["p2 speaks after 0 lines", "p1 speaks after 1 lines", "p3 speaks after 2 lines"]
    day_bids = [b for b in record.bids if b[0] == on.DAY]
    assert day_bids[0][2] == {"p1": 1, "p2": 2, "p3": 0, "p4": 0, "p5": 2}
    assert "p2" not in day_bids[1][2]  # the last speaker does not bid
    for agent in agents.values():
        assert not any('"bid"' in s for s in agent.seen)  # nobody is shown a bid


def test_the_turn_limit_ends_a_talk_that_never_stops() -> None:
    table = Table.open(get("onenight"), 5, seed=2, table_id="t")
    agents = {s: Bidder(s, {n: 1 for n in range(100)}) for s in table.seats}
    SeatRunner(table, agents, discussion=BID, talk_turns=3).run()
    assert len(_day_chat(table)) == 3
    assert MAX_TALK_TURNS == 8


def test_an_llm_bids_from_its_reply_and_an_invalid_bid_is_zero() -> None:
    table = Table.open(get("onenight"), 5, seed=2, table_id="t")
    from hiddenrole.agents import observe_table

    obs = observe_table(table, "p1")
    replies = iter(['{"bid": 3}', "no idea", '{"bid": 9}'])

    def model(messages: Sequence[Message]) -> str:
        assert "bids for the floor" in messages[-1]["content"]
        return next(replies)

    agent = LLMAgent(model)
    assert [agent.bid(obs), agent.bid(obs), agent.bid(obs)] == [3, 0, 0]
