"""Two ``hiddenrole serve`` processes on one PostgreSQL database serve the same tables.

Seats of each table are spread over both processes. Both arm the table's deadlines, so
both try to end the same phases: the compare-and-set on the move number lets one win,
the other rebuilds from the log. Moves reach the other process's clients by
LISTEN/NOTIFY (table id and sequence number only). Every client converges on the same
end, and the log holds every acknowledged move once, in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from hiddenrole.host import LOG_FORMAT, Table, TableLog, verify
from hiddenrole.host.catalog import get
from hiddenrole.server.storage import open_store
from hiddenrole.server.storage.embedded import EmbeddedPostgres

from .procs import Player, Server

GAME_TIMEOUT = 90.0


@pytest.fixture(scope="module")
def postgres() -> Iterator[EmbeddedPostgres]:
    with EmbeddedPostgres() as pg:
        yield pg


@pytest.mark.parametrize(("game", "seats"), [("werewolf", 9), ("missions", 5)])
def test_two_processes_one_truth(postgres: EmbeddedPostgres, tmp_path: Path, game: str, seats: int) -> None:
    url = postgres.create_database(f"two_{game}")
    servers = [Server(url, tmp_path / "a.log"), Server(url, tmp_path / "b.log")]
    for s in servers:
        s.start()
    players: list[Player] = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{servers[0].port}", timeout=10) as c:
            made = c.post("/api/tables", json={"game": game, "seats": seats, "timeout": 0.1}).json()
            table = made["table"]
            config = Table.open(get(game), seats, None, seed=0).rules.config
            for i, s in enumerate(made["seats"]):
                token = c.post(f"/api/tables/{table}/join", json={"seat": s}).json()["token"]
                home = servers[i % 2]
                players.append(Player(f"ws://127.0.0.1:{home.port}/ws", table, s, token, config, i))

        async def play() -> None:
            loop = asyncio.get_running_loop()
            until = loop.time() + GAME_TIMEOUT
            await asyncio.wait_for(asyncio.gather(*(p.run(until) for p in players)), GAME_TIMEOUT + 10)

        asyncio.run(play())
        metrics = [httpx.get(f"http://127.0.0.1:{s.port}/metrics").json() for s in servers]
    finally:
        for s in servers:
            s.stop()
    assert all(p.view.get("over") for p in players), "a client did not see the end"
    assert len({str(p.view["outcome"]) for p in players}) == 1, "clients on the two processes disagree"
    store = open_store(url)
    try:
        stored = store.load_table(table)
    finally:
        store.close()
    assert [m.seq for m in stored.moves] == list(range(1, len(stored.moves) + 1))
    ids = [(m.seat, m.client_move_id) for m in stored.moves if m.client_move_id is not None]
    assert len(ids) == len(set(ids)), "a move was applied twice"
    for p in players:
        for mid in p.acked:
            assert (p.seat, mid) in ids, f"acknowledged move {mid} of {p.seat} is not in the log"
    log = TableLog.from_dict({"format": LOG_FORMAT, "header": stored.header, "moves": [m.move for m in stored.moves]})
    replayed = Table.replay(get(game), log)
    verify(replayed.log())
    assert replayed.outcome is not None and replayed.outcome.to_dict() == players[0].view["outcome"]
    print(f"\ntwo processes, {game}: {len(stored.moves)} moves, conflicts {[m['conflicts'] for m in metrics]}")
