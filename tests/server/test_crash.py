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
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from hiddenrole.host import LOG_FORMAT, Table, TableLog, verify
from hiddenrole.host.catalog import get
from hiddenrole.server.bots import choices
from hiddenrole.server.storage import open_store

KILLS = 4
GAMES = [("werewolf", 9), ("missions", 5), ("onenight", 5)]
GAME_TIMEOUT = 90.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [sys.executable, "-m", "hiddenrole.cli", "serve", "--db", str(self.db), "--port", str(self.port)]
        with open(self.db.with_suffix(".log"), "ab") as err:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        assert "serving on http://" in line, line

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


class Player:
    """One seat's client that survives server crashes."""

    def __init__(self, url: str, table: str, seat: str, token: str, config: Any, seed: int) -> None:
        self.url, self.table, self.seat, self.token, self.config = url, table, seat, token, config
        self.rng = random.Random(seed)
        self.version: int | None = None
        self.view: dict[str, Any] = {}
        self.acked: dict[str, int] = {}
        self.pending: dict[str, dict[str, Any]] = {}
        self.n = 0
        self.reconnects = 0

    async def run(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        while not self.view.get("over") and loop.time() < until:
            try:
                async with connect(self.url, open_timeout=2) as ws:
                    await self._session(ws, until)
            except (TimeoutError, OSError, ConnectionClosed, InvalidHandshake):
                self.reconnects += 1
                await asyncio.sleep(0.05)

    async def _session(self, ws: Any, until: float) -> None:
        import json

        hello: dict[str, Any] = {"type": "hello", "table": self.table, "token": self.token, "views": True}
        if self.version is not None:
            hello["since"] = self.version
        await ws.send(json.dumps(hello))
        for move in list(self.pending.values()):  # answered once, whatever happened before the crash
            await ws.send(json.dumps(move))
        loop = asyncio.get_running_loop()
        acted: set[tuple[str, int, int]] = set()
        while loop.time() < until:
            m = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if m["type"] == "error":
                raise AssertionError(f"{self.seat}: {m}")
            if m["type"] in ("ack", "refused"):
                self.pending.pop(m["id"], None)
                if m["type"] == "ack":
                    self.acked[m["id"]] = m["version"]
                continue
            if "view" not in m:
                continue
            self.view, self.version = m["view"], m["version"]
            v = self.view
            if v["over"]:
                return
            key = (v["phase"], v["round"], self.version)
            if key in acted or self.pending:
                continue
            options = choices(self.config, v, self.rng)
            if options:
                acted.add(key)
                self.n += 1
                mid = f"{self.seat}-{self.n}"
                move = {"type": "move", "id": mid, "against": self.version, **options[0]}
                self.pending[mid] = move
                await ws.send(json.dumps(move))


def test_sigkill_at_random_moments_loses_no_acknowledged_move(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite"
    server = Server(db)
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
