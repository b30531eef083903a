"""Server-side bots decide with the arena's agents (``hiddenrole.agents.make_agent``) on the seat's observation."""

from __future__ import annotations

import time
from typing import Any

from hiddenrole.agents import Action, Observation, RandomAgent, observe
from hiddenrole.agents.heuristics import WerewolfHeuristic
from hiddenrole.server.serve import Running

from .support import GAME_TIMEOUT, create, http, join

BOTS = [f"p{i}" for i in range(1, 9)]


def test_bots_play_with_the_named_agents_on_their_own_observation(server: Running) -> None:
    # p9 is an idle human: the table waits for it, so every bot can be watched from its first decision.
    made = create(server, "werewolf", 9, bots=BOTS, agent="heuristic", agents={"p1": "random"}, timeout=0.05)
    table = made["table"]
    bots = {seat: _bot(server, table, seat) for seat in BOTS}
    assert isinstance(bots["p1"].agent, RandomAgent)
    assert all(isinstance(bots[s].agent, WerewolfHeuristic) for s in BOTS[1:])
    seen: list[tuple[str, Observation, Observation, Action]] = []

    def spy(bot: Any) -> None:
        inner = bot.agent.act

        def act(obs: Observation) -> Action:
            game = bot.room.game._table
            truth = observe(game.view(bot.seat), game.rules.config, obs.error)
            action: Action = inner(obs)
            seen.append((bot.seat, obs, truth, action))
            return action

        bot.agent.act = act

    for bot in bots.values():
        spy(bot)
    join(server, table, "p9")
    room = server.hub.rooms[table]
    until = time.monotonic() + GAME_TIMEOUT
    while not room.game.over and time.monotonic() < until:
        time.sleep(0.05)
    assert room.game.over, "the bots did not finish the game"
    assert seen, "no bot asked its agent"
    for seat, obs, truth, _ in seen:
        assert obs.seat == seat and obs == truth, f"{seat} decided on something other than its own view"
    # Every act a bot seat made is an answer its agent gave.
    answers = {(seat, a.skill, tuple(a.targets)) for seat, _, _, a in seen if a.skill is not None}
    acts = [m for m in room.game.log().moves if m.kind == "act" and m.seat in bots]
    assert acts and all((m.seat, m.skill, tuple(m.targets)) in answers for m in acts)


def _bot(server: Running, table: str, seat: str) -> Any:
    for bot in list(server.lobby.bots.values()):
        if bot.room.id == table and bot.seat == seat:
            return bot
    raise AssertionError(f"no bot on {seat}")


def test_unknown_or_unsafe_bot_agents_are_refused(server: Running) -> None:
    with http(server) as c:
        for agent in ("nope", "llm"):
            r = c.post("/api/tables", json={"game": "werewolf", "bots": ["p1"], "agent": agent})
            assert r.status_code == 400 and r.json()["code"] == "UNKNOWN_AGENT", r.text
        r = c.post("/api/tables", json={"game": "werewolf", "agents": {"p99": "random"}})
        assert r.status_code == 400 and r.json()["code"] == "SEAT_NOT_FOUND"
