"""Crash test: the server process is killed with SIGKILL at random moments and restarted.

Remote clients play every seat of several tables. Each client keeps every move it
sent until it is answered, and after a crash reconnects (resyncing from the last
version it saw) and sends it again with the same client move id. At the end every
move a client saw acknowledged is in the stored log exactly once, every log replays
and verifies, and every game finished.
"""

from __future__ import annotations

import asyncio
import os
import random
from pathlib import Path

import httpx

from hiddenrole.host import LOG_FORMAT, Table, TableLog, verify
from hiddenrole.host.catalog import get
from hiddenrole.server.storage import open_store

from .procs import Player, Server

KILLS = 4
GAMES = [("werewolf", 9), ("missions", 5), ("onenight", 5)]
GAME_TIMEOUT = 90.0


def test_sigkill_at_random_moments_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite"
    server = Server(db, db.with_suffix(".log"))
    server.start()
    rng = random.Random(int(os.environ.get("CRASH_SEED", "7")))
    players: list[Player] = []
    tables: list[str] = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=10) as c:
            for i, (game, seats) in enumerate(GAMES):
                body = {"game": game, "seats": seats, "timeout": 0.15, "options": {}}
                made = c.post("/api/tables", json=body).json()
                tables.append(made["table"])
                config = Table.open(get(game), seats, None, seed=0).rules.config
                for s in made["seats"]:
                    token = c.post(f"/api/tables/{made['table']}/join", json={"seat": s}).json()["token"]
                    players.append(Player(f"ws://127.0.0.1:{server.port}/ws", made["table"], s, token, config, i))

        async def play() -> int:
            loop = asyncio.get_running_loop()
            until = loop.time() + GAME_TIMEOUT
            tasks = [loop.create_task(p.run(until)) for p in players]
            kills = 0
            for _ in range(KILLS):
                await asyncio.sleep(rng.uniform(0.15, 0.5))
                if all(p.view.get("over") for p in players):
                    break
                await asyncio.to_thread(server.kill)
                kills += 1
                await asyncio.sleep(rng.uniform(0.0, 0.2))
                await asyncio.to_thread(server.start)
            await asyncio.wait_for(asyncio.gather(*tasks), GAME_TIMEOUT + 10)
            return kills

        kills = asyncio.run(play())
    finally:
        server.stop()
    store = open_store(db)
    try:
        acked_total = 0
        for table in tables:
            stored = store.load_table(table)
            ids = [(m.seat, m.client_move_id) for m in stored.moves if m.client_move_id is not None]
            assert len(ids) == len(set(ids)), "a client move id was applied twice"
            for p in (p for p in players if p.table == table):
                for mid in p.acked:
                    assert (p.seat, mid) in ids, f"acknowledged move {mid} of {p.seat} is not in the log"
                acked_total += len(p.acked)
            log = TableLog.from_dict(
                {"format": LOG_FORMAT, "header": stored.header, "moves": [m.move for m in stored.moves]}
            )
            replayed = Table.replay(get(stored.info.game), log)
            assert replayed.over, f"table {table} did not finish"
            verify(replayed.log())
            assert stored.info.status == "finished"
        assert all(p.view.get("over") for p in players)
    finally:
        store.close()
    reconnects = sum(p.reconnects for p in players)
    print(f"\ncrash test: {kills} SIGKILLs survived, {acked_total} moves acknowledged, 0 lost, {reconnects} reconnects")
    assert kills >= 3
