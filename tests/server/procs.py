"""Server processes and resilient seat clients for the crash and multi-process tests.

A :class:`Server` is ``hiddenrole serve`` in a subprocess (killed or stopped by its own
pid only); a :class:`Player` plays one seat over WebSocket and survives crashes: it
keeps every move until it is answered, reconnects with the last version it saw and
sends unanswered moves again with the same ids.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from hiddenrole.server.bots import choices


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: Path | str, log: Path | None = None, tcp: bool = False) -> None:
        self.db = db
        self.log = log
        self.port = _free_port()
        self.tcp_port = _free_port() if tcp else None
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        cmd = [sys.executable, "-m", "hiddenrole.cli", "serve", "--db", str(self.db), "--port", str(self.port)]
        if self.tcp_port is not None:
            cmd += ["--tcp", str(self.tcp_port)]
        err = open(self.log, "ab") if self.log is not None else subprocess.DEVNULL  # noqa: SIM115
        try:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err)
        finally:
            if self.log is not None:
                err.close()  # type: ignore[union-attr]
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
