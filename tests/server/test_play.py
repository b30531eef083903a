"""Whole games over real sockets: werewolf, Avalon (missions) and One Night, by WebSocket and TCP clients.

Every seat is a remote client deciding from its own pushed view; the games end, the
outcome each seat sees is the one stored, and the stored log verifies.
"""

from __future__ import annotations

import asyncio

import pytest

from hiddenrole.host import verify
from hiddenrole.server.serve import Running

from .support import http, play_game

GAMES = [("werewolf", 9), ("missions", 5), ("onenight", 5)]


@pytest.mark.parametrize("transport", ["ws", "tcp"])
@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_a_full_game_is_played_to_the_end(server: Running, game: str, seats: int, transport: str) -> None:
    made, players = asyncio.run(play_game(server, game, transport, seats=seats))
    outcomes = {str(p.view["outcome"]) for p in players}
    assert len(outcomes) == 1 and all(p.view["over"] for p in players)
    assert sum(p.acks for p in players) > 0
    with http(server) as c:
        got = c.get(f"/api/tables/{made['table']}/log")
        assert got.status_code == 200
        body = got.json()
    table = verify(__import__("json").dumps(body["log"]))
    assert table.over and table.outcome is not None
    assert table.outcome.to_dict() == players[0].view["outcome"] == body["outcome"]
    # every event a seat collected from its pushes is exactly its final view's list, in order
    for p in players:
        assert p.events == p.view["events"]
        assert p.chat == p.view["chat"]
