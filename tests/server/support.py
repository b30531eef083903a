"""Helpers for the server tests: a server on a loopback thread, WebSocket and TCP clients, a seat player.

Every wait is bounded (``TIMEOUT``), so a broken server fails a test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from hiddenrole.server.bots import choices
from hiddenrole.server.serve import Running
from hiddenrole.server.storage import Store, open_store

TIMEOUT = 10.0
"""Seconds any single wait may take."""
GAME_TIMEOUT = 60.0
"""Seconds a whole game may take."""
FAST = {"timeout": 0.05, "bot_delay": [0.0, 0.005]}
"""Table settings for quick games: 50 ms phases, bots that act at once."""


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = open_store(tmp_path / "server.sqlite")
    yield s
    s.close()


@pytest.fixture
def server(store: Store) -> Iterator[Running]:
    with Running(store) as srv:
        yield srv


def http(srv: Running) -> httpx.Client:
    return httpx.Client(base_url=srv.url, timeout=TIMEOUT)


def create(srv: Running, game: str, seats: int | None = None, **kw: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, **FAST, **kw}
    if seats is not None:
        body["seats"] = seats
    with http(srv) as c:
        r = c.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        return r.json()  # type: ignore[no-any-return]


def join(srv: Running, table: str, seat: str | None = None) -> dict[str, Any]:
    with http(srv) as c:
        r = c.post(f"/api/tables/{table}/join", json={} if seat is None else {"seat": seat})
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]


class Client:
    """One connection, WebSocket or TCP, speaking JSON messages; every wait bounded."""

    def __init__(self) -> None:
        self.received: list[bytes] = []
        self._ws: ClientConnection | None = None
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    @classmethod
    async def ws(cls, srv: Running, **headers: str) -> Client:
        c = cls()
        c._ws = await connect(srv.ws, additional_headers=headers or None, open_timeout=TIMEOUT, max_size=2**24)
        return c

    @classmethod
    async def tcp(cls, srv: Running) -> Client:
        c = cls()
        assert srv.tcp_port is not None
        c._reader, c._writer = await asyncio.open_connection("127.0.0.1", srv.tcp_port, limit=2**24)
        return c

    async def send_raw(self, data: bytes | str) -> None:
        if self._ws is not None:
            await self._ws.send(data)
        else:
            assert self._writer is not None
            self._writer.write((data.encode() if isinstance(data, str) else data) + b"\n")
            await self._writer.drain()

    async def send(self, **msg: Any) -> None:
        await self.send_raw(json.dumps(msg))

    async def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        if self._ws is not None:
            raw = await asyncio.wait_for(self._ws.recv(), timeout)
            data = raw.encode() if isinstance(raw, str) else raw
        else:
            assert self._reader is not None
            data = (await asyncio.wait_for(self._reader.readline(), timeout)).rstrip(b"\n")
            if not data:
                raise ConnectionError("closed")
        self.received.append(data)
        return json.loads(data)  # type: ignore[no-any-return]

    async def until(self, kind: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            m = await self.recv(max(0.01, end - loop.time()))
            if m["type"] == kind:
                return m

    async def hello(self, table: str, token: str = "", **kw: Any) -> dict[str, Any]:
        await self.send(type="hello", table=table, token=token, **kw)
        return await self.recv()

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._writer is not None:
            self._writer.close()


class Seat:
    """Plays one seat with random legal moves decided from its own pushed view."""

    def __init__(self, client: Client, config: Any, seed: int) -> None:
        self.client = client
        self.config = config
        self.rng = random.Random(seed)
        self.n = 0
        self.events: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.version = 0
        self.acks = 0

    def absorb(self, m: dict[str, Any]) -> None:
        if m["type"] == "welcome":
            self.events = list(m["view"]["events"])
            self.chat = list(m["view"]["chat"])
            for e in m.get("resync", {}).get("events", []):
                assert e in self.events
        if m["type"] == "update":
            self.events += m["events"]
            self.chat += m["chat"]
        if "view" in m:
            self.view = m["view"]
            self.version = m["version"]
        if m["type"] == "ack":
            self.acks += 1

    async def play(self, deadline: float, stop_after: int | None = None, stop_at_version: int | None = None) -> None:
        """Play until the game is over, or ``stop_after`` acks, or our version reaches ``stop_at_version``
        (a seat that dies early never gets its acks: only a version bound is sure to stop mid-game)."""
        loop = asyncio.get_running_loop()
        acted: set[tuple[str, int, int]] = set()
        while not self.view.get("over"):
            if stop_after is not None and self.acks >= stop_after:
                return
            if stop_at_version is not None and self.version >= stop_at_version:
                return
            m = await self.client.recv(max(0.01, deadline - loop.time()))
            self.absorb(m)
            v = self.view
            if m.get("view") is None or v.get("over"):
                continue
            key = (v["phase"], v["round"], self.version)
            if key in acted:
                continue
            options = choices(self.config, v, self.rng)
            if options:
                acted.add(key)
                self.n += 1
                await self.client.send(type="move", id=f"c{self.n}", against=self.version, **options[0])


def config_of(srv: Running, table: str) -> Any:
    """The table's public phase configuration (what a client reads to shape its targets)."""
    return srv.hub.rooms[table].game.rules.config


async def play_game(srv: Running, game: str, transport: str = "ws", **kw: Any) -> tuple[dict[str, Any], list[Seat]]:
    """Create a table with every seat a remote client, play it to the end; the final views and the seats."""
    made = create(srv, game, **kw)
    table = made["table"]
    tokens = [join(srv, table) for _ in made["seats"]]
    config = config_of(srv, table)
    seats: list[Seat] = []
    for i, t in enumerate(tokens):
        client = await (Client.ws(srv) if transport == "ws" else Client.tcp(srv))
        seat = Seat(client, config, i)
        seat.absorb(await client.hello(table, t["token"], views=True))
        seats.append(seat)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GAME_TIMEOUT
    await asyncio.wait_for(asyncio.gather(*(s.play(deadline) for s in seats)), GAME_TIMEOUT)
    for s in seats:
        await s.client.close()
    return {"table": table, **made}, seats


class ManualClock:
    """A clock the test moves by hand: deadlines and bot delays wait for :meth:`advance`."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.t = start
        self._lock = threading.Lock()
        self._waiters: list[tuple[float, asyncio.AbstractEventLoop, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self.t

    async def sleep_until(self, when: float) -> None:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        with self._lock:
            if when <= self.t:
                fut.set_result(None)
            else:
                self._waiters.append((when, loop, fut))
        await fut

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.t += seconds
            due = [w for w in self._waiters if w[0] <= self.t]
            self._waiters = [w for w in self._waiters if w[0] > self.t]
        for _, loop, fut in due:
            loop.call_soon_threadsafe(_wake, fut)


def _wake(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)
