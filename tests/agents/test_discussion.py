"""Bid for the floor is werewolf's own switch (R27): agents bid through their legal actions.

The runner has no discussion mode of its own: under ``bid-for-floor`` a bid is a move
(``BID``, one of ``BID_LEVELS``) that the table records in its log, the highest bidder is
given the floor by the rules, and no seat is ever shown another seat's bid.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from hiddenrole.agents import Action, Observation, RandomAgent, SeatRunner, make_agent, seat_rng
from hiddenrole.agents.llm import LLMAgent, Message
from hiddenrole.games import werewolf as ww
from hiddenrole.host import Table
from hiddenrole.host.catalog import get

BIDDING = {"bid-for-floor": True}
LLM_DECISIONS = 60
"""Decisions the LLM test plays (the first days' bidding rounds), not a whole game."""


class Bidder:
    """Bids from a script keyed by the turns of speech it has seen today; speaks when it holds the floor."""

    talks = True

    def __init__(self, seat: str, bids: dict[int, int]) -> None:
        self.seat = seat
        self.bids = bids
        self.seen: list[Observation] = []
        self.rng = random.Random(seat)

    def act(self, obs: Observation) -> Action:
        self.seen.append(obs)
        if obs.legal_for(ww.BID) is not None:
            turns = sum(1 for e in obs.events if e.type == ww.FLOOR)  # the script only matters on day 1
            return Action(ww.BID, (str(self.bids.get(turns, 0)),))
        if obs.legal_for(ww.DONE) is not None:
            return Action(ww.DONE, (), say=f"{self.seat} has the floor")
        return RandomAgent(self.rng).act(obs)


def _first_day_floors(table: Table) -> list[str]:
    spectator = table.view(None)
    floors: list[str] = []
    for e in spectator.events:
        if e.type == ww.FLOOR:
            floors.append(e.target)
        if e.type == ww.FLOOR_CLOSED:
            break
    return floors


def test_the_highest_bidder_takes_the_floor_and_bids_are_moves_no_seat_sees() -> None:
    table = Table.open(get("werewolf"), 9, BIDDING, seed=2, table_id="t")
    script = {"p2": {0: 3}, "p5": {0: 3, 1: 4}, "p7": {2: 1}}
    agents = {s: Bidder(s, script.get(s, {})) for s in table.seats}
    SeatRunner(table, agents).run()
    # turn 1: p2 and p5 bid 3 -> p2 (first in seat order); turn 2: p5 bids 4; turn 3: p7 bids 1; then all 0
    assert _first_day_floors(table) == ["p2", "p5", "p7"]
    bids = [m for m in table.moves() if m.skill == ww.BID]
    assert bids, "the bids are moves in the table's log"
    for seat, agent in agents.items():
        for obs in agent.seen:
            shown = json.dumps(obs.to_dict())
            assert not any(e.type == ww.BID and e.source != seat for e in obs.events), shown


def test_every_agent_kind_plays_a_bidding_table_to_its_end() -> None:
    for name in ("random", "heuristic"):
        table = Table.open(get("werewolf"), 9, BIDDING, seed=5, table_id="t")
        agents = {s: make_agent(name, "werewolf", s, seat_rng(5, s)) for s in table.seats}
        record = SeatRunner(table, agents).run()
        assert table.over and not record.truncated, name
        assert any(m.skill == ww.BID for m in table.moves())


def test_an_llm_bids_through_the_action_schema_and_an_invalid_bid_falls_back() -> None:
    table = Table.open(get("werewolf"), 9, BIDDING, seed=2, table_id="t")
    asked: list[str] = []

    def model(messages: Sequence[Message]) -> str:
        prompt = messages[-1]["content"]
        asked.append(prompt)
        if "Bid for the floor" in prompt:
            return (
                json.dumps({"skill": ww.BID, "targets": ["9"]})
                if len(asked) % 2
                else '{"skill": "BID", "targets": ["2"]}'
            )
        return json.dumps({"skill": None})

    agents = {s: LLMAgent(model, retries=1) for s in table.seats}
    runner = SeatRunner(table, agents)
    # Every other move is a pass, so nobody dies and the game would run to the runner's
    # MAX_DECISIONS: the first days' bidding shows everything this test is about.
    while len(runner.record.decisions) < LLM_DECISIONS and runner.step():
        pass
    runner.close()
    bids = [d for d in runner.record.decisions if d.action.skill == ww.BID]
    assert bids and all(d.action.targets[0] in ww.BID_LEVELS for d in bids)
    assert any("fallback" not in d.action.reasoning and d.action.targets == ("2",) for d in bids)
